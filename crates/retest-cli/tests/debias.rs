//! `retest debias` end to end: on a small committed model, hard debiasing with debiaswe's lists
//! (declared, from the data mirror) equals a transcription of debiaswe's `debias`
//! (`data/debias_reference.py`); the same lists as text files give the same vectors; the output
//! records how it was made and is the same bytes every time; bad input gives one line, compared
//! in full.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use retest_test_support::{arg, data_file, stderr, workspace_dir};

/// `retest ARGS` in the workspace, offline, with the data mirror and a cache in `dir`.
fn retest(args: &[&str], dir: &Path) -> Output {
    retest_test_support::run_cached(env!("CARGO_BIN_EXE_retest"), args, dir)
}

fn data(name: &str) -> PathBuf {
    workspace_dir().join("crates/retest-cli/tests/data").join(name)
}

/// `retest debias MODEL EXTRA… --output OUT`, which must succeed; its stderr.
fn debias(dir: &Path, extra: &[&str], out: &Path) -> String {
    let model = data("debias_model.vec");
    let mut args = vec!["debias", arg(&model)];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--output", arg(out)]);
    let done = retest(&args, dir);
    assert!(done.status.success(), "{}", stderr(&done));
    stderr(&done)
}

/// The vectors of a word2vec text file, by word.
fn vectors(path: &Path) -> BTreeMap<String, Vec<f64>> {
    let text = std::fs::read_to_string(path).unwrap();
    (text.lines().skip(1))
        .map(|line| {
            let mut fields = line.split(' ');
            let word = fields.next().unwrap().to_owned();
            (word, fields.map(|x| x.parse().unwrap()).collect())
        })
        .collect()
}

#[test]
fn hard_debiasing_equals_debiaswe() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("hard.vec");
    let log = debias(dir.path(), &[], &out);
    assert_eq!(
        log,
        format!(
            "{}: hard debiasing along the first principal component of 10 definitional pairs (57.9 % of \
             their variance): 22 words neutralised, 39 gender-specific words kept, 20 equalize pairs \
             equalised\nwrote {}\n",
            data("debias_model.vec").display(),
            out.display()
        )
    );
    let (got, want) = (vectors(&out), vectors(&data("debias_reference.vec")));
    assert_eq!(got.keys().collect::<Vec<_>>(), want.keys().collect::<Vec<_>>());
    for (word, want) in &want {
        for (g, w) in got[word].iter().zip(want) {
            assert!((g - w).abs() < 1e-5, "{word}: {g} against {w}");
        }
    }
}

/// debiaswe's JSON lists written as text files (pairs and words one per line) give the same
/// vectors as the declared lists, and the `.fifu` output is the same bytes on a second run,
/// with the lists in its metadata.
#[test]
fn text_lists_give_the_same_vectors_and_the_output_is_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    let json = |name: &str| -> serde_json::Value {
        serde_json::from_str(
            &std::fs::read_to_string(data_file(&format!("word_lists/debiaswe/{name}"))).unwrap(),
        )
        .unwrap()
    };
    let lines = |value: serde_json::Value| -> String {
        let rows = value.as_array().unwrap().iter().map(|entry| match entry {
            serde_json::Value::Array(pair) => {
                format!("{} {}\n", pair[0].as_str().unwrap(), pair[1].as_str().unwrap())
            }
            word => format!("{}\n", word.as_str().unwrap()),
        });
        rows.collect()
    };
    let files = [
        ("definitional.txt", "definitional_pairs.json"),
        ("equalize.txt", "equalize_pairs.json"),
        ("specific.txt", "gender_specific_full.json"),
    ]
    .map(|(txt, source)| {
        let path = dir.path().join(txt);
        std::fs::write(&path, lines(json(source))).unwrap();
        path
    });
    let [definitional, equalize, specific] = files.each_ref().map(|p| arg(p));
    let lists = [
        "--definitional",
        definitional,
        "--equalize",
        equalize,
        "--gender-specific",
        specific,
    ];
    let (declared, text) = (dir.path().join("declared.vec"), dir.path().join("text.vec"));
    debias(dir.path(), &[], &declared);
    debias(dir.path(), &lists, &text);
    assert_eq!(std::fs::read(&declared).unwrap(), std::fs::read(&text).unwrap());

    let (first, second) = (dir.path().join("a.fifu"), dir.path().join("b.fifu"));
    debias(dir.path(), &lists, &first);
    debias(dir.path(), &lists, &second);
    assert_eq!(std::fs::read(&first).unwrap(), std::fs::read(&second).unwrap());
    let model = retest_embeddings::read(&first, None).unwrap();
    let record = model.metadata().unwrap()["debias"].as_table().unwrap();
    assert_eq!(record["method"].as_str(), Some("hard"));
    assert_eq!(record["definitional"]["list"].as_str(), Some(definitional));
    assert_eq!(record["definitional"]["in_vocabulary"].as_integer(), Some(10));
    assert_eq!(record["equalize"]["in_vocabulary"].as_integer(), Some(20));
    assert_eq!(record["gender_specific"]["in_vocabulary"].as_integer(), Some(39));
    assert_eq!(record["n_neutralised"].as_integer(), Some(22));
}

#[test]
fn lists_that_miss_the_vocabulary_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let model = data("debias_model.vec");
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let (one_pair, no_pair, no_word) = (
        write("one.txt", "he she\nzz qq\n"),
        write("none.json", r#"[["zz", "qq"], ["xx", "yy"]]"#),
        write("words.json", r#"["zz", "qq"]"#),
    );
    let (out, existing) = (dir.path().join("out.fifu"), write("existing.vec", "1 1\na 1\n"));
    let shown = model.display();
    let cases: [(&[&str], &Path, String); 6] = [
        (
            &["--definitional", arg(&one_pair)],
            &out,
            format!(
                "error: {shown}: definitional pairs `{}`: 1 of 2 in the vocabulary; the gender direction \
                 needs at least 2\n",
                one_pair.display()
            ),
        ),
        (
            &["--equalize", arg(&no_pair)],
            &out,
            format!(
                "error: {shown}: equalize pairs `{}`: none of the 2 in the vocabulary, lowercased, in title \
                 case or uppercased\n",
                no_pair.display()
            ),
        ),
        (
            &["--gender-specific", arg(&no_word)],
            &out,
            format!(
                "error: {shown}: gender-specific words `{}`: none of the 2 in the vocabulary\n",
                no_word.display()
            ),
        ),
        (
            &["--definitional", "nothere"],
            &out,
            "error: debiasing list `nothere`: no file `nothere.txt` or `nothere.yaml` in the word-list folder \
             wordlists (--wordlists DIR names another)\n"
                .to_owned(),
        ),
        (
            &[],
            &model,
            format!("error: --output {shown}: that is the input file {shown}; choose another output file\n"),
        ),
        (
            &[],
            &existing,
            format!(
                "error: --output {}: the file exists (it holds word2vec-text embeddings); pass --force to \
                 replace it\n",
                existing.display()
            ),
        ),
    ];
    for (extra, output, want) in cases {
        let mut args = vec!["debias", arg(&model)];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--output", arg(output)]);
        let done = retest(&args, dir.path());
        assert!(!done.status.success());
        assert_eq!(stderr(&done), want);
    }
    assert!(!out.exists());
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "1 1\na 1\n");
}
