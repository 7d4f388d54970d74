//! Du et al.'s per-word rules: every rule scores every base pair and target word on each seed
//! into the score tensor; across seeds, the study designs of `retest-analyses` give the
//! reliability, rule correlations, shares of poor reliability and word properties, and the
//! listed words' scores are written as the bias-score tensor.

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use retest_analyses::{
    AlphaRecord, CorrelationRecord, IccRecord, Items, POOR_RELIABILITY, Raters, ShareRecord, Study, Subject,
    TargetSet,
};
use retest_geometry::KnnKernel;
use retest_measures::{NeighbourSearch, PLACEHOLDER_WORDS, ResolvedPairs, ScoreTensor, Scorer, Vocab};
use retest_spec::Plan;
use retest_spec::defaults::ENSEMBLE_LIST;
use retest_tables::{
    AlphaRow, BiasTensor, CorrelationRow, CoverageRow, IccRow, ShareRow, SubjectKind, Table, WordPropertyRow,
    names, write_bias_scores,
};

use crate::lists::{FULL, Lists, TargetList};
use crate::stages::columns::{icc_stats, plan_scoring};
use crate::stages::seeds::Vocabulary;
use crate::stages::stage::{Across, Family, RuleScores, Seed, Setup, Stage, always, write_tables};

/// Du et al.'s rules: always run.
pub(crate) const FAMILY: Family = Family {
    name: "rules",
    title: "rules",
    tables: &[
        names::BIAS_SCORES,
        names::TEST_RETEST_WORDS.name(),
        names::TEST_RETEST_PAIRS.name(),
        names::INTER_RATER_WORDS.name(),
        names::INTER_RATER_PAIRS.name(),
        names::INTERNAL_CONSISTENCY.name(),
        names::RULE_CORRELATIONS.name(),
        names::LOW_RELIABILITY.name(),
        names::WORD_PROPERTIES.name(),
    ],
    optional: false,
    key: |plan| {
        [
            always("measures", &plan.measures),
            always("reliability", &plan.reliability),
        ]
        .concat()
    },
    build: |setup| Ok(Some(Box::new(Rules::new(setup)?))),
};

/// The rules of one configuration: its lists resolved, and what each seed left.
pub(crate) struct Rules<'a> {
    plan: &'a Plan,
    vocabulary: &'a Vocabulary,
    model: &'a str,
    words: &'a [String],
    scorer: Scorer<'a>,
    resolved: Resolved,
    placeholders: Vec<u32>,
    /// Rule × pair × target × seed.
    tensor: ScoreTensor,
    /// Per target, sums over seeds of the nearest neighbour's cosine and of the vector norm.
    nn_sum: Vec<f64>,
    norm_sum: Vec<f64>,
    /// How NBM's neighbour search ran on each seed ([`search_record`]).
    searches: Vec<Option<serde_json::Value>>,
}

impl<'a> Rules<'a> {
    /// Resolves the plan's target lists and queries against the vocabulary.
    ///
    /// # Errors
    ///
    /// A list or query entirely out of vocabulary.
    fn new(setup: &Setup<'a>) -> Result<Rules<'a>> {
        let plan = setup.plan;
        let resolved = Resolved::new(setup.corpus_name(), setup.lists, setup.vocab, setup.base_pairs)?;
        let scorer = plan_scoring(plan, setup.lists, setup.threads)
            .for_vocabulary(&setup.vocabulary.words, &setup.lists.base_pairs.pairs);
        let n_targets = resolved.targets.len();
        Ok(Rules {
            plan,
            vocabulary: setup.vocabulary,
            model: setup.model,
            words: &setup.vocabulary.words,
            tensor: ScoreTensor::zeros(scorer.rules(), resolved.pairs.len(), n_targets, setup.n_seeds),
            scorer,
            placeholders: retest_measures::placeholder_ids(&setup.vocabulary.words),
            resolved,
            nn_sum: vec![0.0; n_targets],
            norm_sum: vec![0.0; n_targets],
            searches: Vec::new(),
        })
    }

    fn labels(&self) -> Labels<'_> {
        Labels {
            corpus: &self.vocabulary.corpus,
            algorithm: self.model,
            rules: self.tensor.rules().iter().map(|r| r.as_str()).collect(),
            resolved: &self.resolved,
            words: self.words,
        }
    }

    /// Every word's properties: frequency, and over seeds the mean nearest-neighbour cosine, the
    /// mean norm and the embedding stability `es`.
    fn properties(&self, es: &[f64]) -> Vec<WordPropertyRow> {
        let n_seeds = self.tensor.n_seeds() as f64;
        (self.resolved.targets.iter().enumerate())
            .map(|(t, &id)| WordPropertyRow {
                corpus: self.vocabulary.corpus.clone(),
                algorithm: self.model.to_owned(),
                word: self.words[id as usize].clone(),
                frequency: self.vocabulary.frequency(id),
                nn_sim: self.nn_sum[t] / n_seeds,
                l2_norm: self.norm_sum[t] / n_seeds,
                es: es[t],
            })
            .collect()
    }

    /// Writes the bias scores of the listed words (every list but the full vocabulary, and the
    /// queries), and of every word scored when the plan asks for the full tensor.
    fn write_tensors(&self, out: &Path) -> Result<()> {
        let labels = self.labels();
        let listed = self.resolved.listed();
        let listed_words: Vec<String> = listed.iter().map(|&t| labels.word(t)).collect();
        let listed_tensor = self.tensor.select_targets(&listed);
        let seed_ids: Vec<u32> = (0..self.tensor.n_seeds() as u32).collect();
        let long_form = |words, tensor| BiasTensor {
            corpus: labels.corpus,
            algorithm: labels.algorithm,
            rules: &labels.rules,
            pairs: &self.resolved.pairs,
            words,
            seeds: &seed_ids,
            values: ScoreTensor::values(tensor),
        };
        write_bias_scores(out, names::BIAS_SCORES, &long_form(&listed_words, &listed_tensor))?;
        if self.plan.reliability.full_vocabulary_tensor {
            let all_words: Vec<String> = (0..self.resolved.targets.len()).map(|t| labels.word(t)).collect();
            write_bias_scores(out, names::BIAS_SCORES_FULL, &long_form(&all_words, &self.tensor))?;
        }
        Ok(())
    }
}

impl Stage for Rules<'_> {
    fn coverage(&self) -> &[CoverageRow] {
        &self.resolved.coverage
    }

    fn measure_seed(&mut self, seed: &Seed<'_>) -> Result<()> {
        let path = seed.path.display();
        let scores = (self.scorer)
            .score(seed.model, &self.resolved.pair_ids, &self.resolved.targets)
            .with_context(|| format!("scoring {path}"))?;
        self.tensor.set_seed(seed.index as usize, &scores)?;
        self.searches.push(scores.neighbour_search().map(search_record));
        let searched;
        let nearest = match scores.nearest_similarity() {
            Some(sims) => sims,
            None => {
                searched = retest_measures::nearest_similarity(
                    seed.model,
                    &self.resolved.targets,
                    &self.placeholders,
                    seed.threads,
                )
                .with_context(|| format!("nearest neighbours in {path}"))?;
                &searched
            }
        };
        for (t, &id) in self.resolved.targets.iter().enumerate() {
            self.nn_sum[t] += f64::from(nearest[t]);
            self.norm_sum[t] += seed.model.norm(id);
        }
        Ok(())
    }

    fn record(&self) -> Vec<(&'static str, serde_json::Value)> {
        if self.searches.iter().all(Option::is_none) {
            return Vec::new();
        }
        vec![("neighbour_search", serde_json::json!(self.searches))]
    }

    fn rule_scores(&self) -> Option<RuleScores<'_>> {
        Some(RuleScores {
            tensor: &self.tensor,
            lists: &self.resolved.lists,
        })
    }

    fn finish(&self, across: &Across<'_>, out: &Path) -> Result<()> {
        let (label, threads) = (across.label, across.threads);
        let started = Instant::now();
        let targets = &self.resolved.targets;
        let es = retest_geometry::embedding_stability_for(
            across.vectors,
            self.words.len(),
            across.dim,
            targets,
            threads,
        )?;
        let seconds = started.elapsed().as_secs_f64();
        across
            .reporter
            .log(&format!("embedding stability of {label}: {seconds:.1} s"));

        let ensemble = self.resolved.lists.iter().position(|l| l.name == ENSEMBLE_LIST);
        if ensemble.is_none() {
            across.reporter.log(&format!(
                "measure {label}: `{ENSEMBLE_LIST}` is not a target list, so there is no base-pair ensemble alpha"
            ));
        }
        let study = Study::new(&self.tensor, &self.resolved.lists, &self.resolved.queries);
        let scales = &self.plan.reliability.inter_rater_scale;
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
        let designs = pool.install(|| Designs {
            test_retest_words: retest_analyses::test_retest_words(&study),
            test_retest_pairs: retest_analyses::test_retest_pairs(&study),
            inter_rater_words: retest_analyses::inter_rater_words(&study, scales),
            inter_rater_pairs: retest_analyses::inter_rater_pairs(&study, scales),
            alphas: retest_analyses::internal_consistency(&study, ensemble),
            correlations: retest_analyses::rule_correlations(&study),
        });
        let labels = self.labels();
        let icc = |name, kind, records: &[IccRecord]| Table::of_in(name, kind, &labels.icc_rows(records));
        let tables = vec![
            icc(
                names::TEST_RETEST_WORDS,
                SubjectKind::Word,
                &designs.test_retest_words,
            )?,
            icc(
                names::TEST_RETEST_PAIRS,
                SubjectKind::Pair,
                &designs.test_retest_pairs,
            )?,
            icc(
                names::INTER_RATER_WORDS,
                SubjectKind::Word,
                &designs.inter_rater_words,
            )?,
            icc(
                names::INTER_RATER_PAIRS,
                SubjectKind::Pair,
                &designs.inter_rater_pairs,
            )?,
            Table::of(names::INTERNAL_CONSISTENCY, &labels.alpha_rows(&designs.alphas))?,
            Table::of(
                names::RULE_CORRELATIONS,
                &labels.correlation_rows(&designs.correlations),
            )?,
            Table::of(names::LOW_RELIABILITY, &labels.share_rows(&designs))?,
            Table::of(names::WORD_PROPERTIES, &self.properties(&es))?,
        ];
        write_tables(out, tables)?;
        self.write_tensors(out)
    }
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
    fn new(name: &str, lists: &Lists, vocab: &Vocab<'_>, pairs: &ResolvedPairs) -> Result<Resolved> {
        let mut coverage = Vec::new();
        let cover = |list: &str, kind: &str, n: usize, dropped: Vec<String>| {
            CoverageRow::of(name, list, kind, n, &dropped)
        };
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
            pair_ids: pairs.ids.clone(),
            pairs: pairs.pairs.clone(),
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

/// NBM's neighbour search on one seed as `measure.json` records it: the filter that ran and,
/// when `Auto` chose it by timing both, the costs it measured (nanoseconds of one thread).
fn search_record(search: &NeighbourSearch) -> serde_json::Value {
    let filter = match search.filter {
        KnnKernel::Bf16 => "bf16",
        KnnKernel::F32 => "f32",
        KnnKernel::Auto => "auto",
    };
    let timing = search.timing.map(|t| {
        serde_json::json!({
            "f32_ns_per_row": t.f32_ns_per_row,
            "bf16_ns_per_row": t.bf16_ns_per_row,
            "bf16_cap": t.bf16_cap,
            "bf16_rescue_share": t.bf16_rescue_share,
            "rescue_ns_per_row": t.rescue_ns_per_row,
            "rescore_ns": t.rescore_ns,
            "timed_rows": t.timed_rows,
            "window_rows": t.window_rows,
            "measure_ns": t.measure_ns,
        })
    });
    serde_json::json!({ "filter": filter, "chosen_by_timing": timing })
}

#[cfg(test)]
mod tests {
    //! The stage on a tiny model: the lists resolved to positions on the word axis, two seeds
    //! scored into the tensor, and the designs' records labelled with the right words, pairs
    //! and lists.

    use retest_measures::{Model, NbmPool, PairList, RipaTarget, Rule, Scoring, WordList};

    use super::*;

    /// `<unk>` is a placeholder: never a target, even of `full`.
    fn words() -> Vec<String> {
        ["he", "she", "nurse", "doctor", "<unk>", "tree"]
            .map(String::from)
            .to_vec()
    }

    fn lists(with_full: bool) -> Lists {
        let jobs = WordList::parse("jobs", "nurse\ndoctor\nastronaut\n").unwrap();
        let mut targets = vec![TargetList::Words(jobs)];
        if with_full {
            targets.push(TargetList::Full);
        }
        Lists {
            base_pairs: PairList::parse("pairs", "he she\nking queen\n").unwrap(),
            targets,
            queries: vec![WordList::parse("q", "doctor\ntree\n").unwrap()],
            nbm_pool_exclude: Vec::new(),
            set_level: None,
            analogies: None,
            base_pairs_analyses: None,
            validity: None,
            benchmarks: Default::default(),
            residual: None,
            subspace: None,
            debias: None,
            files: Vec::new(),
        }
    }

    fn resolve(words: &[String], with_full: bool) -> Resolved {
        let vocab = Vocab::new(words).unwrap();
        let lists = lists(with_full);
        let pairs = lists.base_pairs.resolve(&vocab).unwrap();
        Resolved::new("tiny", &lists, &vocab, &pairs).unwrap()
    }

    fn positions(sets: &[TargetSet]) -> Vec<(&str, &[usize])> {
        sets.iter()
            .map(|s| (s.name.as_str(), s.targets.as_slice()))
            .collect()
    }

    #[test]
    fn lists_resolve_to_positions_on_the_word_axis() {
        let words = words();
        // Without `full`, the axis is the listed words and queries in id order: nurse, doctor, tree.
        let listed = resolve(&words, false);
        assert_eq!(listed.targets, [2, 3, 5]);
        assert_eq!(positions(&listed.lists), [("jobs", &[0, 1][..])]);
        assert_eq!(positions(&listed.queries), [("q", &[1, 2][..])]);
        assert_eq!(listed.listed(), [0, 1, 2]);
        // With `full`, every word but the placeholder; `full` itself is not "listed".
        let full = resolve(&words, true);
        assert_eq!(full.targets, [0, 1, 2, 3, 5]);
        assert_eq!(
            positions(&full.lists),
            [("jobs", &[2, 3][..]), (FULL, &[0, 1, 2, 3, 4][..])]
        );
        assert_eq!(full.listed(), [2, 3, 4]);
        assert_eq!((full.pair_ids.as_slice(), full.pairs.len()), (&[(0, 1)][..], 1));
        let coverage: Vec<_> = (full.coverage.iter())
            .map(|c| (c.list.as_str(), c.kind.as_str(), c.n_listed, c.dropped.as_str()))
            .collect();
        assert_eq!(
            coverage,
            [
                ("pairs", "base_pairs", 2, "king:queen"),
                ("jobs", "target_words", 3, "astronaut"),
                ("q", "query", 2, ""),
            ]
        );
    }

    #[test]
    fn two_seeds_scored_and_labelled() {
        let words = words();
        let resolved = resolve(&words, false);
        let scorer = Scoring {
            rules: &[Rule::Dbwa],
            ripa_target: RipaTarget::Raw,
            nbm_k: 1,
            nbm_pool: NbmPool::Vocabulary,
            pool_exclude: &[],
            threads: 1,
        }
        .for_vocabulary(&words, &resolved.pairs);
        // he, she, nurse, doctor, <unk>, tree; seed 1 moves doctor.
        let seeds: [[f32; 12]; 2] = [
            [1.0, 0.0, 0.0, 1.0, 0.2, 0.9, 0.9, 0.3, 0.5, 0.5, 0.6, 0.6],
            [1.0, 0.0, 0.0, 1.0, 0.2, 0.9, 0.8, 0.4, 0.5, 0.5, 0.6, 0.6],
        ];
        let mut tensor = ScoreTensor::zeros(scorer.rules(), 1, resolved.targets.len(), 2);
        for (s, raw) in seeds.iter().enumerate() {
            let model = Model::new(&words, raw, 2).unwrap();
            let scores = scorer
                .score(&model, &resolved.pair_ids, &resolved.targets)
                .unwrap();
            tensor.set_seed(s, &scores).unwrap();
        }
        // DB/WA = cos(w, he) − cos(w, she): nurse (0.2 − 0.9)/√0.85 on both seeds; doctor
        // (0.9 − 0.3)/√0.9 on seed 0 and (0.8 − 0.4)/√0.8 on seed 1; tree 0.
        let close = |got: &[f32], want: [f64; 2]| {
            for (g, w) in got.iter().zip(want) {
                assert!((f64::from(*g) - w).abs() < 1e-6, "{got:?} vs {want:?}");
            }
        };
        let nurse = -0.7 / 0.85f64.sqrt();
        close(tensor.seeds(0, 0, 0), [nurse, nurse]);
        close(tensor.seeds(0, 0, 1), [0.6 / 0.9f64.sqrt(), 0.4 / 0.8f64.sqrt()]);
        close(tensor.seeds(0, 0, 2), [0.0, 0.0]);

        let study = Study::new(&tensor, &resolved.lists, &resolved.queries);
        let labels = Labels {
            corpus: "tiny",
            algorithm: "sgns",
            rules: vec!["dbwa"],
            resolved: &resolved,
            words: &words,
        };
        let subjects = |rows: Vec<IccRow>| -> Vec<(String, String, retest_tables::Subject)> {
            rows.into_iter().map(|r| (r.rule, r.list, r.subject)).collect()
        };
        let word = |w: &str| {
            (
                "dbwa".to_owned(),
                "jobs".to_owned(),
                retest_tables::Subject::Word(w.into()),
            )
        };
        assert_eq!(
            subjects(labels.icc_rows(&retest_analyses::test_retest_words(&study))),
            [word("nurse"), word("doctor")]
        );
        let pair = retest_tables::Subject::Pair {
            male: "he".into(),
            female: "she".into(),
        };
        assert_eq!(
            subjects(labels.icc_rows(&retest_analyses::test_retest_pairs(&study))),
            [("dbwa".to_owned(), "jobs".to_owned(), pair)]
        );
        let alphas = labels.alpha_rows(&retest_analyses::internal_consistency(&study, None));
        let queries: Vec<(&str, &str)> = alphas
            .iter()
            .map(|a| (a.rule.as_str(), a.query.as_str()))
            .collect();
        assert_eq!(queries, [("dbwa", "q")]);
    }
}
