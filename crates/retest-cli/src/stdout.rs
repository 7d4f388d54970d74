//! Standard output as the commands write to it: a write that fails (a full disk) says it was
//! standard output; a reader that closes the pipe early ends the command quietly.

use std::fmt;
use std::io::{self, Write};

/// Standard output, locked, whose errors name it.
pub struct Stdout(io::StdoutLock<'static>);

/// Standard output for a command's results.
pub fn stdout() -> Stdout {
    Stdout(io::stdout().lock())
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(named)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(named)
    }
}

/// A failed write to standard output.
#[derive(Debug)]
struct StdoutError(io::Error);

impl fmt::Display for StdoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write to standard output: {}", self.0)
    }
}

impl std::error::Error for StdoutError {}

/// `error`, said to be of standard output (its kind kept).
pub fn named(error: io::Error) -> io::Error {
    io::Error::new(error.kind(), StdoutError(error))
}

/// Whether `error` comes from writing to standard output after its reader closed the pipe.
pub fn is_closed_pipe(error: &anyhow::Error) -> bool {
    (error.chain())
        .filter_map(|cause| cause.downcast_ref::<io::Error>())
        .any(|e| {
            e.kind() == io::ErrorKind::BrokenPipe
                && e.get_ref().is_some_and(|inner| inner.is::<StdoutError>())
        })
}
