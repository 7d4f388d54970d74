//! The plain-text reader (e.g. Project Gutenberg books): paragraphs separated by blank lines are
//! sentences; text is normalised (and lowercased, unless case is kept) and tokenised with the
//! crate's `tokenizers` pipeline.

use std::io::BufRead;

use crate::builder::CorpusBuilder;
use crate::error::CorpusError;
use crate::lines::Lines;
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
    lines: Lines<R>,
    /// The open paragraph (lines read since the last blank line).
    paragraph: String,
    max_piece_bytes: usize,
}

impl<R: BufRead> ParagraphReader<R> {
    fn next_batch(&mut self, max_bytes: usize) -> Result<Option<Batch>, CorpusError> {
        let (paragraph, max_piece_bytes) = (&mut self.paragraph, self.max_piece_bytes);
        self.lines.next_batch(max_bytes, |line, counters, batch| {
            match line {
                Some(line) if !line.trim().is_empty() => {
                    if paragraph.len() + line.len() > max_piece_bytes && !paragraph.is_empty() {
                        // Cut an overlong paragraph at a line end: same tokens, bounded memory.
                        batch.push_piece(paragraph, false, *counters);
                        paragraph.clear();
                    }
                    paragraph.push_str(line);
                }
                // A blank line or the end of the input closes the paragraph.
                _ => close_paragraph(paragraph, counters, batch),
            }
            Ok(())
        })
    }
}

/// Adds the open `paragraph`, if any, to `batch` as one sentence and counts it.
fn close_paragraph(paragraph: &mut String, counters: &mut ReadSummary, batch: &mut Batch) {
    if !paragraph.is_empty() {
        counters.records_read += 1;
        counters.records_kept += 1;
        batch.push_piece(paragraph, true, *counters);
        paragraph.clear();
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
            lines: Lines::new(r),
            paragraph: String::new(),
            max_piece_bytes: self.max_piece_bytes,
        };
        self.read_tokenized(opts.case, |max_bytes| reader.next_batch(max_bytes))
    }
}
