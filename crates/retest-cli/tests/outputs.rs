//! What the commands write where the user says: never over an input, in the format the name
//! says, over a file of another kind only with `--force`, and with one permission policy for
//! every file and folder. Each refusal is one line, compared in full, and leaves the files as
//! they were.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use retest_test_support::{arg, checked_stderr, hermetic, output, workspace_dir, write_file};

/// Runs `retest` in `dir` (results under `dir/results`).
fn retest(args: &[&str], dir: &Path) -> Output {
    output(
        retest_test_support::retest(env!("CARGO_BIN_EXE_retest"))
            .current_dir(dir)
            .args(args)
            .env("RETEST_RESULTS_DIR", dir.join("results")),
    )
}

/// A folder with a `.fifu` model `m.fifu` (with training metadata), a pairs file and a words
/// file; `m.fifu`'s bytes.
fn folder() -> (tempfile::TempDir, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(
        root.join("v.txt"),
        "4 3\nhe 1 0.5 0\nshe 0.9 0.6 0.1\nnurse 0.2 1 0\nengineer 0.1 1 0.2\n",
    )
    .unwrap();
    let out = retest(&["embeddings", "export", "v.txt", "--output", "m.fifu"], root);
    assert!(out.status.success(), "{}", checked_stderr(&out));
    std::fs::write(root.join("pairs.txt"), "he she\n").unwrap();
    std::fs::write(root.join("words.txt"), "nurse\nengineer\n").unwrap();
    let bytes = std::fs::read(root.join("m.fifu")).unwrap();
    (dir, bytes)
}

/// `retest score` of [`folder`]'s model, pairs and words (DB/WA and RIPA) into `out`.
fn score(root: &Path, out: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "score",
        "m.fifu",
        "--rules",
        "dbwa,ripa",
        "--pairs",
        "pairs.txt",
        "--words",
        "words.txt",
        "--out",
        out,
    ];
    args.extend(extra);
    retest(&args, root)
}

#[test]
fn score_refuses_to_write_over_its_embedding_and_leaves_it_intact() {
    let (dir, fifu) = folder();
    let root = dir.path();
    let score = |out: &str, extra: &[&str]| score(root, out, extra);
    for extra in [&[][..], &["--force"]] {
        let out = score("m.fifu", extra);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(
            checked_stderr(&out),
            "error: --out m.fifu: that is the input file m.fifu; choose another output file\n"
        );
    }
    let out = score("./words.txt", &[]);
    assert_eq!(
        checked_stderr(&out),
        "error: --out ./words.txt: that is the input file words.txt; choose another output file\n"
    );
    assert_eq!(std::fs::read(root.join("m.fifu")).unwrap(), fifu);
    assert_eq!(
        std::fs::read_to_string(root.join("words.txt")).unwrap(),
        "nurse\nengineer\n"
    );
}

#[test]
fn export_refuses_to_write_over_its_input_and_leaves_it_intact() {
    let (dir, fifu) = folder();
    let root = dir.path();
    for extra in [&[][..], &["--force"]] {
        let mut args = vec![
            "embeddings",
            "export",
            "m.fifu",
            "--format",
            "word2vec-text",
            "--output",
            "m.fifu",
        ];
        args.extend(extra);
        let out = retest(&args, root);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(
            checked_stderr(&out),
            "error: --output m.fifu: that is the input file m.fifu; choose another output file\n"
        );
    }
    assert_eq!(std::fs::read(root.join("m.fifu")).unwrap(), fifu);
    let info = retest(&["embeddings", "info", "m.fifu"], root);
    assert!(info.status.success(), "{}", checked_stderr(&info));
}

#[test]
fn a_table_is_parquet_or_csv_as_its_name_says() {
    let (dir, _) = folder();
    let root = dir.path();
    let score = |out: &str, extra: &[&str]| score(root, out, extra);
    let out = score("scores.txt", &[]);
    assert_eq!(
        checked_stderr(&out),
        "error: --out scores.txt: the format follows the file name: end it in .parquet or .csv\n"
    );
    assert!(!root.join("scores.txt").exists());
    for (name, magic) in [("s.csv", &b"embedding,rule,"[..]), ("s.parquet", b"PAR1")] {
        let out = score(name, &[]);
        assert!(out.status.success(), "{}", checked_stderr(&out));
        assert!(
            std::fs::read(root.join(name)).unwrap().starts_with(magic),
            "{name}"
        );
        // A table replaces a table of its format.
        let again = score(name, &[]);
        assert!(again.status.success(), "{}", checked_stderr(&again));
    }
    // Not a file of another kind, unless forced.
    std::fs::copy(root.join("m.fifu"), root.join("model.csv")).unwrap();
    let fifu = std::fs::read(root.join("model.csv")).unwrap();
    for command in ["score", "direct-bias"] {
        let out = retest(
            &[
                command,
                "m.fifu",
                "--pairs",
                "pairs.txt",
                "--words",
                "words.txt",
                "--out",
                "model.csv",
            ],
            root,
        );
        assert_eq!(
            checked_stderr(&out),
            "error: --out model.csv: the file there holds fifu embeddings, not a CSV table; pass --force to \
             replace it\n",
            "{command}"
        );
    }
    assert_eq!(std::fs::read(root.join("model.csv")).unwrap(), fifu);
    let out = score("model.csv", &["--force"]);
    assert!(out.status.success(), "{}", checked_stderr(&out));
    assert!(
        std::fs::read(root.join("model.csv"))
            .unwrap()
            .starts_with(b"embedding,rule,")
    );
    // weat and analogies check the same way, before reading anything.
    std::fs::write(root.join("q.txt"), "he she nurse\n").unwrap();
    std::fs::write(
        root.join("t.yaml"),
        "tests: {t: {x: [he], y: [she], a: [nurse], b: [engineer]}}\n",
    )
    .unwrap();
    for args in [
        &["weat", "m.fifu", "--tests", "t.yaml", "--out", "w.tsv"][..],
        &[
            "analogies",
            "m.fifu",
            "--queries",
            "q.txt",
            "--solver",
            "cosadd",
            "--out",
            "w.tsv",
        ],
    ] {
        assert_eq!(
            checked_stderr(&retest(args, root)),
            "error: --out w.tsv: the format follows the file name: end it in .parquet or .csv\n"
        );
    }
}

#[test]
fn an_embedding_file_is_named_for_its_format_and_replaced_only_with_force() {
    let (dir, fifu) = folder();
    let root = dir.path();
    let export = |output: &str, extra: &[&str]| {
        let mut args = vec!["embeddings", "export", "m.fifu", "--output", output];
        args.extend(extra);
        retest(&args, root)
    };
    let cases: [(&str, &[&str], &str); 3] = [
        (
            "m.npy",
            &[],
            "error: --output m.npy: the format follows the file name: end it in .fifu (fifu), .txt or .vec \
             (word2vec-text), .bin (word2vec-binary), .txt (glove-text)\n",
        ),
        (
            "m.txt",
            &[],
            "error: --output m.txt: a .txt file may be word2vec-text or glove-text; pass --format\n",
        ),
        (
            "m.bin",
            &["--format", "glove-text"],
            "error: --output m.bin: --format glove-text needs a file name ending in .txt\n",
        ),
    ];
    for (output, extra, expected) in cases {
        let out = export(output, extra);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(checked_stderr(&out), expected);
        assert!(!root.join(output).exists());
    }
    for (output, extra, head) in [
        ("w.vec", &[][..], &b"4 3\nhe "[..]),
        ("g.txt", &["--format", "glove-text"], b"he "),
        ("w.bin", &[], b"4 3\nhe "),
        ("copy.fifu", &[], b"FiFu"),
    ] {
        let out = export(output, extra);
        assert!(out.status.success(), "{output}: {}", checked_stderr(&out));
        assert!(
            std::fs::read(root.join(output)).unwrap().starts_with(head),
            "{output}"
        );
    }
    // An existing file stays unless forced, whatever it holds.
    let before = std::fs::read(root.join("w.vec")).unwrap();
    let out = export("w.vec", &[]);
    assert_eq!(
        checked_stderr(&out),
        "error: --output w.vec: the file exists (it holds word2vec-text embeddings); pass --force to replace it\n"
    );
    assert_eq!(std::fs::read(root.join("w.vec")).unwrap(), before);
    std::fs::write(root.join("notes.txt"), "my notes\n").unwrap();
    let out = export("notes.txt", &["--format", "word2vec-text"]);
    assert_eq!(
        checked_stderr(&out),
        "error: --output notes.txt: the file exists (it holds text); pass --force to replace it\n"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("notes.txt")).unwrap(),
        "my notes\n"
    );
    let out = export("notes.txt", &["--format", "word2vec-text", "--force"]);
    assert!(out.status.success(), "{}", checked_stderr(&out));
    assert_eq!(std::fs::read(root.join("notes.txt")).unwrap(), before);
    assert_eq!(std::fs::read(root.join("m.fifu")).unwrap(), fifu);
}

#[test]
fn the_trainers_check_their_output_before_training() {
    let (dir, _) = folder();
    let root = dir.path();
    std::fs::write(root.join("train.txt"), "a b c a b c\n").unwrap();
    for command in ["sgns", "glove"] {
        let cases: [(&[&str], String); 3] = [
            (
                &["--output", "train.txt"],
                "error: --output train.txt: that is the input file train.txt; choose another output file\n".into(),
            ),
            (
                &["--output", "model.txt"],
                "error: --output model.txt: a .txt file may be word2vec-text or glove-text; pass --format\n".into(),
            ),
            (
                &["--output", "m.fifu"],
                "error: --output m.fifu: the file exists (it holds fifu embeddings); pass --force to replace it\n"
                    .into(),
            ),
        ];
        for (extra, expected) in cases {
            let mut args = vec![command, "--input", "train.txt"];
            args.extend(extra);
            let out = retest(&args, root);
            assert_eq!(checked_stderr(&out), expected, "{command}");
        }
    }
    assert_eq!(
        std::fs::read_to_string(root.join("train.txt")).unwrap(),
        "a b c a b c\n"
    );
}

#[test]
fn the_report_goes_into_a_new_empty_or_report_folder() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("tables")).unwrap();
    std::fs::create_dir_all(root.join("mine")).unwrap();
    std::fs::write(root.join("mine/index.html"), "<p>my page</p>\n").unwrap();
    let cases = [
        (
            "tables",
            "error: --out tables: that is the tables folder tables; write the report into another folder\n",
        ),
        (
            "mine",
            "error: --out mine: the folder holds other files and no report; name a new or empty folder\n",
        ),
        (
            "mine/index.html",
            "error: --out mine/index.html: that is a file; name a folder for the report\n",
        ),
    ];
    for (out, expected) in cases {
        let run = retest(&["report", "p", "--tables", "tables", "--out", out], root);
        assert_eq!(checked_stderr(&run), expected);
    }
    assert_eq!(
        std::fs::read_to_string(root.join("mine/index.html")).unwrap(),
        "<p>my page</p>\n"
    );
}

#[test]
fn zero_jobs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["run", "train", "measure"] {
        let out = retest(&[command, "smoke", "--jobs", "0"], dir.path());
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            checked_stderr(&out),
            "error: invalid value '0' for '--jobs <N>': 0 jobs would run nothing: give 1 or more, or leave \
             --jobs out to use all cores\n\nFor more information, try '--help'.\n",
            "{command}"
        );
    }
}

/// Every file and folder under `dir` with its permission bits, relative to `dir`.
fn modes(dir: &Path) -> Vec<(PathBuf, bool, u32)> {
    use std::os::unix::fs::PermissionsExt;
    let mut found = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            let metadata = std::fs::symlink_metadata(&path).unwrap();
            if metadata.is_dir() {
                stack.push(path.clone());
            }
            let relative = path.strip_prefix(dir).unwrap().to_owned();
            found.push((
                relative,
                metadata.is_dir(),
                metadata.permissions().mode() & 0o7777,
            ));
        }
    }
    found.sort();
    found
}

/// Runs `retest` under umask 027 through the shell.
fn retest_umask_027(args: &[&str], dir: &Path) -> Output {
    hermetic(Command::new("sh").args([
        "-c",
        "umask 027 && exec \"$0\" \"$@\"",
        env!("CARGO_BIN_EXE_retest"),
    ]))
    .args(args)
    .env("RETEST_RESULTS_DIR", dir.join("results"))
    .env("RETEST_CACHE_DIR", dir.join("cache"))
    .output()
    .unwrap()
}

#[test]
fn every_output_file_and_folder_gets_the_permissions_of_the_umask() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let pipeline = write_file(
        root,
        "modes.yaml",
        "name: modes\nn_seeds: 2\ncorpora:\n  - recipe: wikitext-103-valid\n    max_tokens: 400000\n\
         algorithms: [sgns, glove]\nsgns: {dim: 10, epochs: 1}\nglove: {dim: 10, iterations: 2}\n\
         measures: {target_lists: [occ16]}\n",
    );
    let run = retest_umask_027(&["run", arg(&pipeline)], root);
    assert!(run.status.success(), "{}", checked_stderr(&run));
    let results = root.join("results");
    let seed = modes(&results)
        .into_iter()
        .find(|(p, ..)| p.extension().is_some_and(|e| e == "fifu"))
        .map(|(p, ..)| results.join(p))
        .unwrap();
    // The folder is the test's; the files in it are retest's.
    let out = root.join("files");
    std::fs::create_dir(&out).unwrap();
    let (model, scores, vec) = (out.join("m.bin"), out.join("s.csv"), out.join("seed.vec"));
    let words = workspace_dir().join("wordlists/du2021/occ16.txt");
    let pairs = workspace_dir().join("wordlists/du2021/base-pairs.txt");
    let commands: [Vec<&str>; 3] = [
        vec![
            "sgns",
            "--input",
            arg(&words),
            "--min-count",
            "1",
            "--dim",
            "10",
            "--epochs",
            "1",
            "--output",
            arg(&model),
        ],
        vec![
            "score",
            arg(&seed),
            "--rules",
            "dbwa",
            "--pairs",
            arg(&pairs),
            "--words",
            arg(&words),
            "--out",
            arg(&scores),
        ],
        vec!["embeddings", "export", arg(&seed), "--output", arg(&vec)],
    ];
    for args in commands {
        let run = retest_umask_027(&args, root);
        assert!(run.status.success(), "{args:?}: {}", checked_stderr(&run));
    }
    let mut found = modes(&results);
    found.extend(modes(&out));
    for kind in [
        "cooccurrence-window",
        ".fifu",
        "corpus.bin",
        "tables/test_retest_words.parquet",
        "report/report.md",
        "manifest.json",
        "m.bin",
        "s.csv",
        "seed.vec",
    ] {
        assert!(
            found.iter().any(|(p, ..)| p.to_string_lossy().contains(kind)),
            "{kind} in {found:?}"
        );
    }
    let wrong: Vec<_> = found
        .iter()
        .filter(|(_, is_dir, mode)| *mode != if *is_dir { 0o750 } else { 0o640 })
        .collect();
    assert!(wrong.is_empty(), "not 0640 files and 0750 folders: {wrong:?}");
}
