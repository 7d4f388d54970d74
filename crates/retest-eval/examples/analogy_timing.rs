//! Times the analogy stage's heavy parts on one embedding, on however many threads rayon has:
//! Google accuracy per solver (both constraints from one ranking) and Bolukbasi's 500 pairs along
//! she − he over the whole vocabulary.
//!
//! `RAYON_NUM_THREADS=1 cargo run --release -p retest-eval --example analogy_timing -- EMB QUESTIONS`
//! with `QUESTIONS` the Google set (`benchmarks/gensim/questions-words.txt` in the data mirror).

#![allow(clippy::print_stdout)]

use std::path::Path;
use std::time::Instant;

use retest_eval::{CaseHandling, EvalOptions, google_accuracy, read_analogies};
use retest_measures::{AnalogySpace, DeltaBound, PairOptions, Solver, generate_pairs};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [embedding, questions] = args.as_slice() else {
        return Err("usage: analogy_timing EMBEDDING QUESTIONS".into());
    };
    let emb = retest_embeddings::read(Path::new(embedding), None)?;
    let set = read_analogies(Path::new(questions))?;
    let options = EvalOptions {
        restrict_vocab: usize::MAX,
        case: CaseHandling::Insensitive,
    };
    for solver in Solver::PUBLISHED {
        let start = Instant::now();
        let results = google_accuracy(&emb, &set, &options, &[solver])?;
        let seconds = start.elapsed().as_secs_f64();
        let [constrained, unconstrained] = [&results[0].result, &results[1].result];
        println!(
            "google {:<9} {seconds:.3} s  {} questions, accuracy {:.4} constrained, {:.4} unconstrained",
            solver.as_str(),
            constrained.attempted,
            constrained.total_accuracy,
            unconstrained.total_accuracy,
        );
    }
    let space = AnalogySpace::new(&emb, None)?;
    let row = |word: &str| {
        (emb.words().iter().position(|w| w == word))
            .map(|r| r as u32)
            .ok_or(format!("`{word}` is not in the embedding"))
    };
    let pair_options = PairOptions {
        delta: Solver::BOLUKBASI_DELTA,
        bound: DeltaBound::Distance,
        n_pairs: 500,
    };
    let start = Instant::now();
    let pairs = generate_pairs(&space, (row("she")?, row("he")?), &pair_options)?;
    println!(
        "pairs     {:.3} s  {} pairs among {} words",
        start.elapsed().as_secs_f64(),
        pairs.len(),
        space.n_rows()
    );
    Ok(())
}
