//! Criterion validity on any embedding files, without a pipeline (`retest validity`): how well
//! each rule's scores along each base pair track a criterion of the words (Garg et al.'s census
//! shares of women per occupation, their MTurk stereotype ratings, or one's own values), one
//! row per (embedding, rule, pair).

use std::io::Write;
use std::path::Path;

use anyhow::{Result, ensure};
use retest_analyses::validity;
use retest_measures::{Model, Scoring};
use retest_tables::{ValidityRow, names};
use rustc_hash::FxHashMap;

use crate::driver::project::{Folders, lock_file, resolver};
use crate::lists::{Criterion, CriterionSource, read_criterion};
use crate::stages::columns::validity_stats;
use crate::tools::inputs::{EmbeddingFiles, TableFile, WordLookup};
use crate::tools::score::{ScoreInput, read_pair_file, score_rows};

/// What `retest validity` was asked to do.
#[derive(Debug)]
pub struct ValidityRequest<'a> {
    pub embeddings: EmbeddingFiles<'a>,
    pub criterion: CriterionSource<'a>,
    /// Base pairs: `masculine feminine` per line.
    pub pairs: &'a Path,
    pub scoring: Scoring<'a>,
    /// Where the criteria's declarations and the checksum lock are.
    pub folders: &'a Folders,
    pub out: TableFile<'a>,
}

/// Correlates every rule's scores along every pair with the criterion, for every embedding
/// file, and writes one row per (embedding, rule, pair). Criterion words without a value (a
/// census share of 0 or 1) are named on stderr.
///
/// # Errors
///
/// `--out` is refused by the output policy; the criterion or the pairs cannot be found or read;
/// no rule is given; an embedding has none of the criterion's words; the table cannot be written.
pub fn validity_files(req: &ValidityRequest<'_>) -> Result<()> {
    let inputs = match req.criterion {
        CriterionSource::File(path) => vec![req.pairs, path],
        _ => vec![req.pairs],
    };
    req.out.check(&req.embeddings.and(&inputs))?;
    let mut resolver = resolver(&lock_file(&req.folders.recipes(None)))?;
    let criterion = read_criterion(req.criterion, &req.folders.wordlists(None), &mut resolver)?;
    let mut err = std::io::stderr().lock();
    if let Some(line) = criterion.left_out_line() {
        writeln!(err, "{line}")?;
    }
    let pairs = read_pair_file(req.pairs)?.pairs;
    let lookup = &req.embeddings.lookup;
    let input = ScoreInput::new(pairs, criterion.words.clone(), lookup, req.scoring);
    let rows = req
        .embeddings
        .rows_of_each(|name, model, err| validity_rows(name, model, lookup, &input, &criterion, err))?;
    req.out.write(names::VALIDITY_FILE, &rows, "validity rows")
}

/// The validity of every rule's scores along every pair of `input` on `model` (`name` in the
/// rows), `input`'s words being the criterion's as `lookup` spells them: Pearson's r (with its
/// p-value) and Spearman's ρ between the scores and the criterion's values, over the words with
/// both. The scores' own lines (words and pairs out of the vocabulary) go to `warn`.
///
/// # Errors
///
/// None of the criterion's words is in the vocabulary; the scores cannot be computed; `warn`
/// cannot be written.
pub fn validity_rows(
    name: &str,
    model: &Model<'_>,
    lookup: &WordLookup,
    input: &ScoreInput<'_>,
    criterion: &Criterion,
    warn: &mut dyn Write,
) -> Result<Vec<ValidityRow>> {
    let value_of: FxHashMap<String, f64> = (criterion.words.iter())
        .zip(&criterion.values)
        .map(|(w, &v)| (lookup.case(w).into_owned(), v))
        .rev() // the first of two spellings that a lowercased lookup merges wins
        .collect();
    let in_vocabulary = value_of.keys().filter(|w| model.vocab().id(w).is_some()).count();
    ensure!(
        in_vocabulary > 0,
        "{name}: none of the {} words of criterion `{}` is in the vocabulary",
        criterion.words.len(),
        criterion.name
    );
    let scores = score_rows(name, model, input, warn)?;
    // The rows of one (rule, pair) are consecutive, in word order: each group's key, its
    // scores (NaN: none) and the criterion's values of the same words.
    type Group = ((String, String), Vec<f64>, Vec<f64>);
    let mut groups: Vec<Group> = Vec::new();
    for row in &scores {
        let key = (row.rule.clone(), format!("{}:{}", row.male, row.female));
        if groups.last().is_none_or(|(k, ..)| *k != key) {
            groups.push((key, Vec::new(), Vec::new()));
        }
        let (_, x, y) = groups.last_mut().expect("a group for every row");
        x.push(row.score);
        y.push(value_of[&row.word]);
    }
    Ok((groups.iter())
        .map(|((rule, reference), x, y)| ValidityRow {
            embedding: name.to_owned(),
            validity: validity_stats(rule, reference, &criterion.name, &validity(x, y)),
        })
        .collect())
}
