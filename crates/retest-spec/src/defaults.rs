//! Every default of a pipeline and a corpus recipe, in one place.
//!
//! The values are those of Du, Fang & Nguyen (2021) and of the tools they name: word2vec.c /
//! gensim for SGNS, stanfordnlp/GloVe for GloVe. `retest plan` prints the resolved values, so a
//! run never depends on a default that is not written down in its manifest.

use crate::pipeline::{Algorithm, Architecture, InterRaterScale, NbmPool, RipaTarget, Rule, SdKind};
use retest_corpus::{CaseHandling, NewlineHandling, SentenceSplitting};

/// Algorithms trained when a pipeline names none.
pub const ALGORITHMS: &[Algorithm] = &[Algorithm::Sgns, Algorithm::Glove];

/// Root seed of a pipeline that names none.
pub const SEED: u64 = 2021;
/// Seeds (training runs) per corpus and algorithm: 32 in the study.
pub const N_SEEDS: u32 = 32;
/// The most seeds a plan may ask for per configuration (each one a training): far beyond any
/// study's need, low enough that a typo is refused before it lists millions of jobs.
pub const MAX_SEEDS: u32 = 10_000;
/// Words seen fewer times are dropped from the vocabulary and the token stream.
pub const MIN_COUNT: u64 = 5;

/// Plain text and Reddit: tokens are lowercased after NFKC (`case: keep` keeps them as written,
/// for comparisons of a word's case forms).
pub const CASE: CaseHandling = CaseHandling::Lower;

/// Reddit: a line break in a comment separates words like a space (the original code deleted
/// it, gluing the words on either side: `newlines: glue`).
pub const REDDIT_NEWLINES: NewlineHandling = NewlineHandling::Space;
/// Reddit: comments are cut into sentences at Unicode (UAX #29) sentence boundaries, as the
/// original study cut them into spaCy sentences (`sentences: comment` keeps each comment whole).
pub const REDDIT_SENTENCES: SentenceSplitting = SentenceSplitting::Split;

/// Embedding dimension of both algorithms.
pub const DIM: u32 = 300;
/// The largest embedding dimension a plan may ask for: a model's vectors take vocabulary × dim ×
/// 4 bytes per matrix, so a larger dimension is a typo, refused before it aborts a training.
pub const MAX_DIM: u32 = 10_000;

/// SGNS: skip-gram, the paper's model (`cbow` reproduces the original code).
pub const SGNS_ARCHITECTURE: Architecture = Architecture::Skipgram;
/// SGNS: maximal context window (the effective window is shrunk at random, as word2vec.c).
pub const SGNS_WINDOW: u32 = 5;
/// SGNS: negative samples per positive pair.
pub const SGNS_NEGATIVE: u32 = 5;
/// SGNS: exponent of the unigram distribution negatives are drawn from.
pub const SGNS_NS_EXPONENT: f64 = 0.75;
/// SGNS: sub-sampling threshold `t` of word2vec's keep probability.
pub const SGNS_SAMPLE: f64 = 1e-3;
/// SGNS: passes over the corpus.
pub const SGNS_EPOCHS: u32 = 5;
/// SGNS: learning rate at the start, decayed linearly to [`SGNS_MIN_ALPHA`].
pub const SGNS_ALPHA: f64 = 0.025;
/// SGNS: learning rate at the end.
pub const SGNS_MIN_ALPHA: f64 = 0.0001;

/// GloVe: symmetric co-occurrence window, weighted by 1/distance.
pub const GLOVE_WINDOW: u32 = 15;
/// GloVe: the count at which the weighting function reaches 1.
pub const GLOVE_X_MAX: f64 = 100.0;
/// GloVe: exponent of the weighting function.
pub const GLOVE_ALPHA: f64 = 0.75;
/// GloVe: AdaGrad initial learning rate.
pub const GLOVE_ETA: f64 = 0.05;
/// GloVe: passes over the shuffled co-occurrence records.
pub const GLOVE_ITERATIONS: u32 = 15;
/// GloVe: memory budget of co-occurrence counting before sorted runs spill to disk, in MiB.
pub const GLOVE_MEMORY_MB: u64 = 4096;

/// Seed of `retest sgns` and `retest glove` (one model outside a pipeline) when none is given.
pub const SINGLE_MODEL_SEED: u64 = 1;

/// Training threads per model; 1 keeps a run byte-reproducible.
pub const THREADS_PER_MODEL: u32 = 1;

/// Scoring rules applied to every word.
pub const RULES: &[Rule] = &[Rule::Dbwa, Rule::Ripa, Rule::Nbm];
/// RIPA: the raw target vector, as the paper defines it.
pub const RIPA_TARGET: RipaTarget = RipaTarget::Raw;
/// NBM: neighbours from the whole model vocabulary, as the study.
pub const NBM_POOL: NbmPool = NbmPool::Vocabulary;
/// NBM: neighbours per word.
pub const NBM_K: u32 = 100;
/// Base pairs: the 23 (masculine, feminine) pairs of the study.
pub const BASE_PAIRS: &str = "base-pairs";
/// Target-word lists scored and tested.
pub const TARGET_LISTS: &[&str] = &["occ16", "occ18", "adj", "google10k", "full"];
/// The target list whose words are the cases of the base-pair ensemble's alpha (the study's
/// internal consistency of the 23 pairs over the Google 10k words).
pub const ENSEMBLE_LIST: &str = "google10k";
/// Queries whose internal consistency is measured.
pub const QUERIES: &[&str] = &["career", "family", "arts", "arts_2", "math", "science"];
/// Inter-rater ICC on raw scores and on scores z-scored per rule.
pub const INTER_RATER_SCALES: &[InterRaterScale] = &[InterRaterScale::Raw, InterRaterScale::Zscore];

/// WEAT (`retest weat`, `set_level`): the effect size divides by the population standard deviation, as
/// Caliskan et al. (2017) and WEFE do.
pub const WEAT_SD: SdKind = SdKind::Population;
/// WEAT: enumerate every partition of the permutation test when there are at most this many.
pub const WEAT_EXACT_PARTITIONS_MAX: u64 = retest_measures::WEAT_EXACT_PARTITIONS_MAX;
/// WEAT: partitions drawn when the permutation test samples.
pub const WEAT_SAMPLED_PARTITIONS: u64 = retest_measures::WEAT_SAMPLED_PARTITIONS;
/// The most partitions a sampled permutation test may draw (each is remembered).
pub const WEAT_MAX_SAMPLED_PARTITIONS: u64 = retest_measures::WEAT_MAX_SAMPLED_PARTITIONS;
/// WEAT: root seed of the sampled permutation tests of `retest weat` when none is given.
pub const WEAT_SEED: u64 = 1;
/// The criterion of a plan's `validity` section without one: Garg et al.'s census.
pub const VALIDITY_CRITERION: &str = "census";
/// The base pairs `retest validity` scores along without `--pairs`: in the word-list folder.
pub const VALIDITY_PAIRS: &str = "du2021/base-pairs.txt";
/// Hard debiasing's lists without others (`retest debias`, a plan's `debias` section): debiaswe's
/// definitional pairs, equalize pairs and gender-specific words, declared in the word-list folder.
pub const DEBIAS_DEFINITIONAL: &str = "definitional-pairs";
pub const DEBIAS_EQUALIZE: &str = "equalize-pairs";
pub const DEBIAS_GENDER_SPECIFIC: &str = "gender-specific-full";
/// Gonen & Goldberg's residual-bias tests: the gender-specific words left out of the candidates
/// (their male and female word files, declared in `wordlists/gonen2019/`).
pub const RESIDUAL_EXCLUDE: &[&str] = &["gonen-male-words", "gonen-female-words"];
/// Gonen & Goldberg's residual-bias tests: the words whose neighbours are counted (Bolukbasi et
/// al.'s professions).
pub const RESIDUAL_TARGETS: &str = "professions";
pub const RESIDUAL_VOCABULARY: usize = retest_measures::RESIDUAL_VOCABULARY;
pub const RESIDUAL_CLUSTERED: usize = retest_measures::RESIDUAL_CLUSTERED;
pub const RESIDUAL_CLASSIFIED: usize = retest_measures::RESIDUAL_CLASSIFIED;
pub const RESIDUAL_TRAINED: usize = retest_measures::RESIDUAL_TRAINED;
pub const RESIDUAL_NEIGHBOURS: usize = retest_measures::RESIDUAL_NEIGHBOURS;
/// The measures `retest query` runs by default: every query measure.
pub const QUERY_MEASURES: &[crate::Measure] = {
    use crate::Measure::{Ect, Mac, Ripa, Rnd, Rnsb, Weat};
    &[Weat, Rnd, Ect, Mac, Rnsb, Ripa]
};
/// The share of each attribute set RNSB's classifier does not see (WEFE's `test_size`).
pub const RNSB_HOLDOUT: f64 = retest_measures::RNSB_HOLDOUT;
/// Direct Bias: Bolukbasi et al.'s exponent `c`.
pub const DIRECT_BIAS_C: f64 = retest_measures::DIRECT_BIAS_C_BOLUKBASI;
/// Set-level measures: the WEAT tests file in the word-list folder (Caliskan et al.'s tests
/// 1–10 over WEFE's word sets).
pub const WEAT_TESTS_FILE: &str = "caliskan";
/// Set-level measures: the tests of the tests file run on every seed (Caliskan et al.'s three
/// gender tests).
pub const WEAT_TESTS: &[&str] = &["weat6", "weat7", "weat8"];
/// Set-level measures: query pairs `x/y` whose single-pair WEATs (X = x, Y = y, A = {m},
/// B = {f} for every base pair, and the ensemble of all pairs) run on every seed.
pub const SINGLE_PAIR_WEATS: &[&str] = &["career/family", "math/arts", "science/arts_2"];
/// Set-level measures: the neutral words of Direct Bias (Bolukbasi et al.'s professions).
pub const DIRECT_BIAS_NEUTRAL: &str = "occ16";
/// Set-level measures: the pairs whose first principal component is the `pca` direction
/// (Bolukbasi et al.'s 10 definitional pairs).
pub const DEFINITIONAL_PAIRS: &str = "definitional-pairs";
/// The gender subspace (`bias_subspace`): Direct Bias on the first 1 to this many principal
/// components of the definitional pairs.
pub const SUBSPACE_COMPONENTS: usize = 3;
/// The gender subspace: the anchor words of indirect bias (Bolukbasi et al.'s softball and
/// football, §5.2).
pub const INDIRECT_ANCHORS: &[&str] = &["softball", "football"];
/// Set-level measures: the pairs of Bakarov's detectors (the first is Occupational Stereotypes'
/// axis; all are Gender Direction's groups).
pub const DETECTOR_PAIRS: &str = "gender-pairs";
/// Set-level measures: the words with a stereotype score (Bolukbasi et al.'s professions with
/// debiaswe's definitional and stereotypical scores).
pub const STEREOTYPES: &str = "professions";
/// Set-level measures: a word of the stereotype list counts as gendered by definition, and is
/// left out of the stereotype WEAT, when its definitional score has at least this magnitude
/// (actress, businesswoman, nun).
pub const STEREOTYPE_DEFINITIONAL_MAX: f64 = 0.5;
/// Set-level measures: the stereotype WEAT again on this many of the most stereotyped words per
/// side (Schröder et al.'s Fig. 1 contrasts a smaller selection of job titles with a larger one).
pub const STEREOTYPE_EXTREMES: usize = 10;

/// Analogies (`analogies` of a plan): the query list (Nissim et al.'s Tables 2 and 3 with their
/// reversed forms).
pub const ANALOGY_QUERIES: &str = "bias-queries";
/// Analogies: answers kept per query, solver and constraint.
pub const ANALOGY_TOP_N: usize = 10;
/// Analogies: 3CosMul's ε (gensim's).
pub const ANALOGY_COSMUL_EPSILON: f64 = retest_measures::Solver::COSMUL_EPSILON;
/// Analogies: Bolukbasi et al.'s δ, bounding the distance (their paper's reading).
pub const ANALOGY_DELTA: f64 = retest_measures::Solver::BOLUKBASI_DELTA;
pub const ANALOGY_DELTA_BOUND: retest_measures::DeltaBound = retest_measures::DeltaBound::Distance;
/// Analogies: Bolukbasi et al.'s pair generation runs along ŝ₁ − ŝ₂ of this pair (she − he).
pub const ANALOGY_PAIR_SEED: [&str; 2] = ["she", "he"];
/// Analogies: pair generation searches this many of the most frequent words (Bolukbasi et al.'s
/// 50,000).
pub const ANALOGY_PAIR_RESTRICT_VOCAB: usize = retest_measures::PAIRS_RESTRICT_VOCAB;
/// Analogies: pairs generated per seed (Bolukbasi et al.'s 500).
pub const ANALOGY_N_PAIRS: usize = retest_measures::PAIRS_N;
/// Analogies: the query of Nissim et al.'s Table 4, answered by Bolukbasi et al.'s formula,
/// unconstrained, for every vocabulary size and δ of the sweep.
pub const ANALOGY_SWEEP_QUERY: [&str; 3] = ["man", "doctor", "woman"];
/// Analogies: the vocabulary sizes of Nissim et al.'s Table 4 (the whole vocabulary is added;
/// sizes above it are left out).
pub const ANALOGY_SWEEP_SIZES: &[usize] = &[10_000, 25_000, 50_000, 100_000, 250_000, 500_000];
/// Analogies: the thresholds δ of Nissim et al.'s Table 4.
pub const ANALOGY_SWEEP_DELTAS: &[f64] = &[0.8, 0.9, 1.0, 1.1, 1.2];

/// Base pairs (`base_pairs` of a plan, Zhang, Sneyd & Stevenson 2020): their ten pairs
/// (Bolukbasi et al.'s definitional pairs) in their tables' order.
pub const ZHANG_PAIRS: &str = "zhang-pairs";
/// Base pairs: the words whose labels the pairs, forms and rules must agree on (Bolukbasi et
/// al.'s 320 professions).
pub const ZHANG_PROFESSIONS: &str = "professions";
/// Base pairs: lists of words with their true gender (`word m|f` per line): the BSRI traits and
/// the animal names of Zhang et al.'s appendix A.
pub const ZHANG_TRUTH: &[&str] = &["bsri", "animals"];
/// Base pairs: the gendered words left out of NBM's neutral neighbour pool (Bolukbasi et al.'s
/// definitional pairs, equalize pairs and full gender-specific list).
pub const ZHANG_POOL_EXCLUDE: &[&str] = &["definitional-pairs", "equalize-pairs", "gender-specific-full"];
/// Base pairs: the limited vocabulary and the neutral pool come from this many of the most
/// frequent words.
pub const ZHANG_MOST_FREQUENT: usize = retest_measures::NEUTRAL_POOL_MOST_FREQUENT;
/// Base pairs: NBM's neighbourhood size (Zhang et al.'s K = 100).
pub const ZHANG_NBM_K: u32 = 100;
/// Base pairs: the two pairs whose RIPA labels are compared, masculine first ((man, woman) vs
/// (king, queen), which Ethayarajh et al. call roughly the same).
pub const ZHANG_FLIP: [[&str; 2]; 2] = [["man", "woman"], ["king", "queen"]];
/// Base pairs: the word of Zhang et al.'s Figure 1, shown with its forms across pairs and rules.
pub const ZHANG_EXAMPLE: &str = "professor";
/// Base pairs: random word pairs (and random pairs of difference vectors) drawn per seed for
/// the cosine baselines.
pub const ZHANG_RANDOM_SAMPLES: usize = 100_000;
/// The most random pairs the cosine baselines may draw (their cosines are kept).
pub const ZHANG_MAX_RANDOM_SAMPLES: usize = retest_measures::MAX_RANDOM_SAMPLES;
