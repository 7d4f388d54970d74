//! The line input of the tokenising readers (plain text, Reddit): the lines of a reader,
//! counted, handed out in batches of about a given size of text.

use std::io::BufRead;

use crate::error::CorpusError;
use crate::summary::ReadSummary;
use crate::tokenize::Batch;

/// The lines of a reader, with the counters of what was read.
pub(crate) struct Lines<R> {
    r: R,
    counters: ReadSummary,
    line: Vec<u8>,
    eof: bool,
}

impl<R: BufRead> Lines<R> {
    pub(crate) fn new(r: R) -> Self {
        Lines {
            r,
            counters: ReadSummary::default(),
            line: Vec::with_capacity(1 << 12),
            eof: false,
        }
    }

    /// The next batch: reads lines and hands each to `on_line` (`Some(line)`, newline included,
    /// with the counters and the batch) until the batch holds `max_bytes` of text, and
    /// `None` once at the end of the input. `Ok(None)` when an earlier batch reached the end.
    pub(crate) fn next_batch(
        &mut self,
        max_bytes: usize,
        mut on_line: impl FnMut(Option<&str>, &mut ReadSummary, &mut Batch) -> Result<(), CorpusError>,
    ) -> Result<Option<Batch>, CorpusError> {
        if self.eof {
            return Ok(None);
        }
        let mut batch = Batch::default();
        while batch.text.len() < max_bytes {
            let line = self.counters.read_line(&mut self.r, &mut self.line)?;
            self.eof = line.is_none();
            on_line(line, &mut self.counters, &mut batch)?;
            if self.eof {
                break;
            }
        }
        batch.end = self.counters;
        Ok(Some(batch))
    }
}
