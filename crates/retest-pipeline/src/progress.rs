//! Progress of a run: one overall bar on a terminal, plain log lines otherwise.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

/// Reports progress of many parallel jobs as one display.
#[derive(Debug)]
pub struct Reporter {
    bar: Option<ProgressBar>,
    started: Instant,
    words_done: AtomicU64,
}

impl Reporter {
    /// A reporter for `jobs` jobs processing `words_total` words in all.
    pub fn new(jobs: u64, words_total: u64) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            ProgressBar::new(words_total).with_style(
                ProgressStyle::with_template("{prefix} [{bar:30}] {percent:>3}% {msg} {per_sec} ETA {eta}")
                    .expect("valid template")
                    .progress_chars("=> "),
            )
        });
        let reporter = Reporter {
            bar,
            started: Instant::now(),
            words_done: AtomicU64::new(0),
        };
        reporter.set_jobs(0, jobs);
        reporter
    }

    /// Adds `words` processed words.
    pub fn add_words(&self, words: u64) {
        self.words_done.fetch_add(words, Ordering::Relaxed);
        if let Some(bar) = &self.bar {
            bar.inc(words);
        }
    }

    /// Shows how many jobs are done.
    pub fn set_jobs(&self, done: u64, total: u64) {
        if let Some(bar) = &self.bar {
            bar.set_prefix(format!("jobs {done}/{total}"));
        }
    }

    /// Logs one line (above the bar on a terminal, to stderr otherwise).
    pub fn log(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => {
                let elapsed = self.started.elapsed().as_secs_f64();
                let _ = writeln!(std::io::stderr(), "[{elapsed:>8.1}s] {line}");
            }
        }
    }

    /// Words per second so far.
    pub fn words_per_second(&self) -> f64 {
        self.words_done.load(Ordering::Relaxed) as f64 / self.started.elapsed().as_secs_f64().max(1e-9)
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
