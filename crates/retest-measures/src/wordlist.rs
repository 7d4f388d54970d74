//! Word lists and base-pair lists: the text format, parsing with line-numbered errors, and
//! resolution against a vocabulary that drops out-of-vocabulary entries and counts them.
//!
//! Format (both kinds): UTF-8 text, one entry per line; `#` starts a comment when it begins a
//! line or follows whitespace; blank lines are ignored; words are separated by whitespace and
//! matched exactly (case-sensitive). A word list has one word per line, a pair list
//! `masculine feminine` per line.

use rustc_hash::FxHashMap;

use crate::{MeasureError, Vocab};

/// A named list of target (or query) words, in file order, without repeats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordList {
    /// The list's name (used in messages and tables), e.g. `occ16`.
    pub name: String,
    /// The words.
    pub words: Vec<String>,
}

/// A named list of base pairs `(masculine, feminine)`, in file order, without repeats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairList {
    /// The list's name, e.g. `base-pairs`.
    pub name: String,
    /// The pairs, masculine first.
    pub pairs: Vec<(String, String)>,
}

/// A word list resolved against a vocabulary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// Ids of the words found, in list order.
    pub ids: Vec<u32>,
    /// The words found, in list order (parallel to `ids`).
    pub words: Vec<String>,
    /// The words not found, in list order: dropped, and reported by count in every table.
    pub oov: Vec<String>,
}

/// A pair list resolved against a vocabulary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedPairs {
    /// Ids `(m, f)` of the pairs whose two words were both found, in list order.
    pub ids: Vec<(u32, u32)>,
    /// Those pairs, in list order (parallel to `ids`).
    pub pairs: Vec<(String, String)>,
    /// Pairs with at least one word not found, in list order: dropped and counted.
    pub oov: Vec<(String, String)>,
}

/// The whitespace-separated words of one line, with a comment removed.
fn tokens(line: &str) -> Vec<&str> {
    let mut end = line.len();
    let mut prev_space = true;
    for (i, c) in line.char_indices() {
        if c == '#' && prev_space {
            end = i;
            break;
        }
        prev_space = c.is_whitespace();
    }
    line[..end].split_whitespace().collect()
}

/// The entries of the list `name`: `entry` turns the words of each line that has any (with its
/// 1-based number) into one entry, or into the message of a [`MeasureError::ListSyntax`].
/// Fails on the first bad line, and when no line has words.
fn parse_entries<'t, T>(
    name: &str,
    text: &'t str,
    mut entry: impl FnMut(usize, &[&'t str]) -> Result<T, String>,
) -> Result<Vec<T>, MeasureError> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let lineno = i + 1;
        let words = tokens(line);
        if words.is_empty() {
            continue;
        }
        let parsed = entry(lineno, &words).map_err(|message| MeasureError::ListSyntax {
            list: name.to_string(),
            line: lineno,
            message,
        })?;
        entries.push(parsed);
    }
    if entries.is_empty() {
        return Err(MeasureError::EmptyList {
            list: name.to_string(),
        });
    }
    Ok(entries)
}

impl WordList {
    /// Parses one word per line.
    ///
    /// # Errors
    ///
    /// A line with more than one word, a word repeated, or no words at all; messages give the
    /// list name and line number.
    pub fn parse(name: &str, text: &str) -> Result<WordList, MeasureError> {
        let mut seen: FxHashMap<&str, usize> = FxHashMap::default();
        let words = parse_entries(name, text, |lineno, line| match *line {
            [word] => match seen.insert(word, lineno) {
                Some(first) => Err(format!("'{word}' repeats line {first}")),
                None => Ok(word.to_string()),
            },
            ref many => Err(format!(
                "expected one word, found {}: '{}'",
                many.len(),
                many.join(" ")
            )),
        })?;
        Ok(WordList {
            name: name.to_string(),
            words,
        })
    }

    /// The ids of the words in `vocab`; the others are dropped and listed in `oov`.
    ///
    /// # Errors
    ///
    /// Every word is out of vocabulary.
    pub fn resolve(&self, vocab: &Vocab<'_>) -> Result<Resolved, MeasureError> {
        let mut out = Resolved {
            ids: Vec::new(),
            words: Vec::new(),
            oov: Vec::new(),
        };
        for w in &self.words {
            match vocab.id(w) {
                Some(id) => {
                    out.ids.push(id);
                    out.words.push(w.clone());
                }
                None => out.oov.push(w.clone()),
            }
        }
        if out.ids.is_empty() {
            return Err(MeasureError::AllWordsOov {
                list: self.name.clone(),
                n_words: self.words.len(),
            });
        }
        Ok(out)
    }
}

impl PairList {
    /// Parses `masculine feminine` per line.
    ///
    /// # Errors
    ///
    /// A line without exactly two words, a pair of one word twice, a pair repeated, or no pairs
    /// at all; messages give the list name and line number.
    pub fn parse(name: &str, text: &str) -> Result<PairList, MeasureError> {
        let mut seen: FxHashMap<(&str, &str), usize> = FxHashMap::default();
        let pairs = parse_entries(name, text, |lineno, line| match *line {
            [m, f] => {
                if m == f {
                    return Err(format!("a pair needs two different words, found '{m} {f}'"));
                }
                match seen.insert((m, f), lineno) {
                    Some(first) => Err(format!("the pair '{m} {f}' repeats line {first}")),
                    None => Ok((m.to_string(), f.to_string())),
                }
            }
            ref other => Err(format!(
                "expected two words 'masculine feminine', found {}: '{}'",
                other.len(),
                other.join(" ")
            )),
        })?;
        Ok(PairList {
            name: name.to_string(),
            pairs,
        })
    }

    /// The ids of the pairs whose two words are both in `vocab`; the others are dropped and
    /// listed in `oov`.
    ///
    /// # Errors
    ///
    /// Every pair has a word out of vocabulary.
    pub fn resolve(&self, vocab: &Vocab<'_>) -> Result<ResolvedPairs, MeasureError> {
        let mut out = ResolvedPairs {
            ids: Vec::new(),
            pairs: Vec::new(),
            oov: Vec::new(),
        };
        for (m, f) in &self.pairs {
            match (vocab.id(m), vocab.id(f)) {
                (Some(mi), Some(fi)) => {
                    out.ids.push((mi, fi));
                    out.pairs.push((m.clone(), f.clone()));
                }
                _ => out.oov.push((m.clone(), f.clone())),
            }
        }
        if out.ids.is_empty() {
            return Err(MeasureError::AllPairsOov {
                list: self.name.clone(),
                n_pairs: self.pairs.len(),
            });
        }
        Ok(out)
    }
}

/// Placeholder tokens that are not words: WikiText's unknown-word marker and the form it takes
/// for GloVe's tools. Du et al.'s code removes both from every model it loads, so they are never
/// targets and never NBM neighbours.
pub const PLACEHOLDER_WORDS: &[&str] = &["<unk>", "<raw_unk>"];

/// The ids of the [`PLACEHOLDER_WORDS`] in a vocabulary (`words[id]`), ascending.
pub fn placeholder_ids(words: &[String]) -> Vec<u32> {
    words
        .iter()
        .enumerate()
        .filter(|(_, w)| PLACEHOLDER_WORDS.contains(&w.as_str()))
        .map(|(id, _)| id as u32)
        .collect()
}

/// How many of the most frequent words the neutral pool is drawn from (Zhang et al. 2020).
pub const NEUTRAL_POOL_MOST_FREQUENT: usize = 50_000;

/// The gender-neutral NBM neighbour pool of Gonen & Goldberg (2019) and Zhang et al. (2020):
/// among the `most_frequent` first words of `words` (which must be in decreasing frequency order,
/// as retest's vocabularies are), those made only of ASCII lowercase letters `a–z`, shorter than
/// 20 characters, and not in `gendered` (e.g. Bolukbasi et al.'s gender-specific words and the
/// base-pair words). Returns their ids in increasing order.
///
/// Zhang et al.'s filter `^[a-z_]*$` also admits `_`, which joins phrases in GoogleNews vectors;
/// retest's corpora have no phrases, so `_` is not admitted.
pub fn neutral_pool<'g>(
    words: &[String],
    gendered: impl IntoIterator<Item = &'g str>,
    most_frequent: usize,
) -> Vec<u32> {
    let gendered: rustc_hash::FxHashSet<&str> = gendered.into_iter().collect();
    words
        .iter()
        .take(most_frequent)
        .enumerate()
        .filter(|(_, w)| {
            !w.is_empty()
                && w.len() < 20
                && w.bytes().all(|b| b.is_ascii_lowercase())
                && !gendered.contains(w.as_str())
        })
        .map(|(id, _)| id as u32)
        .collect()
}
