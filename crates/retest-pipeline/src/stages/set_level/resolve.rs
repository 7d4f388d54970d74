//! The set-level lists looked up in a corpus's vocabulary: the neutral words, the definitional
//! and detector pairs, and the WEAT tests (the tests file's, the single-pair tests of the query
//! pairs, the stereotype test), with each list's coverage and the tests left out.

use anyhow::{Context, Result};
use retest_analyses::WeatKind;
use retest_measures::{PairList, WordList};
use retest_rng::SeedPath;
use retest_spec::defaults::STEREOTYPE_DEFINITIONAL_MAX;
use retest_spec::{Plan, SetLevelParams, WeatTest};
use retest_tables::CoverageRow;

use super::{Benchmark, ENSEMBLE, PCA, SetLevel, Test};
use crate::lists::{Benchmarks, Lists, StereotypeList};
use crate::stages::vocab::CasedVocab;

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
        words: CasedVocab<'_, '_>,
    ) -> Result<Option<SetLevel<'p>>> {
        let (Some(params), Some(set_lists)) = (plan.set_level.as_ref(), lists.set_level.as_ref()) else {
            return Ok(None);
        };
        let vocab = words.vocab;
        let mut lookup = Lookup {
            corpus,
            words,
            coverage: Vec::new(),
            skipped: Vec::new(),
        };
        let neutral = lookup.neutral(&set_lists.neutral)?;
        let definitional = lookup.pairs(
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
        let detectors = lookup.pairs(&set_lists.detectors, "detector_pairs", "set_level.detector_pairs")?;
        let pair_names: Vec<String> = base_pairs
            .iter()
            .map(|&(m, f)| format!("{}:{}", vocab.word(m), vocab.word(f)))
            .collect();
        let ensemble = Ensemble::of(base_pairs);
        let mut tests = lookup.caliskan_tests(&set_lists.tests);
        tests.extend(lookup.single_pair_tests(params, lists, base_pairs, &pair_names, &ensemble));
        tests.extend(lookup.stereotype_tests(&set_lists.stereotypes, ensemble, params.stereotype_extremes));
        let benchmarks = similarity_benchmarks(&lists.benchmarks)?;
        let google = match (&lists.benchmarks.google, params.analogy_benchmark) {
            (Some(path), true) => Some(retest_eval::read_analogies(path)?),
            _ => None,
        };
        Ok(Some(SetLevel {
            benchmarks,
            google,
            params,
            tests,
            pairs: base_pairs.to_vec(),
            pair_names,
            definitional,
            detectors,
            neutral,
            root: SeedPath::new(plan.seed)
                .with("set-level")
                .with(corpus)
                .with(model),
            coverage: lookup.coverage,
            skipped: lookup.skipped,
        }))
    }
}

/// The ensemble attributes: every masculine and every feminine word of the base pairs, each once,
/// in pair order.
struct Ensemble {
    males: Vec<u32>,
    females: Vec<u32>,
}

impl Ensemble {
    fn of(base_pairs: &[(u32, u32)]) -> Ensemble {
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
        Ensemble { males, females }
    }
}

/// Looks the set-level lists up in one corpus's vocabulary, keeping each list's coverage row and a
/// line for each test left out.
struct Lookup<'a> {
    corpus: &'a str,
    words: CasedVocab<'a, 'a>,
    coverage: Vec<CoverageRow>,
    skipped: Vec<String>,
}

impl Lookup<'_> {
    fn cover(&mut self, list: &str, kind: &str, n: usize, dropped: &[String]) {
        (self.coverage).push(CoverageRow::of(self.corpus, list, kind, n, dropped));
    }

    /// The ids of Direct Bias's neutral words in vocabulary.
    fn neutral(&mut self, list: &WordList) -> Result<Vec<u32>> {
        let resolved = (self.words.words(list)).with_context(|| {
            format!(
                "corpus `{}`: Direct Bias's neutral words (set_level.neutral)",
                self.corpus
            )
        })?;
        self.cover(&list.name, "neutral_words", list.words.len(), &resolved.oov);
        Ok(resolved.ids)
    }

    /// The pairs of `list` in vocabulary; `kind` is the coverage row's, `field` the plan's.
    fn pairs(&mut self, list: &PairList, kind: &str, field: &str) -> Result<Vec<(u32, u32)>> {
        let pairs = (self.words.pairs(list)).with_context(|| format!("corpus `{}`: {field}", self.corpus))?;
        self.cover(&list.name, kind, list.pairs.len(), &pairs.dropped);
        Ok(pairs.ids)
    }

    /// The ids of the words of set `set` of test `test` in vocabulary, none when it has none.
    fn set(&mut self, test: &str, set: &str, listed: &[String]) -> Option<Vec<u32>> {
        let name = format!("{test}.{set}");
        let words: Vec<String> = listed.iter().map(|w| self.words.case(w)).collect();
        let (ids, oov): (Vec<_>, Vec<_>) = words.iter().partition(|w| self.words.vocab.id(w).is_some());
        let oov: Vec<String> = oov.into_iter().cloned().collect();
        self.cover(&name, "weat_set", words.len(), &oov);
        (!ids.is_empty()).then(|| ids.iter().filter_map(|w| self.words.vocab.id(w)).collect())
    }

    /// The tests of the tests file whose four sets each have a word in vocabulary.
    fn caliskan_tests(&mut self, listed: &[WeatTest]) -> Vec<Test> {
        let mut tests = Vec::new();
        for t in listed {
            let sets = [("x", &t.x), ("y", &t.y), ("a", &t.a), ("b", &t.b)];
            let resolved: Vec<Option<Vec<u32>>> = sets
                .iter()
                .map(|(s, words)| self.set(&t.name, s, words))
                .collect();
            match resolved.into_iter().collect::<Option<Vec<_>>>() {
                Some(mut r) => tests.push(Test {
                    name: t.name.clone(),
                    kind: WeatKind::Caliskan,
                    attributes: String::new(),
                    b: r.pop().expect("four sets"),
                    a: r.pop().expect("four sets"),
                    y: r.pop().expect("four sets"),
                    x: r.pop().expect("four sets"),
                }),
                None => self.skipped.push(format!(
                    "corpus `{}`: WEAT test `{}` left out: one of its sets has no word in vocabulary \
                     (see the coverage table)",
                    self.corpus, t.name
                )),
            }
        }
        tests
    }

    /// Per query pair of the plan with words in vocabulary, its test against each base pair and
    /// against the ensemble. The queries are looked up as written.
    fn single_pair_tests(
        &mut self,
        params: &SetLevelParams,
        lists: &Lists,
        base_pairs: &[(u32, u32)],
        pair_names: &[String],
        ensemble: &Ensemble,
    ) -> Vec<Test> {
        let query = |name: &str| -> Vec<u32> {
            let q = (lists.queries.iter())
                .find(|q| q.name == name)
                .expect("the spec checks that single-pair queries are queries of the plan");
            q.words.iter().filter_map(|w| self.words.vocab.id(w)).collect()
        };
        let mut tests = Vec::new();
        for (query_pair, (xq, yq)) in params.single_pair.iter().enumerate() {
            let (x, y) = (query(xq), query(yq));
            let label = format!("{xq}/{yq}");
            if x.is_empty() || y.is_empty() {
                self.skipped.push(format!(
                    "corpus `{}`: single-pair WEATs `{label}` left out: a query has no word in vocabulary",
                    self.corpus
                ));
                continue;
            }
            let mut attributes: Vec<(String, Vec<u32>, Vec<u32>)> = (base_pairs.iter().zip(pair_names))
                .map(|(&(m, f), name)| (name.clone(), vec![m], vec![f]))
                .collect();
            attributes.push((
                ENSEMBLE.to_owned(),
                ensemble.males.clone(),
                ensemble.females.clone(),
            ));
            for (name, a, b) in attributes {
                tests.push(Test {
                    name: format!("{label} {name}"),
                    kind: WeatKind::SinglePair {
                        query_pair,
                        ensemble: name == ENSEMBLE,
                    },
                    attributes: name,
                    x: x.clone(),
                    y: y.clone(),
                    a,
                    b,
                });
            }
        }
        tests
    }

    /// The stereotypically masculine (X) against the stereotypically feminine (Y) words of
    /// `stereotypes` (not definitional), with the ensemble as attributes, when both sets and
    /// the ensemble have words in vocabulary; and, with `extremes` > 0, the same test on the
    /// `extremes` words of each side with the largest stereotype scores in magnitude (ties in
    /// list order; a side with fewer keeps them all), named `<list>:top<extremes>`, when a side
    /// has more words than that.
    fn stereotype_tests(
        &mut self,
        stereotypes: &StereotypeList,
        ensemble: Ensemble,
        extremes: usize,
    ) -> Vec<Test> {
        let by_stereotype = |masculine: bool| -> Vec<(String, f64)> {
            (stereotypes.words.iter())
                .filter(|(_, definitional, stereotypical)| {
                    definitional.abs() < STEREOTYPE_DEFINITIONAL_MAX
                        && *stereotypical != 0.0
                        && (*stereotypical > 0.0) == masculine
                })
                .map(|(word, _, stereotypical)| (word.clone(), *stereotypical))
                .collect()
        };
        let (masculine, feminine) = (by_stereotype(true), by_stereotype(false));
        let words = |side: &[(String, f64)]| -> Vec<String> { side.iter().map(|(w, _)| w.clone()).collect() };
        let sets = (
            self.set(&stereotypes.name, "x", &words(&masculine)),
            self.set(&stereotypes.name, "y", &words(&feminine)),
        );
        let (x, y) = match sets {
            (Some(x), Some(y)) if !ensemble.males.is_empty() => (x, y),
            _ => {
                self.skipped.push(format!(
                    "corpus `{}`: the stereotype WEAT of `{}` left out: its masculine or feminine words have \
                     none in vocabulary (see the coverage table)",
                    self.corpus, stereotypes.name
                ));
                return Vec::new();
            }
        };
        let test = |name: String, x: Vec<u32>, y: Vec<u32>| Test {
            name,
            kind: WeatKind::Stereotype,
            attributes: ENSEMBLE.to_owned(),
            x,
            y,
            a: ensemble.males.clone(),
            b: ensemble.females.clone(),
        };
        let mut tests = Vec::new();
        if extremes > 0 {
            if x.len() > extremes || y.len() > extremes {
                let top = |side: &[(String, f64)]| -> Vec<u32> {
                    let mut found: Vec<(u32, f64)> = (side.iter())
                        .filter_map(|(w, score)| Some((self.words.id(w)?, score.abs())))
                        .collect();
                    found.sort_by(|a, b| b.1.total_cmp(&a.1));
                    found.iter().take(extremes).map(|&(id, _)| id).collect()
                };
                let name = retest_tables::stereotype_selection(&stereotypes.name, extremes);
                tests.push(test(name, top(&masculine), top(&feminine)));
            } else {
                self.skipped.push(format!(
                    "corpus `{}`: the stereotype WEAT of the {extremes} most stereotyped words of `{}` \
                     (set_level.stereotype_extremes) left out: {} masculine and {} feminine words are in \
                     vocabulary, so it would be the whole test",
                    self.corpus,
                    stereotypes.name,
                    x.len(),
                    y.len()
                ));
            }
        }
        tests.insert(0, test(stereotypes.name.clone(), x, y));
        tests
    }
}

/// The word-similarity benchmarks of `retest eval`, read from the plan's declared files.
///
/// # Errors
///
/// A benchmark file that cannot be read or parsed.
fn similarity_benchmarks(benchmarks: &Benchmarks) -> Result<Vec<Benchmark>> {
    (benchmarks.similarity.iter())
        .map(|(name, path, format)| Ok((*name, retest_eval::read_pairs(path, *format)?)))
        .collect()
}
