//! GloVe from a text file, like GloVe's `demo.sh`: build the vocabulary, count co-occurrences,
//! shuffle and train, printing each stage's wall and user-CPU time and the cost per iteration.
//!
//! ```text
//! cargo run --release -p retest-glove --example glove_text -- --input corpus.txt
//! cargo run --release -p retest-glove --example glove_text -- --gutenberg-tokens 5000000 --iter 7
//! ```
//!
//! Input: `--input FILE` (whitespace tokens, one sentence per line, kept as they are) or
//! `--gutenberg-tokens N` (the first N tokens of the mirror's Gutenberg corpus, lower-cased,
//! punctuation split, paragraphs as sentences). Options (defaults = the paper's GloVe):
//! `--dim 300 --window 15 --min-count 5 --x-max 100 --alpha 0.75 --eta 0.05 --iter 15 --seed 1
//! --memory 4.0` (GB, as glove.c's `-memory`), `--spill-dir DIR` (default: the system temp
//! dir), `--cooc-out FILE` (stream the merged table to FILE instead of holding it; training is
//! then skipped unless `--iter` > 0, reading FILE back), `--cooc-in FILE` (train on a table
//! written before, without a corpus), `--reference` (train with the `f64` reference loop
//! instead), `--simd portable|avx2|avx512f` (force a SIMD path; same bits, other speed),
//! `--prefetch L2,L1` (fix the prefetch distances in records, 0 for none, instead of timing
//! `Prefetch::CANDIDATES`; same bits, other speed), `--output FILE` (word2vec text vectors), `--eval` (WordSim-353,
//! SimLex-999, MEN and Google analogies from `$RETEST_DATA_DIR/benchmarks`).
//!
//! CPU time is the process's user time from `/proc/self/stat` (Linux, 10 ms ticks); memory is
//! `VmRSS` (now) and `VmHWM` (peak so far) from `/proc/self/status`.

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use retest_corpus::{
    CaseHandling, CorpusBuilder, EncodedCorpus, PlainTextOptions, UnkHandling, WikiTextOptions, decompress,
};
use retest_glove::{
    CooccurConfig, Cooccurrences, GloveConfig, IterationProgress, Prefetch, SimdPath, Speed, TrainedGlove,
    count_cooccurrences, count_cooccurrences_to_writer, read_cooccurrences, train_reference, train_with,
};
use retest_rng::SeedPath;

#[derive(Debug)]
struct Args {
    input: Option<PathBuf>,
    gutenberg_tokens: Option<u64>,
    dim: usize,
    window: usize,
    min_count: u64,
    x_max: f64,
    alpha: f64,
    eta: f64,
    iter: usize,
    seed: u64,
    memory_gb: f64,
    spill_dir: PathBuf,
    cooc_out: Option<PathBuf>,
    cooc_in: Option<PathBuf>,
    reference: bool,
    simd: Option<String>,
    prefetch: Option<Prefetch>,
    output: Option<PathBuf>,
    eval: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        input: None,
        gutenberg_tokens: None,
        dim: 300,
        window: 15,
        min_count: 5,
        x_max: 100.0,
        alpha: 0.75,
        eta: 0.05,
        iter: 15,
        seed: 1,
        memory_gb: 4.0,
        spill_dir: std::env::temp_dir(),
        cooc_out: None,
        cooc_in: None,
        reference: false,
        simd: None,
        prefetch: None,
        output: None,
        eval: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        fn num<T: std::str::FromStr>(flag: &str, v: String) -> Result<T, String> {
            v.parse().map_err(|_| format!("{flag}: cannot parse {v:?}"))
        }
        match flag.as_str() {
            "--input" => a.input = Some(value()?.into()),
            "--gutenberg-tokens" => a.gutenberg_tokens = Some(num(&flag, value()?)?),
            "--dim" => a.dim = num(&flag, value()?)?,
            "--window" => a.window = num(&flag, value()?)?,
            "--min-count" => a.min_count = num(&flag, value()?)?,
            "--x-max" => a.x_max = num(&flag, value()?)?,
            "--alpha" => a.alpha = num(&flag, value()?)?,
            "--eta" => a.eta = num(&flag, value()?)?,
            "--iter" => a.iter = num(&flag, value()?)?,
            "--seed" => a.seed = num(&flag, value()?)?,
            "--memory" => a.memory_gb = num(&flag, value()?)?,
            "--spill-dir" => a.spill_dir = value()?.into(),
            "--cooc-out" => a.cooc_out = Some(value()?.into()),
            "--cooc-in" => a.cooc_in = Some(value()?.into()),
            "--output" => a.output = Some(value()?.into()),
            "--reference" => a.reference = true,
            "--simd" => a.simd = Some(value()?),
            "--prefetch" => {
                let v = value()?;
                let (l2, l1) = v
                    .split_once(',')
                    .ok_or_else(|| format!("--prefetch {v}: expected L2,L1"))?;
                let (l2, l1) = (num(&flag, l2.to_owned())?, num(&flag, l1.to_owned())?);
                let candidates = Prefetch::CANDIDATES.map(|p| format!("{},{}", p.l2_ahead(), p.l1_ahead()));
                a.prefetch = Some(
                    Prefetch::new(l2, l1)
                        .ok_or_else(|| format!("--prefetch {v}: not one of {}", candidates.join(" ")))?,
                );
            }
            "--eval" => a.eval = true,
            other => return Err(format!("unknown option {other}")),
        }
    }
    if a.input.is_some() == a.gutenberg_tokens.is_some() && a.cooc_in.is_none() {
        return Err("give exactly one of --input FILE and --gutenberg-tokens N (or --cooc-in FILE)".into());
    }
    if a.cooc_in.is_some() && (a.eval || a.output.is_some()) {
        return Err("--cooc-in has no vocabulary: --eval and --output need the corpus".into());
    }
    Ok(a)
}

/// User CPU seconds of this process so far (Linux `/proc/self/stat`, field 14, 100 ticks/s).
fn user_cpu() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after_name = stat.rsplit(')').next().unwrap_or("");
    let ticks: f64 = after_name
        .split_whitespace()
        .nth(11)
        .and_then(|t| t.parse().ok())
        .unwrap_or(f64::NAN);
    ticks / 100.0
}

/// `VmHWM` (peak resident set so far) and `VmRSS` (now) of this process, in MiB.
fn memory_mib() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| -> f64 {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<f64>().ok())
            .map_or(f64::NAN, |kb| kb / 1024.0)
    };
    (field("VmHWM:"), field("VmRSS:"))
}

struct Stage {
    name: &'static str,
    wall: Instant,
    cpu: f64,
}

impl Stage {
    fn start(name: &'static str) -> Stage {
        Stage {
            name,
            wall: Instant::now(),
            cpu: user_cpu(),
        }
    }
    fn done(self) -> (f64, f64) {
        let (wall, cpu) = (self.wall.elapsed().as_secs_f64(), user_cpu() - self.cpu);
        let (peak, now) = memory_mib();
        println!(
            "[{}] {wall:.2} s wall, {cpu:.2} s user CPU; resident {now:.0} MiB, peak so far {peak:.0} MiB",
            self.name
        );
        (wall, cpu)
    }
}

fn build_corpus(a: &Args) -> Result<EncodedCorpus, Box<dyn std::error::Error>> {
    if let Some(n) = a.gutenberg_tokens {
        let path = retest_test_support::data_file("corpora/gutenberg_lahiri/gutenberg_lahiri_150M.txt.xz");
        let file = File::open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let (_, reader) = decompress(file)?;
        let mut builder = CorpusBuilder::new(Some(n));
        builder.read_plain_text(
            reader,
            &PlainTextOptions {
                case: CaseHandling::Lower,
            },
        )?;
        Ok(builder.finish(a.min_count))
    } else {
        let path = a.input.as_ref().expect("checked");
        let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut builder = CorpusBuilder::new(None);
        builder.read_wikitext(
            BufReader::with_capacity(1 << 20, file),
            &WikiTextOptions {
                unk: UnkHandling::Keep,
            },
        )?;
        Ok(builder.finish(a.min_count))
    }
}

fn write_text(path: &Path, words: &[Box<str>], model: &TrainedGlove) -> std::io::Result<()> {
    let mut w = BufWriter::new(File::create(path)?);
    writeln!(w, "{} {}", words.len(), model.dim)?;
    for (word, row) in words.iter().zip(model.vectors.chunks_exact(model.dim)) {
        write!(w, "{word}")?;
        for x in row {
            write!(w, " {x}")?;
        }
        writeln!(w)?;
    }
    w.flush()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a = parse_args().map_err(|e| format!("{e}\n(see the header of examples/glove_text.rs)"))?;
    if let Some(path) = &a.cooc_in {
        let stage = Stage::start("read cooccurrences");
        let cooc = read_cooccurrences(BufReader::with_capacity(1 << 20, File::open(path)?))?;
        stage.done();
        println!(
            "co-occurrences: {} non-zero records over {} words",
            cooc.len(),
            cooc.vocab_size()
        );
        train_and_report(&a, &cooc, None)?;
        return Ok(());
    }

    let stage = Stage::start("vocab + encode");
    let corpus = build_corpus(&a)?;
    stage.done();
    let stats = corpus.stats();
    println!(
        "corpus: {} raw tokens, {} tokens and {} words at min_count {}, {} sentences",
        stats.raw_tokens, stats.tokens, stats.types, a.min_count, stats.sentences
    );

    let cooc_config = CooccurConfig {
        window: a.window,
        memory_bytes: (a.memory_gb * (1u64 << 30) as f64) as u64,
    };
    let stage = Stage::start("cooccur");
    let cooc: Cooccurrences = if let Some(out) = &a.cooc_out {
        let mut file = BufWriter::with_capacity(1 << 20, File::create(out)?);
        let s = count_cooccurrences_to_writer(
            &corpus.view(),
            &cooc_config,
            &a.spill_dir,
            &mut |_| {},
            &mut file,
        )?;
        file.flush()?;
        drop(file);
        println!(
            "streamed {} records to {} ({} runs spilled, dense table {} cells, hash table {} slots)",
            s.n_records,
            out.display(),
            s.n_runs,
            s.dense_cells,
            s.sparse_slots
        );
        stage.done();
        if a.iter == 0 {
            return Ok(());
        }
        let stage = Stage::start("read cooccurrences");
        let c = read_cooccurrences(BufReader::with_capacity(1 << 20, File::open(out)?))?;
        stage.done();
        c
    } else {
        let c = count_cooccurrences(&corpus.view(), &cooc_config, &a.spill_dir, &mut |_| {})?;
        stage.done();
        c
    };
    println!(
        "co-occurrences: {} non-zero records, total weight {:.1}, memory budget {:.2} GB",
        cooc.len(),
        cooc.total_weight(),
        a.memory_gb
    );
    if a.iter == 0 {
        return Ok(());
    }
    train_and_report(&a, &cooc, Some(corpus.vocab().words()))
}

fn train_and_report(
    a: &Args,
    cooc: &Cooccurrences,
    words: Option<&[Box<str>]>,
) -> Result<(), Box<dyn std::error::Error>> {
    let vocab_size = cooc.vocab_size();
    let config = GloveConfig {
        dim: a.dim,
        x_max: a.x_max,
        alpha: a.alpha,
        eta: a.eta,
        iterations: a.iter,
    };
    let seed = SeedPath::new(a.seed).with("glove_text");
    let mut last = (Instant::now(), user_cpu());
    let training = Stage::start(if a.reference {
        "train (f64 reference, incl. shuffle)"
    } else {
        "train (incl. shuffle)"
    });
    let mut report = |p: IterationProgress| {
        if let Some(cost) = p.cost {
            let (wall, cpu) = (last.0.elapsed().as_secs_f64(), user_cpu() - last.1);
            println!(
                "iter: {:03}, cost: {cost:.6}  ({wall:.2} s wall, {cpu:.2} s user CPU)",
                p.iteration
            );
            last = (Instant::now(), user_cpu());
        }
    };
    let model = if a.reference {
        train_reference(cooc, vocab_size, &config, &seed, &mut report)?
    } else {
        let simd = match &a.simd {
            None => SimdPath::detect(),
            Some(name) => SimdPath::available()
                .into_iter()
                .find(|p| p.as_str() == name)
                .ok_or_else(|| {
                    format!(
                        "--simd {name}: not one of this CPU's paths {:?}",
                        SimdPath::available()
                    )
                })?,
        };
        let speed = Speed {
            simd,
            fixed: a.prefetch,
        };
        let model = train_with(cooc, vocab_size, &config, &seed, &mut report, speed)?;
        println!("prefetch: {}", model.prefetch);
        model
    };
    training.done();

    let words = words.unwrap_or_default();
    if let Some(path) = &a.output {
        write_text(path, words, &model)?;
        println!("wrote {}", path.display());
    }
    if a.eval {
        let words = words.iter().map(|w| w.to_string()).collect();
        let emb = retest_embeddings::Embeddings::new(words, model.dim, model.vectors)?;
        let report = retest_eval::standard_suite(&retest_test_support::data_dir().join("benchmarks"), &emb)?;
        for s in &report.similarity {
            println!(
                "{}: Spearman {:.4} ({} pairs, {} skipped)",
                s.name, s.spearman, s.pairs_used, s.pairs_skipped
            );
        }
        println!(
            "google analogies: {:.4} ({} of {} questions, {} skipped)",
            report.analogy.total_accuracy,
            report.analogy.correct,
            report.analogy.attempted,
            report.analogy.skipped
        );
    }
    Ok(())
}
