//! Progress bars for long data work; hidden when stderr is not a terminal.

use indicatif::{ProgressBar, ProgressStyle};

/// A byte-counting bar for reading or downloading `total` bytes.
pub(crate) fn bytes_bar(total: Option<u64>, message: String) -> ProgressBar {
    let bar = match total {
        Some(total) => ProgressBar::new(total).with_style(
            ProgressStyle::with_template(
                "{msg:30!} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} ETA {eta}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        ),
        None => ProgressBar::new_spinner().with_style(
            ProgressStyle::with_template("{msg:30!} {spinner} {bytes} {bytes_per_sec}")
                .expect("valid template"),
        ),
    };
    bar.with_message(message)
}
