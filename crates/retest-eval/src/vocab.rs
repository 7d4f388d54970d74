//! Evaluation options and the restricted, optionally case-insensitive vocabulary lookup that
//! gensim's `evaluate_word_pairs` / `evaluate_word_analogies` use.

use std::borrow::Cow;

use retest_embeddings::Embeddings;
use rustc_hash::FxHashMap;
use serde::Serialize;

/// How benchmark words are matched against the vocabulary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CaseHandling {
    /// gensim's `case_insensitive=True`: query words and vocabulary words are compared
    /// upper-cased (Unicode full upper-casing, as Python's `str.upper`); when several vocabulary
    /// words share an upper-cased form, the first row (the most frequent) stands for all of them.
    Insensitive,
    /// Exact matches only.
    Sensitive,
}

impl CaseHandling {
    /// The stable name: `insensitive` or `sensitive`.
    pub fn as_str(self) -> &'static str {
        match self {
            CaseHandling::Insensitive => "insensitive",
            CaseHandling::Sensitive => "sensitive",
        }
    }
}

/// Evaluation settings. [`EvalOptions::GENSIM`] are gensim 4's defaults, which the
/// `evaluate_*` functions without `_with` use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct EvalOptions {
    /// Only the first `restrict_vocab` rows take part (rows are in descending frequency): a
    /// benchmark word outside them is out of vocabulary, and analogy answers are searched among
    /// them only.
    pub restrict_vocab: usize,
    /// How words are matched.
    pub case: CaseHandling,
}

impl EvalOptions {
    /// gensim 4's defaults: `restrict_vocab=300000`, `case_insensitive=True`.
    pub const GENSIM: EvalOptions = EvalOptions {
        restrict_vocab: 300_000,
        case: CaseHandling::Insensitive,
    };
}

/// Word → row over the first `restrict_vocab` rows, keyed as [`EvalOptions::case`] says: gensim's
/// `ok_vocab`.
#[derive(Debug)]
pub(crate) struct Lookup {
    case: CaseHandling,
    n_rows: usize,
    rows: FxHashMap<String, u32>,
}

impl Lookup {
    pub(crate) fn new(emb: &Embeddings, options: &EvalOptions) -> Self {
        let n_rows = options.restrict_vocab.min(emb.n_words());
        assert!(u32::try_from(n_rows).is_ok(), "more than 2^32 rows");
        let mut rows = FxHashMap::with_capacity_and_hasher(n_rows, Default::default());
        for (row, word) in emb.words()[..n_rows].iter().enumerate() {
            rows.entry(key(options.case, word).into_owned())
                .or_insert(row as u32);
        }
        Lookup {
            case: options.case,
            n_rows,
            rows,
        }
    }

    /// Rows that take part: `min(restrict_vocab, n_words)`.
    pub(crate) fn n_rows(&self) -> usize {
        self.n_rows
    }

    /// The row standing for `word`, if it is among the first `restrict_vocab` rows.
    pub(crate) fn get(&self, word: &str) -> Option<u32> {
        self.rows.get(key(self.case, word).as_ref()).copied()
    }

    /// For each of the first `n_rows` rows, the row that stands for its key (itself, or the more
    /// frequent row with the same upper-cased word).
    pub(crate) fn representatives(&self, emb: &Embeddings) -> Vec<u32> {
        emb.words()[..self.n_rows]
            .iter()
            .map(|w| {
                self.get(w)
                    .expect("every word of the first n_rows rows has a key")
            })
            .collect()
    }
}

fn key(case: CaseHandling, word: &str) -> Cow<'_, str> {
    match case {
        CaseHandling::Insensitive if word.chars().any(|c| c.to_uppercase().ne([c])) => {
            Cow::Owned(word.to_uppercase())
        }
        _ => Cow::Borrowed(word),
    }
}
