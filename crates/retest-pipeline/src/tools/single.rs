//! One model trained from a text file, without a pipeline: `retest sgns` and `retest glove`,
//! with the same parameter types and trainer set-up as the pipeline's training jobs; and
//! `retest embeddings export`. All three write their embedding file under the output policy
//! of [`crate::tools::output`].

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use retest_embeddings::{Embeddings, Format, toml};
use retest_rng::SeedPath;
use retest_spec::{GloveParams, SgnsParams};

use crate::driver::cooccurrence::glove_config;
use crate::driver::train::sgns_config;
use crate::tools::output::{Overwrite, embedding_file};

/// Reads a whitespace-tokenised text file (one sentence per line, plain or compressed) into an
/// encoded corpus, for the single-model commands.
fn text_corpus(input: &Path, min_count: u64) -> Result<retest_corpus::EncodedCorpus> {
    anyhow::ensure!(min_count >= 1, "--min-count must be at least 1");
    let file = std::fs::File::open(input).with_context(|| format!("cannot open {}", input.display()))?;
    let (_, stream) = retest_corpus::decompress(file).with_context(|| format!("{}", input.display()))?;
    let mut builder = retest_corpus::CorpusBuilder::new(None);
    builder
        .read_wikitext(
            stream,
            &retest_corpus::WikiTextOptions {
                unk: retest_corpus::UnkHandling::Keep,
            },
        )
        .with_context(|| format!("{}", input.display()))?;
    let corpus = builder.finish(min_count);
    anyhow::ensure!(
        !corpus.tokens().is_empty(),
        "{}: no word occurs at least {min_count} times (--min-count)",
        input.display()
    );
    Ok(corpus)
}

/// One model trained from a whitespace-tokenised text file (one sentence per line, plain or
/// compressed), as `retest sgns` and `retest glove` train it.
#[derive(Clone, Copy, Debug)]
pub struct SingleModel<'a> {
    pub input: &'a Path,
    /// Words occurring fewer times are left out of the vocabulary.
    pub min_count: u64,
    pub seed: u64,
    /// The embedding file, checked by [`crate::tools::output`]'s policy before training.
    pub output: &'a Path,
    /// The output format; `None`: the one the output's name ends in.
    pub format: Option<Format>,
    pub overwrite: Overwrite,
}

impl SingleModel<'_> {
    /// The format to write, once the output passed the policy.
    fn output_format(&self) -> Result<Format> {
        embedding_file(self.output, &[self.input], self.format, self.overwrite)
    }
}

/// `retest embeddings export`: `input` (in `input_format`, or any format told from its bytes)
/// written to `output` in `format`, or in the one `output`'s name ends in.
///
/// # Errors
///
/// `output` is refused by the output policy; `input` cannot be read; the file cannot be
/// written.
pub fn export_embeddings(
    input: &Path,
    input_format: Option<Format>,
    output: &Path,
    format: Option<Format>,
    overwrite: Overwrite,
) -> Result<()> {
    let format = embedding_file(output, &[input], format, overwrite)?;
    let embeddings = retest_embeddings::read(input, input_format)?;
    retest_embeddings::write(output, &embeddings, format)?;
    Ok(())
}

/// Writes `embeddings` to `output` under the output policy of [`export_embeddings`]: the format
/// is `format` or the one the file name ends in, and an existing file is replaced only with
/// [`Overwrite::Force`].
///
/// # Errors
///
/// The output is refused by the output policy, or writing fails.
pub fn save_embeddings(
    embeddings: &Embeddings,
    output: &Path,
    format: Option<Format>,
    overwrite: Overwrite,
) -> Result<()> {
    let format = embedding_file(output, &[], format, overwrite)?;
    retest_embeddings::write(output, embeddings, format)?;
    Ok(())
}

/// Trains one GloVe model and writes it with its parameters, input checksum and cost per
/// iteration as metadata, logging each stage's time to stderr.
///
/// # Errors
///
/// The output is refused by the output policy, the input cannot be read or leaves no word, or
/// training or writing fails.
pub fn train_glove_file(model: &SingleModel<'_>, params: &GloveParams) -> Result<()> {
    let format = model.output_format()?;
    let mut err = std::io::stderr().lock();
    let started = std::time::Instant::now();
    let corpus = text_corpus(model.input, model.min_count)?;
    writeln!(
        err,
        "vocabulary: {} words, {} tokens ({:.1} s)",
        corpus.vocab().len(),
        corpus.tokens().len(),
        started.elapsed().as_secs_f64()
    )?;
    let counted = std::time::Instant::now();
    let spill_parent = model
        .output
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let spill = tempfile::Builder::new()
        .prefix(".retest-spill-")
        .tempdir_in(spill_parent)?;
    let config = retest_glove::CooccurConfig {
        window: params.window as usize,
        memory_bytes: params.memory_mb * (1 << 20),
    };
    let cooc = retest_glove::count_cooccurrences(&corpus.view(), &config, spill.path(), &mut |_| {})?;
    writeln!(
        err,
        "co-occurrences: {} records, window {} ({:.1} s)",
        cooc.len(),
        params.window,
        counted.elapsed().as_secs_f64()
    )?;
    let seed = SeedPath::new(model.seed).with("glove");
    let mut iteration_started = std::time::Instant::now();
    let trained = retest_glove::train(
        &cooc,
        corpus.vocab().len(),
        &glove_config(params),
        &seed,
        &mut |p| {
            if let Some(cost) = p.cost {
                let _ = writeln!(
                    std::io::stderr(),
                    "iter {:>3}, cost {cost:.6} ({:.1} s)",
                    p.iteration,
                    iteration_started.elapsed().as_secs_f64()
                );
                iteration_started = std::time::Instant::now();
            }
        },
    )?;
    let words: Vec<String> = corpus.vocab().words().iter().map(|w| w.to_string()).collect();
    let mut meta = input_metadata(model, "glove")?;
    for (key, value) in [
        ("dim", i64::from(params.dim)),
        ("window", i64::from(params.window)),
        ("min_count", model.min_count as i64),
        ("iterations", i64::from(params.iterations)),
        ("seed", model.seed as i64),
    ] {
        meta.insert(key.into(), value.into());
    }
    for (key, value) in [
        ("x_max", params.x_max),
        ("alpha", params.alpha),
        ("eta", params.eta),
    ] {
        meta.insert(key.into(), value.into());
    }
    let costs: Vec<toml::Value> = trained.cost_per_iteration.iter().map(|&c| c.into()).collect();
    meta.insert("cost_per_iteration".into(), costs.into());
    let embeddings = Embeddings::new(words, trained.dim, trained.vectors)?.with_metadata(Some(meta));
    retest_embeddings::write(model.output, &embeddings, format)?;
    writeln!(
        err,
        "wrote {} ({:.1} s in all)",
        model.output.display(),
        started.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// Trains one word2vec model (skip-gram or CBOW, negative sampling) and writes it with its
/// parameters and input checksum as metadata, with a progress bar and one summary line on stderr.
///
/// # Errors
///
/// The output is refused by the output policy, the input cannot be read or leaves no word, or
/// training or writing fails.
pub fn train_sgns_file(model: &SingleModel<'_>, params: &SgnsParams) -> Result<()> {
    let format = model.output_format()?;
    let started = std::time::Instant::now();
    let corpus = text_corpus(model.input, model.min_count)?;
    let read_secs = started.elapsed().as_secs_f64();
    let config = sgns_config(params);
    let seed = SeedPath::new(model.seed)
        .with("sgns")
        .with(config.architecture.as_str());
    let bar = indicatif::ProgressBar::new(corpus.tokens().len() as u64 * u64::from(params.epochs))
        .with_style(
            indicatif::ProgressStyle::with_template("train [{bar:30}] {percent:>3}% {per_sec} ETA {eta}")
                .expect("valid template")
                .progress_chars("=> "),
        );
    let train_started = std::time::Instant::now();
    let embedding = retest_sgns::train(
        &corpus.view(),
        corpus.vocab().counts(),
        &config,
        &seed,
        &mut |p| bar.set_position(p.words_done),
    )?;
    bar.finish_and_clear();
    let train_secs = train_started.elapsed().as_secs_f64();
    let words: Vec<String> = corpus.vocab().words().iter().map(|w| w.to_string()).collect();
    let mut meta = input_metadata(model, "sgns")?;
    meta.insert("architecture".into(), config.architecture.as_str().into());
    for (key, value) in [
        ("dim", i64::from(params.dim)),
        ("window", i64::from(params.window)),
        ("negative", i64::from(params.negative)),
        ("min_count", model.min_count as i64),
        ("epochs", i64::from(params.epochs)),
        ("seed", model.seed as i64),
    ] {
        meta.insert(key.into(), value.into());
    }
    meta.insert("sample".into(), params.sample.into());
    meta.insert("alpha".into(), params.alpha.into());
    meta.insert("min_alpha".into(), params.min_alpha.into());
    meta.insert("ns_exponent".into(), params.ns_exponent.into());
    meta.insert("deterministic".into(), true.into());
    meta.insert("threads".into(), 1i64.into());
    let embeddings = Embeddings::new(words, embedding.dim, embedding.vectors)?.with_metadata(Some(meta));
    retest_embeddings::write(model.output, &embeddings, format)?;
    let words_trained = corpus.tokens().len() as f64 * f64::from(params.epochs);
    writeln!(
        std::io::stderr(),
        "{} {} words × {} epochs, {} types: read {read_secs:.1} s, trained {train_secs:.1} s ({:.0} words/s, {}) → {}",
        config.architecture.as_str(),
        corpus.tokens().len(),
        params.epochs,
        corpus.vocab().len(),
        words_trained / train_secs,
        retest_sgns::simd_path(),
        model.output.display()
    )?;
    Ok(())
}

/// The metadata every single model starts with: version, algorithm, input and its checksum.
fn input_metadata(model: &SingleModel<'_>, algorithm: &str) -> Result<toml::Table> {
    let mut meta = toml::Table::new();
    meta.insert("retest_version".into(), env!("CARGO_PKG_VERSION").into());
    meta.insert("algorithm".into(), algorithm.into());
    meta.insert("input".into(), model.input.display().to_string().into());
    meta.insert(
        "input_sha256".into(),
        retest_data::sha256_file(model.input)?.into(),
    );
    Ok(meta)
}
