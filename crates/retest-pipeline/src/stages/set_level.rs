//! The set-level stage of a measure job: on every seed, the WEAT tests (the tests file's and the
//! single-pair tests of the queries against each base pair) and the Direct Bias of the neutral
//! words along every gender direction (each base pair's and the principal component of the
//! definitional pairs); across seeds, each value's spread, the test-retest reliability of each
//! family of values, and the stability of the principal component after Procrustes alignment.

use anyhow::{Context, Result};
use retest_analyses::{SeedSpread, seed_agreement, seed_spread, seeds_icc};
use retest_embeddings::Embeddings;
use retest_eval::{SimilarityResult, WordPair, evaluate_similarity, read_pairs};
use retest_measures::{
    DirectionSource, Measure, Model, OccupationalStereotypes, PairList, PermutationOptions,
    RelativeNormDistance, Vocab, Weat, WeatOptions, WeatSets, WordList, direct_bias, gender_direction,
    occupational_stereotypes, relative_norm_distance, weat,
};
use retest_rng::SeedPath;
use retest_spec::defaults::STEREOTYPE_DEFINITIONAL_MAX;
use retest_spec::{Plan, SetLevelParams};
use retest_tables::{
    AgreementRow, CoverageRow, DetectorRow, DirectionRow, QualityRow, SeedSpreadRow, SetIccRow,
    SetLevelStatistic, Table, WeatSeedRow, WeatWordRow, names,
};

use crate::lists::{Benchmarks, Lists};
use crate::stages::columns::PCA_DIRECTION as PCA;
use crate::stages::columns::{icc_stats, weat_stats};
use crate::stages::stage::{Across, Collect, Family, PerSeed, Seed, always, lowercases};

/// The `family` of a test of the tests file.
const CALISKAN: &str = "caliskan";
/// The `family` of a test with query targets and one base pair (or all) as attributes.
const SINGLE_PAIR: &str = "single_pair";
/// The attributes of the single-pair test with every pair's words.
const ENSEMBLE: &str = "ensemble";
/// The `family` of the test of the stereotypically masculine against the stereotypically
/// feminine words of the stereotype list, with the ensemble as attributes.
const STEREOTYPE: &str = "stereotype";

/// One WEAT test resolved against a corpus's vocabulary.
struct Test {
    name: String,
    family: &'static str,
    /// The base pair (`he:she`) or [`ENSEMBLE`] of a single-pair test; empty otherwise.
    attributes: String,
    /// The query pair (`career/family`) of a single-pair test.
    query_pair: Option<String>,
    x: Vec<u32>,
    y: Vec<u32>,
    a: Vec<u32>,
    b: Vec<u32>,
}

/// The set-level measures: a configuration has their tables when its plan has a `set_level`
/// section. The section is always in the measure key, `null` when absent.
pub(crate) const FAMILY: Family = Family {
    name: "set_level",
    title: "set-level measures",
    tables: &[
        names::WEAT.name(),
        names::WEAT_WORDS.name(),
        names::DIRECTIONS.name(),
        names::DETECTORS.name(),
        names::QUALITY.name(),
        names::AGREEMENT.name(),
        names::SEED_SPREAD.name(),
        names::SET_LEVEL_RELIABILITY.name(),
    ],
    optional: true,
    key: |plan| always("set_level", &plan.set_level),
    build: |setup| {
        let base_pairs = &setup.base_pairs.ids;
        let built = SetLevel::new(
            setup.plan,
            setup.lists,
            setup.corpus_name(),
            setup.model,
            base_pairs,
            setup.vocab,
        )?;
        Ok(Collect::stage(built))
    },
};

/// The set-level measures of one configuration, resolved against its corpus's vocabulary.
pub(crate) struct SetLevel<'p> {
    params: &'p SetLevelParams,
    tests: Vec<Test>,
    /// The base pairs in vocabulary (each a direction), then the definitional pairs.
    pairs: Vec<(u32, u32)>,
    pair_names: Vec<String>,
    definitional: Vec<(u32, u32)>,
    /// Bakarov's pairs in vocabulary: the first is OS's axis, all are GD's groups.
    detectors: Vec<(u32, u32)>,
    neutral: Vec<u32>,
    /// Where each seed's sampled permutation tests draw from: `<plan seed>/set-level/<corpus>/<model>`.
    root: SeedPath,
    /// Out-of-vocabulary words of the set-level lists, for the coverage table.
    pub coverage: Vec<CoverageRow>,
    /// Tests left out because a set has no word in vocabulary, one line each.
    pub skipped: Vec<String>,
    /// The word-similarity benchmarks of `retest eval`, from the plan's declared files.
    benchmarks: Vec<Benchmark>,
}

/// Everything the set-level measures give on one seed.
pub(crate) struct SeedValues {
    weat: Vec<Weat>,
    /// Per direction (pairs, then `pca`): Direct Bias, `cos(g, g_pca)`, `‖m̂ − f̂‖`.
    directions: Vec<(f64, f64, f64)>,
    explained_variance: [f64; 2],
    pca: Vec<f64>,
    /// The neutral words' projections on `pca`.
    pca_projections: Vec<f64>,
    /// Bakarov's Occupational Stereotypes of the neutral words.
    os: OccupationalStereotypes,
    /// Bakarov's Gender Direction (Garg et al.'s relative norm distance) of the neutral words.
    gd: RelativeNormDistance,
    /// The word-similarity benchmarks.
    quality: Vec<SimilarityResult>,
}

impl<'p> SetLevel<'p> {
    /// Resolves the plan's set-level lists and the base pairs against `vocab`; on a corpus
    /// whose reader lowercases, the set-level lists are looked up lowercased.
    ///
    /// # Errors
    ///
    /// The neutral list entirely out of vocabulary, or fewer than 2 definitional pairs in it.
    pub(crate) fn new(
        plan: &'p Plan,
        lists: &Lists,
        corpus: &str,
        model: &str,
        base_pairs: &[(u32, u32)],
        vocab: &Vocab<'_>,
    ) -> Result<Option<SetLevel<'p>>> {
        let (Some(params), Some(set_lists)) = (plan.set_level.as_ref(), lists.set_level.as_ref()) else {
            return Ok(None);
        };
        let lowercase = lowercases(plan, corpus);
        let case = |w: &String| if lowercase { w.to_lowercase() } else { w.clone() };
        let mut coverage = Vec::new();
        let mut cover = |list: &str, kind: &str, n: usize, dropped: Vec<String>| {
            coverage.push(CoverageRow::of(corpus, list, kind, n, &dropped));
        };
        let words = |name: &str, listed: &[String]| WordList {
            name: name.to_owned(),
            words: listed.iter().map(case).collect(),
        };
        let neutral_list = words(&set_lists.neutral.name, &set_lists.neutral.words);
        let neutral = neutral_list
            .resolve(vocab)
            .with_context(|| format!("corpus `{corpus}`: Direct Bias's neutral words (set_level.neutral)"))?;
        cover(
            &neutral_list.name,
            "neutral_words",
            neutral_list.words.len(),
            neutral.oov,
        );
        let mut pairs = |list: &PairList, kind: &str, field: &str| -> Result<Vec<(u32, u32)>> {
            let cased = PairList {
                name: list.name.clone(),
                pairs: list.pairs.iter().map(|(m, f)| (case(m), case(f))).collect(),
            };
            let resolved = cased
                .resolve(vocab)
                .with_context(|| format!("corpus `{corpus}`: {field}"))?;
            let dropped = resolved.oov.iter().map(|(m, f)| format!("{m}:{f}")).collect();
            cover(&cased.name, kind, cased.pairs.len(), dropped);
            Ok(resolved.ids)
        };
        let definitional = pairs(
            &set_lists.definitional,
            "definitional_pairs",
            "set_level.definitional_pairs",
        )?;
        if definitional.len() < 2 {
            anyhow::bail!(
                "corpus `{corpus}`: the `{PCA}` direction needs at least 2 pairs of `{}` in vocabulary, {} are",
                set_lists.definitional.name,
                definitional.len()
            );
        }
        let detectors = pairs(&set_lists.detectors, "detector_pairs", "set_level.detector_pairs")?;
        let pair_names: Vec<String> = base_pairs
            .iter()
            .map(|&(m, f)| format!("{}:{}", vocab.word(m), vocab.word(f)))
            .collect();

        let mut tests = Vec::new();
        let mut skipped = Vec::new();
        let mut resolve_set = |test: &str, set: &str, listed: &[String]| -> Option<Vec<u32>> {
            let list = words(&format!("{test}.{set}"), listed);
            let (ids, oov): (Vec<_>, Vec<_>) = list.words.iter().partition(|w| vocab.id(w).is_some());
            cover(
                &list.name,
                "weat_set",
                list.words.len(),
                oov.into_iter().cloned().collect(),
            );
            (!ids.is_empty()).then(|| ids.iter().filter_map(|w| vocab.id(w)).collect())
        };
        for t in &set_lists.tests {
            let sets = [("x", &t.x), ("y", &t.y), ("a", &t.a), ("b", &t.b)];
            let resolved: Vec<Option<Vec<u32>>> = sets
                .iter()
                .map(|(s, listed)| resolve_set(&t.name, s, listed))
                .collect();
            match resolved.into_iter().collect::<Option<Vec<_>>>() {
                Some(mut r) => tests.push(Test {
                    name: t.name.clone(),
                    family: CALISKAN,
                    attributes: String::new(),
                    query_pair: None,
                    b: r.pop().expect("four sets"),
                    a: r.pop().expect("four sets"),
                    y: r.pop().expect("four sets"),
                    x: r.pop().expect("four sets"),
                }),
                None => skipped.push(format!(
                    "corpus `{corpus}`: WEAT test `{}` left out: one of its sets has no word in vocabulary \
                     (see the coverage table)",
                    t.name
                )),
            }
        }
        let query = |name: &str| -> Vec<u32> {
            let q = lists
                .queries
                .iter()
                .find(|q| q.name == name)
                .expect("the spec checks that single-pair queries are queries of the plan");
            q.words.iter().filter_map(|w| vocab.id(w)).collect()
        };
        // The ensemble attributes: every masculine and every feminine word of the base pairs.
        let mut males: Vec<u32> = Vec::new();
        let mut females: Vec<u32> = Vec::new();
        for &(m, f) in base_pairs {
            if !males.contains(&m) {
                males.push(m);
            }
            if !females.contains(&f) {
                females.push(f);
            }
        }
        for (xq, yq) in &params.single_pair {
            let (x, y) = (query(xq), query(yq));
            let query_pair = format!("{xq}/{yq}");
            if x.is_empty() || y.is_empty() {
                skipped.push(format!(
                    "corpus `{corpus}`: single-pair WEATs `{query_pair}` left out: a query has no word in vocabulary"
                ));
                continue;
            }
            let mut attributes: Vec<(String, Vec<u32>, Vec<u32>)> = (base_pairs.iter().zip(&pair_names))
                .map(|(&(m, f), name)| (name.clone(), vec![m], vec![f]))
                .collect();
            attributes.push((ENSEMBLE.to_owned(), males.clone(), females.clone()));
            for (name, a, b) in attributes {
                tests.push(Test {
                    name: format!("{query_pair} {name}"),
                    family: SINGLE_PAIR,
                    attributes: name,
                    query_pair: Some(query_pair.clone()),
                    x: x.clone(),
                    y: y.clone(),
                    a,
                    b,
                });
            }
        }
        // The stereotypically masculine (X) against the stereotypically feminine (Y) words.
        let stereotypes = &set_lists.stereotypes;
        let by_stereotype = |masculine: bool| -> Vec<String> {
            (stereotypes.words.iter())
                .filter(|(_, definitional, stereotypical)| {
                    definitional.abs() < STEREOTYPE_DEFINITIONAL_MAX
                        && *stereotypical != 0.0
                        && (*stereotypical > 0.0) == masculine
                })
                .map(|(word, _, _)| word.clone())
                .collect()
        };
        let sets = (
            resolve_set(&stereotypes.name, "x", &by_stereotype(true)),
            resolve_set(&stereotypes.name, "y", &by_stereotype(false)),
        );
        match sets {
            (Some(x), Some(y)) if !males.is_empty() => tests.push(Test {
                name: stereotypes.name.clone(),
                family: STEREOTYPE,
                attributes: ENSEMBLE.to_owned(),
                query_pair: None,
                x,
                y,
                a: males,
                b: females,
            }),
            _ => skipped.push(format!(
                "corpus `{corpus}`: the stereotype WEAT of `{}` left out: its masculine or feminine words have \
                 none in vocabulary (see the coverage table)",
                stereotypes.name
            )),
        }
        let benchmarks = similarity_benchmarks(&lists.benchmarks)?;
        Ok(Some(SetLevel {
            benchmarks,
            params,
            tests,
            pairs: base_pairs.to_vec(),
            pair_names,
            definitional,
            detectors,
            neutral: neutral.ids,
            root: SeedPath::new(plan.seed)
                .with("set-level")
                .with(corpus)
                .with(model),
            coverage,
            skipped,
        }))
    }

    /// The set-level measures on seed `seed`.
    ///
    /// # Errors
    ///
    /// A degenerate pair (two words with the same direction) or a failed permutation test.
    pub(crate) fn measure_seed(
        &self,
        model: &Model<'_>,
        seed: u32,
        quality: Vec<SimilarityResult>,
    ) -> Result<SeedValues> {
        let seed_path = self.root.clone().with_index(u64::from(seed));
        let mut weats = Vec::with_capacity(self.tests.len());
        for t in &self.tests {
            let path = seed_path.clone().with(&t.name);
            let opts = WeatOptions {
                sd: self.params.sd,
                permutation: PermutationOptions {
                    exact_limit: self.params.exact_max,
                    samples: self.params.samples,
                    seed: &path,
                },
            };
            let sets = WeatSets {
                x: &t.x,
                y: &t.y,
                a: &t.a,
                b: &t.b,
            };
            weats.push(weat(model, &sets, &opts).with_context(|| format!("WEAT test `{}`", t.name))?);
        }
        let pca = gender_direction(model, DirectionSource::PrincipalComponent(&self.definitional))
            .context("the `pca` direction")?;
        let c = self.params.c;
        let mut directions = Vec::with_capacity(self.pairs.len() + 1);
        for (&(m, f), name) in self.pairs.iter().zip(&self.pair_names) {
            let g = gender_direction(model, DirectionSource::Pair(m, f))
                .with_context(|| format!("the direction of `{name}`"))?;
            let cos_pca: f64 = g.vector.iter().zip(&pca.vector).map(|(a, b)| a * b).sum();
            let difference = retest_measures::attribute_difference(model, &[m], &[f])?.norm;
            directions.push((
                direct_bias(model, &g, &self.neutral, c)?.value,
                cos_pca,
                difference,
            ));
        }
        let pca_bias = direct_bias(model, &pca, &self.neutral, c)?;
        directions.push((pca_bias.value, 1.0, f64::NAN));
        let ratio = |i: usize| pca.explained_variance_ratio.get(i).copied().unwrap_or(f64::NAN);
        let (m, f) = self.detectors[0];
        let axis = gender_direction(model, DirectionSource::Pair(m, f)).context("the axis of OS")?;
        let os = occupational_stereotypes(model, &axis, &self.neutral)?;
        let (males, females): (Vec<u32>, Vec<u32>) = self.detectors.iter().copied().unzip();
        let gd = relative_norm_distance(model, &males, &females, &self.neutral)?;
        Ok(SeedValues {
            quality,
            os,
            gd,
            weat: weats,
            directions,
            explained_variance: [ratio(0), ratio(1)],
            pca: pca.vector,
            pca_projections: pca_bias.projections,
        })
    }

    /// The name of the neutral word list.
    pub(crate) fn neutral_list(&self) -> &str {
        &self.params.neutral
    }

    /// The word-similarity benchmarks on one seed's embeddings (gensim's semantics, as `retest
    /// eval`).
    pub(crate) fn quality(&self, emb: &Embeddings) -> Vec<SimilarityResult> {
        (self.benchmarks.iter())
            .map(|(name, pairs)| evaluate_similarity(emb, pairs, name))
            .collect()
    }

    /// Spearman's ρ across seeds between WEAT's effect size (mean over the tests of the tests
    /// file), Direct Bias along `pca`, OS, GD and each rule's mean |score| over the neutral words.
    fn agreement(
        &self,
        corpus: &str,
        algorithm: &str,
        seeds: &[SeedValues],
        rule_bias: &[(String, Vec<f64>)],
    ) -> Vec<AgreementRow> {
        let caliskan: Vec<usize> = (0..self.tests.len())
            .filter(|&i| self.tests[i].family == CALISKAN)
            .collect();
        let pca = self.pairs.len();
        let mut series: Vec<(String, Vec<f64>)> = Vec::new();
        if !caliskan.is_empty() {
            let d = |v: &SeedValues| {
                caliskan.iter().map(|&i| v.weat[i].effect_size.d).sum::<f64>() / caliskan.len() as f64
            };
            series.push((
                SetLevelStatistic::WeatEffectSize.as_str().to_owned(),
                seeds.iter().map(d).collect(),
            ));
        }
        series.push((
            SetLevelStatistic::DirectBiasPca.as_str().to_owned(),
            seeds.iter().map(|v| v.directions[pca].0).collect(),
        ));
        series.push((
            Measure::Os.name().to_owned(),
            seeds.iter().map(|v| v.os.value).collect(),
        ));
        series.push((
            Measure::Gd.name().to_owned(),
            seeds.iter().map(|v| v.gd.value).collect(),
        ));
        series.extend(rule_bias.iter().cloned());
        let values: Vec<Vec<f64>> = series.iter().map(|(_, v)| v.clone()).collect();
        seed_agreement(&values)
            .into_iter()
            .map(|r| AgreementRow {
                corpus: corpus.to_owned(),
                algorithm: algorithm.to_owned(),
                measure_a: series[r.a].0.clone(),
                measure_b: series[r.b].0.clone(),
                spearman: r.result.value,
                p_value: r.result.p_value,
                n_seeds: r.result.n as u32,
                status: r.result.status.as_str().to_owned(),
            })
            .collect()
    }

    /// The direction names: the base pairs, then `pca`.
    fn direction_names(&self) -> impl Iterator<Item = &str> {
        self.pair_names.iter().map(String::as_str).chain([PCA])
    }

    /// The set-level tables of one configuration from the values of its seeds (in seed order)
    /// and the cosines of each later seed's `pca` direction with seed 0's after alignment.
    pub(crate) fn tables(
        &self,
        corpus: &str,
        algorithm: &str,
        vocab: &Vocab<'_>,
        seeds: &[SeedValues],
        pca_stability: &[f64],
        rule_bias: &[(String, Vec<f64>)],
    ) -> Result<Vec<Table>> {
        let label = |r: &mut Vec<SeedSpreadRow>, measure: &str, subject: &str, s: SeedSpread| {
            r.push(SeedSpreadRow {
                corpus: corpus.to_owned(),
                algorithm: algorithm.to_owned(),
                measure: measure.to_owned(),
                subject: subject.to_owned(),
                n_seeds: s.n as u32,
                n_undefined: s.n_undefined as u32,
                mean: s.mean,
                sd: s.sd,
                low: s.low,
                high: s.high,
                share_significant: s.share_significant.unwrap_or(f64::NAN),
            });
        };
        let icc = |measure: &str, scope: &str, subjects: &str, values: &[f64], n_subjects: usize| SetIccRow {
            corpus: corpus.to_owned(),
            algorithm: algorithm.to_owned(),
            measure: measure.to_owned(),
            scope: scope.to_owned(),
            subjects: subjects.to_owned(),
            stats: icc_stats(&seeds_icc(values, n_subjects, seeds.len())),
        };
        let (mut weat_rows, mut word_rows, mut direction_rows) = (Vec::new(), Vec::new(), Vec::new());
        let mut detector_rows = Vec::new();
        let mut quality_rows = Vec::new();
        let (m, f) = self.detectors[0];
        let axis = format!("{}:{}", vocab.word(m), vocab.word(f));
        for (s, values) in seeds.iter().enumerate() {
            let detectors = [
                (Measure::Os.name(), values.os.value, axis.clone()),
                (
                    Measure::Gd.name(),
                    values.gd.value,
                    format!("{} pairs", self.detectors.len()),
                ),
            ];
            for (detector, value, reference) in detectors {
                detector_rows.push(DetectorRow {
                    corpus: corpus.to_owned(),
                    algorithm: algorithm.to_owned(),
                    seed: s as u32,
                    detector: detector.to_owned(),
                    list: self.params.neutral.clone(),
                    value,
                    n_words: self.neutral.len() as u32,
                    reference,
                });
            }
            quality_rows.extend(values.quality.iter().map(|q| QualityRow {
                corpus: corpus.to_owned(),
                algorithm: algorithm.to_owned(),
                seed: s as u32,
                benchmark: q.name.clone(),
                spearman: q.spearman,
                pearson: q.pearson,
                pairs_used: q.pairs_used as u32,
                pairs_skipped: q.pairs_skipped as u32,
            }));
            for (t, w) in self.tests.iter().zip(&values.weat) {
                weat_rows.push(WeatSeedRow {
                    corpus: corpus.to_owned(),
                    algorithm: algorithm.to_owned(),
                    seed: s as u32,
                    test: t.name.clone(),
                    family: t.family.to_owned(),
                    attributes: t.attributes.clone(),
                    weat: weat_stats([&t.x, &t.y, &t.a, &t.b], Some(w)),
                    sd: w.effect_size.sd.as_str().to_owned(),
                    attribute_difference: w.attribute_difference,
                    status: w.effect_size.status.as_str().to_owned(),
                });
                let sets = [
                    ("x", &t.x, &w.x_scores, &w.x_normalized),
                    ("y", &t.y, &w.y_scores, &w.y_normalized),
                ];
                for (set, ids, scores, normalized) in sets {
                    for ((&id, &score), &normalized) in ids.iter().zip(scores.iter()).zip(normalized.iter()) {
                        word_rows.push(WeatWordRow {
                            corpus: corpus.to_owned(),
                            algorithm: algorithm.to_owned(),
                            seed: s as u32,
                            test: t.name.clone(),
                            set: set.to_owned(),
                            word: vocab.word(id).to_owned(),
                            score,
                            normalized,
                        });
                    }
                }
            }
            for (name, &(bias, cos_pca, difference)) in self.direction_names().zip(&values.directions) {
                let is_pca = name == PCA;
                let ratio = |i: usize| {
                    if is_pca {
                        values.explained_variance[i]
                    } else {
                        f64::NAN
                    }
                };
                direction_rows.push(DirectionRow {
                    corpus: corpus.to_owned(),
                    algorithm: algorithm.to_owned(),
                    seed: s as u32,
                    direction: name.to_owned(),
                    list: self.params.neutral.clone(),
                    c: self.params.c,
                    n_words: self.neutral.len() as u32,
                    direct_bias: bias,
                    cos_pca,
                    explained_variance: ratio(0),
                    explained_variance_2: ratio(1),
                    attribute_difference: difference,
                });
            }
        }

        let mut spread = Vec::new();
        let mut reliability = Vec::new();
        for (i, t) in self.tests.iter().enumerate() {
            let over_seeds =
                |f: &dyn Fn(&Weat) -> f64| -> Vec<f64> { seeds.iter().map(|v| f(&v.weat[i])).collect() };
            label(
                &mut spread,
                SetLevelStatistic::WeatEffectSize.as_str(),
                &t.name,
                seed_spread(&over_seeds(&|w| w.effect_size.d), false),
            );
            label(
                &mut spread,
                SetLevelStatistic::WeatStatistic.as_str(),
                &t.name,
                seed_spread(&over_seeds(&|w| w.statistic), false),
            );
            label(
                &mut spread,
                SetLevelStatistic::WeatPValue.as_str(),
                &t.name,
                seed_spread(&over_seeds(&|w| w.permutation.p), true),
            );
            // The words' scores: subjects = X then Y, raters = seeds.
            let n_words = t.x.len() + t.y.len();
            let mut m = vec![0.0; n_words * seeds.len()];
            for (s, v) in seeds.iter().enumerate() {
                let w = &v.weat[i];
                for (j, &score) in w.x_scores.iter().chain(&w.y_scores).enumerate() {
                    m[j * seeds.len() + s] = score;
                }
            }
            reliability.push(icc(
                SetLevelStatistic::WeatScore.as_str(),
                &t.name,
                "words",
                &m,
                n_words,
            ));
        }
        // WEAT's effect size over a family of tests: the Caliskan tests, and the single-pair
        // tests of each query pair (one per base pair; the ensemble is not a subject).
        let mut families: Vec<(String, &str, Vec<usize>)> = Vec::new();
        let caliskan: Vec<usize> = (0..self.tests.len())
            .filter(|&i| self.tests[i].family == CALISKAN)
            .collect();
        if caliskan.len() >= 2 {
            families.push((CALISKAN.to_owned(), "tests", caliskan));
        }
        for (xq, yq) in &self.params.single_pair {
            let pair = format!("{xq}/{yq}");
            let members: Vec<usize> = (0..self.tests.len())
                .filter(|&i| {
                    let t = &self.tests[i];
                    t.query_pair.as_deref() == Some(pair.as_str()) && t.attributes != ENSEMBLE
                })
                .collect();
            if !members.is_empty() {
                families.push((pair, "base_pairs", members));
            }
        }
        for (scope, subjects, members) in &families {
            let m: Vec<f64> = (members.iter())
                .flat_map(|&i| seeds.iter().map(move |v| v.weat[i].effect_size.d))
                .collect();
            reliability.push(icc(
                SetLevelStatistic::WeatEffectSize.as_str(),
                scope,
                subjects,
                &m,
                members.len(),
            ));
        }
        let names: Vec<&str> = self.direction_names().collect();
        for (d, name) in names.iter().enumerate() {
            let values: Vec<f64> = seeds.iter().map(|v| v.directions[d].0).collect();
            label(
                &mut spread,
                Measure::DirectBias.name(),
                name,
                seed_spread(&values, false),
            );
        }
        let first_ratio: Vec<f64> = seeds.iter().map(|v| v.explained_variance[0]).collect();
        label(
            &mut spread,
            SetLevelStatistic::PcaExplainedVariance.as_str(),
            PCA,
            seed_spread(&first_ratio, false),
        );
        label(
            &mut spread,
            SetLevelStatistic::PcaStability.as_str(),
            PCA,
            seed_spread(pca_stability, false),
        );
        let m: Vec<f64> = (0..names.len())
            .flat_map(|d| seeds.iter().map(move |v| v.directions[d].0))
            .collect();
        reliability.push(icc(
            Measure::DirectBias.name(),
            &self.params.neutral,
            "directions",
            &m,
            names.len(),
        ));
        let m: Vec<f64> = (0..self.neutral.len())
            .flat_map(|w| seeds.iter().map(move |v| v.pca_projections[w]))
            .collect();
        reliability.push(icc(
            SetLevelStatistic::PcaProjection.as_str(),
            &self.params.neutral,
            "words",
            &m,
            self.neutral.len(),
        ));
        let os: Vec<f64> = seeds.iter().map(|v| v.os.value).collect();
        label(
            &mut spread,
            Measure::Os.name(),
            &self.params.neutral,
            seed_spread(&os, false),
        );
        let gd: Vec<f64> = seeds.iter().map(|v| v.gd.value).collect();
        label(
            &mut spread,
            Measure::Gd.name(),
            &self.params.neutral,
            seed_spread(&gd, false),
        );
        for (b, (name, _)) in self.benchmarks.iter().enumerate() {
            let rho: Vec<f64> = seeds.iter().map(|v| v.quality[b].spearman).collect();
            label(
                &mut spread,
                SetLevelStatistic::QualitySpearman.as_str(),
                name,
                seed_spread(&rho, false),
            );
        }
        for (rule, values) in rule_bias {
            label(
                &mut spread,
                SetLevelStatistic::MeanAbsScore.as_str(),
                rule,
                seed_spread(values, false),
            );
        }
        let m: Vec<f64> = (0..self.neutral.len())
            .flat_map(|w| seeds.iter().map(move |v| v.os.projections[w]))
            .collect();
        reliability.push(icc(
            SetLevelStatistic::OsProjection.as_str(),
            &self.params.neutral,
            "words",
            &m,
            self.neutral.len(),
        ));
        let m: Vec<f64> = (0..self.neutral.len())
            .flat_map(|w| seeds.iter().map(move |v| v.gd.per_word[w]))
            .collect();
        reliability.push(icc(
            SetLevelStatistic::GdTerm.as_str(),
            &self.params.neutral,
            "words",
            &m,
            self.neutral.len(),
        ));

        Ok(vec![
            Table::of(names::WEAT, &weat_rows)?,
            Table::of(names::WEAT_WORDS, &word_rows)?,
            Table::of(names::DIRECTIONS, &direction_rows)?,
            Table::of(names::DETECTORS, &detector_rows)?,
            Table::of(names::QUALITY, &quality_rows)?,
            Table::of(
                names::AGREEMENT,
                &self.agreement(corpus, algorithm, seeds, rule_bias),
            )?,
            Table::of(names::SEED_SPREAD, &spread)?,
            Table::of(names::SET_LEVEL_RELIABILITY, &reliability)?,
        ])
    }
}

/// The cosine of each later seed's `pca` direction with seed 0's, after the orthogonal
/// Procrustes map of the later seed's raw vectors onto seed 0's (`models`: row-major
/// `n_words × dim`, one per seed, in seed order).
///
/// # Errors
///
/// A Procrustes fit that fails (non-finite vectors, an SVD that does not converge).
pub(crate) fn pca_stability(
    models: &[&[f32]],
    seeds: &[SeedValues],
    n_words: usize,
    dim: usize,
) -> Result<Vec<f64>> {
    let reference = &seeds[0].pca;
    let mut out = Vec::with_capacity(seeds.len().saturating_sub(1));
    for (model, values) in models.iter().zip(seeds).skip(1) {
        let q = retest_geometry::procrustes(model, models[0], n_words, dim)?;
        // The row vector g maps to g·Q, the space of seed 0.
        let mapped: Vec<f64> = (0..dim)
            .map(|c| (0..dim).map(|r| values.pca[r] * q[r * dim + c]).sum())
            .collect();
        let norm = mapped.iter().map(|x| x * x).sum::<f64>().sqrt();
        out.push(mapped.iter().zip(reference).map(|(a, b)| a * b).sum::<f64>() / norm);
    }
    Ok(out)
}

/// A word-similarity benchmark: its name and pairs.
type Benchmark = (&'static str, Vec<WordPair>);

/// The word-similarity benchmarks of `retest eval`, read from the plan's declared files.
///
/// # Errors
///
/// A benchmark file that cannot be read or parsed.
fn similarity_benchmarks(benchmarks: &Benchmarks) -> Result<Vec<Benchmark>> {
    (benchmarks.similarity.iter())
        .map(|(name, path, format)| Ok((*name, read_pairs(path, *format)?)))
        .collect()
}

impl PerSeed for SetLevel<'_> {
    type Values = SeedValues;
    const WHAT: &'static str = "set-level measures";

    fn notes(&self) -> Vec<String> {
        self.skipped.clone()
    }

    fn coverage(&self) -> &[CoverageRow] {
        &self.coverage
    }

    fn measure(&self, seed: &Seed<'_>) -> Result<SeedValues> {
        let quality = self.quality(seed.embeddings);
        self.measure_seed(seed.model, seed.index, quality)
    }

    /// With the `pca` direction's stability (Procrustes onto seed 0) and, beside the set-level
    /// measures, each rule's mean |score| over the neutral words when they are a target list.
    fn tables(&self, seeds: &[SeedValues], across: &Across<'_>) -> Result<Vec<Table>> {
        let stability = pca_stability(across.vectors, seeds, across.vocab.len(), across.dim)?;
        let rule_bias = (across.rule_scores)
            .map(|scores| scores.mean_absolute(self.neutral_list()))
            .unwrap_or_default();
        self.tables(
            across.corpus,
            across.model,
            across.vocab,
            seeds,
            &stability,
            &rule_bias,
        )
    }
}
