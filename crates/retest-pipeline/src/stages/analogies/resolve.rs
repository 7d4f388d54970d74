//! The plan's query list, pair seed, sweep and Zhang et al.'s pairs resolved against one
//! corpus's vocabulary, each left out with a note when its words are not searched.

use std::path::Path;

use anyhow::Result;
use retest_eval::{AnalogySet, read_analogies};
use retest_measures::{Query, residual_word};
use retest_spec::{AnalogyParams, Plan};
use retest_tables::CoverageRow;

use super::{Analogies, GENDERED_SECTION, Resolved, SectionPairs};
use crate::lists::QueryLine;
use crate::stages::vocab::CasedVocab;

/// The row of `word` when it is among the `n_rows` most frequent words.
fn among(words: &CasedVocab<'_, '_>, word: &str, n_rows: usize) -> Option<u32> {
    words.id(word).filter(|&id| (id as usize) < n_rows)
}

impl<'p> Analogies<'p> {
    /// Resolves the plan's query list against `vocab` (lowercased on a corpus whose reader
    /// lowercases) and reads the Google set from `google` when the plan asks for its accuracy;
    /// a query with a word outside the searched rows is left out with a note.
    ///
    /// # Errors
    ///
    /// Every query out of vocabulary, or the Google set unreadable.
    pub(crate) fn new(
        plan: &'p Plan,
        lines: Option<&[QueryLine]>,
        google: Option<&Path>,
        corpus: &str,
        words: CasedVocab<'_, '_>,
    ) -> Result<Option<Analogies<'p>>> {
        let (Some(params), Some(lines)) = (plan.analogies.as_ref(), lines) else {
            return Ok(None);
        };
        Analogies::resolve(params, lines, google, corpus, &words).map(Some)
    }

    /// [`Analogies::new`] for the plan's `analogies` section `params` and its query list.
    pub(super) fn resolve(
        params: &'p AnalogyParams,
        lines: &[QueryLine],
        google: Option<&Path>,
        corpus: &str,
        words: &CasedVocab<'_, '_>,
    ) -> Result<Analogies<'p>> {
        let n_words = words.vocab.len();
        let mut notes = Vec::new();
        let n_rows = searched_rows(params.restrict_vocab, n_words, corpus, &mut notes);
        let (queries, coverage) = resolve_queries(params, lines, corpus, n_rows, words, &mut notes)?;
        let google = match google {
            Some(path) if params.google => Some(read_analogies(path)?),
            _ => None,
        };
        let pair_rows = params.pair_restrict_vocab.min(n_words);
        let pair_words: Vec<u32> = (0..pair_rows as u32)
            .filter(|&id| !params.pair_filter || residual_word(words.vocab.word(id)))
            .collect();
        let pair_seed = (params.pairs)
            .then(|| resolve_pair_seed(params, &pair_words, corpus, words, &mut notes))
            .flatten();
        let sweep = (params.sweep.as_ref()).and_then(|sweep| resolve_sweep(sweep, corpus, words, &mut notes));
        let zhang_rows = (params.zhang_restrict_vocab).map_or(n_rows, |n| n.min(n_rows));
        let zhang = match (&google, params.zhang) {
            (Some(set), true) => resolve_zhang(set, zhang_rows, corpus, words, &mut notes),
            _ => None,
        };
        let candidates = (params.solvers.iter())
            .map(|k| match params.solver_restrict_vocab.get(k) {
                Some(&n) if n > n_rows => {
                    notes.push(format!(
                        "corpus `{corpus}`: analogies.solver_restrict_vocab.{k} is {n}, {n_rows} words are searched: \
                         {k} answers among all of them"
                    ));
                    n_rows
                }
                Some(&n) => n,
                None => n_rows,
            })
            .collect();
        Ok(Analogies {
            solvers: params.solvers(),
            candidates,
            params,
            queries,
            n_rows,
            google,
            pair_seed,
            pair_words,
            sweep,
            sweep_sizes: sweep_sizes(&params.sweep_sizes, n_words),
            zhang,
            zhang_rows,
            coverage,
            notes,
        })
    }
}

/// The rows searched: the most frequent `restrict_vocab` words, or all `n_words` (with a note
/// when `restrict_vocab` exceeds them).
fn searched_rows(
    restrict_vocab: Option<usize>,
    n_words: usize,
    corpus: &str,
    notes: &mut Vec<String>,
) -> usize {
    match restrict_vocab {
        Some(n) if n > n_words => {
            notes.push(format!(
                "corpus `{corpus}`: analogies.restrict_vocab is {n}, the vocabulary has {n_words} words: all are searched"
            ));
            n_words
        }
        Some(n) => n,
        None => n_words,
    }
}

/// The queries of `lines` with their three words among the `n_rows` searched, and the list's
/// coverage row; a note when some are left out.
///
/// # Errors
///
/// No query left.
fn resolve_queries(
    params: &AnalogyParams,
    lines: &[QueryLine],
    corpus: &str,
    n_rows: usize,
    words: &CasedVocab<'_, '_>,
    notes: &mut Vec<String>,
) -> Result<(Vec<Resolved>, CoverageRow)> {
    let row = |w: &str| among(words, w, n_rows);
    let mut queries = Vec::new();
    let mut dropped = Vec::new();
    for line in lines {
        let [a, b, c] = &line.words;
        let label = format!("{a}:{b}::{c}");
        match (row(a), row(b), row(c)) {
            (Some(a), Some(b), Some(c)) => queries.push(Resolved {
                label,
                query: Query { a, b, c },
                reported: line.reported.as_ref().map(|r| (r.clone(), row(r))),
            }),
            _ => dropped.push(label),
        }
    }
    let coverage = CoverageRow::of(corpus, &params.queries, "analogy_queries", lines.len(), &dropped);
    if queries.is_empty() {
        anyhow::bail!(
            "corpus `{corpus}`: none of the {} queries of `{}` (analogies.queries) has its three words among the \
             {n_rows} words searched",
            lines.len(),
            params.queries
        );
    }
    if !dropped.is_empty() {
        notes.push(format!(
            "corpus `{corpus}`: {} of {} analogy queries left out, a word out of vocabulary (see the coverage \
             table)",
            dropped.len(),
            lines.len()
        ));
    }
    Ok((queries, coverage))
}

/// The rows of the pair generation's seed pair, both among the pair words; otherwise none, with a
/// note.
fn resolve_pair_seed(
    params: &AnalogyParams,
    pair_words: &[u32],
    corpus: &str,
    words: &CasedVocab<'_, '_>,
    notes: &mut Vec<String>,
) -> Option<(u32, u32)> {
    let [s1, s2] = &params.pair_seed;
    let paired = |word: &str| words.id(word).filter(|id| pair_words.binary_search(id).is_ok());
    match (paired(s1), paired(s2)) {
        (Some(x), Some(y)) => Some((x, y)),
        _ => {
            let filter = if params.pair_filter {
                " kept by the word filter"
            } else {
                ""
            };
            notes.push(format!(
                "corpus `{corpus}`: no pair generation: `{s1}` or `{s2}` (analogies.pair_seed) is not among the \
                 {} most frequent words{filter}",
                params.pair_restrict_vocab
            ));
            None
        }
    }
}

/// The sweep's query, labelled `a:b::c`, its words in the vocabulary; otherwise none, with a
/// note.
fn resolve_sweep(
    [a, b, c]: &[String; 3],
    corpus: &str,
    words: &CasedVocab<'_, '_>,
    notes: &mut Vec<String>,
) -> Option<(String, Query)> {
    let label = format!("{a}:{b}::{c}");
    match (words.id(a), words.id(b), words.id(c)) {
        (Some(a), Some(b), Some(c)) => Some((label, Query { a, b, c })),
        _ => {
            notes.push(format!(
                "corpus `{corpus}`: no sweep: a word of `{label}` (analogies.sweep) is out of vocabulary"
            ));
            None
        }
    }
}

/// Zhang et al.'s test on the Google set: the rows of man and woman and the sections' pairs,
/// all among the `n_rows` searched; none, with a note, without man or woman.
fn resolve_zhang(
    set: &AnalogySet,
    n_rows: usize,
    corpus: &str,
    words: &CasedVocab<'_, '_>,
    notes: &mut Vec<String>,
) -> Option<((u32, u32), Vec<SectionPairs>)> {
    let row = |w: &str| among(words, w, n_rows);
    match (row("man"), row("woman")) {
        (Some(man), Some(woman)) => Some(((man, woman), zhang_pairs(set, &row))),
        _ => {
            notes.push(format!(
                "corpus `{corpus}`: no Zhang et al. test: `man` or `woman` is not among the words searched"
            ));
            None
        }
    }
}

/// The sweep's vocabulary sizes: those of `sizes` below `n_words`, and `n_words`, ascending.
fn sweep_sizes(sizes: &[usize], n_words: usize) -> Vec<usize> {
    let mut sizes: Vec<usize> = (sizes.iter().copied())
        .filter(|&n| n < n_words)
        .chain([n_words])
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    sizes
}

/// The distinct word pairs (x, y) of every Google section but `family`, in file order, both
/// words among the searched rows (`row`); sections without such a pair are left out.
fn zhang_pairs(set: &AnalogySet, row: &impl Fn(&str) -> Option<u32>) -> Vec<SectionPairs> {
    (set.sections.iter())
        .filter(|s| s.name != GENDERED_SECTION)
        .filter_map(|s| {
            let mut pairs: Vec<(u32, u32)> = Vec::new();
            for [a, b, c, d] in &s.questions {
                for (x, y) in [(a, b), (c, d)] {
                    if let (Some(x), Some(y)) = (row(x), row(y))
                        && !pairs.contains(&(x, y))
                    {
                        pairs.push((x, y));
                    }
                }
            }
            (!pairs.is_empty()).then(|| (s.name.clone(), pairs))
        })
        .collect()
}
