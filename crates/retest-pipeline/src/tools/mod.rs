//! The bring-your-own-vectors commands: each runs one family of measures on any embedding
//! files (`retest score`, `weat`, `query`, `direct-bias`, `analogies`, `base-pairs`, `eval`, `validity`),
//! writes a debiased copy of one (`retest debias`), or trains one model from a text file
//! (`retest sgns`, `retest glove`), under one output policy (`output.rs`); and
//! `retest lock`, which records the checksums of one's own declared files (`checksums.rs`); and
//! the reports of `retest stats` on one's own ratings (`stats.rs`).

pub(crate) mod analogies;
pub(crate) mod base_pairs;
pub(crate) mod checksums;
pub(crate) mod debias;
pub(crate) mod eval;
pub(crate) mod inputs;
pub(crate) mod output;
pub(crate) mod query;
pub(crate) mod score;
pub(crate) mod set_level;
pub(crate) mod single;
pub(crate) mod stats;
pub(crate) mod validity;
