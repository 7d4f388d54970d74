//! The rows of the analogy tables: each seed's answers to the bias queries, the rank of the
//! answer a paper reports, Google analogy accuracy per solver and constraint, and how stable the
//! answers are across seeds. `docs/tables.md` documents each table.

use serde::Serialize;

use crate::schema::table_row;

table_row! {
    /// One of the top answers of a solver to a query on one seed.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct AnalogyAnswerRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        /// `a:b::c`.
        pub query: String,
        /// `cosadd`, `cosmul`, `cosmul_unshifted` or `bolukbasi`.
        pub solver: String,
        /// `constrained` (D ∉ {A, B, C}) or `unconstrained`.
        pub constraint: String,
        /// 1 = best.
        pub rank: u32,
        pub answer: String,
        pub score: f64,
    }
}

table_row! {
    /// Where the answer a paper reports for a query ranks on one seed.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct AnalogyReportedRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        pub query: String,
        pub solver: String,
        pub constraint: String,
        pub reported: String,
        /// 1 + the candidates scored higher (ties: lower rows first); 0 unless `status` is `ok`.
        pub rank: u32,
        /// `ok`, `out_of_vocabulary` or `excluded` (an input word, constrained).
        pub status: String,
    }
}

table_row! {
    /// Google analogy accuracy of a solver and constraint on one seed, per section and overall.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct AnalogyAccuracyRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        pub solver: String,
        pub constraint: String,
        /// A section of the question file, `micro` (every question) or `macro` (the mean of the
        /// sections' accuracies).
        pub section: String,
        /// Questions answered correctly and asked (all four words in vocabulary).
        pub correct: u32,
        pub total: u32,
        pub accuracy: f64,
    }
}

table_row! {
    /// A query's answers across the seeds of a configuration.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct AnalogyStabilityRow {
        pub corpus: String,
        pub algorithm: String,
        pub query: String,
        pub solver: String,
        pub constraint: String,
        /// The top-1 answer most seeds give (ties: the more frequent word).
        pub modal_answer: String,
        /// The share of seeds whose top-1 answer it is.
        pub modal_share: f64,
        /// Different top-1 answers across seeds.
        pub n_distinct: u32,
        pub n_seeds: u32,
    }
}

table_row! {
    /// A reliability statistic of the analogies of a configuration across its seeds.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct AnalogyReliabilityRow {
        pub corpus: String,
        pub algorithm: String,
        pub solver: String,
        pub constraint: String,
        /// `top1_kappa`: Fleiss' κ of the top-1 answers (queries × seeds);
        /// `section_accuracy_icc`: ICC(2,1) of the Google sections' accuracies (sections ×
        /// seeds).
        pub measure: String,
        pub value: f64,
        pub n_subjects: u32,
        pub n_seeds: u32,
        pub status: String,
    }
}

table_row! {
    /// One of the pairs Bolukbasi et al.'s pair generation finds on one seed.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct AnalogyPairRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        /// 1 = the highest score.
        pub rank: u32,
        /// The word on the seed pair's first side (`she` of she − he) and on its second.
        pub x: String,
        pub y: String,
        /// cos(ŝ₁ − ŝ₂, x̂ − ŷ).
        pub score: f64,
        /// ‖x̂ − ŷ‖.
        pub distance: f64,
    }
}

table_row! {
    /// One cell of Nissim et al.'s Table 4 on one seed: a query answered by Bolukbasi et al.'s
    /// formula, unconstrained, among the most frequent words at one threshold.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct AnalogySweepRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        pub query: String,
        /// Words searched (the most frequent).
        pub restrict_vocab: u32,
        pub delta: f64,
        pub answer: String,
        pub score: f64,
        /// `ok`, or `out_of_vocabulary` (a query word is not among the words searched).
        pub status: String,
    }
}

table_row! {
    /// Zhang et al.'s (2020, §7) test on one seed: "man is to x as woman is to ?" over the word
    /// pairs (x, y) of a Google analogy section, solved when the answer is y.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct AnalogyZhangRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        /// `text` (man : x :: woman : ?, as the paper writes it) or `code` (woman : x :: man : ?,
        /// x + man − woman, as its code computes it).
        pub direction: String,
        pub constraint: String,
        /// A section of the Google set (`family` left out), or `all`.
        pub section: String,
        /// Pairs answered with y, and pairs asked (x, y, man and woman among the words searched).
        pub solved: u32,
        pub total: u32,
        pub share: f64,
        /// The mean and sample SD of cos(x, y) over the pairs asked (Zhang et al.: 0.62 and 0.13
        /// over the 550 pairs): similar words, which the analogy returns for that alone.
        pub mean_cosine: f64,
        pub sd_cosine: f64,
        /// cos(man, woman).
        pub base_cosine: f64,
    }
}
