//! The measure job of one (corpus, algorithm) configuration: read every seed, score every rule,
//! base pair and target word into the score tensor, run the study designs of
//! `retest-analyses` on it, and write the tables (reliability, rule correlations, shares of poor
//! reliability, word properties, coverage, bias scores) into the configuration's folder; with a
//! plan's `set_level` section, also the set-level measures of every seed (`set_level.rs`).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use retest_analyses::{
    AlphaRecord, CorrelationRecord, IccRecord, Items, POOR_RELIABILITY, Raters, ShareRecord, Study, Subject,
    TargetSet,
};
use retest_embeddings::Format;
use retest_measures::{Model, PLACEHOLDER_WORDS, ScoreTensor, Scorer, Scoring, Vocab};
use retest_reliability::IccResult;
use retest_spec::Plan;
use retest_spec::defaults::ENSEMBLE_LIST;
use retest_tables::{
    AlphaRow, BiasTensor, CorrelationRow, CoverageRow, IccRow, IccStats, ShareRow, SubjectKind, Table,
    WordPropertyRow, write_bias_scores,
};
use serde::Serialize;

use crate::analogies::{self, Analogies, AnalogySeed};
use crate::base_pairs::{self, BasePairSeed, BasePairs};
use crate::corpus::LoadedCorpus;
use crate::layout::{DONE_FILE, Layout};
use crate::lists::{FULL, Lists, TargetList};
use crate::progress::Reporter;
use crate::set_level::{self, SeedValues, SetLevel};

/// The per-configuration tables every measure job writes.
const CORE_TABLES: &[&str] = &[
    "coverage",
    "bias_scores",
    "test_retest_words",
    "test_retest_pairs",
    "inter_rater_words",
    "inter_rater_pairs",
    "internal_consistency",
    "rule_correlations",
    "low_reliability",
    "word_properties",
];

/// Whether a configuration may lack table `name`: every table but the core ones comes from a
/// stage a plan opts into (`set_level`, `analogies`, `base_pairs`).
pub(crate) fn is_optional(name: &str) -> bool {
    !CORE_TABLES.contains(&name)
}

/// The per-configuration tables a measure job writes, in the order the aggregate stage reads
/// them: every job's, then the set-level stage's, the analogy stage's and the base-pair
/// stage's.
pub fn group_tables() -> impl Iterator<Item = &'static str> {
    (CORE_TABLES.iter())
        .chain(set_level::TABLES)
        .chain(analogies::TABLES)
        .chain(base_pairs::TABLES)
        .copied()
}

/// What a measure job records beside its tables.
#[derive(Debug, Serialize)]
pub struct MeasureSummary {
    pub corpus: String,
    pub algorithm: String,
    pub n_seeds: u32,
    pub n_words_scored: usize,
    pub n_pairs: usize,
    pub seconds_scoring: f64,
    pub seconds_stability: f64,
    pub seconds_reliability: f64,
    /// WEAT and Direct Bias on every seed, their spreads and ICCs, and the `pca` direction's
    /// alignment across seeds.
    pub seconds_set_level: f64,
    /// The analogy answers and Google accuracy of every seed, and their agreement across seeds.
    pub seconds_analogies: f64,
    /// The base-pair analyses of every seed, the seeds' agreement and the variance components.
    pub seconds_base_pairs: f64,
}

/// One configuration to measure.
#[derive(Debug)]
pub struct MeasureJob<'a> {
    pub corpus: &'a LoadedCorpus,
    /// The model's name ([`Plan::models`]).
    pub model: String,
    pub embeddings_dir: PathBuf,
    pub out_dir: PathBuf,
}

/// Runs one measure job with `threads` threads and writes its tables to `job.out_dir`
/// (through a temporary folder renamed into place).
///
/// # Errors
///
/// A seed file missing or unreadable, a seed whose vocabulary differs from the corpus's, a list
/// entirely out of vocabulary, fewer than two seeds, or a write failure.
pub fn measure(
    plan: &Plan,
    lists: &Lists,
    job: &MeasureJob<'_>,
    threads: usize,
    reporter: &Reporter,
) -> Result<()> {
    let corpus = job.corpus;
    let label = format!("{} {}", corpus.name(), job.model);
    let seed_files = seed_files(plan, job, &label)?;
    let words = corpus.words();
    let vocab = Vocab::new(&words)?;
    let resolved = Resolved::new(corpus, lists, &vocab)?;
    let set_level = SetLevel::new(plan, lists, corpus.name(), &job.model, &resolved.pair_ids, &vocab)?;
    for line in (set_level.iter()).flat_map(|l| l.skipped.iter().chain(&l.quality_note)) {
        reporter.log(line);
    }
    let analogies = Analogies::new(plan, lists.analogies.as_deref(), corpus.name(), &vocab)?;
    for line in analogies.iter().flat_map(|a| &a.notes) {
        reporter.log(line);
    }
    let base_pairs = BasePairs::new(
        plan,
        lists.base_pairs_analyses.as_ref(),
        corpus.name(),
        &job.model,
        &vocab,
    )?;
    for line in base_pairs.iter().flat_map(|b| &b.notes) {
        reporter.log(line);
    }

    let started = Instant::now();
    let scorer = Scoring {
        rules: &plan.measures.rules,
        ripa_target: plan.measures.ripa_target,
        nbm_k: plan.measures.nbm_k as usize,
        nbm_pool: plan.measures.nbm_pool,
        threads,
    }
    .for_vocabulary(&words, &lists.base_pairs.pairs);
    let seeds = score_seeds(
        &scorer,
        set_level.as_ref(),
        analogies.as_ref(),
        base_pairs.as_ref(),
        corpus,
        &words,
        &resolved,
        &seed_files,
        reporter,
        &label,
    )?;
    let seconds_scoring = started.elapsed().as_secs_f64()
        - seeds.seconds_set_level
        - seeds.seconds_analogies
        - seeds.seconds_base_pairs;

    let started = Instant::now();
    let views: Vec<&[f32]> = seeds.models.iter().map(Vec::as_slice).collect();
    let es =
        retest_geometry::embedding_stability_for(&views, words.len(), seeds.dim, &resolved.targets, threads)?;
    let seconds_stability = started.elapsed().as_secs_f64();
    reporter.log(&format!(
        "embedding stability of {label}: {seconds_stability:.1} s"
    ));

    let started = Instant::now();
    let ensemble = resolved.lists.iter().position(|l| l.name == ENSEMBLE_LIST);
    if ensemble.is_none() {
        reporter.log(&format!(
            "measure {label}: `{ENSEMBLE_LIST}` is not a target list, so there is no base-pair ensemble alpha"
        ));
    }
    let study = Study::new(&seeds.tensor, &resolved.lists, &resolved.queries);
    let scales = &plan.reliability.inter_rater_scale;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let designs = pool.install(|| Designs {
        test_retest_words: retest_analyses::test_retest_words(&study),
        test_retest_pairs: retest_analyses::test_retest_pairs(&study),
        inter_rater_words: retest_analyses::inter_rater_words(&study, scales),
        inter_rater_pairs: retest_analyses::inter_rater_pairs(&study, scales),
        alphas: retest_analyses::internal_consistency(&study, ensemble),
        correlations: retest_analyses::rule_correlations(&study),
    });
    let seconds_reliability = started.elapsed().as_secs_f64();

    let started = Instant::now();
    let set_level_tables = match &set_level {
        Some(set_level) => {
            let tables = set_level_tables(
                set_level,
                &seeds,
                &views,
                &resolved,
                &vocab,
                corpus.name(),
                &job.model,
            )?;
            reporter.log(&format!(
                "set-level measures of {label}: {:.1} s",
                seeds.seconds_set_level + started.elapsed().as_secs_f64()
            ));
            tables
        }
        None => Vec::new(),
    };
    let seconds_set_level = seeds.seconds_set_level + started.elapsed().as_secs_f64();

    let started = Instant::now();
    let analogy_tables = match &analogies {
        Some(a) => a.tables(corpus.name(), &job.model, &vocab, &seeds.analogies)?,
        None => Vec::new(),
    };
    let seconds_analogies = seeds.seconds_analogies + started.elapsed().as_secs_f64();
    if analogies.is_some() {
        reporter.log(&format!("analogies of {label}: {seconds_analogies:.1} s"));
    }

    let started = Instant::now();
    let base_pair_tables = match &base_pairs {
        Some(b) => b.tables(&seeds.base_pairs)?,
        None => Vec::new(),
    };
    let seconds_base_pairs = seeds.seconds_base_pairs + started.elapsed().as_secs_f64();
    if base_pairs.is_some() {
        reporter.log(&format!("base pairs of {label}: {seconds_base_pairs:.1} s"));
    }

    let labels = Labels {
        corpus: corpus.name(),
        algorithm: &job.model,
        rules: seeds.tensor.rules().iter().map(|r| r.as_str()).collect(),
        resolved: &resolved,
        words: &words,
    };
    let n_seeds = seeds.tensor.n_seeds() as f64;
    let properties: Vec<WordPropertyRow> = (resolved.targets.iter().enumerate())
        .map(|(t, &id)| WordPropertyRow {
            corpus: labels.corpus.to_owned(),
            algorithm: labels.algorithm.to_owned(),
            word: words[id as usize].clone(),
            frequency: corpus.vocab.count(id),
            nn_sim: seeds.nn_sum[t] / n_seeds,
            l2_norm: seeds.norm_sum[t] / n_seeds,
            es: es[t],
        })
        .collect();
    let coverage: Vec<CoverageRow> = (resolved.coverage.iter())
        .chain(set_level.iter().flat_map(|l| &l.coverage))
        .chain(analogies.iter().map(|a| &a.coverage))
        .chain(base_pairs.iter().flat_map(|b| &b.coverage))
        .cloned()
        .collect();
    let mut tables = vec![
        Table::from_rows("coverage", &coverage)?,
        Table::from_rows_in(
            "test_retest_words",
            SubjectKind::Word,
            &labels.icc_rows(&designs.test_retest_words),
        )?,
        Table::from_rows_in(
            "test_retest_pairs",
            SubjectKind::Pair,
            &labels.icc_rows(&designs.test_retest_pairs),
        )?,
        Table::from_rows_in(
            "inter_rater_words",
            SubjectKind::Word,
            &labels.icc_rows(&designs.inter_rater_words),
        )?,
        Table::from_rows_in(
            "inter_rater_pairs",
            SubjectKind::Pair,
            &labels.icc_rows(&designs.inter_rater_pairs),
        )?,
        Table::from_rows("internal_consistency", &labels.alpha_rows(&designs.alphas))?,
        Table::from_rows(
            "rule_correlations",
            &labels.correlation_rows(&designs.correlations),
        )?,
        Table::from_rows("low_reliability", &labels.share_rows(&designs))?,
        Table::from_rows("word_properties", &properties)?,
    ];
    tables.extend(set_level_tables);
    tables.extend(analogy_tables);
    tables.extend(base_pair_tables);

    // The bias scores of the listed words (every list but the full vocabulary, and the queries),
    // and of every word scored when the plan asks for the full tensor.
    let listed = resolved.listed();
    let listed_words: Vec<String> = listed.iter().map(|&t| labels.word(t)).collect();
    let listed_tensor = seeds.tensor.select_targets(&listed);
    let seed_ids: Vec<u32> = (0..plan.n_seeds).collect();
    let long_form = |words, tensor| BiasTensor {
        corpus: labels.corpus,
        algorithm: labels.algorithm,
        rules: &labels.rules,
        pairs: &resolved.pairs,
        words,
        seeds: &seed_ids,
        values: ScoreTensor::values(tensor),
    };
    let mut tensors = vec![("bias_scores", long_form(&listed_words, &listed_tensor))];
    let all_words: Vec<String>;
    if plan.reliability.full_vocabulary_tensor {
        all_words = resolved
            .targets
            .iter()
            .map(|&id| words[id as usize].clone())
            .collect();
        tensors.push(("bias_scores_full", long_form(&all_words, &seeds.tensor)));
    }
    let summary = MeasureSummary {
        corpus: labels.corpus.to_owned(),
        algorithm: labels.algorithm.to_owned(),
        n_seeds: plan.n_seeds,
        n_words_scored: resolved.targets.len(),
        n_pairs: resolved.pairs.len(),
        seconds_scoring,
        seconds_stability,
        seconds_reliability,
        seconds_set_level,
        seconds_analogies,
        seconds_base_pairs,
    };
    write_group(&job.out_dir, &mut tables, &tensors, &summary)
}

/// The set-level tables of one configuration from its seeds: with the `pca` direction's
/// stability (Procrustes onto seed 0) and, beside the set-level measures, each rule's mean
/// |score| over the neutral words when they are a target list.
fn set_level_tables(
    set_level: &SetLevel<'_>,
    seeds: &ScoredSeeds,
    views: &[&[f32]],
    resolved: &Resolved,
    vocab: &Vocab<'_>,
    corpus: &str,
    model: &str,
) -> Result<Vec<Table>> {
    let stability = set_level::pca_stability(views, &seeds.set_level, vocab.len(), seeds.dim)?;
    let rule_bias: Vec<(String, Vec<f64>)> = (resolved.lists.iter())
        .find(|l| l.name == set_level.neutral_list())
        .map(|l| {
            let rules = seeds.tensor.rules().iter().map(|r| r.as_str().to_owned());
            rules
                .zip(retest_analyses::mean_absolute_scores(&seeds.tensor, &l.targets))
                .collect()
        })
        .unwrap_or_default();
    set_level.tables(corpus, model, vocab, &seeds.set_level, &stability, &rule_bias)
}

/// The seed files of a job, checked: at least two, all present.
fn seed_files(plan: &Plan, job: &MeasureJob<'_>, label: &str) -> Result<Vec<PathBuf>> {
    if plan.n_seeds < 2 {
        bail!(
            "measure {label}: reliability across seeds needs at least 2 seeds, the plan has {} \
             (set `n_seeds` in {})",
            plan.n_seeds,
            plan.file.display()
        );
    }
    let files: Vec<PathBuf> = (0..plan.n_seeds)
        .map(|s| Layout::seed_file(&job.embeddings_dir, s))
        .collect();
    let missing: Vec<String> = files
        .iter()
        .filter(|p| !p.is_file())
        .map(|p| p.display().to_string())
        .collect();
    if !missing.is_empty() {
        bail!(
            "measure {label}: {} of {} seed files are missing (train them first): {}",
            missing.len(),
            files.len(),
            missing.join(", ")
        );
    }
    Ok(files)
}

/// What scoring every seed leaves: the score tensor, per-target sums over seeds of the nearest
/// neighbour's cosine and of the vector norm, the raw vectors for embedding stability, and
/// the set-level measures of every seed with the time they took.
struct ScoredSeeds {
    tensor: ScoreTensor,
    set_level: Vec<SeedValues>,
    seconds_set_level: f64,
    analogies: Vec<AnalogySeed>,
    seconds_analogies: f64,
    base_pairs: Vec<BasePairSeed>,
    seconds_base_pairs: f64,
    nn_sum: Vec<f64>,
    norm_sum: Vec<f64>,
    models: Vec<Vec<f32>>,
    dim: usize,
}

/// Reads and scores every seed file in turn.
#[allow(clippy::too_many_arguments)]
fn score_seeds(
    scorer: &Scorer<'_>,
    set_level: Option<&SetLevel<'_>>,
    analogies: Option<&Analogies<'_>>,
    base_pairs: Option<&BasePairs<'_>>,
    corpus: &LoadedCorpus,
    words: &[String],
    resolved: &Resolved,
    seed_files: &[PathBuf],
    reporter: &Reporter,
    label: &str,
) -> Result<ScoredSeeds> {
    let threads = scorer.threads();
    let n_targets = resolved.targets.len();
    let placeholders = retest_measures::placeholder_ids(words);
    let mut tensor = ScoreTensor::zeros(scorer.rules(), resolved.pairs.len(), n_targets, seed_files.len());
    let mut nn_sum = vec![0f64; n_targets];
    let mut norm_sum = vec![0f64; n_targets];
    let mut models = Vec::with_capacity(seed_files.len());
    let mut set_level_values = Vec::with_capacity(seed_files.len());
    let mut seconds_set_level = 0.0;
    let mut analogy_values = Vec::with_capacity(seed_files.len());
    let mut seconds_analogies = 0.0;
    let mut base_pair_values = Vec::with_capacity(seed_files.len());
    let mut seconds_base_pairs = 0.0;
    let mut dim = 0;
    for (s, path) in seed_files.iter().enumerate() {
        let emb = retest_embeddings::read(path, Some(Format::Fifu))?;
        if emb.words() != words {
            bail!(
                "{}: its vocabulary ({} words) is not the corpus's ({} words in {}); retrain with --force",
                path.display(),
                emb.n_words(),
                words.len(),
                corpus.prepared.vocab_path().display()
            );
        }
        dim = emb.dim();
        let started = Instant::now();
        let quality = set_level.map(|l| l.quality(&emb));
        seconds_set_level += started.elapsed().as_secs_f64();
        if let Some(analogies) = analogies {
            let started = Instant::now();
            analogy_values.push(
                analogies
                    .measure_seed(&emb)
                    .with_context(|| format!("analogies of {}", path.display()))?,
            );
            seconds_analogies += started.elapsed().as_secs_f64();
        }
        let (_, _, mut raw, _) = emb.into_parts();
        let model = Model::new(words, &raw, dim)?;
        let scores = scorer
            .score(&model, &resolved.pair_ids, &resolved.targets)
            .with_context(|| format!("scoring {}", path.display()))?;
        tensor.set_seed(s, &scores)?;
        if let Some(base_pairs) = base_pairs {
            let started = Instant::now();
            base_pair_values.push(
                base_pairs
                    .measure_seed(&model, s as u32, threads)
                    .with_context(|| format!("base pairs of {}", path.display()))?,
            );
            seconds_base_pairs += started.elapsed().as_secs_f64();
        }
        if let (Some(set_level), Some(quality)) = (set_level, quality) {
            let started = Instant::now();
            set_level_values.push(
                set_level
                    .measure_seed(&model, s as u32, quality)
                    .with_context(|| format!("set-level measures of {}", path.display()))?,
            );
            seconds_set_level += started.elapsed().as_secs_f64();
        }
        let searched;
        let nearest = match scores.nearest_similarity() {
            Some(sims) => sims,
            None => {
                searched =
                    retest_measures::nearest_similarity(&model, &resolved.targets, &placeholders, threads)
                        .with_context(|| format!("nearest neighbours in {}", path.display()))?;
                &searched
            }
        };
        for (t, &id) in resolved.targets.iter().enumerate() {
            nn_sum[t] += f64::from(nearest[t]);
            norm_sum[t] += model.norm(id);
        }
        // `<unk>` and `<raw_unk>` leave the Procrustes fits of embedding stability too: a zero
        // row adds exactly nothing to the cross-covariance, and they are never scored.
        for &id in &placeholders {
            raw[id as usize * dim..(id as usize + 1) * dim].fill(0.0);
        }
        models.push(raw);
        reporter.add_words(1);
        reporter.log(&format!(
            "measured {label} seed-{s:02} ({n_targets} words × {} pairs)",
            resolved.pairs.len()
        ));
    }
    Ok(ScoredSeeds {
        tensor,
        set_level: set_level_values,
        seconds_set_level,
        analogies: analogy_values,
        seconds_analogies,
        base_pairs: base_pair_values,
        seconds_base_pairs,
        nn_sum,
        norm_sum,
        models,
        dim,
    })
}

/// The records of every design of one configuration.
struct Designs {
    test_retest_words: Vec<IccRecord>,
    test_retest_pairs: Vec<IccRecord>,
    inter_rater_words: Vec<IccRecord>,
    inter_rater_pairs: Vec<IccRecord>,
    alphas: Vec<AlphaRecord>,
    correlations: Vec<CorrelationRecord>,
}

/// Turns the designs' records, which name everything by index, into table rows.
struct Labels<'a> {
    corpus: &'a str,
    algorithm: &'a str,
    rules: Vec<&'static str>,
    resolved: &'a Resolved,
    words: &'a [String],
}

impl Labels<'_> {
    /// The word at position `t` of the target axis.
    fn word(&self, t: usize) -> String {
        self.words[self.resolved.targets[t] as usize].clone()
    }

    /// The `rule` column: the rule whose seeds rate, or the rules that rate joined by `+`.
    fn raters(&self, raters: Raters) -> String {
        match raters {
            Raters::Seeds { rule } => self.rules[rule].to_owned(),
            Raters::Rules => self.rules.join("+"),
        }
    }

    fn icc_rows(&self, records: &[IccRecord]) -> Vec<IccRow> {
        records
            .iter()
            .map(|r| IccRow {
                corpus: self.corpus.to_owned(),
                algorithm: self.algorithm.to_owned(),
                rule: self.raters(r.raters),
                scale: r.scale.as_str().to_owned(),
                list: self.resolved.lists[r.list].name.clone(),
                subject: match r.subject {
                    Subject::Word(t) => retest_tables::Subject::Word(self.word(t)),
                    Subject::Pair(p) => {
                        let (male, female) = self.resolved.pairs[p].clone();
                        retest_tables::Subject::Pair { male, female }
                    }
                },
                stats: icc_stats(&r.result),
            })
            .collect()
    }

    fn alpha_rows(&self, records: &[AlphaRecord]) -> Vec<AlphaRow> {
        records
            .iter()
            .map(|r| {
                let query = match r.items {
                    Items::QueryWords { query } => &self.resolved.queries[query].name,
                    Items::BasePairs { list } => &self.resolved.lists[list].name,
                };
                let a = &r.result;
                AlphaRow {
                    corpus: self.corpus.to_owned(),
                    algorithm: self.algorithm.to_owned(),
                    rule: self.rules[r.rule].to_owned(),
                    query: query.clone(),
                    items: r.items.as_str().to_owned(),
                    alpha: a.value,
                    ci_low: a.ci_low,
                    ci_high: a.ci_high,
                    n_items: a.n_items as u32,
                    n_cases: a.n_cases as u32,
                    n_dropped: a.n_dropped as u32,
                    status: a.status.as_str().to_owned(),
                }
            })
            .collect()
    }

    fn correlation_rows(&self, records: &[CorrelationRecord]) -> Vec<CorrelationRow> {
        records
            .iter()
            .map(|r| CorrelationRow {
                corpus: self.corpus.to_owned(),
                algorithm: self.algorithm.to_owned(),
                list: self.resolved.lists[r.list].name.clone(),
                rule_a: self.rules[r.rule_a].to_owned(),
                rule_b: self.rules[r.rule_b].to_owned(),
                r: r.result.value,
                p_value: r.result.p_value,
                n_cells: r.result.n as u64,
                status: r.result.status.as_str().to_owned(),
            })
            .collect()
    }

    /// The shares of poor reliability of every ICC design.
    fn share_rows(&self, designs: &Designs) -> Vec<ShareRow> {
        let analyses = [
            ("test_retest", &designs.test_retest_words),
            ("test_retest", &designs.test_retest_pairs),
            ("inter_rater", &designs.inter_rater_words),
            ("inter_rater", &designs.inter_rater_pairs),
        ];
        let mut rows = Vec::new();
        for (analysis, records) in analyses {
            rows.extend(
                retest_analyses::low_reliability(records, POOR_RELIABILITY)
                    .iter()
                    .map(|s| self.share_row(analysis, s)),
            );
        }
        rows
    }

    fn share_row(&self, analysis: &str, s: &ShareRecord) -> ShareRow {
        ShareRow {
            corpus: self.corpus.to_owned(),
            algorithm: self.algorithm.to_owned(),
            analysis: analysis.to_owned(),
            rule: self.raters(s.raters),
            scale: s.scale.as_str().to_owned(),
            list: self.resolved.lists[s.list].name.clone(),
            subject: if s.words { "word" } else { "pair" }.to_owned(),
            threshold: POOR_RELIABILITY,
            n_rated: s.n_rated as u32,
            n_below: s.n_below as u32,
            share_below: s.share_below,
            n_undefined: s.n_undefined as u32,
        }
    }
}

pub(crate) fn icc_stats(r: &IccResult) -> IccStats {
    IccStats {
        icc: r.value,
        f_stat: r.f,
        df1: r.df1,
        df2: r.df2,
        p_value: r.p_value,
        ci_low: r.ci_low,
        ci_high: r.ci_high,
        n_subjects: r.n_subjects as u32,
        n_raters: r.n_raters as u32,
        n_dropped: r.n_dropped as u32,
        status: r.status.as_str().to_owned(),
    }
}

/// A measure job writes into `<TEMPORARY_PREFIX>XXXXXX` beside its output folder, then renames it.
const TEMPORARY_PREFIX: &str = ".measure-";
/// Length of the random part of that name (`tempfile`'s default, set explicitly).
const TEMPORARY_RANDOM_LEN: usize = 6;

/// Whether `name` is a measure job's temporary folder, `.measure-XXXXXX` with six random
/// letters or digits, as [`write_group`] names it.
pub(crate) fn is_temporary_name(name: &str) -> bool {
    name.strip_prefix(TEMPORARY_PREFIX).is_some_and(|random| {
        random.len() == TEMPORARY_RANDOM_LEN && random.bytes().all(|b| b.is_ascii_alphanumeric())
    })
}

/// Writes the tables and bias tensors into a temporary sibling folder, then renames it to `out`.
fn write_group(
    out: &Path,
    tables: &mut [Table],
    tensors: &[(&'static str, BiasTensor<'_>)],
    summary: &MeasureSummary,
) -> Result<()> {
    let parent = out.parent().context("measure folder has a parent")?;
    std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    let tmp = tempfile::Builder::new()
        .prefix(TEMPORARY_PREFIX)
        .rand_bytes(TEMPORARY_RANDOM_LEN)
        .tempdir_in(parent)
        .with_context(|| format!("cannot create a folder in {}", parent.display()))?;
    for table in tables.iter_mut() {
        table.write(tmp.path(), false)?;
    }
    for (name, tensor) in tensors {
        write_bias_scores(tmp.path(), name, tensor)?;
    }
    let json = serde_json::to_string_pretty(summary)? + "\n";
    retest_fs::write_atomic(&tmp.path().join(DONE_FILE), json.as_bytes())?;
    if out.exists() {
        std::fs::remove_dir_all(out).with_context(|| format!("cannot replace {}", out.display()))?;
    }
    Ok(retest_fs::publish_dir(&tmp.keep(), out)?)
}

/// The lists of a plan resolved against one corpus's vocabulary.
struct Resolved {
    /// Base pairs in vocabulary: ids and words.
    pair_ids: Vec<(u32, u32)>,
    pairs: Vec<(String, String)>,
    /// Every word scored, ascending ids: the whole vocabulary (less [`PLACEHOLDER_WORDS`]) when the
    /// plan lists `full`, else the union of the lists and queries.
    targets: Vec<u32>,
    /// Per target list, the positions in `targets` of its words, in list order.
    lists: Vec<TargetSet>,
    /// Per query, the positions in `targets` of its words.
    queries: Vec<TargetSet>,
    coverage: Vec<CoverageRow>,
}

impl Resolved {
    fn new(corpus: &LoadedCorpus, lists: &Lists, vocab: &Vocab<'_>) -> Result<Resolved> {
        let name = corpus.name();
        let mut coverage = Vec::new();
        let cover = |list: &str, kind: &str, n: usize, dropped: Vec<String>| {
            CoverageRow::of(name, list, kind, n, &dropped)
        };
        let pairs = lists
            .base_pairs
            .resolve(vocab)
            .with_context(|| format!("corpus `{name}`"))?;
        coverage.push(cover(
            &lists.base_pairs.name,
            "base_pairs",
            lists.base_pairs.pairs.len(),
            pairs.oov.iter().map(|(m, f)| format!("{m}:{f}")).collect(),
        ));
        let mut word_lists: Vec<(String, Option<Vec<u32>>)> = Vec::new();
        for list in &lists.targets {
            match list {
                TargetList::Full => word_lists.push((FULL.to_owned(), None)),
                TargetList::Words(w) => {
                    let r = w.resolve(vocab).with_context(|| format!("corpus `{name}`"))?;
                    coverage.push(cover(&w.name, "target_words", w.words.len(), r.oov));
                    word_lists.push((w.name.clone(), Some(r.ids)));
                }
            }
        }
        let mut query_ids = Vec::new();
        for q in &lists.queries {
            let r = q.resolve(vocab).with_context(|| format!("corpus `{name}`"))?;
            coverage.push(cover(&q.name, "query", q.words.len(), r.oov));
            query_ids.push((q.name.clone(), r.ids));
        }
        let everything: Vec<u32> = (0..vocab.len() as u32)
            .filter(|&id| !PLACEHOLDER_WORDS.contains(&vocab.word(id)))
            .collect();
        let targets: Vec<u32> = if word_lists.iter().any(|(_, ids)| ids.is_none()) {
            everything.clone()
        } else {
            let mut all: Vec<u32> = word_lists
                .iter()
                .flat_map(|(_, ids)| ids.iter().flatten().copied())
                .chain(query_ids.iter().flat_map(|(_, ids)| ids.iter().copied()))
                .collect();
            all.sort_unstable();
            all.dedup();
            all
        };
        let mut position = vec![usize::MAX; vocab.len()];
        for (i, &id) in targets.iter().enumerate() {
            position[id as usize] = i;
        }
        let at = |ids: &[u32]| -> Vec<usize> { ids.iter().map(|&id| position[id as usize]).collect() };
        let lists_pos = word_lists
            .iter()
            .map(|(list, ids)| TargetSet::new(list, at(ids.as_deref().unwrap_or(&everything))))
            .collect();
        let queries = query_ids
            .iter()
            .map(|(q, ids)| TargetSet::new(q, at(ids)))
            .collect();
        Ok(Resolved {
            pair_ids: pairs.ids,
            pairs: pairs.pairs,
            targets,
            lists: lists_pos,
            queries,
            coverage,
        })
    }

    /// Positions of the words of every list except `full`, and of the queries, ascending.
    fn listed(&self) -> Vec<usize> {
        let mut all: Vec<usize> = self
            .lists
            .iter()
            .filter(|l| l.name != FULL)
            .chain(&self.queries)
            .flat_map(|l| l.targets.iter().copied())
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }
}
