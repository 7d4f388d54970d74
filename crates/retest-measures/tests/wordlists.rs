//! Word and pair lists: the study's lists parse to their published sizes, out-of-vocabulary
//! entries are dropped and counted, and malformed input is refused with its line number.

use retest_measures::{MeasureError, PairList, Vocab, WordList, neutral_pool};

fn wordlists_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../wordlists/du2021")
}

fn read(name: &str) -> String {
    let path = wordlists_dir().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_du2021_lists_have_their_published_sizes() {
    let pairs = PairList::parse("base-pairs", &read("base-pairs.txt")).unwrap();
    assert_eq!(pairs.pairs.len(), 23);
    assert!(
        pairs.pairs.contains(&("his".into(), "her".into()))
            && pairs.pairs.contains(&("his".into(), "hers".into()))
    );
    assert_eq!(pairs.pairs[0], ("boy".to_string(), "girl".to_string()));
    for (file, size) in [("occ16.txt", 320), ("occ18.txt", 76), ("adj.txt", 230)] {
        let list = WordList::parse(file, &read(file)).unwrap();
        assert_eq!(list.words.len(), size, "{file}");
    }
    let queries = ["arts", "arts_2", "career", "family", "math", "science"];
    for q in queries {
        let list = WordList::parse(q, &read(&format!("queries/{q}.txt"))).unwrap();
        assert_eq!(list.words.len(), 8, "{q}");
    }
    assert_eq!(
        std::fs::read_dir(wordlists_dir().join("queries"))
            .unwrap()
            .count(),
        queries.len()
    );
}

#[test]
fn comments_blank_lines_and_whitespace_are_ignored() {
    let text = "# header\n\n  nurse  \nengineer # inline comment\n\t#indented comment\nc#\n";
    let list = WordList::parse("t", text).unwrap();
    assert_eq!(list.words, ["nurse", "engineer", "c#"]);
    let pairs = PairList::parse("p", "he she # pronouns\n\nman\twoman\n").unwrap();
    assert_eq!(
        pairs.pairs,
        [
            ("he".to_string(), "she".to_string()),
            ("man".to_string(), "woman".to_string())
        ]
    );
}

#[test]
fn out_of_vocabulary_words_and_pairs_are_dropped_and_counted() {
    let vocab_words = ["he", "she", "man", "nurse", "engineer"].map(String::from);
    let vocab = Vocab::new(&vocab_words).unwrap();
    let list = WordList::parse("occ", "nurse\nastronaut\nengineer\nAdjunct_Professor\n").unwrap();
    let r = list.resolve(&vocab).unwrap();
    assert_eq!(r.ids, [3, 4]);
    assert_eq!(r.words, ["nurse", "engineer"]);
    assert_eq!(r.oov, ["astronaut", "Adjunct_Professor"]);
    let pairs = PairList::parse("pairs", "he she\nman woman\nboy girl\n").unwrap();
    let r = pairs.resolve(&vocab).unwrap();
    assert_eq!(r.ids, [(0, 1)]);
    assert_eq!(r.oov.len(), 2);
    assert_eq!(r.oov[0], ("man".to_string(), "woman".to_string()));
    // Matching is exact and case-sensitive, as against the original vocab.txt.
    let upper = WordList::parse("upper", "Nurse\n").unwrap();
    assert_eq!(
        upper.resolve(&vocab).unwrap_err(),
        MeasureError::AllWordsOov {
            list: "upper".into(),
            n_words: 1
        }
    );
}

#[test]
fn malformed_lists_are_refused_with_the_line_number() {
    for (text, expected) in [
        (
            "he she\nman woman men\n",
            "base-pairs: line 2: expected two words 'masculine feminine', found 3: 'man woman men'",
        ),
        (
            "# c\nhe\n",
            "base-pairs: line 2: expected two words 'masculine feminine', found 1: 'he'",
        ),
        (
            "he she\nhe she\n",
            "base-pairs: line 2: the pair 'he she' repeats line 1",
        ),
        (
            "he he\n",
            "base-pairs: line 1: a pair needs two different words, found 'he he'",
        ),
        (
            "# only\n\n",
            "base-pairs: the list is empty (only blank lines and comments)",
        ),
    ] {
        let error: MeasureError = PairList::parse("base-pairs", text).unwrap_err();
        assert_eq!(error.to_string(), expected, "{text:?}");
    }
    assert_eq!(
        WordList::parse("occ16", "nurse\nvice chancellor\n")
            .unwrap_err()
            .to_string(),
        "occ16: line 2: expected one word, found 2: 'vice chancellor'"
    );
    assert_eq!(
        WordList::parse("occ16", "a\nb\na\n").unwrap_err().to_string(),
        "occ16: line 3: 'a' repeats line 1"
    );
}

#[test]
fn all_words_or_pairs_out_of_vocabulary_is_an_error() {
    let vocab_words = ["he", "she"].map(String::from);
    let vocab = Vocab::new(&vocab_words).unwrap();
    let list = WordList::parse("occ18", "nurse\nengineer\n").unwrap();
    assert_eq!(
        list.resolve(&vocab).unwrap_err().to_string(),
        "word list `occ18`: all 2 words are out of vocabulary"
    );
    let pairs = PairList::parse("base-pairs", "man woman\nhe her\n").unwrap();
    assert_eq!(
        pairs.resolve(&vocab).unwrap_err().to_string(),
        "pair list `base-pairs`: all 2 pairs have a word out of vocabulary"
    );
}

#[test]
fn the_neutral_pool_filters_like_gonen_goldberg_and_zhang() {
    let words = [
        "the",
        "he",
        "Paris",
        "1990",
        "well-known",
        "nurse",
        "aaaaaaaaaaaaaaaaaaaa",
        "queen",
        "rare",
    ]
    .map(String::from);
    let pool = neutral_pool(&words, ["he", "queen"], 8);
    // "rare" is beyond the 8 most frequent; the 20-letter word is too long.
    assert_eq!(pool, [0, 5]);
}
