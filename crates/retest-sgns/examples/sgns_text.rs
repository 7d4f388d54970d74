//! Trains word2vec (skip-gram or CBOW, negative sampling) from a whitespace-tokenised text file,
//! one sentence per line, like `word2vec -train`, and writes the vectors in word2vec text format
//! (`n dim` header, then `word v1 v2 …` per line) so gensim can load them:
//!
//! ```text
//! cargo run --release -p retest-sgns --example sgns_text -- --input CORPUS.txt --output OUT.txt \
//!     [--dim 300] [--window 5] [--negative 5] [--sample 1e-3] [--min-count 5] [--epochs 5] \
//!     [--alpha 0.025] [--min-alpha 0.0001] [--ns-exponent 0.75] [--seed 1] [--cbow] \
//!     [--semantics retest|word2vec-c|gensim] [--init word2vec-c|gensim] \
//!     [--saturation clip|skip] [--sigmoid-index exact|truncated] [--decay words|sentences] \
//!     [--simd portable|sse2|avx2|avx512f] [--prefetch PAIRS_AHEAD]
//! ```
//!
//! `--semantics` and the four flags after it select [`retest_sgns::Semantics`] (default
//! `retest`, the pipeline's): `--semantics` sets all four points to one reference's choices,
//! and the other four, given after it, change one point each — for measuring what each
//! difference between word2vec.c, gensim and retest does to the vectors. `--simd` forces a SIMD
//! path (default: the widest this CPU has) and `--prefetch` a prefetch distance (0–4 pairs
//! ahead; default: chosen by timing, see `retest_sgns::Prefetch`); every choice gives the same
//! bytes, only the speed differs.
//!
//! Prints the corpus size, the SIMD path, the training time and words/s (corpus tokens × epochs
//! per second of training, excluding reading) to stderr.

#![allow(clippy::print_stderr)]

use std::io::{BufReader, BufWriter, Write};
use std::time::Instant;

use retest_corpus::{CorpusBuilder, UnkHandling, WikiTextOptions};
use retest_sgns::{
    Architecture, Decay, Init, Prefetch, Saturation, SeedPath, Semantics, SgnsConfig, SigmoidIndex, SimdPath,
    Speed, train_with,
};

struct Args {
    input: String,
    output: String,
    min_count: u64,
    seed: u64,
    simd: SimdPath,
    prefetch: Option<Prefetch>,
    config: SgnsConfig,
}

/// The value named `value` among `choices`, or the names to choose from.
fn choose<T: Copy>(value: &str, choices: &[(&str, T)]) -> Result<T, String> {
    choices
        .iter()
        .find(|(name, _)| *name == value)
        .map(|&(_, v)| v)
        .ok_or_else(|| {
            let names: Vec<&str> = choices.iter().map(|(name, _)| *name).collect();
            format!("expected one of {}", names.join(", "))
        })
}

fn parse_args() -> Result<Args, String> {
    let mut input = None;
    let mut output = None;
    let mut min_count = 5;
    let mut seed = 1;
    let mut simd = SimdPath::detect();
    let mut prefetch = None;
    let mut config = SgnsConfig {
        architecture: Architecture::Skipgram,
        dim: 300,
        window: 5,
        negative: 5,
        ns_exponent: 0.75,
        sample: 1e-3,
        epochs: 5,
        alpha: 0.025,
        min_alpha: 0.0001,
        semantics: Semantics::RETEST,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--cbow" {
            config.architecture = Architecture::Cbow;
            continue;
        }
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        let bad = |e: &dyn std::fmt::Display| format!("{flag} {value}: {e}");
        match flag.as_str() {
            "--input" => input = Some(value),
            "--output" => output = Some(value),
            "--dim" => config.dim = value.parse().map_err(|e| bad(&e))?,
            "--window" => config.window = value.parse().map_err(|e| bad(&e))?,
            "--negative" => config.negative = value.parse().map_err(|e| bad(&e))?,
            "--sample" => config.sample = value.parse().map_err(|e| bad(&e))?,
            "--min-count" => min_count = value.parse().map_err(|e| bad(&e))?,
            "--epochs" | "--iter" => config.epochs = value.parse().map_err(|e| bad(&e))?,
            "--alpha" => config.alpha = value.parse().map_err(|e| bad(&e))?,
            "--min-alpha" => config.min_alpha = value.parse().map_err(|e| bad(&e))?,
            "--ns-exponent" => config.ns_exponent = value.parse().map_err(|e| bad(&e))?,
            "--seed" => seed = value.parse().map_err(|e| bad(&e))?,
            "--semantics" => {
                config.semantics = choose(
                    &value,
                    &[
                        ("retest", Semantics::RETEST),
                        ("word2vec-c", Semantics::WORD2VEC_C),
                        ("gensim", Semantics::GENSIM),
                    ],
                )
                .map_err(|e| bad(&e))?
            }
            "--init" => {
                let choices = [("word2vec-c", Init::Word2vecC), ("gensim", Init::Gensim)];
                config.semantics.init = choose(&value, &choices).map_err(|e| bad(&e))?
            }
            "--saturation" => {
                let choices = [("clip", Saturation::Clip), ("skip", Saturation::Skip)];
                config.semantics.saturation = choose(&value, &choices).map_err(|e| bad(&e))?
            }
            "--sigmoid-index" => {
                let choices = [
                    ("exact", SigmoidIndex::Exact),
                    ("truncated", SigmoidIndex::Truncated),
                ];
                config.semantics.sigmoid_index = choose(&value, &choices).map_err(|e| bad(&e))?
            }
            "--decay" => {
                let choices = [("words", Decay::Words), ("sentences", Decay::Sentences)];
                config.semantics.decay = choose(&value, &choices).map_err(|e| bad(&e))?
            }
            "--simd" => {
                let choices = SimdPath::ALL.map(|p| (p.as_str(), p));
                simd = choose(&value, &choices).map_err(|e| bad(&e))?
            }
            "--prefetch" => {
                prefetch = Some(Prefetch {
                    pairs_ahead: value.parse().map_err(|e| bad(&e))?,
                })
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(Args {
        input: input.ok_or("--input is required")?,
        output: output.ok_or("--output is required")?,
        min_count,
        seed,
        simd,
        prefetch,
        config,
    })
}

/// Time this thread has spent on a CPU (Linux `/proc/thread-self/schedstat`), to report a rate
/// that other processes competing for the cores do not distort.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = parse_args()?;
    let started = Instant::now();
    let mut builder = CorpusBuilder::new(None);
    builder.read_wikitext(
        BufReader::with_capacity(1 << 20, std::fs::File::open(&args.input)?),
        &WikiTextOptions {
            unk: UnkHandling::Keep,
        },
    )?;
    let corpus = builder.finish(args.min_count);
    eprintln!(
        "read {}: {} tokens, {} words (min_count {}), {} sentences in {:.2} s",
        args.input,
        corpus.stats().tokens,
        corpus.vocab().len(),
        args.min_count,
        corpus.n_sentences(),
        started.elapsed().as_secs_f64()
    );

    let cpu_before = thread_cpu_seconds();
    let seed = SeedPath::new(args.seed)
        .with("sgns")
        .with(args.config.architecture.as_str());
    let training = Instant::now();
    let mut last_percent = 0;
    let embedding = train_with(
        &corpus.view(),
        corpus.vocab().counts(),
        &args.config,
        &seed,
        &mut |p| {
            let percent = p.words_done * 100 / p.words_total.max(1);
            if percent >= last_percent + 10 {
                last_percent = percent;
                let secs = training.elapsed().as_secs_f64();
                eprintln!(
                    "  {percent:3}%  alpha {:.6}  {:.0} words/s",
                    p.alpha,
                    p.words_done as f64 / secs
                );
            }
        },
        Speed {
            simd: args.simd,
            fixed: args.prefetch,
        },
    )?;
    eprintln!("prefetch: {}", embedding.prefetch);
    let secs = training.elapsed().as_secs_f64();
    let words = corpus.stats().tokens * args.config.epochs as u64;
    if let (Some(before), Some(after)) = (cpu_before, thread_cpu_seconds()) {
        eprintln!(
            "on-CPU time of the training thread {:.2} s: {:.0} words/s",
            after - before,
            words as f64 / (after - before)
        );
    }
    let semantics = args.config.semantics;
    eprintln!(
        "trained {} ({}, dim {}, {} epochs, init {}, saturation {}, sigmoid index {}, decay {}, simd {}) \
         in {secs:.2} s: {:.0} words/s",
        args.config.architecture.as_str(),
        args.input,
        args.config.dim,
        args.config.epochs,
        semantics.init.as_str(),
        semantics.saturation.as_str(),
        semantics.sigmoid_index.as_str(),
        semantics.decay.as_str(),
        args.simd.as_str(),
        words as f64 / secs
    );

    let mut out = BufWriter::with_capacity(1 << 20, std::fs::File::create(&args.output)?);
    writeln!(out, "{} {}", embedding.n_words(), embedding.dim)?;
    for (word, vector) in corpus
        .vocab()
        .words()
        .iter()
        .zip(embedding.vectors.chunks_exact(embedding.dim))
    {
        out.write_all(word.as_bytes())?;
        for v in vector {
            write!(out, " {v}")?;
        }
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}
