//! Speed choices made by measuring at run time, never from constants fitted on one CPU.
//!
//! A hot loop that runs equally correct under several settings (how far ahead to prefetch, which
//! filter to search with) is fastest under different ones on different machines, and even on one
//! machine under different sizes of work. Two pieces let it choose where it runs:
//!
//! * [`Stopwatch`] reads the calling thread's CPU clock (Linux; wall time elsewhere), so that
//!   time the thread spends descheduled on a shared machine does not fall on whichever setting
//!   happened to be running.
//! * [`Warmup`] hands out the candidates in turn for a loop's first chunks of real work,
//!   interleaved round by round (A B C, A B C, …), times each chunk, and from then on hands out
//!   the candidate of the lowest median time per unit of work. The warm-up is the loop's own
//!   work, not extra work: only the chunks that ran under slower settings cost anything.
//!
//! A choice must never change a result, only its speed: callers use it for settings such as
//! prefetch distances, whose effect is on the caches alone.

use std::fmt;
use std::time::Instant;

/// A clock of the calling thread's CPU time (Linux; wall time elsewhere).
#[derive(Debug, Clone, Copy)]
pub struct Stopwatch(f64);

impl Stopwatch {
    /// Starts timing now.
    pub fn start() -> Stopwatch {
        Stopwatch(thread_ns())
    }

    /// Nanoseconds of the thread's CPU time since [`Stopwatch::start`].
    pub fn ns(self) -> f64 {
        thread_ns() - self.0
    }
}

/// CPU time of the calling thread in nanoseconds, or wall time if this system has no thread
/// clock (decided once per process, so that one process never mixes the two).
fn thread_ns() -> f64 {
    static HAS_THREAD_CLOCK: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *HAS_THREAD_CLOCK.get_or_init(|| thread_cpu_ns().is_some()) {
        thread_cpu_ns().unwrap_or(f64::NAN)
    } else {
        wall_ns()
    }
}

/// CPU time of the calling thread, in nanoseconds (Linux).
#[cfg(target_os = "linux")]
fn thread_cpu_ns() -> Option<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable `timespec`; the clock id is one Linux defines.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then_some(ts.tv_sec as f64 * 1e9 + ts.tv_nsec as f64)
}

#[cfg(not(target_os = "linux"))]
fn thread_cpu_ns() -> Option<f64> {
    None
}

/// Wall time in nanoseconds since the first call in this process.
fn wall_ns() -> f64 {
    static ORIGIN: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e9
}

/// Chooses among candidate settings of a loop by timing them on the loop's first chunks.
///
/// The loop asks for [`Warmup::setting`] before each piece of its work and reports the units it
/// then did with [`Warmup::done`]; while warming, a piece should not run past
/// [`Warmup::remaining`]. Each chunk of `chunk` units (or more, if a piece runs over) is timed
/// on the thread's CPU clock, from the first `setting` call of the chunk to the `done` that
/// completes it; the candidates take turns chunk by chunk. After `rounds` chunks per candidate
/// the one with the lowest median nanoseconds per unit is kept for the rest of the work (the
/// earliest listed among equals).
#[derive(Debug, Clone)]
pub struct Warmup<C> {
    candidates: Vec<C>,
    rounds: usize,
    chunk: usize,
    /// The running chunk: its clock (from its first `setting` call) and the units done in it.
    running: Option<Stopwatch>,
    units: usize,
    /// Nanoseconds per unit of each chunk timed so far, in the order they ran.
    timed: Vec<f64>,
    chosen: Option<usize>,
}

impl<C: Copy> Warmup<C> {
    /// A warm-up over `candidates` (the first is the one used if the work ends before the
    /// warm-up does), `rounds` chunks of `chunk` units each.
    ///
    /// # Panics
    /// If `candidates` is empty or `rounds` or `chunk` is 0.
    pub fn new(candidates: &[C], rounds: usize, chunk: usize) -> Warmup<C> {
        assert!(
            !candidates.is_empty() && rounds > 0 && chunk > 0,
            "a warm-up needs candidates, rounds and a chunk size"
        );
        Warmup {
            candidates: candidates.to_vec(),
            rounds,
            chunk,
            running: None,
            units: 0,
            timed: Vec::new(),
            chosen: (candidates.len() == 1).then_some(0),
        }
    }

    /// No warm-up: `setting` throughout (for benchmarks that compare settings).
    pub fn fixed(setting: C) -> Warmup<C> {
        Warmup::new(&[setting], 1, 1)
    }

    /// Whether chunks are still being timed.
    pub fn is_warming(&self) -> bool {
        self.chosen.is_none()
    }

    /// Units left in the running chunk (unbounded once the choice is made).
    pub fn remaining(&self) -> usize {
        if self.is_warming() {
            self.chunk - self.units
        } else {
            usize::MAX
        }
    }

    /// The setting for the next piece of work (starting the chunk's clock if it is the chunk's
    /// first piece).
    pub fn setting(&mut self) -> C {
        if let Some(c) = self.chosen {
            return self.candidates[c];
        }
        self.running.get_or_insert_with(Stopwatch::start);
        self.candidates[self.timed.len() % self.candidates.len()]
    }

    /// Reports `units` of work done under the last [`Warmup::setting`]; closes the chunk when
    /// it reaches the chunk size, and chooses after the last round.
    pub fn done(&mut self, units: usize) {
        if !self.is_warming() {
            return;
        }
        self.units += units;
        if self.units >= self.chunk {
            let ns = self.running.take().map_or(f64::NAN, Stopwatch::ns);
            let units = std::mem::take(&mut self.units);
            self.record(ns / units as f64);
        }
    }

    fn record(&mut self, ns_per_unit: f64) {
        self.timed.push(ns_per_unit);
        if self.timed.len() == self.rounds * self.candidates.len() {
            let medians = self.medians();
            let best = (0..medians.len())
                .min_by(|&a, &b| medians[a].total_cmp(&medians[b]))
                .expect("at least one candidate");
            self.chosen = Some(best);
        }
    }

    /// Median nanoseconds per unit of each candidate over its timed chunks (NaN where none).
    fn medians(&self) -> Vec<f64> {
        let k = self.candidates.len();
        (0..k)
            .map(|c| {
                let mut mine: Vec<f64> = self.timed.iter().skip(c).step_by(k).copied().collect();
                mine.sort_by(f64::total_cmp);
                match mine.len() {
                    0 => f64::NAN,
                    n if n % 2 == 1 => mine[n / 2],
                    n => 0.5 * (mine[n / 2 - 1] + mine[n / 2]),
                }
            })
            .collect()
    }

    /// What the warm-up found: the setting kept (`None` if the work ended before the warm-up
    /// did, or if the setting was fixed) and each candidate's median nanoseconds per unit.
    pub fn outcome(&self) -> Tuned<C> {
        if self.timed.is_empty() {
            return Tuned::unmeasured();
        }
        Tuned {
            chosen: self.chosen.map(|c| self.candidates[c]),
            ns_per_unit: self.candidates.iter().copied().zip(self.medians()).collect(),
        }
    }
}

/// How a hot loop runs: the instruction set it is compiled for, and a setting fixed by the
/// caller (for benchmarks that compare settings) or `None` to let a [`Warmup`] choose it. Every
/// choice gives the same results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Speed<I, C> {
    /// The instruction set.
    pub simd: I,
    /// The setting, or `None` to time the candidates on the first chunks of work.
    pub fixed: Option<C>,
}

impl<I, C: Copy> Speed<I, C> {
    /// `simd`, the setting chosen by timing.
    pub fn on(simd: I) -> Speed<I, C> {
        Speed { simd, fixed: None }
    }

    /// The warm-up this speed asks for: none when the setting is fixed, else one over
    /// `candidates` (see [`Warmup::new`]).
    pub fn warmup(&self, candidates: &[C], rounds: usize, chunk: usize) -> Warmup<C> {
        match self.fixed {
            Some(setting) => Warmup::fixed(setting),
            None => Warmup::new(candidates, rounds, chunk),
        }
    }
}

/// The outcome of a [`Warmup`].
#[derive(Debug, Clone, PartialEq)]
pub struct Tuned<C> {
    /// The setting chosen by timing; `None` when nothing was timed to the end.
    pub chosen: Option<C>,
    /// Each candidate with its median nanoseconds per unit of work (empty when nothing was
    /// timed; NaN for a candidate whose turn never came).
    pub ns_per_unit: Vec<(C, f64)>,
}

impl<C> Tuned<C> {
    /// Nothing measured (for work that ran under a fixed setting).
    pub fn unmeasured() -> Tuned<C> {
        Tuned {
            chosen: None,
            ns_per_unit: Vec::new(),
        }
    }
}

impl<C: fmt::Display> fmt::Display for Tuned<C> {
    /// `chosen X by timing (A 1.23, B 1.45 ns per unit)` or `not measured`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.chosen {
            Some(c) => write!(f, "{c} chosen by timing (")?,
            None if self.ns_per_unit.is_empty() => return write!(f, "not measured"),
            None => write!(f, "warm-up unfinished (")?,
        }
        for (i, (c, ns)) in self.ns_per_unit.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{sep}{c}: {ns:.2}")?;
        }
        write!(f, " ns per unit)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs a warm-up where candidate `c` costs `cost(c, round)` ns per unit, by recording those
    /// costs instead of timing.
    fn simulate(candidates: &[usize], rounds: usize, cost: impl Fn(usize, usize) -> f64) -> Warmup<usize> {
        let mut w = Warmup::new(candidates, rounds, 10);
        let mut turn = 0;
        while w.is_warming() {
            let c = w.setting();
            assert_eq!(c, candidates[turn % candidates.len()], "candidates take turns");
            assert_eq!(w.remaining(), 10);
            w.record(cost(c, turn / candidates.len()));
            turn += 1;
        }
        assert_eq!(turn, rounds * candidates.len());
        w
    }

    #[test]
    fn the_candidate_of_lowest_median_is_kept() {
        // Candidate 7 is fastest except in one disturbed round, which the median ignores.
        let mut w = simulate(&[3, 7, 9], 3, |c, round| match (c, round) {
            (7, 1) => 50.0,
            (7, _) => 1.0,
            (3, _) => 2.0,
            _ => 3.0,
        });
        assert_eq!(w.setting(), 7);
        let t = w.outcome();
        assert_eq!(t.chosen, Some(7));
        assert_eq!(t.ns_per_unit, vec![(3, 2.0), (7, 1.0), (9, 3.0)]);
        assert_eq!(
            t.to_string(),
            "7 chosen by timing (3: 2.00, 7: 1.00, 9: 3.00 ns per unit)"
        );
    }

    #[test]
    fn equal_times_keep_the_earliest_candidate() {
        let w = simulate(&[4, 5], 2, |_, _| 1.0);
        assert_eq!(w.outcome().chosen, Some(4));
    }

    #[test]
    fn an_even_number_of_rounds_takes_the_mean_of_the_middle_two() {
        let w = simulate(&[1, 2], 2, |c, round| (c * 10 + round) as f64);
        assert_eq!(w.outcome().ns_per_unit, vec![(1, 10.5), (2, 20.5)]);
    }

    #[test]
    fn work_that_ends_during_the_warm_up_keeps_the_first_candidate_and_says_so() {
        let mut w = Warmup::new(&[1, 2, 3], 2, 10);
        w.record(5.0);
        w.record(4.0);
        assert!(w.is_warming());
        let t = w.outcome();
        assert_eq!(t.chosen, None);
        assert!(t.ns_per_unit[2].1.is_nan());
        assert_eq!(
            t.to_string(),
            "warm-up unfinished (1: 5.00, 2: 4.00, 3: NaN ns per unit)"
        );
        assert_eq!(Warmup::new(&[1, 2], 1, 1).outcome().to_string(), "not measured");
    }

    #[test]
    fn chunks_are_timed_over_the_pieces_that_fill_them() {
        let mut w = Warmup::new(&[0u32, 1], 1, 100);
        let mut seen = Vec::new();
        while w.is_warming() {
            // Pieces of 30 units: a chunk is closed by the piece that reaches 100 units.
            let s = w.setting();
            seen.push(s);
            assert!(w.remaining() > 0);
            // Candidate 1 does a thousand times the work of candidate 0.
            let n = if s == 0 { 1_000 } else { 1_000_000 };
            std::hint::black_box((0..n).fold(0u64, |a, x| a.wrapping_mul(31).wrapping_add(x)));
            w.done(30);
        }
        assert_eq!(seen, [0, 0, 0, 0, 1, 1, 1, 1]);
        assert_eq!(w.outcome().chosen, Some(0));
        assert_eq!(w.remaining(), usize::MAX);
        // After the choice nothing is timed.
        w.done(1_000);
        assert_eq!(w.setting(), 0);
        assert_eq!(w.outcome().ns_per_unit.len(), 2);
    }

    #[test]
    fn a_fixed_setting_is_never_timed() {
        let mut w = Warmup::fixed(9);
        assert!(!w.is_warming());
        assert_eq!(w.setting(), 9);
        w.done(5);
        assert_eq!(w.outcome(), Tuned::unmeasured());
    }

    #[test]
    fn a_speed_times_its_candidates_unless_its_setting_is_fixed() {
        assert!(Speed::<(), u8>::on(()).warmup(&[1, 2], 1, 1).is_warming());
        let fixed = Speed {
            simd: (),
            fixed: Some(3u8),
        };
        let mut w = fixed.warmup(&[1, 2], 1, 1);
        assert!(!w.is_warming());
        assert_eq!(w.setting(), 3);
    }

    #[test]
    fn the_thread_clock_advances_with_work() {
        let clock = Stopwatch::start();
        std::hint::black_box((0..2_000_000u64).fold(0u64, |a, x| a ^ x.wrapping_mul(0x9E37)));
        assert!(clock.ns() > 0.0);
    }
}
