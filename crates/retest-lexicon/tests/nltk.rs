//! Both features against NLTK 3.8.1 itself, on the data mirror's NLTK packages: the fixture
//! `fixtures/nltk_reference.tsv` (written by `fixtures/make_reference.py`) holds
//! `len(wn.synsets(word))` and the most common universal Brown tag for about 12,000 words.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use retest_lexicon::{Error, Lexicon, ZipArchive};
use retest_test_support::{data_dir, error_line};

fn nltk_data() -> PathBuf {
    data_dir().join("nltk_data")
}

fn lexicon() -> &'static Lexicon {
    static LEXICON: OnceLock<Lexicon> = OnceLock::new();
    LEXICON.get_or_init(|| {
        let nltk = nltk_data();
        Lexicon::load(
            &nltk.join("corpora/wordnet.zip"),
            &nltk.join("corpora/brown.zip"),
            &nltk.join("taggers/universal_tagset.zip"),
        )
        .unwrap()
    })
}

/// (word, n_senses, pos) rows of the fixture.
fn reference() -> Vec<(String, u32, Option<String>)> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/nltk_reference.tsv"),
    )
    .unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("word\tn_senses\tpos"));
    lines
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 3, "{line}");
            let pos = (f[2] != "-").then(|| f[2].to_owned());
            (f[0].to_owned(), f[1].parse().unwrap(), pos)
        })
        .collect()
}

#[test]
fn matches_nltk_on_every_fixture_word() {
    let lexicon = lexicon();
    let rows = reference();
    assert!(rows.len() > 10_000, "{} rows", rows.len());
    let mut wrong = Vec::new();
    for (word, n_senses, pos) in &rows {
        let got = (lexicon.n_senses(word), lexicon.pos(word));
        if got != (*n_senses, pos.as_deref()) {
            wrong.push(format!("{word:?}: NLTK ({n_senses}, {pos:?}), got {got:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} words differ from NLTK:\n{}",
        wrong.len(),
        rows.len(),
        wrong.join("\n")
    );
}

#[test]
fn known_values() {
    let lexicon = lexicon();
    assert_eq!(lexicon.n_senses("bank"), 18);
    assert_eq!(lexicon.n_senses("Women"), 4);
    assert_eq!(lexicon.pos("the"), Some("DET"));
    assert_eq!(lexicon.pos("The"), Some("DET"));
    assert_eq!(lexicon.pos("qwertyuiop"), None);
    // Brown as NLTK reads it: 1,161,192 tokens.
    assert_eq!(lexicon.n_brown_tokens(), 1_161_192);
}

/// A WordNet database folder gives the same counts as NLTK's zip: Debian's `wordnet-base`
/// files when installed, else the zip's files unpacked into a folder.
#[test]
fn wordnet_folder_equals_zip() {
    let nltk = nltk_data();
    let unpacked = tempfile::tempdir().unwrap();
    let debian = Path::new("/usr/share/wordnet");
    let folder = if debian.join("index.noun").is_file() {
        debian.to_owned()
    } else {
        let zip = ZipArchive::parse(std::fs::read(nltk.join("corpora/wordnet.zip")).unwrap()).unwrap();
        for name in zip.names() {
            if let Some(file) = name.strip_prefix("wordnet/").filter(|f| !f.is_empty()) {
                std::fs::write(unpacked.path().join(file), zip.read(name).unwrap().unwrap()).unwrap();
            }
        }
        unpacked.path().to_owned()
    };
    let from_folder = Lexicon::load(
        &folder,
        &nltk.join("corpora/brown.zip"),
        &nltk.join("taggers/universal_tagset.zip"),
    )
    .unwrap();
    assert_eq!(from_folder.n_wordnet_lemmas(), lexicon().n_wordnet_lemmas());
    for (word, n_senses, _) in reference() {
        assert_eq!(
            from_folder.n_senses(&word),
            n_senses,
            "{word} in {}",
            folder.display()
        );
    }
}

#[test]
fn errors_name_the_file_and_what_was_expected() {
    let nltk = nltk_data();
    let brown = nltk.join("corpora/brown.zip");
    let tagset = nltk.join("taggers/universal_tagset.zip");
    let dir = tempfile::tempdir().unwrap();

    let absent = dir.path().join("absent.zip");
    let err = Lexicon::load(&absent, &brown, &tagset).unwrap_err();
    assert!(matches!(err, Error::Io { .. }));
    assert_eq!(err.to_string(), format!("cannot read {}", absent.display()));

    let text = dir.path().join("wordnet.zip");
    std::fs::write(&text, "not a zip archive, just text").unwrap();
    let err = Lexicon::load(&text, &brown, &tagset).unwrap_err();
    assert_eq!(
        error_line(&err),
        format!(
            "{}: no end-of-central-directory record (not a zip archive)",
            text.display()
        )
    );

    // An empty folder: the first file looked for is named.
    let err = Lexicon::load(dir.path(), &brown, &tagset).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: no WordNet index file (looked for index.noun)",
            dir.path().display()
        )
    );

    // The tag map given where Brown is expected: no corpus files.
    let err = Lexicon::load(&nltk.join("corpora/wordnet.zip"), &tagset, &tagset).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: no Brown corpus files (looked for brown/c[a-z][0-9][0-9])",
            tagset.display()
        )
    );
}
