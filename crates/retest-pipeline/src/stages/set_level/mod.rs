//! The set-level stage of a measure job: on every seed, the WEAT tests (the tests file's and the
//! single-pair tests of the queries against each base pair) with MAC and RNSB of each, the Direct
//! Bias of the neutral words along every gender direction (each base pair's and the principal
//! component of the definitional pairs), Bakarov's detectors and RND and ECT of the neutral words;
//! across seeds, each value's spread, the test-retest reliability of each
//! family of values (the set-level designs of retest-analyses), and the stability of the
//! principal component after Procrustes alignment.
//!
//! `resolve.rs` looks the lists up and builds the tests, this file measures a seed, `tables.rs`
//! labels the rows of each seed and of the designs across seeds.

mod resolve;
mod tables;
#[cfg(test)]
mod tests;

use anyhow::{Context, Result};
use retest_analyses::{QuerySeed, SetLevelSeed, WeatKind};
use retest_embeddings::Embeddings;
use retest_eval::{
    AnalogyResult, AnalogySet, SimilarityResult, WordPair, evaluate_analogies, evaluate_similarity,
};
use retest_measures::{
    DirectionSource, Model, PermutationOptions, RnsbOptions, WeatOptions, WeatSets, direct_bias, ect,
    gender_direction, mac, occupational_stereotypes, relative_norm_distance, rnd, rnsb, weat,
};
use retest_rng::SeedPath;
use retest_spec::SetLevelParams;
use retest_tables::{CoverageRow, Table, names};

use crate::stages::columns::PCA_DIRECTION as PCA;
use crate::stages::stage::{Across, Collect, Family, PerSeed, Seed, always};

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
    /// Which family of tests it belongs to; its query pair indexes the plan's `single_pair`.
    kind: WeatKind,
    /// The base pair (`he:she`) or [`ENSEMBLE`] of a single-pair test; empty otherwise.
    attributes: String,
    x: Vec<u32>,
    y: Vec<u32>,
    a: Vec<u32>,
    b: Vec<u32>,
}

impl Test {
    /// The test's `family` column.
    fn family(&self) -> &'static str {
        match self.kind {
            WeatKind::Caliskan => CALISKAN,
            WeatKind::SinglePair { .. } => SINGLE_PAIR,
            WeatKind::Stereotype => STEREOTYPE,
        }
    }
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
            setup.cased(),
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
    /// The Google analogy set, with `set_level.analogy_benchmark`.
    google: Option<AnalogySet>,
}

/// Everything the set-level measures give on one seed.
pub(crate) struct SeedValues {
    /// What the designs across seeds read: WEAT per test, Direct Bias per direction (pairs, then
    /// `pca`), the neutral words' projections on `pca`, Bakarov's OS and GD (Garg et al.'s
    /// relative norm distance) of the neutral words.
    measures: SetLevelSeed,
    /// Per direction: `cos(g, g_pca)`, `‖m̂ − f̂‖`.
    directions: Vec<(f64, f64)>,
    explained_variance: [f64; 2],
    pca: Vec<f64>,
    /// The quality benchmarks.
    quality: Quality,
}

/// One seed's scores on the quality benchmarks.
#[derive(Debug, Default)]
pub(crate) struct Quality {
    /// The word-similarity benchmarks, in the stage's order.
    pub similarity: Vec<SimilarityResult>,
    /// The Google analogy set's 3CosAdd accuracy, with `set_level.analogy_benchmark`.
    pub analogy: Option<AnalogyResult>,
}

impl SetLevel<'_> {
    /// The set-level measures on seed `seed`.
    ///
    /// # Errors
    ///
    /// A degenerate pair (two words with the same direction) or a failed permutation test.
    pub(crate) fn measure_seed(&self, model: &Model<'_>, seed: u32, quality: Quality) -> Result<SeedValues> {
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
        let mut bias = Vec::with_capacity(self.pairs.len() + 1);
        let mut directions = Vec::with_capacity(self.pairs.len() + 1);
        for (&(m, f), name) in self.pairs.iter().zip(&self.pair_names) {
            let g = gender_direction(model, DirectionSource::Pair(m, f))
                .with_context(|| format!("the direction of `{name}`"))?;
            let cos_pca: f64 = g.vector.iter().zip(&pca.vector).map(|(a, b)| a * b).sum();
            let difference = retest_measures::attribute_difference(model, &[m], &[f])?.norm;
            bias.push(direct_bias(model, &g, &self.neutral, c)?.value);
            directions.push((cos_pca, difference));
        }
        let pca_bias = direct_bias(model, &pca, &self.neutral, c)?;
        bias.push(pca_bias.value);
        directions.push((1.0, f64::NAN));
        let ratio = |i: usize| pca.explained_variance_ratio.get(i).copied().unwrap_or(f64::NAN);
        let (m, f) = self.detectors[0];
        let axis = gender_direction(model, DirectionSource::Pair(m, f)).context("the axis of OS")?;
        let os = occupational_stereotypes(model, &axis, &self.neutral)?;
        let (males, females): (Vec<u32>, Vec<u32>) = self.detectors.iter().copied().unzip();
        let gd = relative_norm_distance(model, &males, &females, &self.neutral)?;
        let query = self.query_measures(model, &seed_path, &males, &females)?;
        Ok(SeedValues {
            measures: SetLevelSeed {
                weat: weats,
                direct_bias: bias,
                pca_projections: pca_bias.projections,
                os,
                gd,
                query,
            },
            directions,
            explained_variance: [ratio(0), ratio(1)],
            pca: pca.vector,
            quality,
        })
    }

    /// The query measures on one seed: MAC and RNSB of every test, with RNSB's classifier fitted
    /// on every attribute word (a held-out split would add its own randomness to the spread
    /// across seeds); RND and ECT of the detector pairs' feminine (first) and masculine words
    /// against the neutral words, so that a positive RND is masculine, as GD.
    fn query_measures(
        &self,
        model: &Model<'_>,
        seed_path: &SeedPath,
        males: &[u32],
        females: &[u32],
    ) -> Result<QuerySeed> {
        let (mut macs, mut rnsbs) = (
            Vec::with_capacity(self.tests.len()),
            Vec::with_capacity(self.tests.len()),
        );
        for t in &self.tests {
            let context = || format!("test `{}`", t.name);
            macs.push(mac(model, &[&t.x, &t.y], &[&t.a, &t.b]).with_context(context)?);
            let options = RnsbOptions {
                holdout: 0.0,
                seed: seed_path,
            };
            rnsbs.push(rnsb(model, &[&t.x, &t.y], &t.a, &t.b, &options).with_context(context)?);
        }
        Ok(QuerySeed {
            mac: macs,
            rnsb: rnsbs,
            rnd: rnd(model, females, males, &self.neutral).context("RND")?,
            ect: ect(model, females, males, &self.neutral).context("ECT")?,
        })
    }

    /// The name of the neutral word list.
    pub(crate) fn neutral_list(&self) -> &str {
        &self.params.neutral
    }

    /// The quality benchmarks on one seed's embeddings (gensim's semantics, as `retest eval`):
    /// the word-similarity benchmarks, and the Google analogy set when the plan asks for it.
    pub(crate) fn quality(&self, emb: &Embeddings) -> Quality {
        Quality {
            similarity: (self.benchmarks.iter())
                .map(|(name, pairs)| evaluate_similarity(emb, pairs, name))
                .collect(),
            analogy: self.google.as_ref().map(|set| evaluate_analogies(emb, set)),
        }
    }

    /// The direction names: the base pairs, then `pca`.
    fn direction_names(&self) -> impl Iterator<Item = &str> {
        self.pair_names.iter().map(String::as_str).chain([PCA])
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
