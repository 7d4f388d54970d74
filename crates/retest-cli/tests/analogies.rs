//! `retest analogies` end to end on the small WikiText-103 model of retest-eval's tests: the
//! table holds `retest_measures::solve`'s answers, a query out of vocabulary gets its own row and
//! warning, and bad input gives one line, compared in full.

use std::path::{Path, PathBuf};
use std::process::Output;

use retest_measures::{AnalogySpace, Constraint, DeltaBound, Query, Solver, solve};
use retest_tables::{AnalogyRow, Table};
use retest_test_support::{arg, output, stderr, workspace_dir, write_file};

/// `retest ARGS` in the workspace.
fn retest(args: &[&str]) -> Output {
    output(retest_test_support::retest(env!("CARGO_BIN_EXE_retest")).args(args))
}

/// The 3,000-word skip-gram model of WikiText-103 valid (word2vec text).
fn model() -> PathBuf {
    workspace_dir().join("crates/retest-eval/tests/data/analogy_wt103_3000.w2v.txt")
}

const QUERIES: &str = "\
# gender queries
man king woman
he father she   # a trailing comment

zzqq king woman
";

/// `solve` on the model for the queries `man king woman` and `he father she`.
fn expected(
    solver: Solver,
    constraint: Constraint,
    top_n: usize,
    restrict: Option<usize>,
) -> Vec<Vec<(String, f64)>> {
    let emb = retest_embeddings::read(&model(), None).unwrap();
    let space = AnalogySpace::new(&emb, restrict).unwrap();
    let row = |w: &str| emb.index(w).unwrap() as u32;
    let queries = [("man", "king", "woman"), ("he", "father", "she")].map(|(a, b, c)| Query {
        a: row(a),
        b: row(b),
        c: row(c),
    });
    solve(&space, &queries, solver, constraint, top_n)
        .unwrap()
        .into_iter()
        .map(|answers| {
            answers
                .into_iter()
                .map(|a| (emb.word(a.row as usize).to_owned(), a.score))
                .collect()
        })
        .collect()
}

/// `retest analogies MODEL --queries FILE ARGS… --out OUT` with `text` as FILE and `OUT` =
/// `dir/<out_name>`: the output, FILE and OUT.
fn analogies(dir: &Path, text: &str, args: &[&str], out_name: &str) -> (Output, PathBuf, PathBuf) {
    let queries = write_file(dir, "queries.txt", text);
    let out_file = dir.join(out_name);
    let m = model();
    let mut all = vec!["analogies", arg(&m), "--queries", arg(&queries)];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--out", arg(&out_file)]);
    (retest(&all), queries, out_file)
}

#[test]
fn analogies_write_the_solvers_answers_and_a_row_per_query_out_of_vocabulary() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--solver", "cosmul", "--top-n", "3"];
    let (out, queries, out_file) = analogies(dir.path(), QUERIES, &args, "analogies.csv");
    assert!(out.status.success(), "{}", stderr(&out));
    let m = model();
    let m = m.display();
    assert_eq!(
        stderr(&out),
        format!(
            "warning: {m}: query `zzqq king woman` ({}:5): zzqq not in the vocabulary; its row has status out_of_vocabulary\n\
             {m}: 2 of 3 queries answered among 3000 words, 1 with a word out of vocabulary\n\
             7 analogy rows → {}\n",
            queries.display(),
            out_file.display()
        )
    );
    let csv = std::fs::read_to_string(&out_file).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some(
            "embedding,a,b,c,solver,constraint,rank,answer,score,status,detail,reported,reported_rank,reported_status"
        )
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 7);
    let cosmul = Solver::CosMul {
        epsilon: Solver::COSMUL_EPSILON,
    };
    let expected = expected(cosmul, Constraint::Constrained, 3, None);
    let queries = [["man", "king", "woman"], ["he", "father", "she"]];
    for (q, (query, answers)) in queries.iter().zip(&expected).enumerate() {
        for (rank, (word, score)) in answers.iter().enumerate() {
            let row = &rows[q * 3 + rank];
            let rank = (rank + 1).to_string();
            assert_eq!(
                &row[..8],
                [
                    m.to_string().as_str(),
                    query[0],
                    query[1],
                    query[2],
                    "cosmul",
                    "constrained",
                    rank.as_str(),
                    word
                ]
            );
            assert!((row[8].parse::<f64>().unwrap() - score).abs() < 1e-12, "{row:?}");
            assert_eq!(&row[9..], ["ok", "\"\"", "\"\"", "0", "\"\""]);
        }
    }
    assert_eq!(
        rows[6],
        [
            m.to_string().as_str(),
            "zzqq",
            "king",
            "woman",
            "cosmul",
            "constrained",
            "0",
            "\"\"",
            "NaN",
            "out_of_vocabulary",
            "zzqq",
            "\"\"",
            "0",
            "\"\""
        ]
    );
}

#[test]
fn bolukbasi_unconstrained_restricted_to_parquet() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--solver",
        "bolukbasi",
        "--unconstrained",
        "--top-n",
        "4",
        "--restrict-vocab",
        "2000",
        "--delta",
        "0.8",
        "--squared-delta",
    ];
    let (out, queries, out_file) = analogies(dir.path(), QUERIES, &args, "analogies.parquet");
    assert!(out.status.success(), "{}", stderr(&out));
    let m = model();
    assert_eq!(
        stderr(&out),
        format!(
            "warning: {0}: query `zzqq king woman` ({1}:5): zzqq not among the first 2000 words; its row has status out_of_vocabulary\n\
             {0}: 2 of 3 queries answered among 2000 words, 1 with a word out of vocabulary\n\
             9 analogy rows → {2}\n",
            m.display(),
            queries.display(),
            out_file.display()
        )
    );
    let rows: Vec<AnalogyRow> = Table::read("analogies", &out_file).unwrap().rows().unwrap();
    let solver = Solver::Bolukbasi {
        delta: 0.8,
        bound: DeltaBound::SquaredDistance,
    };
    let expected = expected(solver, Constraint::Unconstrained, 4, Some(2000));
    let ours: Vec<(String, f64)> = rows[..8].iter().map(|r| (r.answer.clone(), r.score)).collect();
    assert_eq!(ours, expected.concat());
    assert!(
        rows[..8]
            .iter()
            .all(|r| r.solver == "bolukbasi" && r.constraint == "unconstrained")
    );
    assert_eq!((rows[8].status.as_str(), rows[8].rank), ("out_of_vocabulary", 0));
}

/// `retest analogies MODEL --queries FILE ARGS… --out OUT` in a folder with `text` as FILE:
/// the exit code must be 1, the file not written and stderr one line, returned.
fn refused(text: &str, args: &[&str]) -> (String, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let (out, queries, out_file) = analogies(dir.path(), text, args, "out.csv");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(!out_file.exists());
    (stderr(&out), queries, out_file)
}

#[test]
fn bad_input_is_one_line() {
    let m = model().display().to_string();
    let (message, queries, _) = refused(
        "man king woman\n# two words:\nman king\n",
        &["--solver", "cosadd"],
    );
    assert_eq!(
        message,
        format!(
            "error: {}:3: expected three words `a b c` (the query a : b :: c : ?) and optionally the answer a \
             paper reports, found 2: 'man king'\n",
            queries.display()
        )
    );
    let (message, queries, _) = refused("zzqq king woman\nman qqzz woman\n", &["--solver", "cosadd"]);
    assert_eq!(
        message,
        format!(
            "error: {m}: none of the 2 queries of {} has its three words in the vocabulary\n",
            queries.display()
        )
    );
    let (message, _, _) = refused(QUERIES, &["--solver", "cosadd", "--restrict-vocab", "5000"]);
    assert_eq!(
        message,
        format!("error: {m}: --restrict-vocab 5000 is larger than the vocabulary (3000 words)\n")
    );
    for delta in ["-0.5", "0"] {
        let (message, _, _) = refused(QUERIES, &["--solver", "bolukbasi", "--delta", delta]);
        assert_eq!(
            message,
            format!("error: --delta must be a finite number > 0, found {delta}\n")
        );
    }
    let (message, _, _) = refused(QUERIES, &["--solver", "cosadd", "--delta", "0.5"]);
    assert_eq!(
        message,
        "error: --delta and --squared-delta apply to --solver bolukbasi only\n"
    );
    let (message, queries, _) = refused("# nothing\n\n", &["--solver", "cosadd"]);
    assert_eq!(
        message,
        format!(
            "error: {}: no query (expected lines `a b c`)\n",
            queries.display()
        )
    );
}

#[test]
fn the_output_cannot_be_an_input() {
    let dir = tempfile::tempdir().unwrap();
    // The table file is the queries file.
    let (out, queries, _) = analogies(dir.path(), QUERIES, &["--solver", "cosadd"], "queries.txt");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!(
            "error: --out {0}: that is the input file {0}; choose another output file\n",
            queries.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&queries).unwrap(), QUERIES);
}

#[test]
fn a_reported_answer_gets_its_rank_among_the_words_searched() {
    let dir = tempfile::tempdir().unwrap();
    let text = "he father she mother\nman king woman man\nman father woman zzqq\nhe king she\n";
    let args = ["--solver", "cosadd", "--top-n", "3000"];
    let (out, _, out_file) = analogies(dir.path(), text, &args, "analogies.parquet");
    assert!(out.status.success(), "{}", stderr(&out));
    let rows: Vec<AnalogyRow> = Table::read("analogies", &out_file).unwrap().rows().unwrap();
    // Per query `a b c`: its (reported, reported_rank, reported_status), the same on every row
    // of the query, and the rank of the row answering the reported word, if any.
    let of = |query: [&str; 3]| {
        let mine: Vec<&AnalogyRow> = rows.iter().filter(|r| [&r.a, &r.b, &r.c] == query).collect();
        let reported = (
            mine[0].reported.as_str(),
            mine[0].reported_rank,
            mine[0].reported_status.as_str(),
        );
        assert!(
            mine.iter()
                .all(|r| (r.reported.as_str(), r.reported_rank, r.reported_status.as_str()) == reported)
        );
        let answered = mine.iter().find(|r| r.answer == reported.0).map(|r| r.rank);
        (reported, answered)
    };
    let ((word, rank, status), answered) = of(["he", "father", "she"]);
    assert_eq!((word, status), ("mother", "ok"));
    assert!(rank >= 1);
    assert_eq!(Some(rank), answered, "mother ranks where `solve` put it");
    assert_eq!(of(["man", "king", "woman"]), (("man", 0, "excluded"), None));
    assert_eq!(
        of(["man", "father", "woman"]),
        (("zzqq", 0, "out_of_vocabulary"), None)
    );
    assert_eq!(of(["he", "king", "she"]), (("", 0, ""), None));
}
