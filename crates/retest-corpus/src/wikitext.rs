//! The WikiText token-file reader: one sentence per line, tokens split on ASCII whitespace and
//! kept exactly as in the file (the fast path: no normalisation, no allocation per token).

use std::io::BufRead;

use crate::builder::CorpusBuilder;
use crate::error::CorpusError;
use crate::summary::ReadSummary;

/// What to do with WikiText's `<unk>` token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnkHandling {
    /// Keep `<unk>` as a word (what word2vec/gensim saw in the original study).
    Keep,
    /// Rename `<unk>` to `<raw_unk>`, as the original study did for GloVe
    /// (`sed 's/<unk>/<raw_unk>/g'`), because GloVe's `vocab_count` refuses `<unk>`.
    RawUnk,
}

impl UnkHandling {
    /// Stable name, as used in tables and specs.
    pub fn as_str(self) -> &'static str {
        match self {
            UnkHandling::Keep => "keep",
            UnkHandling::RawUnk => "raw_unk",
        }
    }
}

/// Options of the WikiText readers (token files and Hugging Face Parquet exports).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WikiTextOptions {
    /// What to do with `<unk>`.
    pub unk: UnkHandling,
}

/// ASCII whitespace as C's `isspace` sees it (space, `\t`, `\n`, `\v`, `\f`, `\r`): the
/// separators of word2vec, GloVe and Python's `bytes.split()`.
#[inline(always)]
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

impl CorpusBuilder {
    /// Adds a WikiText record (a line, or a Parquet row's text) as a sentence with
    /// [`Self::push_whitespace_line`] and counts it in `summary`; a blank one is no record.
    #[inline]
    pub(crate) fn push_whitespace_record(&mut self, text: &str, unk: UnkHandling, summary: &mut ReadSummary) {
        if text.bytes().all(is_space) {
            return;
        }
        summary.records_read += 1;
        summary.records_kept += 1;
        self.push_whitespace_line(text, unk);
    }

    /// Adds the tokens of one WikiText line as a sentence (none if the line is blank). Tokens
    /// are the runs of non-ASCII-whitespace bytes, kept exactly. Returns whether the token limit
    /// was reached.
    #[inline]
    pub(crate) fn push_whitespace_line(&mut self, line: &str, unk: UnkHandling) -> bool {
        let bytes = line.as_bytes();
        let n = bytes.len();
        let mut i = 0;
        loop {
            while i < n && is_space(bytes[i]) {
                i += 1;
            }
            if i == n {
                break;
            }
            let start = i;
            while i < n && !is_space(bytes[i]) {
                i += 1;
            }
            if self.is_full() {
                break;
            }
            // Whitespace bytes are ASCII, so `start` and `i` are character boundaries.
            let token = &line[start..i];
            if unk == UnkHandling::RawUnk && token == "<unk>" {
                self.push_token("<raw_unk>");
            } else {
                self.push_token(token);
            }
        }
        self.close_sentence();
        self.is_full()
    }

    /// Reads a WikiText token file (`wiki.*.tokens`): every line is a sentence (a paragraph or a
    /// heading such as ` = Title = `), tokens are separated by ASCII whitespace and kept exactly,
    /// case and `@-@`-style tokens included; blank lines give no sentence.
    ///
    /// Errors: an I/O or decompression error, or a line that is not UTF-8 (with its number).
    pub fn read_wikitext(
        &mut self,
        mut r: impl BufRead,
        opts: &WikiTextOptions,
    ) -> Result<ReadSummary, CorpusError> {
        let start = self.mark();
        let mut summary = ReadSummary::default();
        let mut buf: Vec<u8> = Vec::with_capacity(1 << 16);
        while !self.is_full() {
            let Some(line) = summary.read_line(&mut r, &mut buf)? else {
                break;
            };
            self.push_whitespace_record(line, opts.unk, &mut summary);
        }
        summary.stopped_at_token_limit = self.is_full();
        self.fill_summary(&mut summary, start);
        Ok(summary)
    }
}
