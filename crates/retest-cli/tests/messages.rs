//! What `retest` says to bad input, case by case, compared in full with
//! `tests/messages/cli/<case>.txt` (exit code, stdout when any, stderr). `RETEST_BLESS=1`
//! rewrites the files.

use retest_test_support::{arg, assert_message};

/// One invocation: its arguments (`{tmp}` is the case's temporary folder), the files it finds
/// there and the environment it changes.
struct Case {
    name: &'static str,
    args: Vec<String>,
    files: Vec<(&'static str, &'static str)>,
    env: &'static [(&'static str, &'static str)],
}

fn case(name: &'static str, args: &[&str]) -> Case {
    Case {
        name,
        args: args.iter().map(|&a| a.to_owned()).collect(),
        files: Vec::new(),
        env: &[],
    }
}

/// `retest plan` on the pipeline file `p.yaml` holding `yaml`.
fn plan(name: &'static str, yaml: &'static str) -> Case {
    Case {
        files: vec![("p.yaml", yaml)],
        ..case(name, &["plan", "{tmp}/p.yaml"])
    }
}

/// `retest score` of the words `words` along `he she` on [`ZERO_VECTORS`], NBM with k `nbm_k`.
fn score(name: &'static str, words: &'static str, nbm_k: &str) -> Case {
    let args = [
        "score",
        "{tmp}/e.vec",
        "--pairs",
        "{tmp}/pairs.txt",
        "--words",
        "{tmp}/words.txt",
        "--nbm-k",
        nbm_k,
        "--out",
        "{tmp}/o.csv",
    ];
    Case {
        files: vec![
            ("e.vec", ZERO_VECTORS),
            ("pairs.txt", "he she\n"),
            ("words.txt", words),
        ],
        ..case(name, &args)
    }
}

/// `retest query` of [`ZERO_VECTORS`] on the tests file `t.yaml` holding `tests`, with `flags`.
fn query(name: &'static str, tests: &'static str, flags: &[&str]) -> Case {
    let mut args = vec![
        "query",
        "{tmp}/e.vec",
        "--tests",
        "{tmp}/t.yaml",
        "--out",
        "{tmp}/q.csv",
    ];
    args.extend(flags);
    Case {
        files: vec![("t.yaml", tests), ("e.vec", ZERO_VECTORS)],
        ..case(name, &args)
    }
}

/// A query of two target sets against one attribute set, one of whose words has no vector.
const QUERY_TESTS: &str = "tests:\n  t: {targets: {m: [he], f: [she]}, attributes: {job: [nurse, pad]}}\n  \
                           u: {targets: {m: [he], f: [she]}, attributes: {job: [doctor]}}\n";

/// `retest embeddings info` on the file `e.txt` holding `text`, in `format` when given.
fn embedding_info(name: &'static str, text: &'static str, format: Option<&str>) -> Case {
    let mut args = vec!["embeddings", "info", "{tmp}/e.txt"];
    args.extend(format.map(|f| ["--format", f]).into_iter().flatten());
    Case {
        files: vec![("e.txt", text)],
        ..case(name, &args)
    }
}

/// `retest stats <statistic>` on the CSV file `file` holding `csv`.
fn stats(name: &'static str, statistic: &str, file: &'static str, csv: &'static str) -> Case {
    Case {
        files: vec![(file, csv)],
        ..case(name, &["stats", statistic, &format!("{{tmp}}/{file}")])
    }
}

/// `args` run on the tests file `t.yaml` holding `tests`, beside its sets `s.json` ([`SETS`]),
/// the embedding `e.vec` ([`ZERO_VECTORS`]) and, when given, the lock `checksums.lock` holding
/// `lock` after its header.
fn weat_sets(name: &'static str, tests: &'static str, lock: Option<&str>, args: &[&str]) -> Case {
    let mut files = vec![("t.yaml", tests), ("s.json", SETS), ("e.vec", ZERO_VECTORS)];
    if let Some(lock) = lock {
        let text = format!("{LOCK_HEADER}{lock}");
        files.push(("checksums.lock", Box::leak(text.into_boxed_str())));
    }
    Case {
        files,
        ..case(name, args)
    }
}

/// A JSON file of named sets over the words of [`ZERO_VECTORS`].
const SETS: &str = r#"{"xs": ["he"], "ys": ["she"], "as": ["nurse"], "bs": ["pad"]}"#;

/// A tests file declaring its own sets `s.json` beside it, without checksum or licence.
const OWN_SETS: &str =
    "sets:\n  source: {file: s.json, path: s.json}\ntests:\n  t1: {x: xs, y: ys, a: as, b: bs}\n";

/// `retest weat` of `e.vec` on the tests file `t.yaml`.
const WEAT_OWN_SETS: &[&str] = &[
    "weat",
    "{tmp}/e.vec",
    "--tests",
    "{tmp}/t.yaml",
    "--out",
    "{tmp}/w.csv",
];

/// The first line of a lock file.
const LOCK_HEADER: &str =
    "# SHA-256 of files whose recipe or declaration names none, recorded on first use (retest).\n";

/// A SHA-256 that no file of these cases has.
const WRONG_SHA: &str = "1111111111111111111111111111111111111111111111111111111111111111";

/// A pipeline of two seeds on WikiText-103 valid followed by `rest`.
const PIPELINE: &str = "name: p\nn_seeds: 2\ncorpora:\n  - recipe: wikitext-103-valid\n";

/// word2vec text whose `pad` row is all zeros.
const ZERO_VECTORS: &str = "4 2\nhe 1 0\nshe 0 1\nnurse 0.2 0.9\npad 0 0\n";

fn run(case: &Case) {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path();
    for (name, content) in &case.files {
        let path = tmp.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content.replace("{pipeline}", PIPELINE)).unwrap();
    }
    let args: Vec<String> = case.args.iter().map(|a| a.replace("{tmp}", arg(tmp))).collect();
    let mut command = retest_test_support::retest(env!("CARGO_BIN_EXE_retest"));
    command
        .args(&args)
        .env("RETEST_RESULTS_DIR", tmp.join("results"))
        .env("RETEST_CACHE_DIR", tmp.join("cache"));
    for (key, value) in case.env {
        command.env(key, value.replace("{tmp}", arg(tmp)));
    }
    let out = command.output().unwrap();
    let mut said = format!("[exit {}]\n", out.status.code().unwrap_or(-1));
    if !out.stdout.is_empty() {
        said.push_str(&format!("--- stdout\n{}", String::from_utf8_lossy(&out.stdout)));
    }
    if !out.stderr.is_empty() {
        said.push_str(&format!("--- stderr\n{}", String::from_utf8_lossy(&out.stderr)));
    }
    assert_message(
        env!("CARGO_MANIFEST_DIR"),
        &format!("cli/{}", case.name),
        &said,
        &[(tmp, "[TMP]")],
    );
}

#[test]
fn every_message_is_the_expected_one() {
    let cases = [
        // Pipelines: YAML values, never Rust types; real positions; bounds before any work.
        plan("plan_mapping_expected", "{pipeline}sgns: 5\n"),
        plan("plan_repeated_key", "name: p\nn_seeds: 2\nn_seeds: 3\n"),
        plan(
            "plan_number_too_large",
            "name: p\nn_seeds: 99999999999999999999\n",
        ),
        plan("plan_dim_beyond_bound", "{pipeline}sgns:\n  dim: 4000000000\n"),
        plan(
            "plan_seeds_beyond_bound",
            "name: p\nn_seeds: 100000000\ncorpora:\n  - recipe: wikitext-103-valid\n",
        ),
        plan("plan_syntax_error", "name: p\n  n_seeds: 2\n"),
        plan(
            "plan_unknown_list",
            "{pipeline}measures:\n  target_lists: [occ16, nosuch]\n",
        ),
        plan(
            "plan_unknown_query",
            "{pipeline}measures:\n  queries: [career, nosuch]\n",
        ),
        plan(
            "plan_unknown_base_pairs",
            "{pipeline}base_pairs:\n  pairs: nosuch\n",
        ),
        // Models read from files: one line each, before any work.
        plan(
            "plan_models_glob_matches_nothing",
            "name: p\nmodels:\n  - {name: m, files: \"vectors/*.vec\"}\n",
        ),
        Case {
            files: vec![
                ("p.yaml", "name: p\nmodels:\n  - {name: m, files: \"*.vec\"}\n"),
                ("a.vec", ZERO_VECTORS),
                ("b.vec", "1 3\nhe 1 0 0\n"),
            ],
            ..case("plan_models_of_two_dimensions", &["plan", "{tmp}/p.yaml"])
        },
        case("reliability_one_file", &["reliability", "a.vec"]),
        Case {
            files: vec![("a.vec", ZERO_VECTORS), ("b.vec", ZERO_VECTORS)],
            ..case(
                "reliability_bad_name",
                &["reliability", "{tmp}/a.vec", "{tmp}/b.vec", "--name", "My Study"],
            )
        },
        // Command-line values.
        case(
            "negative_number",
            &[
                "score", "x.fifu", "--pairs", "p", "--words", "w", "--nbm-k", "-1", "--out", "o.csv",
            ],
        ),
        case(
            "negative_count",
            &[
                "weat",
                "x.fifu",
                "--tests",
                "t.yaml",
                "--samples",
                "-3",
                "--out",
                "o.csv",
            ],
        ),
        case("zero_jobs", &["run", "smoke", "--jobs", "0"]),
        query(
            "query_not_a_query_measure",
            QUERY_TESTS,
            &["--measures", "rnd,dbwa"],
        ),
        query("query_holdout_of_one", QUERY_TESTS, &["--rnsb-holdout", "1"]),
        query(
            "query_empty_set_and_shapes",
            QUERY_TESTS,
            &["--measures", "rnd,weat"],
        ),
        // A count that must be positive says so in its range.
        case(
            "zero_answers",
            &[
                "analogies",
                "x.vec",
                "--queries",
                "q",
                "--solver",
                "cosadd",
                "--top-n",
                "0",
                "--out",
                "o.csv",
            ],
        ),
        case(
            "zero_dimensions",
            &["sgns", "--input", "x", "--output", "y", "--dim", "0"],
        ),
        case(
            "one_most_frequent",
            &["base-pairs", "e.vec", "--most-frequent", "1", "--out", "d"],
        ),
        // Counts that size memory have an upper bound.
        case(
            "weat_samples_too_many",
            &[
                "weat",
                "e.vec",
                "--tests",
                "t.yaml",
                "--samples",
                "1000000000000",
                "--out",
                "w.csv",
            ],
        ),
        case(
            "random_samples_too_many",
            &[
                "base-pairs",
                "e.vec",
                "--random-samples",
                "1000000000000",
                "--out",
                "d",
            ],
        ),
        case(
            "unknown_solver",
            &[
                "analogies",
                "x.vec",
                "--queries",
                "q",
                "--solver",
                "3cosadd",
                "--out",
                "o.csv",
            ],
        ),
        case(
            "unknown_format",
            &["embeddings", "export", "x", "--format", "npy", "--output", "y"],
        ),
        case(
            "threads_other_than_one",
            &["sgns", "--input", "x", "--output", "y", "--threads", "4"],
        ),
        // A file's control characters are shown escaped, never sent to the terminal.
        Case {
            files: vec![
                ("e.vec", ZERO_VECTORS),
                ("pairs.txt", "he\u{1b}[31mshe\u{7}\n"),
                ("words.txt", "nurse\n"),
            ],
            ..score("control_characters", "nurse\n", "1")
        },
        // Embedding files.
        case("missing_embedding", &["embeddings", "info", "{tmp}/missing.fifu"]),
        Case {
            files: vec![("junk.bin", "\u{1}\u{2}\u{3}\u{ff}\u{fe}")],
            ..case(
                "unknown_embedding_content",
                &["embeddings", "info", "{tmp}/junk.bin"],
            )
        },
        Case {
            files: vec![("e.txt", "2 2\na 0.1 0.2\nb 0.3 0.4\n")],
            ..case(
                "format_given",
                &["embeddings", "info", "{tmp}/e.txt", "--format", "glove-text"],
            )
        },
        embedding_info("header_of_zero_dimensions", "0 0\n", None),
        embedding_info("header_of_a_negative_count", "-3 5\n", None),
        embedding_info("header_of_zero_dimensions_then_rows", "44 0\nthe 1\n", None),
        embedding_info("byte_order_mark", "\u{feff}2 2\nhe 1 0\nshe 0 1\n", None),
        embedding_info(
            "byte_order_mark_format_given",
            "\u{feff}he 1 0\nshe 0 1\n",
            Some("glove-text"),
        ),
        embedding_info(
            "word2vec_read_as_glove",
            "2 3\nhe 1 0 0\nshe 0 1 0\n",
            Some("glove-text"),
        ),
        score("score_zero_vector", "nurse\npad\n", "1"),
        // Statistics on a CSV.
        stats(
            "stats_other_delimiter",
            "icc",
            "semi.csv",
            "a;b;c\n1;2;3\n4;5;6\n",
        ),
        stats(
            "stats_kappa_not_a_label",
            "kappa",
            "frac.csv",
            "r1,r2\n1,2\n1.5,2\n2,3\n",
        ),
        stats("stats_not_a_number", "alpha", "bad.csv", "r1,r2\n1,2\n1,x\n2,3\n"),
        stats("stats_ragged", "icc", "ragged.csv", "r1,r2\n1,2\n1,2,3\n"),
        // Corpora: where the files were looked for.
        case("corpus_not_found", &["corpus", "prepare", "wikitext-2"]),
        Case {
            env: &[("RETEST_DATA_DIR", "{tmp}/nowhere")],
            ..case("data_dir_missing", &["corpus", "prepare", "wikitext-103-valid"])
        },
        Case {
            files: vec![("file", "")],
            env: &[("RETEST_DATA_DIR", "{tmp}/file")],
            ..case("data_dir_is_a_file", &["corpus", "prepare", "wikitext-103-valid"])
        },
        Case {
            files: vec![(
                "corpora/folder.yaml",
                "name: folder\nreader: {format: wikitext}\nsources:\n  - {file: x.tokens, path: .}\n",
            )],
            ..case(
                "recipe_path_is_a_folder",
                &["corpus", "prepare", "{tmp}/corpora/folder.yaml"],
            )
        },
        // The registry of measures, as `retest measures` prints it.
        case("measures", &["measures"]),
        case("plan_of_a_folder", &["plan", "pipelines"]),
        // `retest score` names the option that cannot work on this vocabulary.
        score("score_nbm_k_beyond_the_vocabulary", "nurse\n", "5000"),
        // `retest base-pairs` names the embedding file and its options, not a pipeline's fields.
        Case {
            files: vec![("e.vec", ZERO_VECTORS)],
            ..case(
                "base_pairs_too_few_pairs",
                &["base-pairs", "{tmp}/e.vec", "--out", "{tmp}/bp"],
            )
        },
        // Status advice fits the executor of the run.
        case("status_local", &["status", "smoke"]),
        Case {
            files: vec![("results/smoke/slurm/train.sbatch", "")],
            ..case("status_slurm", &["status", "smoke"])
        },
        // Declared files of one's own: the lock beside the tests file, and how to refresh it.
        weat_sets(
            "weat_sets_recorded_mismatch",
            OWN_SETS,
            Some(&format!("{WRONG_SHA}  t/s.json\n")),
            WEAT_OWN_SETS,
        ),
        weat_sets(
            "weat_sets_found_by_name_without_licence",
            "sets:\n  description: d\n  source: {file: s.json}\ntests:\n  t1: {x: xs, y: ys, a: as, b: bs}\n",
            None,
            WEAT_OWN_SETS,
        ),
        weat_sets(
            "weat_sets_outside_without_description",
            "sets:\n  source: {file: s.json, path: ../s.json}\ntests:\n  t1: {x: xs, y: ys, a: as, b: bs}\n",
            None,
            WEAT_OWN_SETS,
        ),
        weat_sets(
            "lock_refresh",
            OWN_SETS,
            Some(&format!("{WRONG_SHA}  t/s.json\n")),
            &["lock", "--refresh", "{tmp}/t.yaml"],
        ),
        weat_sets("lock_first_use", OWN_SETS, None, &["lock", "{tmp}/t.yaml"]),
        weat_sets(
            "lock_recorded_mismatch",
            OWN_SETS,
            Some(&format!("{WRONG_SHA}  t/s.json\n")),
            &["lock", "{tmp}/t.yaml"],
        ),
        weat_sets(
            "lock_refresh_published_mismatch",
            "sets:\n  source:\n    file: s.json\n    path: s.json\n    sha256: \
             0000000000000000000000000000000000000000000000000000000000000000\n\
             tests:\n  t1: {x: xs, y: ys, a: as, b: bs}\n",
            None,
            &["lock", "--refresh", "{tmp}/t.yaml"],
        ),
        weat_sets(
            "lock_tests_without_sets",
            "tests:\n  t1: {x: [he], y: [she], a: [nurse], b: [pad]}\n",
            None,
            &["lock", "{tmp}/t.yaml"],
        ),
        weat_sets(
            "lock_not_a_declaring_file",
            "name: p\nn_seeds: 2\n",
            None,
            &["lock", "{tmp}/t.yaml"],
        ),
    ];
    for case in &cases {
        run(case);
    }
}
