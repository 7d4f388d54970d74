//! What one `read_*` call consumed and kept: the counts a preparation log and `stats.json`
//! report per input file.

use std::io::BufRead;

use crate::error::CorpusError;

/// Counts for one `CorpusBuilder::read_*` call.
///
/// What a *record* is depends on the reader: a non-blank line (WikiText), a paragraph (plain
/// text), a JSON object (Reddit), a non-empty row (Parquet). When the builder's token limit
/// stops a reader, the counts cover exactly the input up to the record that reached the limit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ReadSummary {
    /// Decompressed input bytes consumed (for Parquet: bytes of the `text` values).
    pub bytes: u64,
    /// Input lines consumed, blank ones included (for Parquet: rows).
    pub lines: u64,
    /// Records seen.
    pub records_read: u64,
    /// Records that passed every filter (equal to `records_read` except for Reddit).
    pub records_kept: u64,
    /// Reddit: comments dropped because the body was `[deleted]` or `[removed]`.
    pub dropped_deleted: u64,
    /// Reddit: comments dropped because of their subreddit.
    pub dropped_subreddit: u64,
    /// Reddit: comments dropped because of their year.
    pub dropped_year: u64,
    /// Sentences added to the corpus: records that gave at least one token, or for Reddit with
    /// sentence splitting, the sentences of the kept comments that gave at least one token.
    pub sentences: u64,
    /// Tokens added to the corpus (before any `min_count` filtering).
    pub tokens: u64,
    /// Whether the builder's token limit was reached, which stops reading (also true when the
    /// limit falls exactly at the end of the input).
    pub stopped_at_token_limit: bool,
}

impl ReadSummary {
    /// Reads the next line of `r` (its newline included) into `buf`, cleared first, and counts
    /// it and its bytes; `None` at the end of the input.
    ///
    /// Errors: an I/O or decompression error, or a line that is not UTF-8 (each with the number
    /// of the line).
    #[inline]
    pub(crate) fn read_line<'b>(
        &mut self,
        r: &mut impl BufRead,
        buf: &'b mut Vec<u8>,
    ) -> Result<Option<&'b str>, CorpusError> {
        buf.clear();
        let n = r.read_until(b'\n', buf).map_err(|source| CorpusError::Read {
            line: self.lines + 1,
            source,
        })?;
        if n == 0 {
            return Ok(None);
        }
        self.lines += 1;
        self.bytes += n as u64;
        let line = std::str::from_utf8(buf).map_err(|e| CorpusError::InvalidUtf8 {
            line: self.lines,
            byte: e.valid_up_to(),
        })?;
        Ok(Some(line))
    }
}
