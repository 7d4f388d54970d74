//! How much memory a job of a pipeline needs, from the plan and a prepared corpus's size, and
//! the check that refuses a job this machine cannot hold before any work starts.
//!
//! The estimates count the large arrays each job holds at its peak (the figures are the
//! arrays' sizes, not a measurement; fixed costs of a few tens of MB are left out):
//!
//! * **SGNS training**: input and output vectors, `2 · V · d′ · 4` bytes with rows padded to 16
//!   floats (`d′`), and the encoded corpus, `4` bytes per token;
//! * **GloVe training**: `W` and `W̃` with their AdaGrad accumulators, `2 · V · d′ · 8` bytes,
//!   the co-occurrence records as read and as shuffled for training, 16 bytes each twice, and
//!   the encoded corpus while counting;
//! * **measurement**: every seed's vectors at once, `n_seeds · V · d · 4` bytes (alignment,
//!   stability and the reliability designs read them together), and the score tensor,
//!   `rules · pairs · T · n_seeds · 4`, where `T` is the number of target words (the whole
//!   vocabulary with the `full` list or `reliability.full_vocabulary_tensor`), once the lists
//!   are known.
//!
//! Measured against the peak resident memory of the Gutenberg pipeline's jobs (25,359 words,
//! dim 100, 32 seeds; `/usr/bin/time -v retest run-task gutenberg --index I` and `retest
//! measure gutenberg --jobs 1`): SGNS training 0.04 GB estimated, 0.07 GB measured; GloVe
//! training 0.50 / 0.54 GB; measurement 0.55 / 0.88 GB (the tables and one seed's working
//! copies come on top).

use std::path::Path;

use anyhow::{Result, bail};
use retest_data::PreparedCorpus;
use retest_measures::{RANDOM_SAMPLE_BYTES, WEAT_SAMPLED_PARTITION_BYTES};
use retest_spec::{Model, ModelFiles, ModelParams, Plan};

use crate::driver::cooccurrence::cooccurrence_path;
use crate::lists::{Lists, TargetList};

/// Floats per padded row block of both trainers.
const ROW_BLOCK: u64 = 16;

/// The size of a prepared corpus that the estimates need.
#[derive(Clone, Copy, Debug)]
pub struct CorpusSize {
    /// Words in the vocabulary.
    pub words: u64,
    /// Tokens of the encoded corpus.
    pub tokens: u64,
    /// Bytes of the largest co-occurrence file the corpus's GloVe models read, when counted;
    /// else it is bounded by the counting memory (`glove.memory_mb`) and the vocabulary.
    pub cooccurrence_bytes: Option<u64>,
}

impl CorpusSize {
    /// The size of a prepared corpus, with its largest counted co-occurrence file among the
    /// windows of `plan`'s GloVe models.
    pub fn of(plan: &Plan, prepared: &PreparedCorpus) -> CorpusSize {
        let stats = &prepared.stats.stats;
        let cooccurrence_bytes = plan
            .models()
            .iter()
            .filter_map(Model::cooccurrence_window)
            .filter_map(|w| std::fs::metadata(cooccurrence_path(&prepared.dir, w)).ok())
            .map(|m| m.len())
            .max();
        CorpusSize {
            words: stats.types,
            tokens: stats.tokens,
            cooccurrence_bytes,
        }
    }
}

/// What the measure jobs score, when the lists are known.
#[derive(Clone, Copy, Debug)]
pub struct ListSizes {
    /// Base pairs.
    pub pairs: usize,
    /// Target words of every list together; `None` for the whole vocabulary.
    pub targets: Option<usize>,
}

impl ListSizes {
    /// The base pairs and the target words of every list of `lists`.
    pub fn of(lists: &Lists) -> ListSizes {
        let mut words: Vec<&str> = Vec::new();
        let mut full = false;
        for list in &lists.targets {
            match list {
                TargetList::Full => full = true,
                TargetList::Words(list) => words.extend(list.words.iter().map(String::as_str)),
            }
        }
        words.sort_unstable();
        words.dedup();
        ListSizes {
            pairs: lists.base_pairs.pairs.len(),
            targets: (!full).then_some(words.len()),
        }
    }
}

/// One job's estimated peak memory and the plan field that drives it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Estimate {
    /// `train sgns`, `measure glove-big`, …
    pub job: String,
    pub bytes: u64,
    /// The field to lower to need less (`sgns.dim`, `n_seeds`, …).
    pub field: &'static str,
    /// How the figure is made up, for the message.
    pub detail: String,
}

/// The estimates of one corpus's jobs: a training job per model, then a measure job per
/// model and debiased copy (its score tensor counted when `lists` are known).
pub fn estimates(plan: &Plan, corpus: &CorpusSize, lists: Option<ListSizes>) -> Vec<Estimate> {
    let models = plan.models();
    let mut out: Vec<Estimate> = models.iter().map(|m| training(m, corpus)).collect();
    for model in &models {
        let estimate = measuring(plan, model, corpus, lists);
        // A debiased copy's job holds what its model's does (one seed's copy more).
        let copy = (plan.debiased_of(&model.name)).map(|name| Estimate {
            job: format!("measure {name}"),
            ..estimate.clone()
        });
        out.extend(std::iter::once(estimate).chain(copy));
    }
    out
}

fn padded(dim: u32) -> u64 {
    u64::from(dim).div_ceil(ROW_BLOCK) * ROW_BLOCK
}

fn training(model: &Model, corpus: &CorpusSize) -> Estimate {
    let v = corpus.words;
    let tokens = 4 * corpus.tokens;
    match &model.params {
        ModelParams::Sgns(p) => {
            let vectors = 2 * v * padded(p.dim) * 4;
            Estimate {
                job: format!("train {}", model.name),
                bytes: vectors + tokens,
                field: "sgns.dim",
                detail: format!(
                    "{} for 2 × {v} words × dim {} and {} for the corpus",
                    gigabytes(vectors),
                    p.dim,
                    gigabytes(tokens)
                ),
            }
        }
        ModelParams::Glove(p) => {
            let vectors = 2 * v * padded(p.dim) * 8;
            // Without the counted table: at most the counting budget's worth of records
            // spilled and merged, and never more than all V² pairs.
            let table = corpus
                .cooccurrence_bytes
                .unwrap_or_else(|| (p.memory_mb * (1 << 20)).min(16 * v.saturating_mul(v)));
            let records = 2 * table;
            Estimate {
                job: format!("train {}", model.name),
                bytes: vectors + records.max(tokens),
                field: "glove.dim",
                detail: format!(
                    "{} for 2 × {v} words × dim {} with their accumulators and {} for the \
                     co-occurrence records",
                    gigabytes(vectors),
                    p.dim,
                    gigabytes(records)
                ),
            }
        }
    }
}

fn measuring(plan: &Plan, model: &Model, corpus: &CorpusSize, lists: Option<ListSizes>) -> Estimate {
    let dim = match &model.params {
        ModelParams::Sgns(p) => p.dim,
        ModelParams::Glove(p) => p.dim,
    };
    let (v, seeds) = (corpus.words, u64::from(plan.n_seeds));
    let vectors = MeasuredVectors {
        bytes: seeds * v * u64::from(dim) * 4,
        words: v,
        seeds,
        detail: format!("{seeds} seeds × {v} words × dim {dim}"),
    };
    measure_job(plan, &model.name, vectors, lists, "n_seeds")
}

/// The vectors a measure job holds at once: their bytes, the words scored and the seeds, and
/// how the bytes are made up (`5 seeds × 1000 words × dim 300`).
struct MeasuredVectors {
    bytes: u64,
    words: u64,
    seeds: u64,
    detail: String,
}

/// The estimate of measure job `name`: its `vectors`, its score tensor (once `lists` are known)
/// and its sampling; `field` is what to lower to need less.
fn measure_job(
    plan: &Plan,
    name: &str,
    vectors: MeasuredVectors,
    lists: Option<ListSizes>,
    field: &'static str,
) -> Estimate {
    let (tensor, scores) = score_tensor(plan, vectors.words, vectors.seeds, lists);
    let (sampled, samples) = sampling(plan);
    Estimate {
        job: format!("measure {name}"),
        bytes: vectors.bytes + tensor + sampled,
        field,
        detail: format!(
            "{} for {}{scores}{samples}",
            gigabytes(vectors.bytes),
            vectors.detail
        ),
    }
}

/// The bytes of a measure job's score tensor over a vocabulary of `v` words and `seeds` seeds,
/// once the lists are known, and how they are made up (` and … for the scores of …`).
fn score_tensor(plan: &Plan, v: u64, seeds: u64, lists: Option<ListSizes>) -> (u64, String) {
    let Some(lists) = lists else {
        return (0, String::new());
    };
    let targets = match lists.targets {
        Some(t) if !plan.reliability.full_vocabulary_tensor => (t as u64).min(v),
        _ => v,
    };
    let rules = plan.measures.rules.len() as u64;
    let tensor = rules * lists.pairs as u64 * targets * seeds * 4;
    let detail = format!(
        " and {} for the scores of {rules} rules × {} pairs × {targets} words",
        gigabytes(tensor),
        lists.pairs
    );
    (tensor, detail)
}

/// The bytes a measure job's sampling keeps at most (WEAT's drawn partitions of one test, the
/// base-pair baselines' cosines of one seed), and, when they reach 0.01 GB, how they are made
/// up (` and … for sampling …`).
fn sampling(plan: &Plan) -> (u64, String) {
    let weat = plan.set_level.as_ref().map_or(0, |s| s.samples);
    let random = plan.base_pairs.as_ref().map_or(0, |b| b.random_samples as u64);
    let bytes = weat * WEAT_SAMPLED_PARTITION_BYTES + random * RANDOM_SAMPLE_BYTES;
    if bytes < 10_000_000 {
        return (bytes, String::new());
    }
    let detail = format!(
        " and {} for sampling ({weat} WEAT partitions (set_level.samples), {random} random pairs \
         (base_pairs.random_samples))",
        gigabytes(bytes)
    );
    (bytes, detail)
}

/// The field an estimate of a model read from files names: fewer files, or smaller ones.
const MODEL_FILES_FIELD: &str = "models[].files";

/// The measure job of a model read from files, whose files have `shapes` (words, dimension):
/// every file's vectors at once (as read, before their vocabularies are intersected), and the
/// score tensor over the smallest vocabulary, as [`estimates`] counts them.
pub fn model_files_estimate(
    plan: &Plan,
    model: &ModelFiles,
    shapes: &[(usize, usize)],
    lists: Option<ListSizes>,
) -> Estimate {
    let (v, dim) = shapes
        .iter()
        .fold((usize::MAX, 0), |(v, _), &(n, d)| (v.min(n), d));
    let seeds = shapes.len();
    let largest = shapes.iter().map(|s| s.0).max().unwrap_or(0);
    let vectors = MeasuredVectors {
        bytes: shapes.iter().map(|&(n, d)| (n * d * 4) as u64).sum(),
        words: v as u64,
        seeds: seeds as u64,
        detail: format!("{seeds} files of up to {largest} words × dim {dim}"),
    };
    measure_job(plan, &model.name, vectors, lists, MODEL_FILES_FIELD)
}

/// `1.25 GB`.
pub fn gigabytes(bytes: u64) -> String {
    format!("{:.2} GB", bytes as f64 / 1e9)
}

/// This machine's memory (`MemTotal` of `/proc/meminfo`), when it can be read.
pub fn machine_memory() -> Option<u64> {
    memory_total(&std::fs::read_to_string(Path::new("/proc/meminfo")).ok()?)
}

fn memory_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Refuses a job of `plan` on the prepared corpus that needs more memory than this machine
/// has (when its memory can be read), before any training; the caller names the corpus.
///
/// # Errors
///
/// See [`check`].
pub fn check_prepared(plan: &Plan, prepared: &PreparedCorpus, lists: Option<ListSizes>) -> Result<()> {
    match machine_memory() {
        Some(available) => check(
            &estimates(plan, &CorpusSize::of(plan, prepared), lists),
            available,
        ),
        None => Ok(()),
    }
}

/// Refuses the first job that needs more than `available` bytes, naming the job, the estimate,
/// how it is made up and the field that drives it.
///
/// # Errors
///
/// A job whose estimate exceeds `available`.
pub fn check(estimates: &[Estimate], available: u64) -> Result<()> {
    if let Some(e) = estimates.iter().find(|e| e.bytes > available) {
        // A model read from files has no `min_count` to raise.
        let vocabulary = if e.field == MODEL_FILES_FIELD {
            ""
        } else {
            " (or raise `min_count` to shrink the vocabulary)"
        };
        bail!(
            "job `{}` would need about {} ({}), more than this machine's {}: lower `{}`{vocabulary}",
            e.job,
            gigabytes(e.bytes),
            e.detail,
            gigabytes(available),
            e.field
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(text: &str) -> Plan {
        let dir = tempfile::tempdir().unwrap();
        let recipes = dir.path().join("corpora");
        std::fs::create_dir_all(&recipes).unwrap();
        std::fs::write(
            recipes.join("c.yaml"),
            "name: c\nreader: {format: wikitext}\nsources:\n  - file: c.tokens\n",
        )
        .unwrap();
        let file = dir.path().join("p.yaml");
        std::fs::write(&file, text).unwrap();
        Plan::load(&file, &retest_spec::RecipeFolder { dir: recipes }).unwrap()
    }

    const CORPUS: CorpusSize = CorpusSize {
        words: 100_000,
        tokens: 50_000_000,
        cooccurrence_bytes: Some(1_600_000_000),
    };

    #[test]
    fn each_job_counts_its_large_arrays() {
        let plan = plan(
            "name: p\nn_seeds: 32\ncorpora:\n  - recipe: c\nalgorithms: [sgns, glove]\n\
             sgns: {dim: 300}\nglove: {dim: 300}\nreliability: {full_vocabulary_tensor: true}\n",
        );
        let lists = ListSizes {
            pairs: 23,
            targets: Some(1_000),
        };
        let e = estimates(&plan, &CORPUS, Some(lists));
        let bytes: Vec<(&str, u64)> = e.iter().map(|e| (e.job.as_str(), e.bytes)).collect();
        // d′ = 304; SGNS 2·1e5·304·4 + 4·5e7; GloVe 2·1e5·304·8 + 2·1.6e9;
        // measure 32·1e5·300·4 + 3·23·1e5·32·4.
        assert_eq!(
            bytes,
            [
                ("train sgns", 243_200_000 + 200_000_000),
                ("train glove", 486_400_000 + 3_200_000_000),
                ("measure sgns", 3_840_000_000 + 883_200_000),
                ("measure glove", 3_840_000_000 + 883_200_000),
            ]
        );
    }

    #[test]
    fn the_score_tensor_covers_the_listed_words_or_the_vocabulary() {
        let plan =
            plan("name: p\nn_seeds: 10\ncorpora:\n  - recipe: c\nalgorithms: [sgns]\nsgns: {dim: 100}\n");
        let measure = |targets| {
            let lists = ListSizes { pairs: 2, targets };
            estimates(&plan, &CORPUS, Some(lists))[1].bytes - 10 * 100_000 * 100 * 4
        };
        assert_eq!(measure(Some(500)), 3 * 2 * 500 * 10 * 4);
        assert_eq!(measure(None), 3 * 2 * 100_000 * 10 * 4);
        assert_eq!(estimates(&plan, &CORPUS, None)[1].bytes, 10 * 100_000 * 100 * 4);
    }

    #[test]
    fn sampling_is_counted_and_named_from_0_01_gb() {
        let base = "name: p\nn_seeds: 10\ncorpora:\n  - recipe: c\nalgorithms: [sgns]\nsgns: {dim: 100}\n";
        let vectors = 10 * 100_000 * 100 * 4;
        let measure = |extra: &str| estimates(&plan(&format!("{base}{extra}")), &CORPUS, None).remove(1);
        let defaults = measure("set_level: {tests: [weat6]}\nbase_pairs: {}\n");
        assert_eq!(defaults.bytes, vectors + 100_000 * 64 + 100_000 * 16);
        assert_eq!(defaults.detail, "0.40 GB for 10 seeds × 100000 words × dim 100");
        let large = measure(
            "set_level: {tests: [weat6], samples: 10000000}\nbase_pairs: {random_samples: 10000000}\n",
        );
        assert_eq!(large.bytes, vectors + 10_000_000 * (64 + 16));
        assert_eq!(
            large.detail,
            "0.40 GB for 10 seeds × 100000 words × dim 100 and 0.80 GB for sampling (10000000 WEAT \
             partitions (set_level.samples), 10000000 random pairs (base_pairs.random_samples))"
        );
    }

    #[test]
    fn a_job_beyond_the_machine_is_refused_with_its_field() {
        let plan =
            plan("name: p\nn_seeds: 32\ncorpora:\n  - recipe: c\nalgorithms: [sgns]\nsgns: {dim: 300}\n");
        let e = estimates(&plan, &CORPUS, None);
        assert!(check(&e, 8_000_000_000).is_ok());
        assert_eq!(
            check(&e, 2_000_000_000).unwrap_err().to_string(),
            "job `measure sgns` would need about 3.84 GB (3.84 GB for 32 seeds × 100000 words × dim \
             300), more than this machine's 2.00 GB: lower `n_seeds` (or raise `min_count` to shrink \
             the vocabulary)"
        );
    }

    #[test]
    fn machine_memory_is_read_from_meminfo() {
        assert_eq!(
            memory_total("MemTotal:       24578636 kB\nMemFree: 1 kB\n"),
            Some(24_578_636 * 1024)
        );
        assert_eq!(memory_total("nothing"), None);
    }
}
