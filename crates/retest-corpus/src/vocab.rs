//! The vocabulary: words and counts in id order (count descending, ties by the word's bytes),
//! its `word\tcount` text file and its reader.

use std::cmp::Ordering;
use std::io::{self, BufRead, Write};

use rustc_hash::FxHashMap;

use crate::error::CorpusError;

/// Words and their corpus counts, in id order: count descending, ties broken by the byte order
/// of the word. Ids are `u32` indices into this order.
///
/// The order is the one word2vec and GloVe use (most frequent first), made total by the tie
/// rule so that it never depends on hash-map iteration or input order.
#[derive(Debug, Clone)]
pub struct Vocab {
    words: Vec<Box<str>>,
    counts: Vec<u64>,
    index: FxHashMap<Box<str>, u32>,
}

/// The vocabulary order: count descending, then the word's bytes ascending.
pub(crate) fn vocab_order(a: (&str, u64), b: (&str, u64)) -> Ordering {
    b.1.cmp(&a.1).then_with(|| a.0.as_bytes().cmp(b.0.as_bytes()))
}

impl Vocab {
    /// Builds a vocabulary from (word, count) pairs in any order; they are sorted into id order.
    ///
    /// # Panics
    /// If a word occurs twice or there are more than `u32::MAX` words.
    pub fn from_counts<S: Into<Box<str>>>(pairs: impl IntoIterator<Item = (S, u64)>) -> Vocab {
        let mut pairs: Vec<(Box<str>, u64)> = pairs.into_iter().map(|(w, c)| (w.into(), c)).collect();
        pairs.sort_unstable_by(|a, b| vocab_order((&a.0, a.1), (&b.0, b.1)));
        let (words, counts) = pairs.into_iter().unzip();
        Vocab::from_sorted(words, counts).unwrap_or_else(|word| panic!("duplicate word {word:?}"))
    }

    /// Builds a vocabulary from words already in id order. Returns the first duplicate word as
    /// the error.
    pub(crate) fn from_sorted(words: Vec<Box<str>>, counts: Vec<u64>) -> Result<Vocab, Box<str>> {
        assert_eq!(words.len(), counts.len());
        assert!(u32::try_from(words.len()).is_ok(), "more than u32::MAX words");
        let mut index = FxHashMap::with_capacity_and_hasher(words.len(), Default::default());
        for (id, word) in words.iter().enumerate() {
            if index.insert(word.clone(), id as u32).is_some() {
                return Err(word.clone());
            }
        }
        Ok(Vocab { words, counts, index })
    }

    /// Builds a vocabulary from parts whose order and uniqueness the caller guarantees.
    pub(crate) fn from_parts(
        words: Vec<Box<str>>,
        counts: Vec<u64>,
        index: FxHashMap<Box<str>, u32>,
    ) -> Vocab {
        debug_assert_eq!(words.len(), counts.len());
        debug_assert_eq!(words.len(), index.len());
        Vocab { words, counts, index }
    }

    /// Number of words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether the vocabulary has no words.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Id of `word`, if it is in the vocabulary.
    pub fn id(&self, word: &str) -> Option<u32> {
        self.index.get(word).copied()
    }

    /// Word with id `id`.
    ///
    /// # Panics
    /// If `id >= self.len()`.
    pub fn word(&self, id: u32) -> &str {
        &self.words[id as usize]
    }

    /// Corpus count of the word with id `id`.
    ///
    /// # Panics
    /// If `id >= self.len()`.
    pub fn count(&self, id: u32) -> u64 {
        self.counts[id as usize]
    }

    /// All words in id order.
    pub fn words(&self) -> &[Box<str>] {
        &self.words
    }

    /// All counts in id order.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// Sum of all counts.
    pub fn total_count(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// `(word, count)` pairs in id order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, u64)> + '_ {
        self.words.iter().zip(&self.counts).map(|(w, &c)| (&**w, c))
    }

    /// Writes `word\tcount\n` lines in id order (the format [`read_vocab`] reads).
    pub fn write(&self, mut w: impl Write) -> io::Result<()> {
        let mut buf = Vec::with_capacity(1 << 16);
        for (word, count) in self.iter() {
            buf.extend_from_slice(word.as_bytes());
            buf.push(b'\t');
            buf.extend_from_slice(count.to_string().as_bytes());
            buf.push(b'\n');
            if buf.len() >= 1 << 16 {
                w.write_all(&buf)?;
                buf.clear();
            }
        }
        w.write_all(&buf)?;
        w.flush()
    }
}

impl PartialEq for Vocab {
    fn eq(&self, other: &Vocab) -> bool {
        self.words == other.words && self.counts == other.counts
    }
}

impl Eq for Vocab {}

/// Reads a vocabulary written by [`Vocab::write`] / `EncodedCorpus::write_vocab`: one
/// `word\tcount` line per word, in id order (count descending, ties by the word's bytes).
///
/// Errors name the line: a missing tab, an empty word, a count that is not an unsigned integer,
/// a duplicate word, or lines out of vocabulary order (ids would not match the encoded corpus).
pub fn read_vocab(mut r: impl BufRead) -> Result<Vocab, CorpusError> {
    let mut words: Vec<Box<str>> = Vec::new();
    let mut counts: Vec<u64> = Vec::new();
    let mut index: FxHashMap<Box<str>, u32> = FxHashMap::default();
    let mut buf = Vec::new();
    let mut line_no = 0u64;
    loop {
        buf.clear();
        line_no += 1;
        let n = r
            .read_until(b'\n', &mut buf)
            .map_err(|source| CorpusError::Read {
                line: line_no,
                source,
            })?;
        if n == 0 {
            break;
        }
        let bad = |message: String| CorpusError::Vocab {
            line: line_no,
            message,
        };
        let Some(line) = buf.strip_suffix(b"\n") else {
            return Err(bad("missing final newline (truncated file?)".into()));
        };
        let line = std::str::from_utf8(line).map_err(|e| CorpusError::InvalidUtf8 {
            line: line_no,
            byte: e.valid_up_to(),
        })?;
        let Some((word, count)) = line.split_once('\t') else {
            return Err(bad(format!("expected `word<TAB>count`, found {line:?}")));
        };
        if word.is_empty() {
            return Err(bad("empty word".into()));
        }
        let count: u64 = count.parse().map_err(|_| {
            bad(format!(
                "expected an unsigned integer count after the tab, found {count:?}"
            ))
        })?;
        if let (Some(prev_word), Some(&prev_count)) = (words.last(), counts.last())
            && vocab_order((prev_word, prev_count), (word, count)) != Ordering::Less
        {
            if **prev_word == *word {
                return Err(bad(format!("duplicate word {word:?}")));
            }
            return Err(bad(format!(
                "{word:?} ({count}) comes after {prev_word:?} ({prev_count}): expected count \
                 descending, ties in byte order of the word"
            )));
        }
        let id = u32::try_from(words.len()).map_err(|_| bad("more than u32::MAX words".into()))?;
        if index.insert(word.into(), id).is_some() {
            return Err(bad(format!("duplicate word {word:?}")));
        }
        words.push(word.into());
        counts.push(count);
    }
    Ok(Vocab::from_parts(words, counts, index))
}
