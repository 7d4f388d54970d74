//! A vocabulary as the stages and hard debiasing look words up in it, spelled as the corpus
//! spells them ([`CasedVocab`]); a leaf of the stages, so any of them may use it.

use retest_measures::{MeasureError, PairList, Resolved, Vocab, WordList};

/// A vocabulary as the stages look their lists up in it: lowercased when the corpus's reader
/// lowercases (or a model's files are declared `lowercase`).
#[derive(Clone, Copy)]
pub(crate) struct CasedVocab<'v, 'w> {
    pub vocab: &'v Vocab<'w>,
    pub lowercase: bool,
}

impl CasedVocab<'_, '_> {
    /// `word` as the corpus spells it.
    pub fn case(&self, word: &str) -> String {
        if self.lowercase {
            word.to_lowercase()
        } else {
            word.to_owned()
        }
    }

    /// The id of `word` as the corpus spells it.
    pub fn id(&self, word: &str) -> Option<u32> {
        if self.lowercase {
            self.vocab.id(&word.to_lowercase())
        } else {
            self.vocab.id(word)
        }
    }

    /// `list`'s words as the corpus spells them, looked up: the ids in vocabulary and the words
    /// out of it.
    ///
    /// # Errors
    ///
    /// Every word out of the vocabulary.
    pub fn words(&self, list: &WordList) -> Result<Resolved, MeasureError> {
        let cased = WordList {
            name: list.name.clone(),
            words: list.words.iter().map(|w| self.case(w)).collect(),
        };
        cased.resolve(self.vocab)
    }

    /// `list`'s pairs as the corpus spells them, looked up.
    ///
    /// # Errors
    ///
    /// Every pair with a word out of the vocabulary.
    pub fn pairs(&self, list: &PairList) -> Result<LookedUpPairs, MeasureError> {
        let cased = PairList {
            name: list.name.clone(),
            pairs: (list.pairs.iter())
                .map(|(m, f)| (self.case(m), self.case(f)))
                .collect(),
        };
        let resolved = cased.resolve(self.vocab)?;
        Ok(LookedUpPairs {
            dropped: resolved.oov.iter().map(|(m, f)| format!("{m}:{f}")).collect(),
            ids: resolved.ids,
        })
    }
}

/// A pair list looked up in a vocabulary ([`CasedVocab::pairs`]).
pub(crate) struct LookedUpPairs {
    /// The pairs in vocabulary, in the list's order.
    pub ids: Vec<(u32, u32)>,
    /// The pairs out of it, written `masculine:feminine`, for the coverage table.
    pub dropped: Vec<String>,
}
