//! The measure job of one (corpus, algorithm) configuration: score every rule, base pair and
//! target word on every seed (the bias tensor B), and compute the reliability tables, the word
//! properties of the regression, and the coverage of every list.
//!
//! Subjects and raters follow Du, Fang & Nguyen (2021) (`reliability_metrics.py`):
//!
//! | table | per | matrix (rows = subjects × columns = raters) | estimator |
//! |---|---|---|---|
//! | `test_retest_words` | rule, word | base pairs × seeds | ICC(2,1) |
//! | `test_retest_pairs` | rule, list, pair | list words × seeds | ICC(2,1) |
//! | `inter_rater_words` | scale, word | base pairs × rules (seed means) | ICC(3,1) |
//! | `inter_rater_pairs` | scale, list, pair | list words × rules (seed means) | ICC(3,1) |
//! | `internal_consistency` | rule, query | base pairs (cases) × query words (items), seed means | Cronbach's α |
//! | `internal_consistency` | rule, `google10k` | words (cases) × base pairs (items), seed means | Cronbach's α |
//!
//! With `scale = zscore` every rule's column of an inter-rater matrix is standardised (mean 0,
//! standard deviation 1 over the matrix's subjects) before the ICC, so rules on different
//! scales weigh equally; `raw` uses the scores as they are, as the original study did.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use rayon::prelude::*;
use retest_embeddings::Format;
use retest_measures::{
    Model, NeighbourPool, PLACEHOLDER_WORDS, RipaTarget, Rule, ScoreOptions, Vocab, score,
};
use retest_reliability::{AlphaResult, IccResult, Matrix, cronbach_alpha, icc2_1, icc3_1};
use retest_spec::{Algorithm, InterRaterScale, NbmPool, Plan};
use retest_tables::{
    AlphaRow, BiasTensor, CoverageRow, IccRow, IccStats, Subject, SubjectKind, Table, WordPropertyRow,
    alpha_table, coverage_table, icc_table, word_properties_table, write_bias_scores,
};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::corpus::LoadedCorpus;
use crate::layout::Layout;
use crate::lists::{FULL, Lists, TargetList};
use crate::progress::Reporter;

/// The per-configuration tables a measure job writes, in the order the aggregate stage reads
/// them.
pub const GROUP_TABLES: &[&str] = &[
    "coverage",
    "bias_scores",
    "test_retest_words",
    "test_retest_pairs",
    "inter_rater_words",
    "inter_rater_pairs",
    "internal_consistency",
    "word_properties",
];

/// The file a finished measure job writes last; its presence marks the job done.
pub const DONE_FILE: &str = "measure.json";

/// The list whose words are the cases of the base-pair ensemble's alpha.
pub const ENSEMBLE_LIST: &str = "google10k";

/// Version of what the measure stage computes beyond its parameters (NBM's pool without the
/// placeholder words, `nn_sim` always computed): part of the measure folder's hash, so a change to
/// it never reuses older tables.
const MEASURE_SCHEME: u32 = 2;

/// The output folder of the measure job of one configuration: its name hashes everything the
/// tables depend on (the embeddings folder, which hashes corpus, parameters and seed; the
/// number of seeds; the measure and reliability parameters; the lists' contents).
pub fn measure_dir(
    layout: &Layout,
    plan: &Plan,
    corpus: &str,
    embeddings_dir: &Path,
    lists: &Lists,
) -> PathBuf {
    let key = serde_json::json!({
        "scheme": MEASURE_SCHEME,
        "embeddings": embeddings_dir.file_name().map(|n| n.to_string_lossy().into_owned()),
        "n_seeds": plan.n_seeds,
        "measures": plan.measures,
        "reliability": plan.reliability,
        "lists": lists.files.iter().map(|(name, _, sha)| (name, sha)).collect::<Vec<_>>(),
    });
    let hash = hex::encode(Sha256::digest(key.to_string().as_bytes()));
    let algorithm = embeddings_dir
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.split('-').next())
        .unwrap_or("model");
    layout
        .run
        .join("measure")
        .join(corpus)
        .join(format!("{algorithm}-{}", &hash[..12]))
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
}

/// One configuration to measure.
#[derive(Debug)]
pub struct MeasureJob<'a> {
    pub corpus: &'a LoadedCorpus,
    pub algorithm: Algorithm,
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
    let algorithm = job.algorithm.as_str();
    let label = format!("{} {algorithm}", corpus.name());
    if plan.n_seeds < 2 {
        bail!(
            "measure {label}: reliability across seeds needs at least 2 seeds, the plan has {} \
             (set `n_seeds` in {})",
            plan.n_seeds,
            plan.file.display()
        );
    }
    let seed_files: Vec<PathBuf> = (0..plan.n_seeds)
        .map(|s| Layout::seed_file(&job.embeddings_dir, s))
        .collect();
    let missing: Vec<String> = seed_files
        .iter()
        .filter(|p| !p.is_file())
        .map(|p| p.display().to_string())
        .collect();
    if !missing.is_empty() {
        bail!(
            "measure {label}: {} of {} seed files are missing (train them first): {}",
            missing.len(),
            seed_files.len(),
            missing.join(", ")
        );
    }

    let words = corpus.words();
    let vocab = Vocab::new(&words)?;
    let resolved = Resolved::new(corpus, lists, &vocab)?;
    let rules: Vec<Rule> = plan.measures.rules.iter().map(|&r| measure_rule(r)).collect();
    let rule_names: Vec<&str> = rules.iter().map(|r| r.as_str()).collect();
    let n_seeds = plan.n_seeds as usize;
    let (n_rules, n_pairs, n_targets) = (rules.len(), resolved.pairs.len(), resolved.targets.len());

    // B[rule][pair][target][seed], and per-target sums over seeds.
    let started = Instant::now();
    let mut tensor = vec![0f32; n_rules * n_pairs * n_targets * n_seeds];
    let mut nn_sum = vec![0f64; n_targets];
    let mut norm_sum = vec![0f64; n_targets];
    let mut models: Vec<Vec<f32>> = Vec::with_capacity(n_seeds);
    let mut dim = 0;
    let placeholders = retest_measures::placeholder_ids(&words);
    let pool_kind = match plan.measures.nbm_pool {
        NbmPool::Vocabulary => retest_measures::NbmPool::Vocabulary,
        NbmPool::Neutral => retest_measures::NbmPool::Neutral,
    };
    let gendered = lists
        .base_pairs
        .pairs
        .iter()
        .flat_map(|(m, f)| [m.as_str(), f.as_str()]);
    let pool_ids = NeighbourPool::ids_for(pool_kind, &words, gendered);
    let pool = NeighbourPool::of_kind(pool_kind, &pool_ids);
    let opts = ScoreOptions {
        ripa_target: match plan.measures.ripa_target {
            retest_spec::RipaTarget::Raw => RipaTarget::Raw,
            retest_spec::RipaTarget::Normalized => RipaTarget::Normalized,
        },
        nbm_k: plan.measures.nbm_k as usize,
        nbm_pool: pool,
        threads,
    };
    for (s, path) in seed_files.iter().enumerate() {
        let emb = retest_embeddings::read(path, Some(Format::Fifu))?;
        if emb.words() != words.as_slice() {
            bail!(
                "{}: its vocabulary ({} words) is not the corpus's ({} words in {}); retrain with --force",
                path.display(),
                emb.n_words(),
                words.len(),
                corpus.prepared.vocab_path().display()
            );
        }
        dim = emb.dim();
        let (_, _, raw, _) = emb.into_parts();
        let model = Model::new(&words, &raw, dim)?;
        let scores = score(&model, &resolved.pair_ids, &resolved.targets, &rules, &opts)
            .with_context(|| format!("scoring {}", path.display()))?;
        for (i, v) in scores.values().iter().enumerate() {
            tensor[i * n_seeds + s] = *v;
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
        nn_sum
            .iter_mut()
            .zip(nearest)
            .for_each(|(a, &b)| *a += f64::from(b));
        for (t, &id) in resolved.targets.iter().enumerate() {
            norm_sum[t] += model.norm(id);
        }
        // `<unk>` and `<raw_unk>` leave the Procrustes fits of embedding stability too: a zero
        // row adds exactly nothing to the cross-covariance, and they are never scored.
        let mut raw = raw;
        for &id in &placeholders {
            raw[id as usize * dim..(id as usize + 1) * dim].fill(0.0);
        }
        models.push(raw);
        reporter.add_words(1);
        reporter.log(&format!(
            "measured {label} seed-{s:02} ({n_targets} words × {n_pairs} pairs)"
        ));
    }
    let seconds_scoring = started.elapsed().as_secs_f64();

    let started = Instant::now();
    let views: Vec<&[f32]> = models.iter().map(Vec::as_slice).collect();
    let es = retest_geometry::embedding_stability_for(&views, words.len(), dim, &resolved.targets, threads)?;
    drop(models);
    let seconds_stability = started.elapsed().as_secs_f64();
    reporter.log(&format!(
        "embedding stability of {label}: {seconds_stability:.1} s"
    ));

    let started = Instant::now();
    let b = Tensor {
        values: &tensor,
        n_pairs,
        n_targets,
        n_seeds,
    };
    let means = b.seed_means(n_rules);
    let key = Key {
        corpus: corpus.name(),
        algorithm,
    };
    let pair_subjects: Vec<Subject> = resolved
        .pairs
        .iter()
        .map(|(m, f)| Subject::Pair {
            male: m.clone(),
            female: f.clone(),
        })
        .collect();

    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let (test_retest_words, test_retest_pairs, inter_rater_words, inter_rater_pairs, alphas) =
        pool.install(|| {
            // Test-retest per word: pairs × seeds.
            let per_word: Vec<Vec<IccStats>> = (0..n_rules)
                .map(|r| {
                    (0..n_targets)
                        .into_par_iter()
                        .map(|t| {
                            let m: Vec<f64> = (0..n_pairs).flat_map(|p| b.seeds(r, p, t)).collect();
                            stats(&icc2_1(matrix(&m, n_pairs, n_seeds)))
                        })
                        .collect()
                })
                .collect();
            let mut trw = Vec::new();
            for (r, name) in rule_names.iter().enumerate() {
                for (list, ids) in &resolved.lists {
                    for &t in ids {
                        trw.push(key.row(
                            name,
                            "raw",
                            list,
                            Subject::Word(words_of(&resolved, t, &words)),
                            &per_word[r][t],
                        ));
                    }
                }
            }
            // Test-retest per pair and list: list words × seeds.
            let mut trp = Vec::new();
            for (r, name) in rule_names.iter().enumerate() {
                for (list, ids) in &resolved.lists {
                    let rows: Vec<IccStats> = (0..n_pairs)
                        .into_par_iter()
                        .map(|p| {
                            let m: Vec<f64> = ids.iter().flat_map(|&t| b.seeds(r, p, t)).collect();
                            stats(&icc2_1(matrix(&m, ids.len(), n_seeds)))
                        })
                        .collect();
                    for (p, st) in rows.iter().enumerate() {
                        trp.push(key.row(name, "raw", list, pair_subjects[p].clone(), st));
                    }
                }
            }
            // Inter-rater: seed means, rules as raters.
            let raters = rule_names.join("+");
            let mut irw = Vec::new();
            let mut irp = Vec::new();
            for &scale in &plan.reliability.inter_rater_scale {
                let per_word: Vec<IccStats> = (0..n_targets)
                    .into_par_iter()
                    .map(|t| {
                        let mut m: Vec<f64> = (0..n_pairs)
                            .flat_map(|p| (0..n_rules).map(move |r| (p, r)))
                            .map(|(p, r)| means[(r * n_pairs + p) * n_targets + t])
                            .collect();
                        rescale(&mut m, n_pairs, n_rules, scale);
                        stats(&icc3_1(matrix(&m, n_pairs, n_rules)))
                    })
                    .collect();
                for (list, ids) in &resolved.lists {
                    for &t in ids {
                        let subject = Subject::Word(words_of(&resolved, t, &words));
                        irw.push(key.row(&raters, scale.as_str(), list, subject, &per_word[t]));
                    }
                    let rows: Vec<IccStats> = (0..n_pairs)
                        .into_par_iter()
                        .map(|p| {
                            let mut m: Vec<f64> = ids
                                .iter()
                                .flat_map(|&t| (0..n_rules).map(move |r| (r, t)))
                                .map(|(r, t)| means[(r * n_pairs + p) * n_targets + t])
                                .collect();
                            rescale(&mut m, ids.len(), n_rules, scale);
                            stats(&icc3_1(matrix(&m, ids.len(), n_rules)))
                        })
                        .collect();
                    for (p, st) in rows.iter().enumerate() {
                        irp.push(key.row(&raters, scale.as_str(), list, pair_subjects[p].clone(), st));
                    }
                }
            }
            // Internal consistency.
            let mut alphas = Vec::new();
            for (r, name) in rule_names.iter().enumerate() {
                let mean = |p: usize, t: usize| means[(r * n_pairs + p) * n_targets + t];
                for (query, ids) in &resolved.queries {
                    let m: Vec<f64> = (0..n_pairs)
                        .flat_map(|p| ids.iter().map(move |&t| mean(p, t)))
                        .collect();
                    alphas.push(key.alpha(
                        name,
                        query,
                        "query_words",
                        &cronbach_alpha(matrix(&m, n_pairs, ids.len())),
                    ));
                }
                if let Some((_, ids)) = resolved.lists.iter().find(|(l, _)| l == ENSEMBLE_LIST) {
                    let m: Vec<f64> = ids
                        .iter()
                        .flat_map(|&t| (0..n_pairs).map(move |p| mean(p, t)))
                        .collect();
                    let result = cronbach_alpha(matrix(&m, ids.len(), n_pairs));
                    alphas.push(key.alpha(name, ENSEMBLE_LIST, "base_pairs", &result));
                }
            }
            (trw, trp, irw, irp, alphas)
        });
    if !resolved.lists.iter().any(|(l, _)| l == ENSEMBLE_LIST) {
        reporter.log(&format!(
            "measure {label}: `{ENSEMBLE_LIST}` is not a target list, so there is no base-pair ensemble alpha"
        ));
    }
    let seconds_reliability = started.elapsed().as_secs_f64();

    let properties: Vec<WordPropertyRow> = (0..n_targets)
        .map(|t| WordPropertyRow {
            corpus: corpus.name().to_owned(),
            algorithm: algorithm.to_owned(),
            word: words[resolved.targets[t] as usize].clone(),
            frequency: corpus.vocab.count(resolved.targets[t]),
            nn_sim: nn_sum[t] / n_seeds as f64,
            l2_norm: norm_sum[t] / n_seeds as f64,
            es: es[t],
        })
        .collect();

    // The bias tensor of the listed words (every list but the full vocabulary, and the queries).
    let listed = resolved.listed();
    let listed_words: Vec<String> = listed.iter().map(|&t| words_of(&resolved, t, &words)).collect();
    let mut listed_values = Vec::with_capacity(n_rules * n_pairs * listed.len() * n_seeds);
    for r in 0..n_rules {
        for p in 0..n_pairs {
            for &t in &listed {
                listed_values.extend(b.seeds(r, p, t).map(|v| v as f32));
            }
        }
    }
    let seeds: Vec<u32> = (0..plan.n_seeds).collect();
    let listed_tensor = BiasTensor {
        corpus: corpus.name(),
        algorithm,
        rules: &rule_names,
        pairs: &resolved.pairs,
        words: &listed_words,
        seeds: &seeds,
        values: &listed_values,
    };

    let mut tables = vec![
        coverage_table(&resolved.coverage)?,
        icc_table("test_retest_words", SubjectKind::Word, &test_retest_words)?,
        icc_table("test_retest_pairs", SubjectKind::Pair, &test_retest_pairs)?,
        icc_table("inter_rater_words", SubjectKind::Word, &inter_rater_words)?,
        icc_table("inter_rater_pairs", SubjectKind::Pair, &inter_rater_pairs)?,
        alpha_table(&alphas)?,
        word_properties_table(&properties)?,
    ];
    let all: Vec<String>;
    let mut tensors = vec![("bias_scores", listed_tensor)];
    if plan.reliability.full_vocabulary_tensor {
        all = resolved
            .targets
            .iter()
            .map(|&t| words[t as usize].clone())
            .collect();
        let full = BiasTensor {
            words: &all,
            values: &tensor,
            ..listed_tensor
        };
        tensors.push(("bias_scores_full", full));
    }
    let summary = MeasureSummary {
        corpus: corpus.name().to_owned(),
        algorithm: algorithm.to_owned(),
        n_seeds: plan.n_seeds,
        n_words_scored: n_targets,
        n_pairs,
        seconds_scoring,
        seconds_stability,
        seconds_reliability,
    };
    write_group(&job.out_dir, &mut tables, &tensors, &summary)
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
        .prefix(".measure-")
        .tempdir_in(parent)
        .with_context(|| format!("cannot create a folder in {}", parent.display()))?;
    for table in tables.iter_mut() {
        table.write(tmp.path(), false)?;
    }
    for (name, tensor) in tensors {
        write_bias_scores(tmp.path(), name, tensor)?;
    }
    let json = serde_json::to_string_pretty(summary)?;
    std::fs::write(tmp.path().join(DONE_FILE), json + "\n")?;
    if out.exists() {
        std::fs::remove_dir_all(out).with_context(|| format!("cannot replace {}", out.display()))?;
    }
    let tmp = tmp.keep();
    std::fs::rename(&tmp, out)
        .with_context(|| format!("cannot move {} to {}", tmp.display(), out.display()))?;
    Ok(())
}

fn measure_rule(rule: retest_spec::Rule) -> Rule {
    match rule {
        retest_spec::Rule::Dbwa => Rule::Dbwa,
        retest_spec::Rule::Ripa => Rule::Ripa,
        retest_spec::Rule::Nbm => Rule::Nbm,
    }
}

fn words_of(resolved: &Resolved, t: usize, words: &[String]) -> String {
    words[resolved.targets[t] as usize].clone()
}

fn matrix(data: &[f64], rows: usize, cols: usize) -> Matrix<'_> {
    Matrix::new(data, rows, cols).expect("the data has rows × cols values")
}

/// Standardises every column of a row-major `rows × cols` matrix (`zscore`), or leaves it.
/// A constant column becomes all zeros.
fn rescale(m: &mut [f64], rows: usize, cols: usize, scale: InterRaterScale) {
    if scale == InterRaterScale::Raw || rows < 2 {
        return;
    }
    for c in 0..cols {
        let mean = (0..rows).map(|r| m[r * cols + c]).sum::<f64>() / rows as f64;
        let var = (0..rows).map(|r| (m[r * cols + c] - mean).powi(2)).sum::<f64>() / (rows - 1) as f64;
        let sd = var.sqrt();
        for r in 0..rows {
            let v = &mut m[r * cols + c];
            *v = if sd > 0.0 { (*v - mean) / sd } else { 0.0 };
        }
    }
}

fn stats(r: &IccResult) -> IccStats {
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

/// The bias tensor `[rule][pair][target][seed]`.
struct Tensor<'a> {
    values: &'a [f32],
    n_pairs: usize,
    n_targets: usize,
    n_seeds: usize,
}

impl Tensor<'_> {
    /// The scores of one (rule, pair, target) over the seeds, widened to f64.
    fn seeds(&self, r: usize, p: usize, t: usize) -> impl Iterator<Item = f64> + '_ {
        let start = ((r * self.n_pairs + p) * self.n_targets + t) * self.n_seeds;
        self.values[start..start + self.n_seeds]
            .iter()
            .map(|&v| f64::from(v))
    }

    /// Seed means, `[rule][pair][target]`, summed in seed order.
    fn seed_means(&self, n_rules: usize) -> Vec<f64> {
        self.values[..n_rules * self.n_pairs * self.n_targets * self.n_seeds]
            .chunks_exact(self.n_seeds)
            .map(|c| c.iter().map(|&v| f64::from(v)).sum::<f64>() / self.n_seeds as f64)
            .collect()
    }
}

/// The corpus and algorithm columns of every row of one job.
struct Key<'a> {
    corpus: &'a str,
    algorithm: &'a str,
}

impl Key<'_> {
    fn row(&self, rule: &str, scale: &str, list: &str, subject: Subject, stats: &IccStats) -> IccRow {
        IccRow {
            corpus: self.corpus.to_owned(),
            algorithm: self.algorithm.to_owned(),
            rule: rule.to_owned(),
            scale: scale.to_owned(),
            list: list.to_owned(),
            subject,
            stats: stats.clone(),
        }
    }

    fn alpha(&self, rule: &str, query: &str, items: &str, r: &AlphaResult) -> AlphaRow {
        AlphaRow {
            corpus: self.corpus.to_owned(),
            algorithm: self.algorithm.to_owned(),
            rule: rule.to_owned(),
            query: query.to_owned(),
            items: items.to_owned(),
            alpha: r.value,
            ci_low: r.ci_low,
            ci_high: r.ci_high,
            n_items: r.n_items as u32,
            n_cases: r.n_cases as u32,
            n_dropped: r.n_dropped as u32,
            status: r.status.as_str().to_owned(),
        }
    }
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
    lists: Vec<(String, Vec<usize>)>,
    /// Per query, the positions in `targets` of its words.
    queries: Vec<(String, Vec<usize>)>,
    coverage: Vec<CoverageRow>,
}

impl Resolved {
    fn new(corpus: &LoadedCorpus, lists: &Lists, vocab: &Vocab<'_>) -> Result<Resolved> {
        let name = corpus.name();
        let mut coverage = Vec::new();
        let cover = |list: &str, kind: &str, n: usize, dropped: Vec<String>| CoverageRow {
            corpus: name.to_owned(),
            list: list.to_owned(),
            kind: kind.to_owned(),
            n_listed: n as u32,
            n_in_vocabulary: (n - dropped.len()) as u32,
            n_dropped: dropped.len() as u32,
            dropped: dropped.join(" "),
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
            .map(|(list, ids)| (list.clone(), at(ids.as_deref().unwrap_or(&everything))))
            .collect();
        let queries = query_ids.iter().map(|(q, ids)| (q.clone(), at(ids))).collect();
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
            .filter(|(l, _)| l != FULL)
            .flat_map(|(_, pos)| pos.iter().copied())
            .chain(self.queries.iter().flat_map(|(_, pos)| pos.iter().copied()))
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }
}
