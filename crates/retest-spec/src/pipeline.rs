//! Pipeline specs (`pipelines/*.yaml`) and the validated [`Plan`] they resolve to.
//!
//! ```yaml
//! name: smoke
//! seed: 7                     # root of every random stream (default 2021)
//! n_seeds: 3                  # trainings per corpus and algorithm (default 32, 2 to 10000)
//! corpora:
//!   - recipe: wikitext-103-valid   # a name in the recipe folder, or a path to a recipe file
//!     min_count: 5                 # overrides the recipe
//!     max_tokens: 200000           # overrides the recipe: read only the first N tokens
//!     name: wikitext-200k          # the corpus's name in this pipeline (default: the recipe's),
//!                                  # so one recipe can be listed twice, e.g. in slices
//! algorithms: [sgns, glove]   # default both
//! sgns: { dim: 50, epochs: 2 }     # every field optional; see `defaults`
//! glove: { dim: 50, iterations: 5 }
//! variants:                   # more models of an algorithm, with some parameters changed
//!   - { name: sgns-3-epochs, sgns: { epochs: 3 } }   # the pipeline's sgns block, epochs 3
//! measures: { rules: [dbwa, ripa, nbm], ripa_target: raw, nbm_k: 100 }
//!                             # nbm_pool: neutral takes NBM's neighbours from Gonen & Goldberg's
//!                             # pool, less nbm_pool_exclude's words (default: debiaswe's lists)
//! reliability: { inter_rater_scale: [raw, zscore] }
//! set_level:                  # opt-in: WEAT, Direct Bias and their reliability across seeds
//!   tests_file: caliskan      # a WEAT tests file in the word-list folder
//!   tests: [weat6, weat7, weat8]
//!   single_pair: [career/family, math/arts, science/arts_2]   # queries x/y against each base pair
//!   neutral: occ16            # Direct Bias's neutral words
//!   definitional_pairs: definitional-pairs                  # the pairs of the `pca` direction
//!   detector_pairs: gender-pairs                            # Bakarov's OS axis and GD groups
//!   stereotypes: professions  # words with a stereotype score: masculine vs feminine WEAT
//!   stereotype_extremes: 10   # ... and of the 10 most stereotyped per side (Schröder's Fig. 1)
//!   analogy_benchmark: true   # Google analogy accuracy among the quality benchmarks (default: no)
//! analogies:                  # opt-in: analogy answers on every seed and their stability
//!   queries: bias-queries     # `a b c [reported answer]` per line
//!   solvers: [cosadd, cosmul, bolukbasi]   # default; also cosmul_unshifted (Nissim's Eq. 2)
//!   top_n: 10                 # answers kept per query, solver and constraint
//!   restrict_vocab: 50000     # search the most frequent words only (default: all)
//!   solver_restrict_vocab: {bolukbasi: 50000}   # a solver's answers among fewer (default: none)
//!   delta: 1.0                # Bolukbasi's threshold, on the distance or (delta_bound:
//!   delta_bound: distance     #   squared-distance) on the squared distance
//!   google: true              # Google analogy accuracy per solver and constraint
//!   pairs: true               # Bolukbasi's pair generation along pair_seed (she − he)
//!   pair_seed: [she, he]
//!   pair_filter: true         # pairs of lowercase words without digits or punctuation only
//!   sweep: [man, doctor, woman]   # Nissim's Table 4: Bolukbasi unconstrained over sizes × δ
//!   zhang: true               # Zhang et al. §7: man : x :: woman : ? over the Google pairs
//!   zhang_restrict_vocab: 50000   # ... among the most frequent words only (default: all)
//! base_pairs:                 # opt-in: Zhang et al.'s base-pair analyses on every seed
//!   pairs: zhang-pairs        # the pairs compared (and their capitalised forms)
//!   professions: professions  # the words they must agree on, with plural/Capital/UPPER forms
//!   truth: [bsri, animals]    # `word m|f` lists: labels against the true gender
//!   pool_exclude: [definitional-pairs, equalize-pairs, gender-specific-full]
//!   most_frequent: 50000      # the limited vocabulary and NBM's neutral pool come from these
//!   nbm_k: 100
//!   flip: [[man, woman], [king, queen]]   # RIPA labels that change between two pairs
//!   example: professor        # Figure 1's word
//!   random_samples: 100000    # random word pairs for the cosine baselines
//! validity:                   # opt-in: the rules' scores against a criterion, on every seed
//!   criterion: census         # census (Garg et al.'s share of women), mturk, or a word,value CSV
//!   census_year: 1900         # with census: the year (default: the latest, 2015)
//! residual_bias:              # opt-in: Gonen & Goldberg's (2019) tests on every seed
//!   exclude: [gonen-male-words, gonen-female-words]   # gender-specific words, not candidates
//!   targets: professions      # the words whose masculine neighbours are counted
//!   vocabulary: 50000         # candidates among the most frequent words
//!   clustered: 500            # per gender: the most biased words clustered
//!   classified: 2500          # per gender: the most biased words classified,
//!   trained: 500              #   of which the classifier is trained on these
//!   neighbours: 100           # neighbours counted per target
//! bias_subspace:              # opt-in: the gender subspace beyond its first direction, every seed
//!   components: 3             # Direct Bias on the first 1, 2, …, k principal components
//!   definitional_pairs: definitional-pairs   # the pairs the components come from
//!   neutral: occ16            # Direct Bias's neutral words, also the words of indirect bias
//!   c: 1.0                    # Direct Bias's exponent
//!   anchors: [softball, football]   # indirect bias β(w, anchor) of every neutral word
//! debias:                     # opt-in: each seed hard-debiased, measured as a model `<model>+hard`
//!   method: hard              # Bolukbasi et al.'s neutralise and equalise (the one method)
//!   models: [sgns]            # the models debiased (default: every model of the pipeline)
//!   definitional: definitional-pairs      # the lists (default: debiaswe's)
//!   equalize: equalize-pairs
//!   gender_specific: gender-specific-full
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use retest_measures::{DeltaBound, Solver, SolverKind};
use serde::{Deserialize, Serialize};

use crate::defaults;
use crate::document::Document;
use crate::error::SpecError;
use crate::model::{Model, ModelParams};
use crate::model_files::{ModelFiles, RawModelFiles, resolve_model_files};
use crate::recipe::{CorpusRecipe, check_min_count, check_name};

/// Where corpus recipes named in a pipeline are looked up.
#[derive(Clone, Debug)]
pub struct RecipeFolder {
    pub dir: PathBuf,
}

impl RecipeFolder {
    /// The recipe names available in the folder (file stems of `*.yaml`), sorted.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|entry| {
                let path = entry.path();
                (path.extension()? == "yaml").then(|| path.file_stem()?.to_str().map(str::to_owned))?
            })
            .collect();
        names.sort();
        names
    }

    /// The recipe file for `reference`: a path if it contains `/` or ends in `.yaml`
    /// (relative to `base`), else `<dir>/<reference>.yaml`.
    pub fn path_of(&self, reference: &str, base: &Path) -> PathBuf {
        if reference.contains('/') || reference.ends_with(".yaml") {
            base.join(reference)
        } else {
            self.dir.join(format!("{reference}.yaml"))
        }
    }
}

/// The embedding algorithms retest trains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    Sgns,
    Glove,
}

impl Algorithm {
    /// The stable name used in paths, tables and seed derivation.
    pub fn as_str(self) -> &'static str {
        match self {
            Algorithm::Sgns => "sgns",
            Algorithm::Glove => "glove",
        }
    }
}

/// word2vec architecture of the SGNS trainer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Architecture {
    /// Skip-gram: predict each context word from the centre word (the paper's SGNS).
    Skipgram,
    /// CBOW: predict the centre word from the mean of its context (what the original code trained).
    Cbow,
}

impl Architecture {
    /// The stable name used in seed derivation and metadata.
    pub fn as_str(self) -> &'static str {
        match self {
            Architecture::Skipgram => "skipgram",
            Architecture::Cbow => "cbow",
        }
    }
}

/// Scoring rules, RIPA's target and NBM's pool are named by `retest-measures` (the measure
/// registry), inter-rater scales by `retest-analyses`: the spec spells them as those crates do.
pub use retest_analyses::Scale as InterRaterScale;
pub use retest_measures::{NbmPool, RipaTarget, Rule, SdKind};

/// Resolved SGNS parameters.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SgnsParams {
    pub architecture: Architecture,
    pub dim: u32,
    pub window: u32,
    pub negative: u32,
    pub ns_exponent: f64,
    pub sample: f64,
    pub epochs: u32,
    pub alpha: f64,
    pub min_alpha: f64,
    pub threads_per_model: u32,
}

/// Resolved GloVe parameters.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GloveParams {
    pub dim: u32,
    pub window: u32,
    pub x_max: f64,
    pub alpha: f64,
    pub eta: f64,
    pub iterations: u32,
    pub memory_mb: u64,
    pub threads_per_model: u32,
}

/// Resolved measurement parameters.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeasureParams {
    pub rules: Vec<Rule>,
    pub ripa_target: RipaTarget,
    pub nbm_k: u32,
    pub nbm_pool: NbmPool,
    /// With the neutral pool: the lists whose words it leaves out besides the base pairs' (the
    /// base-pair analyses' `pool_exclude` by default); empty, and not in the measure key, with
    /// the vocabulary.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nbm_pool_exclude: Vec<String>,
    pub base_pairs: String,
    pub target_lists: Vec<String>,
    pub queries: Vec<String>,
}

/// Resolved reliability parameters.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReliabilityParams {
    pub inter_rater_scale: Vec<InterRaterScale>,
    /// Also persist the bias tensor for the full vocabulary (large).
    pub full_vocabulary_tensor: bool,
}

/// Resolved set-level measures: WEAT tests and Direct Bias on every seed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SetLevelParams {
    /// The WEAT tests file (a name in the word-list folder, or a path).
    pub tests_file: String,
    /// The tests of the file run on every seed; may be empty.
    pub tests: Vec<String>,
    /// Query pairs `(x, y)` of single-pair WEATs, each a name of `measures.queries`; may be empty.
    pub single_pair: Vec<(String, String)>,
    /// The standard deviation of WEAT's effect size.
    pub sd: SdKind,
    /// Permutation tests with at most this many partitions are exact; larger ones are sampled.
    pub exact_max: u64,
    /// Partitions drawn by a sampled permutation test.
    pub samples: u64,
    /// The neutral word list of Direct Bias.
    pub neutral: String,
    /// The pair list whose first principal component is the `pca` direction (at least 2 pairs).
    pub definitional_pairs: String,
    /// The exponent `c` of Direct Bias.
    pub c: f64,
    /// The pair list of Bakarov's detectors: its first pair is the axis of Occupational
    /// Stereotypes, its words the two groups of Gender Direction.
    pub detector_pairs: String,
    /// The list of words with a stereotype score (Bolukbasi et al.'s professions): the WEAT of
    /// the stereotypically masculine against the stereotypically feminine words, with every base
    /// pair's words as attributes.
    pub stereotypes: String,
    /// The same test on only this many of the most stereotyped words per side (Schröder et
    /// al.'s Fig. 1: a selection whose scores separate better may get a smaller effect size);
    /// 0 leaves it out.
    pub stereotype_extremes: usize,
    /// Also the Google analogy accuracy of every seed (3CosAdd, as `retest eval`) among the
    /// quality benchmarks: Bakarov's analogy benchmark beside the word-similarity ones.
    pub analogy_benchmark: bool,
}

/// Resolved analogy measures: answers to a query list on every seed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnalogyParams {
    /// The query list (a name in the word-list folder, or a path).
    pub queries: String,
    pub solvers: Vec<SolverKind>,
    pub top_n: usize,
    /// Search only the most frequent words; `None`: the whole vocabulary.
    pub restrict_vocab: Option<usize>,
    /// Per solver, answers only among this many of the most frequent words (its query words
    /// may lie beyond, within `restrict_vocab`): Nissim et al.'s Bolukbasi rows answer among
    /// 50,000. A solver not named answers among every word searched.
    pub solver_restrict_vocab: BTreeMap<SolverKind, usize>,
    /// 3CosMul's ε.
    pub epsilon: f64,
    /// Bolukbasi et al.'s δ and what it bounds.
    pub delta: f64,
    pub delta_bound: DeltaBound,
    /// Also the accuracy of every solver and constraint on the Google analogy set.
    pub google: bool,
    /// Bolukbasi et al.'s pair generation along `pair_seed[0] − pair_seed[1]`, among the
    /// `pair_restrict_vocab` most frequent words, `n_pairs` pairs (δ and its bound as above).
    pub pairs: bool,
    pub pair_seed: [String; 2],
    pub pair_restrict_vocab: usize,
    pub n_pairs: usize,
    /// Pairs only of the words Bolukbasi et al. kept: lowercase, shorter than 20 characters,
    /// without digits or punctuation (but the `_` of a phrase).
    pub pair_filter: bool,
    /// Nissim et al.'s Table 4: this query answered by Bolukbasi's formula, unconstrained, for
    /// every size of `sweep_sizes` (and the whole vocabulary) and every δ of `sweep_deltas`.
    pub sweep: Option<[String; 3]>,
    pub sweep_sizes: Vec<usize>,
    pub sweep_deltas: Vec<f64>,
    /// Zhang et al.'s (2020, §7) "man : x :: woman : ?" over the Google set's word pairs (with
    /// `google`).
    pub zhang: bool,
    /// Zhang et al.'s test among this many of the most frequent words only (pairs and answers;
    /// within `restrict_vocab`); `None`: every word searched.
    pub zhang_restrict_vocab: Option<usize>,
}

/// Resolved base-pair analyses (Zhang, Sneyd & Stevenson 2020) on every seed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BasePairParams {
    /// The base pairs compared (a pair list), each also in its capitalised form.
    pub pairs: String,
    /// The words the pairs, forms and rules must agree on (a stereotype list such as
    /// Bolukbasi et al.'s professions, or a word list).
    pub professions: String,
    /// Lists of words with their true gender (`word m|f` per line).
    pub truth: Vec<String>,
    /// Lists whose words leave NBM's neutral pool (word lists, pair lists or declared JSON
    /// lists of words or pairs).
    pub pool_exclude: Vec<String>,
    /// The limited vocabulary (Table 1) and the neutral pool are drawn from this many of the
    /// most frequent words.
    pub most_frequent: usize,
    pub nbm_k: u32,
    /// Two pairs (masculine first) whose RIPA labels are compared.
    pub flip: [[String; 2]; 2],
    /// Figure 1's word, shown with its forms across pairs and rules.
    pub example: String,
    /// Random word pairs per seed for the cosine baselines.
    pub random_samples: usize,
}

/// Gonen & Goldberg's (2019) residual-bias tests on every seed (the `residual_bias` section).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResidualParams {
    /// Word lists whose words are not candidates (gender-specific words).
    pub exclude: Vec<String>,
    /// The word list whose words' neighbours are counted.
    pub targets: String,
    /// Candidates come from this many most frequent words.
    pub vocabulary: usize,
    /// Per gender: the most biased candidates clustered.
    pub clustered: usize,
    /// Per gender: the most biased candidates classified, and of those the ones trained on.
    pub classified: usize,
    pub trained: usize,
    /// Neighbours counted per target.
    pub neighbours: usize,
}

/// Bolukbasi et al.'s gender subspace beyond its first direction on every seed (the
/// `bias_subspace` section): Direct Bias on the first `k` principal components, the first
/// component with each definitional pair left out, and indirect bias.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SubspaceParams {
    /// Direct Bias on the first 1, 2, …, `components` principal components.
    pub components: usize,
    /// The pairs whose principal components span the subspace.
    pub definitional_pairs: String,
    /// The words Direct Bias and indirect bias are measured on.
    pub neutral: String,
    /// Direct Bias's exponent.
    pub c: f64,
    /// Words whose indirect bias β(w, anchor) with every neutral word is measured.
    pub anchors: Vec<String>,
}

/// How a debiasing method is named in a plan and in a debiased model's name (`sgns+hard`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DebiasMethod {
    /// Bolukbasi et al.'s (2016) neutralise and equalise.
    Hard,
}

impl DebiasMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            DebiasMethod::Hard => "hard",
        }
    }
}

/// Which models a plan debiases, and with which lists (the `debias` section): each model's seeds,
/// debiased as they are read, are measured as a model of their own, `<model>+<method>`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DebiasParams {
    pub method: DebiasMethod,
    /// The models debiased, trained or read from files, in the plan's order.
    pub models: Vec<String>,
    /// The lists: declared names of the word-list folder or files.
    pub definitional: String,
    pub equalize: String,
    pub gender_specific: String,
}

/// What a plan's per-word scores are validated against (the `validity` section).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ValidityParams {
    /// `census` (Garg et al.'s logit of each occupation's share of women), `mturk` (their
    /// stereotype ratings), or a `word,value` CSV (a path).
    pub criterion: String,
    /// The census year; `None`: the latest in the file.
    pub census_year: Option<u32>,
}

impl AnalogyParams {
    /// The solvers with their parameters.
    pub fn solvers(&self) -> Vec<Solver> {
        (self.solvers.iter())
            .map(|k| k.with(self.epsilon, self.delta, self.delta_bound))
            .collect()
    }
}

/// A validated pipeline with every default resolved.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plan {
    pub name: String,
    pub description: String,
    pub seed: u64,
    pub n_seeds: u32,
    /// Corpus recipes with the pipeline's overrides applied.
    pub corpora: Vec<CorpusRecipe>,
    pub algorithms: Vec<Algorithm>,
    pub sgns: Option<SgnsParams>,
    pub glove: Option<GloveParams>,
    /// More models: an algorithm of `algorithms` with some of its parameters changed
    /// ([`Plan::models`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<Model>,
    pub measures: MeasureParams,
    pub reliability: ReliabilityParams,
    /// The set-level measures, when the pipeline has a `set_level` section.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub set_level: Option<SetLevelParams>,
    /// The analogy measures, when the pipeline has an `analogies` section.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub analogies: Option<AnalogyParams>,
    /// The base-pair analyses, when the pipeline has a `base_pairs` section.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_pairs: Option<BasePairParams>,
    /// Criterion validity, when the pipeline has a `validity` section.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validity: Option<ValidityParams>,
    /// Gonen & Goldberg's residual-bias tests, when the pipeline has a `residual_bias` section.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub residual_bias: Option<ResidualParams>,
    /// The gender subspace, when the pipeline has a `bias_subspace` section.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bias_subspace: Option<SubspaceParams>,
    /// Debiased copies of models, when the pipeline has a `debias` section.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub debias: Option<DebiasParams>,
    /// Models read from embedding files (the pipeline's `models` section), measured after the
    /// trained ones.
    #[serde(rename = "models", skip_serializing_if = "Vec::is_empty")]
    pub model_files: Vec<ModelFiles>,
    /// The pipeline file.
    #[serde(skip)]
    pub file: PathBuf,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPipeline {
    name: String,
    description: Option<String>,
    seed: Option<u64>,
    n_seeds: Option<u32>,
    #[serde(default)]
    corpora: Vec<RawCorpusRef>,
    algorithms: Option<Vec<Algorithm>>,
    sgns: Option<RawSgns>,
    glove: Option<RawGlove>,
    variants: Option<Vec<RawVariant>>,
    measures: Option<RawMeasures>,
    reliability: Option<RawReliability>,
    set_level: Option<RawSetLevel>,
    analogies: Option<RawAnalogies>,
    base_pairs: Option<RawBasePairs>,
    validity: Option<RawValidity>,
    residual_bias: Option<RawResidual>,
    bias_subspace: Option<RawSubspace>,
    debias: Option<RawDebias>,
    #[serde(default)]
    models: Vec<RawModelFiles>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVariant {
    name: String,
    sgns: Option<RawSgns>,
    glove: Option<RawGlove>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCorpusRef {
    recipe: String,
    name: Option<String>,
    min_count: Option<u64>,
    max_tokens: Option<u64>,
}

#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSgns {
    architecture: Option<Architecture>,
    dim: Option<u32>,
    window: Option<u32>,
    negative: Option<u32>,
    ns_exponent: Option<f64>,
    sample: Option<f64>,
    epochs: Option<u32>,
    alpha: Option<f64>,
    min_alpha: Option<f64>,
    threads_per_model: Option<u32>,
}

#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGlove {
    dim: Option<u32>,
    window: Option<u32>,
    x_max: Option<f64>,
    alpha: Option<f64>,
    eta: Option<f64>,
    iterations: Option<u32>,
    memory_mb: Option<u64>,
    threads_per_model: Option<u32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMeasures {
    rules: Option<Vec<Rule>>,
    ripa_target: Option<RipaTarget>,
    nbm_k: Option<u32>,
    nbm_pool: Option<NbmPool>,
    nbm_pool_exclude: Option<Vec<String>>,
    base_pairs: Option<String>,
    target_lists: Option<Vec<String>>,
    queries: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSetLevel {
    tests_file: Option<String>,
    tests: Option<Vec<String>>,
    single_pair: Option<Vec<String>>,
    sd: Option<SdKind>,
    exact_max: Option<u64>,
    samples: Option<u64>,
    neutral: Option<String>,
    definitional_pairs: Option<String>,
    c: Option<f64>,
    detector_pairs: Option<String>,
    stereotypes: Option<String>,
    stereotype_extremes: Option<usize>,
    analogy_benchmark: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAnalogies {
    queries: Option<String>,
    solvers: Option<Vec<SolverKind>>,
    top_n: Option<usize>,
    restrict_vocab: Option<usize>,
    solver_restrict_vocab: Option<BTreeMap<SolverKind, usize>>,
    epsilon: Option<f64>,
    delta: Option<f64>,
    delta_bound: Option<DeltaBound>,
    google: Option<bool>,
    pairs: Option<bool>,
    pair_seed: Option<[String; 2]>,
    pair_restrict_vocab: Option<usize>,
    n_pairs: Option<usize>,
    pair_filter: Option<bool>,
    /// `null` leaves the sweep out.
    #[serde(default, deserialize_with = "explicit_null")]
    sweep: Option<Option<[String; 3]>>,
    sweep_sizes: Option<Vec<usize>>,
    sweep_deltas: Option<Vec<f64>>,
    zhang: Option<bool>,
    zhang_restrict_vocab: Option<usize>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBasePairs {
    pairs: Option<String>,
    professions: Option<String>,
    truth: Option<Vec<String>>,
    pool_exclude: Option<Vec<String>>,
    most_frequent: Option<usize>,
    nbm_k: Option<u32>,
    flip: Option<[[String; 2]; 2]>,
    example: Option<String>,
    random_samples: Option<usize>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawResidual {
    exclude: Option<Vec<String>>,
    targets: Option<String>,
    vocabulary: Option<usize>,
    clustered: Option<usize>,
    classified: Option<usize>,
    trained: Option<usize>,
    neighbours: Option<usize>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSubspace {
    components: Option<usize>,
    definitional_pairs: Option<String>,
    neutral: Option<String>,
    c: Option<f64>,
    anchors: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDebias {
    method: Option<DebiasMethod>,
    models: Option<Vec<String>>,
    definitional: Option<String>,
    equalize: Option<String>,
    gender_specific: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawValidity {
    criterion: Option<String>,
    census_year: Option<u32>,
}

/// A field that may be absent (`None`), `null` (`Some(None)`) or a value.
fn explicit_null<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReliability {
    inter_rater_scale: Option<Vec<InterRaterScale>>,
    full_vocabulary_tensor: Option<bool>,
}

impl Plan {
    /// The resolved plan as YAML, every default written out (what `retest plan` prints).
    pub fn to_yaml(&self) -> String {
        serde_yaml::to_string(self).expect("a plan serialises: plain fields, string map keys")
    }

    /// Reads and validates the pipeline at `path`, looking corpus recipes up in `recipes`.
    pub fn load(path: &Path, recipes: &RecipeFolder) -> Result<Self, SpecError> {
        Self::resolve(Document::read(path)?, recipes)
    }

    /// Validates pipeline text; `file` names it in errors.
    pub fn parse(text: &str, file: &Path, recipes: &RecipeFolder) -> Result<Self, SpecError> {
        Self::resolve(Document::parse(text, file)?, recipes)
    }

    fn resolve(doc: Document<RawPipeline>, recipes: &RecipeFolder) -> Result<Self, SpecError> {
        let raw = &doc.raw;
        check_name(&doc, "name", "pipeline", &raw.name)?;
        let n_seeds = raw.n_seeds.unwrap_or(defaults::N_SEEDS);
        if n_seeds < 2 {
            return Err(doc.error(
                "n_seeds",
                format!("{n_seeds} seed(s): test-retest reliability needs at least 2 seeds per corpus and algorithm"),
            ));
        }
        if n_seeds > defaults::MAX_SEEDS {
            return Err(doc.error(
                "n_seeds",
                format!(
                    "{n_seeds} seeds is too many: must be at most {}",
                    defaults::MAX_SEEDS
                ),
            ));
        }
        let corpora = resolve_corpora(&doc, recipes)?;
        if corpora.is_empty() {
            // A plan of model files alone trains nothing.
            let training = [
                ("algorithms", raw.algorithms.is_some()),
                ("sgns", raw.sgns.is_some()),
                ("glove", raw.glove.is_some()),
                ("variants", raw.variants.is_some()),
            ];
            if let Some((field, _)) = training.iter().find(|(_, given)| *given) {
                return Err(doc.error(
                    field,
                    "trains on the pipeline's corpora, and it lists none (`corpora`)",
                ));
            }
        }
        let algorithms = match &raw.algorithms {
            Some(algorithms) => algorithms.clone(),
            None if corpora.is_empty() => Vec::new(),
            None => defaults::ALGORITHMS.to_vec(),
        };
        if !corpora.is_empty() {
            check_unique_nonempty(&doc, "algorithms", &algorithms, |a| a.as_str())?;
        }
        let sgns = algorithms
            .contains(&Algorithm::Sgns)
            .then(|| resolve_sgns(&doc, "sgns", &raw.sgns.unwrap_or_default()))
            .transpose()?;
        let glove = algorithms
            .contains(&Algorithm::Glove)
            .then(|| resolve_glove(&doc, "glove", &raw.glove.unwrap_or_default()))
            .transpose()?;
        if raw.sgns.is_some() && sgns.is_none() {
            return Err(doc.error(
                "sgns",
                "parameters given for `sgns`, which is not in `algorithms`",
            ));
        }
        if raw.glove.is_some() && glove.is_none() {
            return Err(doc.error(
                "glove",
                "parameters given for `glove`, which is not in `algorithms`",
            ));
        }
        let variants = resolve_variants(&doc, &algorithms)?;
        let trained: Vec<String> = (algorithms.iter().map(|a| a.as_str().to_owned()))
            .chain(variants.iter().map(|v| v.name.clone()))
            .collect();
        let model_files = resolve_model_files(&doc, &raw.models, &trained)?;
        if corpora.is_empty() && model_files.is_empty() {
            return Err(doc.error(
                "corpora",
                "a pipeline needs at least one corpus to train on or one entry of `models`",
            ));
        }
        Ok(Plan {
            name: raw.name.clone(),
            description: raw.description.clone().unwrap_or_default(),
            seed: raw.seed.unwrap_or(defaults::SEED),
            n_seeds,
            corpora,
            algorithms,
            sgns,
            glove,
            variants,
            measures: resolve_measures(&doc)?,
            reliability: resolve_reliability(&doc)?,
            set_level: resolve_set_level(&doc)?,
            analogies: resolve_analogies(&doc)?,
            base_pairs: resolve_base_pairs(&doc)?,
            validity: resolve_validity(&doc)?,
            residual_bias: resolve_residual(&doc)?,
            bias_subspace: resolve_subspace(&doc)?,
            debias: resolve_debias(&doc, &trained, &model_files)?,
            model_files,
            file: doc.file.clone(),
        })
    }
}

fn resolve_corpora(
    doc: &Document<RawPipeline>,
    recipes: &RecipeFolder,
) -> Result<Vec<CorpusRecipe>, SpecError> {
    let base = doc.file.parent().unwrap_or(Path::new("."));
    let mut corpora: Vec<CorpusRecipe> = Vec::new();
    for (i, entry) in doc.raw.corpora.iter().enumerate() {
        let field = format!("corpora[{i}]");
        let path = recipes.path_of(&entry.recipe, base);
        if !path.is_file() {
            let known = recipes.names();
            return Err(doc.error(
                &format!("{field}.recipe"),
                format!(
                    "unknown corpus `{}`: no recipe file {}; known corpora in {}: {}",
                    entry.recipe,
                    path.display(),
                    recipes.dir.display(),
                    if known.is_empty() {
                        "(none)".to_owned()
                    } else {
                        known.join(", ")
                    }
                ),
            ));
        }
        let mut recipe = CorpusRecipe::load(&path)?;
        if let Some(min_count) = entry.min_count {
            check_min_count(doc, &format!("{field}.min_count"), min_count)?;
            recipe.min_count = min_count;
        }
        if let Some(max_tokens) = entry.max_tokens {
            if max_tokens == 0 {
                return Err(doc.error(&format!("{field}.max_tokens"), "must be at least 1"));
            }
            recipe.max_tokens = Some(max_tokens);
        }
        if let Some(name) = &entry.name {
            check_name(doc, &format!("{field}.name"), "corpus", name)?;
            recipe.name.clone_from(name);
        }
        if corpora.iter().any(|c| c.name == recipe.name) {
            return Err(doc.error(
                &format!("{field}.recipe"),
                format!(
                    "corpus `{}` is listed twice (give one of them its own `name`)",
                    recipe.name
                ),
            ));
        }
        corpora.push(recipe);
    }
    Ok(corpora)
}

/// The SGNS parameters of `raw` (at `field`), defaults filled in and checked.
fn resolve_sgns(doc: &Document<RawPipeline>, field: &str, raw: &RawSgns) -> Result<SgnsParams, SpecError> {
    let p = SgnsParams {
        architecture: raw.architecture.unwrap_or(defaults::SGNS_ARCHITECTURE),
        dim: raw.dim.unwrap_or(defaults::DIM),
        window: raw.window.unwrap_or(defaults::SGNS_WINDOW),
        negative: raw.negative.unwrap_or(defaults::SGNS_NEGATIVE),
        ns_exponent: raw.ns_exponent.unwrap_or(defaults::SGNS_NS_EXPONENT),
        sample: raw.sample.unwrap_or(defaults::SGNS_SAMPLE),
        epochs: raw.epochs.unwrap_or(defaults::SGNS_EPOCHS),
        alpha: raw.alpha.unwrap_or(defaults::SGNS_ALPHA),
        min_alpha: raw.min_alpha.unwrap_or(defaults::SGNS_MIN_ALPHA),
        threads_per_model: raw.threads_per_model.unwrap_or(defaults::THREADS_PER_MODEL),
    };
    check_dim_window(doc, field, p.dim, p.window)?;
    at_least(doc, &format!("{field}.negative"), p.negative, 1)?;
    at_least(doc, &format!("{field}.epochs"), p.epochs, 1)?;
    single_thread(doc, &format!("{field}.threads_per_model"), p.threads_per_model)?;
    finite(doc, &format!("{field}.ns_exponent"), p.ns_exponent)?;
    if !(p.sample >= 0.0 && p.sample.is_finite()) {
        return Err(doc.error(
            &format!("{field}.sample"),
            format!(
                "{} is not a sub-sampling threshold: expected a number ≥ 0 (0 disables it)",
                p.sample
            ),
        ));
    }
    positive(doc, &format!("{field}.alpha"), p.alpha)?;
    if !(p.min_alpha >= 0.0 && p.min_alpha <= p.alpha) {
        return Err(doc.error(
            &format!("{field}.min_alpha"),
            format!("{} must lie between 0 and alpha ({})", p.min_alpha, p.alpha),
        ));
    }
    Ok(p)
}

/// Checks the `dim` (1 to [`defaults::MAX_DIM`]) and `window` (at least 1) every trainer's
/// block at `field` has.
fn check_dim_window(
    doc: &Document<RawPipeline>,
    field: &str,
    dim: u32,
    window: u32,
) -> Result<(), SpecError> {
    at_least(doc, &format!("{field}.dim"), dim, 1)?;
    at_most(doc, &format!("{field}.dim"), dim, defaults::MAX_DIM)?;
    at_least(doc, &format!("{field}.window"), window, 1)
}

/// The GloVe parameters of `raw` (at `field`), defaults filled in and checked.
fn resolve_glove(doc: &Document<RawPipeline>, field: &str, raw: &RawGlove) -> Result<GloveParams, SpecError> {
    let p = GloveParams {
        dim: raw.dim.unwrap_or(defaults::DIM),
        window: raw.window.unwrap_or(defaults::GLOVE_WINDOW),
        x_max: raw.x_max.unwrap_or(defaults::GLOVE_X_MAX),
        alpha: raw.alpha.unwrap_or(defaults::GLOVE_ALPHA),
        eta: raw.eta.unwrap_or(defaults::GLOVE_ETA),
        iterations: raw.iterations.unwrap_or(defaults::GLOVE_ITERATIONS),
        memory_mb: raw.memory_mb.unwrap_or(defaults::GLOVE_MEMORY_MB),
        threads_per_model: raw.threads_per_model.unwrap_or(defaults::THREADS_PER_MODEL),
    };
    check_dim_window(doc, field, p.dim, p.window)?;
    at_least(doc, &format!("{field}.iterations"), p.iterations, 1)?;
    single_thread(doc, &format!("{field}.threads_per_model"), p.threads_per_model)?;
    at_least(doc, &format!("{field}.memory_mb"), p.memory_mb, 16)?;
    positive(doc, &format!("{field}.x_max"), p.x_max)?;
    positive(doc, &format!("{field}.alpha"), p.alpha)?;
    positive(doc, &format!("{field}.eta"), p.eta)?;
    Ok(p)
}

/// Each variant's parameters: its algorithm's block of the pipeline with the variant's fields
/// over it. A variant names exactly one algorithm of `algorithms` and a name no other model
/// has.
fn resolve_variants(doc: &Document<RawPipeline>, algorithms: &[Algorithm]) -> Result<Vec<Model>, SpecError> {
    let mut variants: Vec<Model> = Vec::new();
    for (i, v) in doc.raw.variants.iter().flatten().enumerate() {
        let field = format!("variants[{i}]");
        check_name(doc, &format!("{field}.name"), "model", &v.name)?;
        let taken =
            algorithms.iter().any(|a| a.as_str() == v.name) || variants.iter().any(|m| m.name == v.name);
        if taken {
            return Err(doc.error(
                &format!("{field}.name"),
                format!("another model is already named `{}`", v.name),
            ));
        }
        let params = match (&v.sgns, &v.glove) {
            (Some(sgns), None) => {
                needs_algorithm(doc, &field, algorithms, Algorithm::Sgns)?;
                let base = doc.raw.sgns.unwrap_or_default();
                ModelParams::Sgns(resolve_sgns(doc, &format!("{field}.sgns"), &sgns.over(&base))?)
            }
            (None, Some(glove)) => {
                needs_algorithm(doc, &field, algorithms, Algorithm::Glove)?;
                let base = doc.raw.glove.unwrap_or_default();
                ModelParams::Glove(resolve_glove(doc, &format!("{field}.glove"), &glove.over(&base))?)
            }
            _ => {
                return Err(doc.error(
                    &field,
                    "a variant gives the parameters of exactly one algorithm: `sgns: {…}` or `glove: {…}`",
                ));
            }
        };
        variants.push(Model {
            name: v.name.clone(),
            params,
        });
    }
    Ok(variants)
}

fn needs_algorithm(
    doc: &Document<RawPipeline>,
    field: &str,
    algorithms: &[Algorithm],
    algorithm: Algorithm,
) -> Result<(), SpecError> {
    if algorithms.contains(&algorithm) {
        Ok(())
    } else {
        Err(doc.error(
            field,
            format!(
                "a variant of `{0}`, which is not in `algorithms`: add `{0}` there",
                algorithm.as_str()
            ),
        ))
    }
}

impl RawSgns {
    /// These fields, each falling back to `base`'s.
    fn over(&self, base: &RawSgns) -> RawSgns {
        RawSgns {
            architecture: self.architecture.or(base.architecture),
            dim: self.dim.or(base.dim),
            window: self.window.or(base.window),
            negative: self.negative.or(base.negative),
            ns_exponent: self.ns_exponent.or(base.ns_exponent),
            sample: self.sample.or(base.sample),
            epochs: self.epochs.or(base.epochs),
            alpha: self.alpha.or(base.alpha),
            min_alpha: self.min_alpha.or(base.min_alpha),
            threads_per_model: self.threads_per_model.or(base.threads_per_model),
        }
    }
}

impl RawGlove {
    /// These fields, each falling back to `base`'s.
    fn over(&self, base: &RawGlove) -> RawGlove {
        RawGlove {
            dim: self.dim.or(base.dim),
            window: self.window.or(base.window),
            x_max: self.x_max.or(base.x_max),
            alpha: self.alpha.or(base.alpha),
            eta: self.eta.or(base.eta),
            iterations: self.iterations.or(base.iterations),
            memory_mb: self.memory_mb.or(base.memory_mb),
            threads_per_model: self.threads_per_model.or(base.threads_per_model),
        }
    }
}

fn resolve_measures(doc: &Document<RawPipeline>) -> Result<MeasureParams, SpecError> {
    let default = RawMeasures::default();
    let raw = doc.raw.measures.as_ref().unwrap_or(&default);
    let owned = |names: &[&str]| names.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let p = MeasureParams {
        rules: raw.rules.clone().unwrap_or_else(|| defaults::RULES.to_vec()),
        ripa_target: raw.ripa_target.unwrap_or(defaults::RIPA_TARGET),
        nbm_k: raw.nbm_k.unwrap_or(defaults::NBM_K),
        nbm_pool: raw.nbm_pool.unwrap_or(defaults::NBM_POOL),
        nbm_pool_exclude: match (raw.nbm_pool.unwrap_or(defaults::NBM_POOL), &raw.nbm_pool_exclude) {
            (NbmPool::Neutral, given) => given
                .clone()
                .unwrap_or_else(|| owned(defaults::ZHANG_POOL_EXCLUDE)),
            (NbmPool::Vocabulary, None) => Vec::new(),
            (NbmPool::Vocabulary, Some(_)) => {
                return Err(doc.error(
                    "measures.nbm_pool_exclude",
                    "only the neutral pool leaves words out: set `nbm_pool: neutral`",
                ));
            }
        },
        base_pairs: raw
            .base_pairs
            .clone()
            .unwrap_or_else(|| defaults::BASE_PAIRS.to_owned()),
        target_lists: raw
            .target_lists
            .clone()
            .unwrap_or_else(|| owned(defaults::TARGET_LISTS)),
        queries: raw.queries.clone().unwrap_or_else(|| owned(defaults::QUERIES)),
    };
    check_unique_nonempty(doc, "measures.rules", &p.rules, |r| r.as_str())?;
    at_least(doc, "measures.nbm_k", p.nbm_k, 1)?;
    check_unique_nonempty(doc, "measures.target_lists", &p.target_lists, String::as_str)?;
    check_unique(
        doc,
        "measures.nbm_pool_exclude",
        &p.nbm_pool_exclude,
        String::as_str,
    )?;
    check_unique(doc, "measures.queries", &p.queries, String::as_str)?;
    Ok(p)
}

/// The `residual_bias` section, defaults filled in; `None` without one.
fn resolve_residual(doc: &Document<RawPipeline>) -> Result<Option<ResidualParams>, SpecError> {
    let Some(raw) = doc.raw.residual_bias.as_ref() else {
        return Ok(None);
    };
    let p = ResidualParams {
        exclude: (raw.exclude.clone()).unwrap_or_else(|| {
            defaults::RESIDUAL_EXCLUDE
                .iter()
                .map(|s| (*s).to_owned())
                .collect()
        }),
        targets: raw
            .targets
            .clone()
            .unwrap_or_else(|| defaults::RESIDUAL_TARGETS.to_owned()),
        vocabulary: raw.vocabulary.unwrap_or(defaults::RESIDUAL_VOCABULARY),
        clustered: raw.clustered.unwrap_or(defaults::RESIDUAL_CLUSTERED),
        classified: raw.classified.unwrap_or(defaults::RESIDUAL_CLASSIFIED),
        trained: raw.trained.unwrap_or(defaults::RESIDUAL_TRAINED),
        neighbours: raw.neighbours.unwrap_or(defaults::RESIDUAL_NEIGHBOURS),
    };
    check_unique(doc, "residual_bias.exclude", &p.exclude, String::as_str)?;
    for (field, value) in [
        ("residual_bias.vocabulary", p.vocabulary),
        ("residual_bias.clustered", p.clustered),
        ("residual_bias.trained", p.trained),
        ("residual_bias.neighbours", p.neighbours),
    ] {
        at_least(doc, field, value, 1)?;
    }
    if p.trained >= p.classified {
        return Err(doc.error(
            if raw.classified.is_some() { "residual_bias.classified" } else { "residual_bias.trained" },
            format!(
                "{} words per gender are trained on of {} classified: leave some to test (trained < classified)",
                p.trained, p.classified
            ),
        ));
    }
    Ok(Some(p))
}

/// The `bias_subspace` section, defaults filled in; `None` without one. Whether the definitional
/// pairs allow `components` is checked on each corpus's vocabulary.
fn resolve_subspace(doc: &Document<RawPipeline>) -> Result<Option<SubspaceParams>, SpecError> {
    let Some(raw) = doc.raw.bias_subspace.as_ref() else {
        return Ok(None);
    };
    let p = SubspaceParams {
        components: raw.components.unwrap_or(defaults::SUBSPACE_COMPONENTS),
        definitional_pairs: (raw.definitional_pairs.clone())
            .unwrap_or_else(|| defaults::DEFINITIONAL_PAIRS.to_owned()),
        neutral: (raw.neutral.clone()).unwrap_or_else(|| defaults::DIRECT_BIAS_NEUTRAL.to_owned()),
        c: raw.c.unwrap_or(defaults::DIRECT_BIAS_C),
        anchors: (raw.anchors.clone()).unwrap_or_else(|| {
            defaults::INDIRECT_ANCHORS
                .iter()
                .map(|s| (*s).to_owned())
                .collect()
        }),
    };
    at_least(doc, "bias_subspace.components", p.components, 1)?;
    if !(p.c >= 0.0 && p.c.is_finite()) {
        return Err(doc.error("bias_subspace.c", format!("{} must be a finite number ≥ 0", p.c)));
    }
    check_unique(doc, "bias_subspace.anchors", &p.anchors, String::as_str)?;
    Ok(Some(p))
}

/// The `debias` section, defaults filled in; `None` without one. Its models are among the
/// trained ones (`trained`) and those read from files; by default all of them.
fn resolve_debias(
    doc: &Document<RawPipeline>,
    trained: &[String],
    model_files: &[ModelFiles],
) -> Result<Option<DebiasParams>, SpecError> {
    let Some(raw) = doc.raw.debias.as_ref() else {
        return Ok(None);
    };
    let all: Vec<&str> = (trained.iter().map(String::as_str))
        .chain(model_files.iter().map(|m| m.name.as_str()))
        .collect();
    let models = match &raw.models {
        Some(models) => {
            check_unique_nonempty(doc, "debias.models", models, String::as_str)?;
            if let Some((i, unknown)) = models
                .iter()
                .enumerate()
                .find(|(_, m)| !all.contains(&m.as_str()))
            {
                return Err(doc.error(
                    &format!("debias.models[{i}]"),
                    format!(
                        "`{unknown}` is not a model of the pipeline; its models are {}",
                        all.iter()
                            .map(|m| format!("`{m}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
            // In the plan's order, whatever the section's.
            all.iter()
                .filter(|m| models.iter().any(|x| x == *m))
                .map(|m| (*m).to_owned())
                .collect()
        }
        None => all.iter().map(|m| (*m).to_owned()).collect(),
    };
    let list = |given: &Option<String>, default: &str| given.clone().unwrap_or_else(|| default.to_owned());
    Ok(Some(DebiasParams {
        method: raw.method.unwrap_or(DebiasMethod::Hard),
        models,
        definitional: list(&raw.definitional, defaults::DEBIAS_DEFINITIONAL),
        equalize: list(&raw.equalize, defaults::DEBIAS_EQUALIZE),
        gender_specific: list(&raw.gender_specific, defaults::DEBIAS_GENDER_SPECIFIC),
    }))
}

/// The `validity` section, defaults filled in; `None` without one.
fn resolve_validity(doc: &Document<RawPipeline>) -> Result<Option<ValidityParams>, SpecError> {
    let Some(raw) = doc.raw.validity.as_ref() else {
        return Ok(None);
    };
    let criterion = raw
        .criterion
        .clone()
        .unwrap_or_else(|| defaults::VALIDITY_CRITERION.to_owned());
    if raw.census_year.is_some() && criterion != "census" {
        return Err(doc.error(
            "validity.census_year",
            "a census year applies to `criterion: census` only".to_owned(),
        ));
    }
    Ok(Some(ValidityParams {
        criterion,
        census_year: raw.census_year,
    }))
}

/// The `set_level` section, defaults filled in; `None` without one. Without `single_pair`, the
/// default query pairs whose two queries the plan has.
fn resolve_set_level(doc: &Document<RawPipeline>) -> Result<Option<SetLevelParams>, SpecError> {
    let Some(raw) = doc.raw.set_level.as_ref() else {
        return Ok(None);
    };
    let owned = |names: &[&str]| names.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let tests = raw.tests.clone().unwrap_or_else(|| owned(defaults::WEAT_TESTS));
    check_unique(doc, "set_level.tests", &tests, String::as_str)?;
    let queries = doc
        .raw
        .measures
        .as_ref()
        .and_then(|m| m.queries.clone())
        .unwrap_or_else(|| owned(defaults::QUERIES));
    let pairs = raw.single_pair.clone().unwrap_or_else(|| {
        let known = |q: &str| queries.iter().any(|k| k == q);
        (defaults::SINGLE_PAIR_WEATS.iter())
            .filter(|pair| pair.split('/').all(known))
            .map(|pair| (*pair).to_owned())
            .collect()
    });
    check_unique(doc, "set_level.single_pair", &pairs, String::as_str)?;
    let mut single_pair = Vec::new();
    for (i, pair) in pairs.iter().enumerate() {
        let field = format!("set_level.single_pair[{i}]");
        let Some((x, y)) = pair.split_once('/') else {
            return Err(doc.error(
                &field,
                format!("`{pair}` is not a query pair: expected `x/y`, e.g. `career/family`"),
            ));
        };
        for q in [x, y] {
            if !queries.iter().any(|known| known == q) {
                return Err(doc.error(
                    &field,
                    format!(
                        "`{q}` is not a query of the plan (measures.queries: {})",
                        queries.join(", ")
                    ),
                ));
            }
        }
        single_pair.push((x.to_owned(), y.to_owned()));
    }
    let p = SetLevelParams {
        tests_file: raw
            .tests_file
            .clone()
            .unwrap_or_else(|| defaults::WEAT_TESTS_FILE.to_owned()),
        tests,
        single_pair,
        sd: raw.sd.unwrap_or(defaults::WEAT_SD),
        exact_max: raw.exact_max.unwrap_or(defaults::WEAT_EXACT_PARTITIONS_MAX),
        samples: raw.samples.unwrap_or(defaults::WEAT_SAMPLED_PARTITIONS),
        neutral: raw
            .neutral
            .clone()
            .unwrap_or_else(|| defaults::DIRECT_BIAS_NEUTRAL.to_owned()),
        definitional_pairs: raw
            .definitional_pairs
            .clone()
            .unwrap_or_else(|| defaults::DEFINITIONAL_PAIRS.to_owned()),
        c: raw.c.unwrap_or(defaults::DIRECT_BIAS_C),
        detector_pairs: raw
            .detector_pairs
            .clone()
            .unwrap_or_else(|| defaults::DETECTOR_PAIRS.to_owned()),
        stereotypes: raw
            .stereotypes
            .clone()
            .unwrap_or_else(|| defaults::STEREOTYPES.to_owned()),
        stereotype_extremes: raw.stereotype_extremes.unwrap_or(defaults::STEREOTYPE_EXTREMES),
        analogy_benchmark: raw.analogy_benchmark.unwrap_or(false),
    };
    at_least(doc, "set_level.samples", p.samples, 1)?;
    at_most(
        doc,
        "set_level.samples",
        p.samples,
        defaults::WEAT_MAX_SAMPLED_PARTITIONS,
    )?;
    if !(p.c >= 0.0 && p.c.is_finite()) {
        return Err(doc.error("set_level.c", format!("{} must be a finite number ≥ 0", p.c)));
    }
    Ok(Some(p))
}

/// The `analogies` section, defaults filled in; `None` without one.
fn resolve_analogies(doc: &Document<RawPipeline>) -> Result<Option<AnalogyParams>, SpecError> {
    let Some(raw) = doc.raw.analogies.as_ref() else {
        return Ok(None);
    };
    let p = AnalogyParams {
        queries: (raw.queries.clone()).unwrap_or_else(|| defaults::ANALOGY_QUERIES.to_owned()),
        solvers: raw
            .solvers
            .clone()
            .unwrap_or_else(|| SolverKind::TABLE_1.to_vec()),
        top_n: raw.top_n.unwrap_or(defaults::ANALOGY_TOP_N),
        restrict_vocab: raw.restrict_vocab,
        solver_restrict_vocab: raw.solver_restrict_vocab.clone().unwrap_or_default(),
        epsilon: raw.epsilon.unwrap_or(defaults::ANALOGY_COSMUL_EPSILON),
        delta: raw.delta.unwrap_or(defaults::ANALOGY_DELTA),
        delta_bound: raw.delta_bound.unwrap_or(defaults::ANALOGY_DELTA_BOUND),
        google: raw.google.unwrap_or(true),
        pairs: raw.pairs.unwrap_or(true),
        pair_seed: (raw.pair_seed.clone()).unwrap_or_else(|| defaults::ANALOGY_PAIR_SEED.map(str::to_owned)),
        pair_restrict_vocab: raw
            .pair_restrict_vocab
            .unwrap_or(defaults::ANALOGY_PAIR_RESTRICT_VOCAB),
        n_pairs: raw.n_pairs.unwrap_or(defaults::ANALOGY_N_PAIRS),
        pair_filter: raw.pair_filter.unwrap_or(true),
        sweep: (raw.sweep.clone()).unwrap_or_else(|| Some(defaults::ANALOGY_SWEEP_QUERY.map(str::to_owned))),
        sweep_sizes: (raw.sweep_sizes.clone()).unwrap_or_else(|| defaults::ANALOGY_SWEEP_SIZES.to_vec()),
        sweep_deltas: (raw.sweep_deltas.clone()).unwrap_or_else(|| defaults::ANALOGY_SWEEP_DELTAS.to_vec()),
        zhang: raw.zhang.unwrap_or(true),
        zhang_restrict_vocab: raw.zhang_restrict_vocab,
    };
    check_unique_nonempty(doc, "analogies.solvers", &p.solvers, |k| k.as_str())?;
    at_least(doc, "analogies.top_n", p.top_n as u64, 1)?;
    for (field, n) in [
        ("analogies.restrict_vocab".to_owned(), p.restrict_vocab),
        (
            "analogies.zhang_restrict_vocab".to_owned(),
            p.zhang_restrict_vocab,
        ),
    ]
    .into_iter()
    .chain(
        (p.solver_restrict_vocab.iter())
            .map(|(k, &n)| (format!("analogies.solver_restrict_vocab.{k}"), Some(n))),
    ) {
        if let Some(n) = n {
            at_least(doc, &field, n as u64, 1)?;
        }
    }
    if let Some(k) = (p.solver_restrict_vocab.keys()).find(|k| !p.solvers.contains(k)) {
        return Err(doc.error(
            &format!("analogies.solver_restrict_vocab.{k}"),
            format!("`{k}` is not among analogies.solvers"),
        ));
    }
    if !(p.epsilon > 0.0 && p.epsilon.is_finite()) {
        return Err(doc.error(
            "analogies.epsilon",
            format!("{} must be a finite number > 0", p.epsilon),
        ));
    }
    at_least(
        doc,
        "analogies.pair_restrict_vocab",
        p.pair_restrict_vocab as u64,
        2,
    )?;
    at_least(doc, "analogies.n_pairs", p.n_pairs as u64, 1)?;
    for (i, &n) in p.sweep_sizes.iter().enumerate() {
        at_least(doc, &format!("analogies.sweep_sizes[{i}]"), n as u64, 1)?;
    }
    let deltas = [("analogies.delta".to_owned(), p.delta)].into_iter().chain(
        (p.sweep_deltas.iter().enumerate()).map(|(i, &d)| (format!("analogies.sweep_deltas[{i}]"), d)),
    );
    for (field, delta) in deltas {
        if !(delta > 0.0 && delta.is_finite()) {
            return Err(doc.error(&field, format!("{delta} must be a finite number > 0")));
        }
    }
    Ok(Some(p))
}

/// The `base_pairs` section, defaults filled in; `None` without one.
fn resolve_base_pairs(doc: &Document<RawPipeline>) -> Result<Option<BasePairParams>, SpecError> {
    let Some(raw) = doc.raw.base_pairs.as_ref() else {
        return Ok(None);
    };
    let names = |list: &[&str]| list.iter().map(|&n| n.to_owned()).collect::<Vec<_>>();
    let p = BasePairParams {
        pairs: (raw.pairs.clone()).unwrap_or_else(|| defaults::ZHANG_PAIRS.to_owned()),
        professions: (raw.professions.clone()).unwrap_or_else(|| defaults::ZHANG_PROFESSIONS.to_owned()),
        truth: (raw.truth.clone()).unwrap_or_else(|| names(defaults::ZHANG_TRUTH)),
        pool_exclude: (raw.pool_exclude.clone()).unwrap_or_else(|| names(defaults::ZHANG_POOL_EXCLUDE)),
        most_frequent: raw.most_frequent.unwrap_or(defaults::ZHANG_MOST_FREQUENT),
        nbm_k: raw.nbm_k.unwrap_or(defaults::ZHANG_NBM_K),
        flip: (raw.flip.clone()).unwrap_or_else(|| defaults::ZHANG_FLIP.map(|pair| pair.map(str::to_owned))),
        example: (raw.example.clone()).unwrap_or_else(|| defaults::ZHANG_EXAMPLE.to_owned()),
        random_samples: raw.random_samples.unwrap_or(defaults::ZHANG_RANDOM_SAMPLES),
    };
    check_unique(doc, "base_pairs.truth", &p.truth, String::as_str)?;
    check_unique(doc, "base_pairs.pool_exclude", &p.pool_exclude, String::as_str)?;
    at_least(doc, "base_pairs.most_frequent", p.most_frequent as u64, 2)?;
    at_least(doc, "base_pairs.nbm_k", p.nbm_k, 1)?;
    at_least(doc, "base_pairs.random_samples", p.random_samples, 1)?;
    at_most(
        doc,
        "base_pairs.random_samples",
        p.random_samples,
        defaults::ZHANG_MAX_RANDOM_SAMPLES,
    )?;
    Ok(Some(p))
}

fn resolve_reliability(doc: &Document<RawPipeline>) -> Result<ReliabilityParams, SpecError> {
    let default = RawReliability::default();
    let raw = doc.raw.reliability.as_ref().unwrap_or(&default);
    let p = ReliabilityParams {
        inter_rater_scale: raw
            .inter_rater_scale
            .clone()
            .unwrap_or_else(|| defaults::INTER_RATER_SCALES.to_vec()),
        full_vocabulary_tensor: raw.full_vocabulary_tensor.unwrap_or(false),
    };
    check_unique_nonempty(doc, "reliability.inter_rater_scale", &p.inter_rater_scale, |s| {
        s.as_str()
    })?;
    Ok(p)
}

fn at_least<T: PartialOrd + std::fmt::Display>(
    doc: &Document<RawPipeline>,
    field: &str,
    value: T,
    min: T,
) -> Result<(), SpecError> {
    if value < min {
        return Err(doc.error(field, format!("{value} is too small: must be at least {min}")));
    }
    Ok(())
}

fn at_most<T: PartialOrd + std::fmt::Display>(
    doc: &Document<RawPipeline>,
    field: &str,
    value: T,
    max: T,
) -> Result<(), SpecError> {
    if value > max {
        return Err(doc.error(field, format!("{value} is too large: must be at most {max}")));
    }
    Ok(())
}

/// One training thread per model keeps a run byte-reproducible; parallelism comes from
/// training many seeds at once.
fn single_thread(doc: &Document<RawPipeline>, field: &str, threads: u32) -> Result<(), SpecError> {
    if threads != 1 {
        return Err(doc.error(
            field,
            format!(
                "{threads} threads per model: only 1 is supported (one deterministic thread per training run; \
                 runs of different seeds train in parallel, see --jobs)"
            ),
        ));
    }
    Ok(())
}

fn positive(doc: &Document<RawPipeline>, field: &str, value: f64) -> Result<(), SpecError> {
    if !(value > 0.0 && value.is_finite()) {
        return Err(doc.error(field, format!("{value} must be a positive number")));
    }
    Ok(())
}

fn finite(doc: &Document<RawPipeline>, field: &str, value: f64) -> Result<(), SpecError> {
    if !value.is_finite() {
        return Err(doc.error(field, format!("{value} must be a finite number")));
    }
    Ok(())
}

fn check_unique_nonempty<T>(
    doc: &Document<RawPipeline>,
    field: &str,
    items: &[T],
    name: impl Fn(&T) -> &str,
) -> Result<(), SpecError> {
    if items.is_empty() {
        return Err(doc.error(field, "must list at least one entry"));
    }
    check_unique(doc, field, items, name)
}

fn check_unique<T>(
    doc: &Document<RawPipeline>,
    field: &str,
    items: &[T],
    name: impl Fn(&T) -> &str,
) -> Result<(), SpecError> {
    for (i, item) in items.iter().enumerate() {
        if items[..i].iter().any(|earlier| name(earlier) == name(item)) {
            return Err(doc.error(
                &format!("{field}[{i}]"),
                format!("`{}` is listed twice", name(item)),
            ));
        }
    }
    Ok(())
}
