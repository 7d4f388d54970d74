//! The input of the multilevel regression of Du, Fang & Nguyen (2021, §5.5 and appendix F):
//! each word's per-word reliability beside its frequency, WordNet senses, Brown part of speech,
//! nearest-neighbour similarity, vector norm and embedding stability.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::Result;
use retest_lexicon::Lexicon;
use retest_tables::{IccRow, RegressionRow, Subject, Table, WordPropertyRow, names};
use rustc_hash::FxHashMap;

use crate::driver::aggregate::read_rows;

/// The regression input of a run, from its combined tables in `dir`: test-retest rows from
/// `test_retest_words`, inter-rater rows from `inter_rater_words`, each with the word's
/// features. Also returns how many (analysis, configuration, rule, scale, word) candidates
/// were left out for lack of a WordNet sense or a Brown tag.
///
/// # Errors
///
/// A table that cannot be read.
pub fn regression_input(dir: &Path, features: &dyn WordFeatures) -> Result<(Table, usize)> {
    let properties = read_rows(dir, names::WORD_PROPERTIES)?;
    let mut rows = Vec::new();
    let mut left_out = 0;
    for (analysis, table) in [
        ("test_retest", names::TEST_RETEST_WORDS),
        ("inter_rater", names::INTER_RATER_WORDS),
    ] {
        let icc = read_rows(dir, table)?;
        let (mut part, missing) = regression_rows(analysis, &icc, &properties, features);
        rows.append(&mut part);
        left_out += missing;
    }
    Ok((Table::of(names::REGRESSION, &rows)?, left_out))
}

/// Lexical features of a word that do not depend on the embeddings.
pub trait WordFeatures {
    /// Number of WordNet synsets (0 when the word has none).
    fn n_senses(&self, word: &str) -> u32;
    /// Most common Brown part of speech in the universal tagset, if the word occurs in Brown.
    fn pos(&self, word: &str) -> Option<&str>;
}

/// NLTK's features, as the original study computed them (see [`retest_lexicon`]).
impl WordFeatures for Lexicon {
    fn n_senses(&self, word: &str) -> u32 {
        Lexicon::n_senses(self, word)
    }

    fn pos(&self, word: &str) -> Option<&str> {
        Lexicon::pos(self, word)
    }
}

/// One row per (corpus, algorithm, rule, scale, word) of `icc` with `status = ok`, for words
/// that have properties, at least one WordNet sense and a Brown tag (the original study's word
/// set). `analysis` is `test_retest` or `inter_rater`. Also returns how many candidate rows
/// were left out for lack of a feature.
pub fn regression_rows(
    analysis: &str,
    icc: &[IccRow],
    properties: &[WordPropertyRow],
    features: &dyn WordFeatures,
) -> (Vec<RegressionRow>, usize) {
    let props: FxHashMap<(&str, &str, &str), &WordPropertyRow> = properties
        .iter()
        .map(|p| ((p.corpus.as_str(), p.algorithm.as_str(), p.word.as_str()), p))
        .collect();
    let mut seen = BTreeSet::new();
    let mut rows = Vec::new();
    let mut left_out = 0;
    for r in icc {
        let Subject::Word(word) = &r.subject else {
            continue;
        };
        // Per-word rows repeat once per list containing the word.
        if !seen.insert((&r.corpus, &r.algorithm, &r.rule, &r.scale, word)) {
            continue;
        }
        if r.stats.status != "ok" {
            continue;
        }
        let Some(p) = props.get(&(r.corpus.as_str(), r.algorithm.as_str(), word.as_str())) else {
            left_out += 1;
            continue;
        };
        let n_senses = features.n_senses(word);
        let (Some(pos), true) = (features.pos(word), n_senses > 0) else {
            left_out += 1;
            continue;
        };
        // A frequency of 0 is unknown (a model's files without a counts file).
        let log_freq = if p.frequency == 0 {
            f64::NAN
        } else {
            (p.frequency as f64).ln()
        };
        rows.push(RegressionRow {
            analysis: analysis.to_owned(),
            corpus: r.corpus.clone(),
            algorithm: r.algorithm.clone(),
            metric: r.rule.clone(),
            scale: r.scale.clone(),
            word: word.clone(),
            score: r.stats.icc,
            frequency: p.frequency,
            log_freq,
            log_freq_sq: log_freq * log_freq,
            n_senses,
            log_senses: f64::from(n_senses).ln(),
            pos: pos.to_owned(),
            nn_sim: p.nn_sim,
            l2_norm: p.l2_norm,
            es: p.es,
        });
    }
    (rows, left_out)
}
