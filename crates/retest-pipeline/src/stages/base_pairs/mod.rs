//! The base-pair analyses of Zhang, Sneyd & Stevenson (2020) on every seed (a plan's
//! `base_pairs` section), and what no single model can show: how far the seeds agree, and how
//! the variation of the scores splits into word, pair and seed.
//!
//! Per seed, every rule scores the limited vocabulary (Table 1), the professions with their
//! plural, Capitalised and UPPER forms (Tables 2–4, 6), the truth lists (Table 5) and Figure 1's
//! word under each base pair, its capitalised form and the flip pairs; NBM takes its neighbours
//! from the gender-neutral pool. A score's label is its sign, 0 counting as masculine
//! ([`retest_analyses::masculine`]).
//!
//! The stage resolves the lists against the vocabulary (`resolve.rs`: a
//! [`retest_analyses::BasePairDesign`] and the names that label it), scores each seed and labels
//! the records of retest-analyses' base-pair designs (`measure.rs`), and writes the tables
//! (`tables.rs`).

mod measure;
mod resolve;
mod tables;
#[cfg(test)]
mod tests;

use anyhow::Result;
use retest_analyses::BasePairDesign;
use retest_measures::{RipaTarget, Rule};
use retest_rng::SeedPath;
use retest_spec::{BasePairParams, Plan};
use retest_tables::{
    BasePairAgreementRow, BasePairBaselineRow, BasePairCorrelationRow, BasePairDirectionRow,
    BasePairExampleRow, BasePairFlipRow, BasePairKappaRow, BasePairSummaryRow, CoverageRow, Table, names,
};

use crate::lists::BasePairLists;
use crate::stages::columns::OUT_OF_VOCABULARY;
use crate::stages::stage::{Across, Collect, Family, PerSeed, Seed, when_present};
use crate::stages::vocab::CasedVocab;

/// Zhang et al.'s base-pair analyses: a configuration has their tables when its plan has a
/// `base_pairs` section.
pub(crate) const FAMILY: Family = Family {
    name: "base_pairs",
    title: "base pairs",
    tables: &[
        names::BASE_PAIR_SUMMARY.name(),
        names::BASE_PAIR_AGREEMENT.name(),
        names::BASE_PAIR_KAPPA.name(),
        names::BASE_PAIR_DIRECTIONS.name(),
        names::BASE_PAIR_CORRELATIONS.name(),
        names::BASE_PAIR_BASELINES.name(),
        names::BASE_PAIR_FLIPS.name(),
        names::BASE_PAIR_EXAMPLES.name(),
        names::BASE_PAIR_SCORES.name(),
        names::BASE_PAIR_SEEDS.name(),
        names::BASE_PAIR_VARIANCE.name(),
    ],
    optional: true,
    key: |plan| when_present("base_pairs", &plan.base_pairs),
    build: |setup| {
        let lists = setup.lists.base_pairs_analyses.as_ref();
        let built = BasePairs::new(setup.plan, lists, setup.corpus_name(), setup.model, setup.cased())?;
        Ok(Collect::stage(built))
    },
};

/// The forms of a word Table 4 compares it with, in [`BasePairDesign::forms`] order.
const FORMS: [&str; 3] = ["plural", "capital", "upper"];

/// Why a comparison has no value.
const NOT_APPLICABLE: &str = "not_applicable";

/// The base-pair analyses of one configuration, resolved against its corpus's vocabulary.
pub(crate) struct BasePairs<'p> {
    params: &'p BasePairParams,
    corpus: String,
    algorithm: String,
    rules: Vec<Rule>,
    ripa_target: RipaTarget,
    /// Every pair scored: the listed pairs in vocabulary first, then the capitalised pairs in
    /// vocabulary, then the flip pairs not among them.
    scored_pairs: Vec<(u32, u32)>,
    /// Every word scored; the design's words are positions in it.
    targets: Vec<u32>,
    /// The analyses' words and pairs, as positions in the scores.
    design: BasePairDesign,
    /// `masculine/feminine` of the pairs in vocabulary, in the list's order.
    pair_names: Vec<String>,
    /// Per listed pair: its capitalised pair's name, or why it has none.
    capitalised: Vec<Result<String, &'static str>>,
    /// The names of the two flip pairs.
    flip: (String, String),
    /// The professions in vocabulary, as listed.
    profession_words: Vec<String>,
    /// The truth lists' names, in [`BasePairDesign::truth`] order.
    truth_names: Vec<String>,
    /// Figure 1's word and its forms in vocabulary: (form, word, position).
    example: Vec<(&'static str, String, usize)>,
    /// NBM's neutral neighbour pool.
    pool: Vec<u32>,
    /// The words random baselines are drawn from: the vocabulary less placeholders.
    random_words: Vec<u32>,
    root: SeedPath,
    pub coverage: Vec<CoverageRow>,
    /// Lists or comparisons left out, one line each.
    pub notes: Vec<String>,
}

/// What the analyses give on one seed: its table rows, and the professions' scores
/// (rule × listed pair × profession) for the analyses across seeds.
pub(crate) struct BasePairSeed {
    seed: u32,
    summary: Vec<BasePairSummaryRow>,
    agreement: Vec<BasePairAgreementRow>,
    kappas: Vec<BasePairKappaRow>,
    directions: Vec<BasePairDirectionRow>,
    correlations: Vec<BasePairCorrelationRow>,
    baselines: Vec<BasePairBaselineRow>,
    flips: Vec<BasePairFlipRow>,
    examples: Vec<BasePairExampleRow>,
    professions: Vec<f32>,
}

/// How messages name what the analyses run on and the settings they run with: a pipeline's
/// corpora and fields, or `retest base-pairs`'s embedding files and options.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Names {
    /// `corpus` or `embedding`.
    pub source: &'static str,
    pub pairs: &'static str,
    pub professions: &'static str,
    pub flip: &'static str,
    pub example: &'static str,
    pub nbm_k: &'static str,
    pub most_frequent: &'static str,
}

impl Names {
    /// A pipeline's `base_pairs` section.
    pub const PIPELINE: Names = Names {
        source: "corpus",
        pairs: "base_pairs.pairs",
        professions: "base_pairs.professions",
        flip: "base_pairs.flip",
        example: "base_pairs.example",
        nbm_k: "base_pairs.nbm_k",
        most_frequent: "base_pairs.most_frequent",
    };

    /// `retest base-pairs`.
    pub const COMMAND: Names = Names {
        source: "embedding",
        pairs: "--pairs",
        professions: "--targets",
        flip: "the pairs of RIPA's label flips",
        example: "--example",
        nbm_k: "--nbm-k",
        most_frequent: "--most-frequent",
    };
}

/// What the analyses are run with besides their lists: from a plan's sections, or from the
/// options of `retest base-pairs`.
pub(crate) struct BasePairSetup<'p> {
    pub params: &'p BasePairParams,
    pub rules: Vec<Rule>,
    pub ripa_target: RipaTarget,
    /// Look every word up lowercased (the corpus's reader lowercases).
    pub lowercase: bool,
    /// The random baselines of seed `s` draw from `root.with_index(s)`.
    pub root: SeedPath,
    pub names: Names,
}

impl<'p> BasePairs<'p> {
    /// The plan's base-pair analyses of one configuration, when the plan has them.
    ///
    /// # Errors
    ///
    /// As [`BasePairs::resolve`].
    pub(crate) fn new(
        plan: &'p Plan,
        lists: Option<&BasePairLists>,
        corpus: &str,
        algorithm: &str,
        words: CasedVocab<'_, '_>,
    ) -> Result<Option<BasePairs<'p>>> {
        let (Some(params), Some(lists)) = (plan.base_pairs.as_ref(), lists) else {
            return Ok(None);
        };
        let setup = BasePairSetup {
            params,
            rules: plan.measures.rules.clone(),
            ripa_target: plan.measures.ripa_target,
            lowercase: words.lowercase,
            root: SeedPath::new(plan.seed)
                .with("base-pairs")
                .with(corpus)
                .with(algorithm),
            names: Names::PIPELINE,
        };
        BasePairs::resolve(setup, lists, corpus, algorithm, words.vocab).map(Some)
    }

    /// The number of listed pairs in vocabulary.
    fn n_pairs(&self) -> usize {
        self.pair_names.len()
    }

    /// Every table of the stage from the seeds' results: the per-seed rows, the seeds'
    /// agreement per rule and pair, and the variance components per rule and scale.
    ///
    /// # Errors
    ///
    /// A table that cannot be built.
    pub(crate) fn tables(&self, seeds: &[BasePairSeed]) -> Result<Vec<Table>> {
        self.tables_for(seeds, true)
    }
}

impl PerSeed for BasePairs<'_> {
    type Values = BasePairSeed;
    const WHAT: &'static str = "base pairs";

    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }

    fn coverage(&self) -> &[CoverageRow] {
        &self.coverage
    }

    fn measure(&self, seed: &Seed<'_>) -> Result<BasePairSeed> {
        self.measure_seed(seed.model, seed.index, seed.threads)
    }

    fn tables(&self, seeds: &[BasePairSeed], _: &Across<'_>) -> Result<Vec<Table>> {
        self.tables(seeds)
    }
}
