//! Most common universal part of speech of each word of the tagged Brown corpus, as NLTK 3.8.1
//! gives it: `ConditionalFreqDist((w.lower(), t) for w, t in
//! brown.tagged_words(tagset='universal'))[word].most_common(1)`.

use rustc_hash::FxHashMap;

/// The universal tagset of Petrov, Das & McDonald (NLTK's `_UNIVERSAL_TAGS`, in its order).
/// Brown tags missing from the map become `X`, as in NLTK's `map_tag`.
pub const UNIVERSAL_TAGS: [&str; 12] = [
    "VERB", "NOUN", "PRON", "ADJ", "ADV", "ADP", "CONJ", "DET", "NUM", "PRT", "X", ".",
];

/// Index of `X` in [`UNIVERSAL_TAGS`].
const X: u8 = 10;

/// The Brown-to-universal tag map (`universal_tagset/en-brown.map`).
#[derive(Debug, Default)]
pub struct TagMap {
    map: FxHashMap<Box<str>, u8>,
}

/// A line of the tag map that is not `fine<TAB>coarse` with a universal coarse tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapLineError {
    /// 1-based line number.
    pub line: usize,
    pub reason: String,
}

impl TagMap {
    /// Reads the map as NLTK's `_load_universal_map` does: stripped non-empty lines of
    /// `fine<TAB>coarse`, each fine tag once.
    ///
    /// # Errors
    ///
    /// A line without exactly one tab, a coarse tag outside [`UNIVERSAL_TAGS`], or a fine tag
    /// given twice.
    pub fn parse(text: &str) -> Result<TagMap, MapLineError> {
        let mut map = FxHashMap::default();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let err = |reason: String| MapLineError { line: i + 1, reason };
            let mut fields = line.split('\t');
            let (Some(fine), Some(coarse), None) = (fields.next(), fields.next(), fields.next()) else {
                return Err(err(format!("expected `fine<TAB>coarse`, found `{line}`")));
            };
            let Some(tag) = UNIVERSAL_TAGS.iter().position(|&t| t == coarse) else {
                return Err(err(format!("`{coarse}` is not a universal tag")));
            };
            if map.insert(Box::from(fine), tag as u8).is_some() {
                return Err(err(format!("tag `{fine}` is mapped twice")));
            }
        }
        Ok(TagMap { map })
    }

    /// NLTK's `map_tag('brown', 'universal', tag)`: an exact lookup, `X` when absent (also for
    /// a token without a tag).
    pub fn universal(&self, tag: Option<&str>) -> u8 {
        tag.and_then(|t| self.map.get(t)).copied().unwrap_or(X)
    }

    /// Number of Brown tags in the map.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// Per-word tag counts of a tagged corpus, then each word's most common tag.
#[derive(Debug, Default)]
pub struct TagCounts {
    /// Lowercased word → index into `counts`.
    words: FxHashMap<Box<str>, u32>,
    /// Per word: (universal tag, count) in order of the tag's first occurrence with the word.
    counts: Vec<Vec<(u8, u32)>>,
    n_tokens: u64,
}

/// Python's `str.isspace` on ASCII: what NLTK's `WhitespaceTokenizer` (`\s+`) splits on.
fn is_python_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c' | '\x1c'..='\x1f')
        || (!c.is_ascii() && c.is_whitespace())
}

impl TagCounts {
    /// Adds one corpus file of whitespace-separated `word/tag` tokens. As NLTK's `str2tuple`,
    /// the token splits at its last `/` and the tag is uppercased (no `/`: no tag); the tag is
    /// mapped with `map` and the word lowercased.
    pub fn add_file(&mut self, text: &str, map: &TagMap) {
        let mut upper = String::new();
        let mut lower = String::new();
        for token in text.split(is_python_space).filter(|t| !t.is_empty()) {
            let (word, tag) = match token.rfind('/') {
                Some(at) => {
                    upper.clear();
                    upper.extend(token[at + 1..].chars().flat_map(char::to_uppercase));
                    (&token[..at], Some(upper.as_str()))
                }
                None => (token, None),
            };
            let tag = map.universal(tag);
            let word = if word.chars().any(|c| c.is_uppercase() || !c.is_ascii()) {
                lower.clear();
                lower.push_str(&word.to_lowercase());
                lower.as_str()
            } else {
                word
            };
            let idx = match self.words.get(word) {
                Some(&idx) => idx as usize,
                None => {
                    self.words.insert(word.into(), self.counts.len() as u32);
                    self.counts.push(Vec::new());
                    self.counts.len() - 1
                }
            };
            let counts = &mut self.counts[idx];
            match counts.iter_mut().find(|(t, _)| *t == tag) {
                Some((_, n)) => *n += 1,
                None => counts.push((tag, 1)),
            }
            self.n_tokens += 1;
        }
    }

    /// Number of tokens read.
    pub fn n_tokens(&self) -> u64 {
        self.n_tokens
    }

    /// Each word's most common tag. Ties go to the tag seen first with the word in corpus
    /// order, as `Counter.most_common(1)` does (`max` over insertion order).
    pub fn most_common(&self) -> FxHashMap<Box<str>, u8> {
        self.words
            .iter()
            .map(|(word, &idx)| {
                let mut best = (X, 0);
                for &(tag, n) in &self.counts[idx as usize] {
                    if n > best.1 {
                        best = (tag, n);
                    }
                }
                (word.clone(), best.0)
            })
            .collect()
    }
}

/// Whether `name` (relative to the corpus folder) is a Brown corpus file: NLTK's fileid
/// pattern `c[a-z]\d\d`, matched in full.
pub fn is_corpus_file(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() == 4
        && b[0] == b'c'
        && b[1].is_ascii_lowercase()
        && b[2].is_ascii_digit()
        && b[3].is_ascii_digit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> TagMap {
        TagMap::parse("NN\tNOUN\nNN-TL\tNOUN\nVB\tVERB\nJJ\tADJ\n.\t.\n\n  \n").unwrap()
    }

    fn tag_of(counts: &TagCounts, word: &str) -> Option<&'static str> {
        counts
            .most_common()
            .get(word)
            .map(|&t| UNIVERSAL_TAGS[t as usize])
    }

    #[test]
    fn maps_exact_uppercased_tags_and_defaults_to_x() {
        let map = map();
        assert_eq!(map.len(), 5);
        let mut counts = TagCounts::default();
        counts.add_file("\n\n\tThe/at Dog/nn-tl runs/vb ./.\n\tnaked 1/2/cd\n", &map);
        assert_eq!(counts.n_tokens(), 6);
        // `at` is not in this map: X. `Dog` is lowercased, `nn-tl` uppercased to a mapped tag.
        assert_eq!(tag_of(&counts, "the"), Some("X"));
        assert_eq!(tag_of(&counts, "dog"), Some("NOUN"));
        assert_eq!(tag_of(&counts, "."), Some("."));
        assert_eq!(tag_of(&counts, "naked"), Some("X"));
        // The last slash splits word from tag.
        assert_eq!(tag_of(&counts, "1/2"), Some("X"));
        assert_eq!(tag_of(&counts, "runs/vb"), None);
    }

    #[test]
    fn ties_go_to_the_tag_seen_first() {
        let map = map();
        let mut counts = TagCounts::default();
        counts.add_file("fast/jj fast/nn run/vb run/nn run/nn fast/nn fast/jj", &map);
        assert_eq!(tag_of(&counts, "fast"), Some("ADJ"));
        assert_eq!(tag_of(&counts, "run"), Some("NOUN"));
    }

    #[test]
    fn malformed_maps_are_reported() {
        assert_eq!(
            TagMap::parse("NN\tNOUN\nVB VERB\n").unwrap_err(),
            MapLineError {
                line: 2,
                reason: "expected `fine<TAB>coarse`, found `VB VERB`".to_owned()
            }
        );
        assert_eq!(
            TagMap::parse("NN\tNOUNS\n").unwrap_err().reason,
            "`NOUNS` is not a universal tag"
        );
        assert_eq!(
            TagMap::parse("NN\tNOUN\nNN\tNOUN\n").unwrap_err().reason,
            "tag `NN` is mapped twice"
        );
    }

    #[test]
    fn corpus_file_names() {
        assert!(is_corpus_file("ca01"));
        assert!(is_corpus_file("cr09"));
        for name in ["cats.txt", "CONTENTS", "README", "ca1", "ca011", "Ca01"] {
            assert!(!is_corpus_file(name), "{name}");
        }
    }
}
