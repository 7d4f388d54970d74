//! The rows of the base-pair tables (Zhang, Sneyd & Stevenson 2020): per seed, the spread of
//! each rule's scores, how far base pairs, their capitalised forms, word forms, rules and true
//! genders agree on the sign of a score, the cosines of the pairs' difference vectors, random
//! baselines, label flips and Figure 1's scores; across seeds, the agreement of the seeds and
//! the variance components of word, pair and seed. `docs/tables.md` documents each table.

use serde::Serialize;

use crate::schema::table_row;

table_row! {
    /// Zhang et al.'s Table 1 on one seed: a rule's scores over the limited vocabulary × pairs.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct BasePairSummaryRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        pub rule: String,
        /// Words of the limited vocabulary.
        pub n_words: u32,
        /// Scores summarised (words × pairs).
        pub n_scores: u32,
        pub mean: f64,
        /// Population SD.
        pub sd: f64,
    }
}

table_row! {
    /// Zhang et al.'s Table 2 on one seed: how far the pairs agree on a rule's labels of the
    /// professions.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct BasePairAgreementRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        pub rule: String,
        pub n_words: u32,
        pub n_pairs: u32,
        /// Fleiss' κ, subjects = words, raters = pairs.
        pub kappa: f64,
        /// Mean share of pair comparisons differing by ≥ 1 SD (the paper's text).
        pub magnitude_changed: f64,
        /// Mean share differing by < 1 SD (the authors' code): 1 − `magnitude_changed`.
        pub magnitude_within: f64,
        /// Share of words with one label under every pair.
        pub same_label: f64,
        pub status: String,
    }
}

table_row! {
    /// One Cohen's κ of Zhang et al.'s Tables 3–6 (or between two pairs, their Figure 2) on one
    /// seed.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct BasePairKappaRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        /// `capitalised` (Table 3), `plural`, `capital`, `upper` (Table 4), `truth` (Table 5),
        /// `rules` (Table 6) or `pairs` (DB/WA labels of two pairs, Figure 2).
        pub analysis: String,
        /// The words: the professions list, or the truth list.
        pub list: String,
        pub rule: String,
        /// The other rule (`rules`), else empty.
        pub rule_b: String,
        /// `masculine/feminine`.
        pub pair: String,
        /// The other pair (`capitalised`: the capitalised form; `pairs`), else empty.
        pub pair_b: String,
        pub n_words: u32,
        pub kappa: f64,
        /// `ok`, a κ status (`zero_variance`, …), `not_applicable` (a lowercased corpus has no
        /// capitalised forms) or `out_of_vocabulary`.
        pub status: String,
    }
}

table_row! {
    /// The cosine of two base pairs' difference vectors f̂ − m̂ on one seed (Figure 2).
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct BasePairDirectionRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        pub pair: String,
        pub pair_b: String,
        pub cosine: f64,
    }
}

table_row! {
    /// Figure 2's Pearson r on one seed: a pair's difference-vector cosines with the other pairs
    /// against the κ of their DB/WA labels.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct BasePairCorrelationRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        pub pair: String,
        /// `text` (the other pairs) or `code` (the pair with itself too).
        pub reading: String,
        pub n: u32,
        pub r: f64,
        pub p_value: f64,
    }
}

table_row! {
    /// A cosine baseline on one seed.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct BasePairBaselineRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        /// `word_pairs` (random words), `difference_vectors` (random pairs of random words) or
        /// `base_pairs` (every two base pairs' difference vectors).
        pub baseline: String,
        pub n: u32,
        pub mean: f64,
        pub sd: f64,
    }
}

table_row! {
    /// Words whose label changes between two pairs on one seed.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct BasePairFlipRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        pub rule: String,
        pub pair: String,
        pub pair_b: String,
        pub n_words: u32,
        pub flipped: u32,
        pub share: f64,
        /// `ok` or `out_of_vocabulary` (a pair's word).
        pub status: String,
    }
}

table_row! {
    /// A rule's score of one of the words the pairs must agree on (the professions), under one
    /// listed pair, on one seed.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct BasePairScoreRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        pub rule: String,
        pub pair: String,
        pub word: String,
        pub score: f64,
    }
}

table_row! {
    /// A score of Figure 1's word or one of its forms on one seed.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct BasePairExampleRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        pub rule: String,
        pub pair: String,
        /// `base`, `plural`, `capital` or `upper`.
        pub form: String,
        pub word: String,
        pub score: f64,
    }
}

table_row! {
    /// How far the seeds agree on a rule's labels of the professions under one pair.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct BasePairSeedsRow {
        pub corpus: String,
        pub algorithm: String,
        pub rule: String,
        pub pair: String,
        pub n_words: u32,
        pub n_seeds: u32,
        /// Fleiss' κ, subjects = words, raters = seeds.
        pub kappa: f64,
        pub status: String,
    }
}

table_row! {
    /// One variance component of a rule's scores (or labels) of the professions, word × pair ×
    /// seed.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct BasePairVarianceRow {
        pub corpus: String,
        pub algorithm: String,
        pub rule: String,
        /// `score` or `label` (1 masculine, 0 feminine).
        pub scale: String,
        /// `word`, `pair`, `seed`, `word:pair`, `word:seed`, `pair:seed` or `residual`.
        pub component: String,
        pub sum_of_squares: f64,
        pub df: u32,
        pub mean_square: f64,
        /// The expected-mean-squares estimate (may be negative).
        pub estimate: f64,
        /// `estimate`, 0 when negative.
        pub variance: f64,
        /// `variance` over the sum of the components' variances.
        pub share: f64,
    }
}
