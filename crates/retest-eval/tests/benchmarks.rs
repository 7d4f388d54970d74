//! The readers on the data mirror's real benchmark files, and their error messages.

use retest_eval::{PairFormat, read_analogies, read_analogies_unsectioned, read_pairs};
use retest_test_support::{data_dir, error_line, write_file};

#[test]
fn wordsim353_from_gensim() {
    let pairs = read_pairs(
        &data_dir().join("benchmarks").join("gensim/wordsim353.tsv"),
        PairFormat::GensimTsv,
    )
    .unwrap();
    assert_eq!(pairs.len(), 353);
    assert_eq!(pairs[0], ("love".into(), "sex".into(), 6.77));
    assert_eq!(pairs[352], ("architecture".into(), "century".into(), 3.78));
}

#[test]
fn simlex999_gensim_copy_and_original_agree() {
    let bench = data_dir().join("benchmarks");
    let gensim = read_pairs(&bench.join("gensim/simlex999.txt"), PairFormat::GensimTsv).unwrap();
    let original = read_pairs(
        &bench.join("SimLex-999/SimLex-999.txt"),
        PairFormat::SimLexOriginal,
    )
    .unwrap();
    assert_eq!(gensim.len(), 999);
    assert_eq!(gensim[0], ("old".into(), "new".into(), 1.58));
    assert_eq!(original, gensim);
}

#[test]
fn men_natural_form() {
    let bench = data_dir().join("benchmarks");
    let pairs = read_pairs(&bench.join("MEN/MEN_dataset_natural_form_full"), PairFormat::Men).unwrap();
    assert_eq!(pairs.len(), 3000);
    assert_eq!(pairs[0], ("sun".into(), "sunlight".into(), 50.0));
    assert!(pairs.iter().all(|p| (0.0..=50.0).contains(&p.2)));
}

#[test]
fn eval_word_vectors_tsv_with_crlf() {
    let bench = data_dir().join("benchmarks");
    let pairs = read_pairs(
        &bench.join("eval-word-vectors/EN-WS-353-ALL.txt"),
        PairFormat::Tsv,
    )
    .unwrap();
    assert_eq!(pairs.len(), 353);
    assert!(
        pairs
            .iter()
            .all(|(a, b, _)| !a.ends_with('\r') && !b.ends_with('\r'))
    );
}

#[test]
fn rg65_and_rare_words() {
    let bench = data_dir().join("benchmarks/eval-word-vectors");
    let rg = read_pairs(&bench.join("EN-RG-65.txt"), PairFormat::Tsv).unwrap();
    assert_eq!(rg.len(), 65);
    assert_eq!(rg[0], ("gem".into(), "jewel".into(), 3.94));
    assert_eq!(rg[64], ("chord".into(), "smile".into(), 0.02));
    assert!(rg.iter().all(|p| (0.0..=4.0).contains(&p.2)));
    let rw = read_pairs(&bench.join("EN-RW-STANFORD.txt"), PairFormat::Tsv).unwrap();
    assert_eq!(rw.len(), 2034);
    assert!(rw.iter().all(|p| (0.0..=10.0).contains(&p.2)));
}

#[test]
fn analogies_without_sections() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let path = write_file(d, "msr.txt", "good better rough rougher\n\nyear years law laws\n");
    let set = read_analogies_unsectioned(&path, "msr").unwrap();
    assert_eq!(set.sections.len(), 1);
    assert_eq!(set.sections[0].name, "msr");
    assert_eq!(
        set.sections[0].questions,
        [
            ["good", "better", "rough", "rougher"].map(String::from),
            ["year", "years", "law", "laws"].map(String::from)
        ]
    );
    // Section lines still start sections; an empty leading section is dropped.
    let path = write_file(d, "s.txt", ": adj\ngood better rough rougher\n");
    let set = read_analogies_unsectioned(&path, "msr").unwrap();
    let names: Vec<_> = set.sections.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["adj"]);
    let path = write_file(
        d,
        "m.txt",
        "year years law laws\n: adj\ngood better rough rougher\n",
    );
    let set = read_analogies_unsectioned(&path, "msr").unwrap();
    let names: Vec<_> = set.sections.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["msr", "adj"]);
}

#[test]
fn google_analogies() {
    let set = read_analogies(&data_dir().join("benchmarks").join("gensim/questions-words.txt")).unwrap();
    assert_eq!(set.n_questions(), 19_544);
    let names: Vec<_> = set.sections.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "capital-common-countries",
            "capital-world",
            "currency",
            "city-in-state",
            "family",
            "gram1-adjective-to-adverb",
            "gram2-opposite",
            "gram3-comparative",
            "gram4-superlative",
            "gram5-present-participle",
            "gram6-nationality-adjective",
            "gram7-past-tense",
            "gram8-plural",
            "gram9-plural-verbs",
        ]
    );
    assert_eq!(
        set.sections[0].questions[0],
        ["Athens", "Greece", "Baghdad", "Iraq"].map(String::from)
    );
    assert_eq!(set.sections[0].questions.len(), 506);
}

#[test]
fn malformed_lines_name_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cases = [
        (
            "a.tsv",
            "# comment\nlove\tsex\t6.77\ntiger cat 7.35\n",
            PairFormat::GensimTsv,
            "3: expected `word1<TAB>word2<TAB>score`, found 1 tab-separated fields",
        ),
        (
            "b.tsv",
            "love\tsex\thigh\n",
            PairFormat::Tsv,
            "1: the score `high` of `love`–`sex` is not a number",
        ),
        (
            "c.txt",
            "old\tnew\tA\t1.58\n",
            PairFormat::SimLexOriginal,
            "1: expected the SimLex-999 header `word1<TAB>word2<TAB>POS<TAB>SimLex999…`",
        ),
        (
            "d.txt",
            "word1\tword2\tPOS\tSimLex999\nold\tnew\tA\t1.58\n",
            PairFormat::SimLexOriginal,
            "2: expected 10 tab-separated columns (word1, word2, POS, SimLex999, …), found 4",
        ),
        (
            "e.txt",
            "word1 word2 score\nsun sunlight\n",
            PairFormat::Men,
            "2: expected `word1 word2 score`, found 2 space-separated fields",
        ),
    ];
    for (name, content, format, expected) in cases {
        let path = write_file(d, name, content);
        let err = read_pairs(&path, format).unwrap_err();
        assert_eq!(err.to_string(), format!("{}:{expected}", path.display()));
    }
    let path = write_file(d, "q1.txt", "Athens Greece Baghdad Iraq\n");
    assert_eq!(
        read_analogies(&path).unwrap_err().to_string(),
        format!(
            "{}:1: expected a `: section` line before the first question",
            path.display()
        )
    );
    let path = write_file(d, "q2.txt", ": capitals\nAthens Greece Baghdad\n");
    assert_eq!(
        read_analogies(&path).unwrap_err().to_string(),
        format!("{}:2: expected four words `a b c d`, found 3", path.display())
    );
    let missing = d.join("missing.tsv");
    let err = error_line(&read_pairs(&missing, PairFormat::GensimTsv).unwrap_err());
    assert!(err.starts_with(&format!("{}: ", missing.display())), "{err}");
}
