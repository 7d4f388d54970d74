//! The plain-text reader (e.g. Project Gutenberg books): paragraphs separated by blank lines are
//! sentences; text is normalised (and lowercased, unless case is kept) and tokenised with the
//! crate's `tokenizers` pipeline.

use std::io::BufRead;

use crate::builder::CorpusBuilder;
use crate::error::CorpusError;
use crate::summary::ReadSummary;
use crate::tokenize::{Batch, CaseHandling};

/// Options of the plain-text reader.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PlainTextOptions {
    /// Whether tokens are lowercased or keep the case of the text.
    pub case: CaseHandling,
}

/// Reads lines and cuts them into paragraph pieces.
struct ParagraphReader<R> {
    r: R,
    counters: ReadSummary,
    line: Vec<u8>,
    /// The open paragraph (lines read since the last blank line).
    paragraph: String,
    eof: bool,
    max_piece_bytes: usize,
}

impl<R: BufRead> ParagraphReader<R> {
    fn next_batch(&mut self, max_bytes: usize) -> Result<Option<Batch>, CorpusError> {
        if self.eof {
            return Ok(None);
        }
        let mut batch = Batch::default();
        while batch.text.len() < max_bytes {
            let Some(line) = self.counters.read_line(&mut self.r, &mut self.line)? else {
                self.eof = true;
                self.close_paragraph(&mut batch);
                break;
            };
            if line.trim().is_empty() {
                self.close_paragraph(&mut batch);
            } else {
                if self.paragraph.len() + line.len() > self.max_piece_bytes && !self.paragraph.is_empty() {
                    // Cut an overlong paragraph at a line end: same tokens, bounded memory.
                    batch.push_piece(&self.paragraph, false, self.counters);
                    self.paragraph.clear();
                }
                self.paragraph.push_str(line);
            }
        }
        batch.end = self.counters;
        Ok(Some(batch))
    }

    fn close_paragraph(&mut self, batch: &mut Batch) {
        if !self.paragraph.is_empty() {
            self.counters.records_read += 1;
            self.counters.records_kept += 1;
            batch.push_piece(&self.paragraph, true, self.counters);
            self.paragraph.clear();
        }
    }
}

impl CorpusBuilder {
    /// Reads running text (e.g. Project Gutenberg books, hard-wrapped prose): every paragraph
    /// (lines up to a blank or whitespace-only line) is one sentence. Text is normalised with
    /// NFKC, lowercased (unless `opts.case` is [`CaseHandling::Keep`]) and split by
    /// `tokenizers`' `BertPreTokenizer` (on whitespace, with punctuation isolated: `world.`
    /// gives `world` `.`).
    ///
    /// Tokenisation runs in parallel on the current rayon pool, in batches of a few MB;
    /// interning is sequential and in input order, so the result does not depend on the number
    /// of threads.
    pub fn read_plain_text(
        &mut self,
        r: impl BufRead,
        opts: &PlainTextOptions,
    ) -> Result<ReadSummary, CorpusError> {
        let mut reader = ParagraphReader {
            r,
            counters: ReadSummary::default(),
            line: Vec::with_capacity(1 << 12),
            paragraph: String::new(),
            eof: false,
            max_piece_bytes: self.max_piece_bytes,
        };
        self.read_tokenized(opts.case, |max_bytes| reader.next_batch(max_bytes))
    }
}
