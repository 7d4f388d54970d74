//! Progress of a run: one overall bar on a terminal, plain log lines otherwise.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// Reports progress of many parallel jobs as one display.
#[derive(Debug)]
pub struct Reporter {
    bar: Option<ProgressBar>,
    started: Instant,
    words_done: AtomicU64,
    words_total: u64,
    /// The jobs running now, shown beside the bar.
    running: Mutex<Vec<String>>,
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
            words_total,
            running: Mutex::new(Vec::new()),
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

    /// Marks job `name` as running: shown beside the bar on a terminal, logged otherwise.
    pub fn begin(&self, name: &str) {
        let mut running = self.running.lock().expect("no panics while holding the lock");
        running.push(name.to_owned());
        match &self.bar {
            Some(bar) => bar.set_message(running.join(", ")),
            None => {
                drop(running);
                self.log(&format!("started {name}"));
            }
        }
    }

    /// Marks job `name` as no longer running.
    pub fn end(&self, name: &str) {
        let mut running = self.running.lock().expect("no panics while holding the lock");
        running.retain(|n| n != name);
        if let Some(bar) = &self.bar {
            bar.set_message(running.join(", "));
        }
    }

    /// The remaining time at the average rate so far, once some work is done.
    pub fn eta(&self) -> Option<Duration> {
        let done = self.words_done.load(Ordering::Relaxed);
        (done > 0 && done <= self.words_total).then(|| {
            let per_word = self.started.elapsed().as_secs_f64() / done as f64;
            Duration::from_secs_f64(per_word * (self.words_total - done) as f64)
        })
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
