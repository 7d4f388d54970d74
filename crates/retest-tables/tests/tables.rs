use std::fmt::Debug;
use std::path::Path;

use polars::prelude::*;
use retest_tables::{
    AlphaRow, BiasTensor, ColumnDef, ColumnType, CorrelationRow, CoverageRow, IccRow, IccStats,
    RegressionRow, Row, RowReader, RowWriter, ScoreRow, ShareRow, Subject, SubjectKind, Table,
    WordPropertyRow, bias_scores_table,
};

fn stats(icc: f64) -> IccStats {
    IccStats {
        icc,
        f_stat: 3.0,
        df1: 22.0,
        df2: 682.0,
        p_value: 1e-5,
        ci_low: icc - 0.1,
        ci_high: icc + 0.1,
        n_subjects: 23,
        n_raters: 32,
        n_dropped: 0,
        status: "ok".into(),
    }
}

fn row(subject: Subject, icc: f64) -> IccRow {
    IccRow {
        corpus: "wikitext-103".into(),
        algorithm: "sgns".into(),
        rule: "dbwa".into(),
        scale: "raw".into(),
        list: "occ16".into(),
        subject,
        stats: stats(icc),
    }
}

#[test]
fn icc_tables_have_subject_columns_by_kind_and_csv_is_exact() {
    let words = [
        row(Subject::Word("nurse".into()), 0.75),
        row(Subject::Word("doctor".into()), f64::NAN),
    ];
    let mut t = Table::from_rows_in("test_retest_words", SubjectKind::Word, &words).unwrap();
    let cols = t.columns();
    assert_eq!(
        &cols[..6],
        ["corpus", "algorithm", "rule", "scale", "list", "word"]
    );
    assert_eq!(cols.last().unwrap(), "status");
    let dir = tempfile::tempdir().unwrap();
    t.write(dir.path(), true).unwrap();
    let csv = std::fs::read_to_string(dir.path().join("test_retest_words.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(
        lines[1].starts_with("wikitext-103,sgns,dbwa,raw,occ16,nurse,0.75,"),
        "{}",
        lines[1]
    );
    assert!(lines[2].contains(",doctor,NaN,"), "{}", lines[2]);

    let pairs = [row(
        Subject::Pair {
            male: "he".into(),
            female: "she".into(),
        },
        0.5,
    )];
    let t = Table::from_rows_in("test_retest_pairs", SubjectKind::Pair, &pairs).unwrap();
    assert_eq!(&t.columns()[5..7], ["male", "female"]);
    let err = Table::from_rows_in("test_retest_pairs", SubjectKind::Pair, &words).unwrap_err();
    assert_eq!(
        err.to_string(),
        "table `test_retest_pairs`: row 0 is not about a Pair"
    );
}

#[test]
fn bias_tensor_is_long_form_in_axis_order_and_bytes_are_reproducible() {
    let pairs = vec![
        ("he".to_string(), "she".to_string()),
        ("man".to_string(), "woman".to_string()),
    ];
    let words = vec!["nurse".to_string()];
    let values: Vec<f32> = (0..2 * 2 * 3).map(|i| i as f32 / 10.0).collect();
    let tensor = BiasTensor {
        corpus: "c",
        algorithm: "glove",
        rules: &["dbwa", "nbm"],
        pairs: &pairs,
        words: &words,
        seeds: &[0, 1, 2],
        values: &values,
    };
    let write = |dir: &Path| {
        let mut t = bias_scores_table("bias_scores", &[tensor]).unwrap();
        assert_eq!(t.height(), 12);
        t.write(dir, true).unwrap();
        std::fs::read(dir.join("bias_scores.parquet")).unwrap()
    };
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    assert_eq!(write(a.path()), write(b.path()));
    let csv = std::fs::read_to_string(a.path().join("bias_scores.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "corpus,algorithm,rule,male,female,word,seed,score");
    assert_eq!(lines[4], "c,glove,dbwa,man,woman,nurse,0,0.3");
    assert_eq!(lines[12], "c,glove,nbm,man,woman,nurse,2,1.1");

    let short = BiasTensor {
        values: &values[1..],
        ..tensor
    };
    let err = bias_scores_table("bias_scores", &[short]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "table `bias_scores`: c glove: 11 values for 2 rules × 2 pairs × 1 words × 3 seeds"
    );
}

/// Writes `rows` as table `name` (Parquet and CSV), reads the Parquet file back and checks the
/// rows, the column names and types, and the CSV header against what `R` states.
fn assert_round_trip<R: Row + PartialEq + Debug>(name: &'static str, layout: R::Layout, rows: &[R]) {
    let dir = tempfile::tempdir().unwrap();
    let mut table = Table::from_rows_in(name, layout, rows).unwrap();
    table.write(dir.path(), true).unwrap();
    let read = Table::read(name, &dir.path().join(format!("{name}.parquet"))).unwrap();
    assert_eq!(read.rows::<R>().unwrap(), rows, "{name}");
    let stated = R::columns(layout);
    let names: Vec<&str> = stated.iter().map(|c| c.name).collect();
    assert_eq!(read.columns(), names, "{name}");
    let csv = std::fs::read_to_string(dir.path().join(format!("{name}.csv"))).unwrap();
    assert_eq!(csv.lines().next().unwrap(), names.join(","), "{name}");
    let frame = ParquetReader::new(std::fs::File::open(dir.path().join(format!("{name}.parquet"))).unwrap())
        .finish()
        .unwrap();
    let types: Vec<String> = frame.columns().iter().map(|c| c.dtype().to_string()).collect();
    let expected: Vec<&str> = stated.iter().map(|c| c.kind.as_str()).collect();
    assert_eq!(types, expected, "{name}");
    // Two copies concatenated read back as the rows twice.
    let twice = Table::concat(name, &[read.clone(), read]).unwrap();
    let doubled: Vec<&R> = rows.iter().chain(rows).collect();
    assert_eq!(
        twice.rows::<R>().unwrap().iter().collect::<Vec<_>>(),
        doubled,
        "{name}"
    );
}

/// Text that CSV must quote, and text that is not ASCII.
const AWKWARD: &str = "a,\"b\"\nc ü";

#[test]
fn every_table_round_trips_through_parquet() {
    let words: Vec<IccRow> = ["nurse", AWKWARD, ""]
        .iter()
        .enumerate()
        .map(|(i, w)| row(Subject::Word((*w).into()), 0.25 * i as f64))
        .collect();
    assert_round_trip("test_retest_words", SubjectKind::Word, &words);
    let pairs = [
        row(
            Subject::Pair {
                male: "he".into(),
                female: "she".into(),
            },
            -0.5,
        ),
        row(
            Subject::Pair {
                male: AWKWARD.into(),
                female: String::new(),
            },
            1.0,
        ),
    ];
    assert_round_trip("inter_rater_pairs", SubjectKind::Pair, &pairs);
    assert_round_trip::<IccRow>("test_retest_pairs", SubjectKind::Pair, &[]);

    let alpha = AlphaRow {
        corpus: "c".into(),
        algorithm: "sgns".into(),
        rule: "ripa".into(),
        query: AWKWARD.into(),
        items: "query_words".into(),
        alpha: 0.8,
        ci_low: 0.7,
        ci_high: 0.9,
        n_items: 12,
        n_cases: 23,
        n_dropped: 1,
        status: "ok".into(),
    };
    assert_round_trip("internal_consistency", (), &[alpha]);
    let correlation = CorrelationRow {
        corpus: "c".into(),
        algorithm: "glove".into(),
        list: "occ16".into(),
        rule_a: "dbwa".into(),
        rule_b: "nbm".into(),
        r: -0.125,
        p_value: 1e-300,
        n_cells: u64::MAX,
        status: "ok".into(),
    };
    assert_round_trip("rule_correlations", (), &[correlation]);
    let share = ShareRow {
        corpus: "c".into(),
        algorithm: "sgns".into(),
        analysis: "inter_rater".into(),
        rule: "dbwa+ripa+nbm".into(),
        scale: "zscore".into(),
        list: "adj".into(),
        subject: "word".into(),
        threshold: 0.5,
        n_rated: 10,
        n_below: 4,
        share_below: 0.4,
        n_undefined: u32::MAX,
    };
    assert_round_trip("low_reliability", (), &[share]);
    let coverage = CoverageRow {
        corpus: "c".into(),
        list: "base_pairs".into(),
        kind: "base_pairs".into(),
        n_listed: 23,
        n_in_vocabulary: 21,
        n_dropped: 2,
        dropped: "guy:gal john:mary".into(),
    };
    assert_round_trip("coverage", (), &[coverage]);
    let property = WordPropertyRow {
        corpus: "c".into(),
        algorithm: "glove".into(),
        word: "nurse".into(),
        frequency: 1 << 40,
        nn_sim: 0.5,
        l2_norm: 3.25,
        es: -0.0,
    };
    assert_round_trip("word_properties", (), &[property]);
    let regression = RegressionRow {
        analysis: "test_retest".into(),
        corpus: "c".into(),
        algorithm: "sgns".into(),
        metric: "nbm".into(),
        scale: "raw".into(),
        word: "nurse".into(),
        score: 0.3,
        frequency: 512,
        log_freq: 512f64.ln(),
        log_freq_sq: 512f64.ln().powi(2),
        n_senses: 2,
        log_senses: 2f64.ln(),
        pos: "NOUN".into(),
        nn_sim: 0.6,
        l2_norm: 4.0,
        es: 0.9,
    };
    assert_round_trip("regression", (), std::slice::from_ref(&regression));
    let score = ScoreRow {
        embedding: "model.fifu".into(),
        rule: "dbwa".into(),
        male: "he".into(),
        female: "she".into(),
        word: AWKWARD.into(),
        score: f64::MAX,
        status: "ok".into(),
    };
    assert_round_trip("scores", (), std::slice::from_ref(&score));
}

#[test]
fn nan_and_infinite_values_round_trip() {
    let mut nan = row(Subject::Word("doctor".into()), f64::NAN);
    nan.stats.ci_low = f64::NEG_INFINITY;
    nan.stats.status = "zero_variance".into();
    let t = Table::from_rows_in("test_retest_words", SubjectKind::Word, &[nan]).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.parquet");
    t.clone().write_file(&path).unwrap();
    let back = Table::read("test_retest_words", &path)
        .unwrap()
        .rows::<IccRow>()
        .unwrap();
    assert!(back[0].stats.icc.is_nan());
    assert_eq!(back[0].stats.ci_low, f64::NEG_INFINITY);
    assert_eq!(back[0].stats.status, "zero_variance");
}

/// Writes `frame` as `<dir>/coverage.parquet` and reads it back as table `coverage`.
fn coverage_file(dir: &Path, mut frame: DataFrame) -> Table {
    let path = dir.join("coverage.parquet");
    ParquetWriter::new(std::fs::File::create(&path).unwrap())
        .finish(&mut frame)
        .unwrap();
    Table::read("coverage", &path).unwrap()
}

#[test]
fn a_missing_or_wrongly_typed_column_is_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let str_column = |name: &str| Column::new(name.into(), ["x"]);
    let u32_column = |name: &str| Column::new(name.into(), [1u32]);
    let complete = || {
        vec![
            str_column("corpus"),
            str_column("list"),
            str_column("kind"),
            u32_column("n_listed"),
            u32_column("n_in_vocabulary"),
            u32_column("n_dropped"),
            str_column("dropped"),
        ]
    };
    let mut missing = complete();
    missing.remove(4);
    let table = coverage_file(dir.path(), DataFrame::new_infer_height(missing).unwrap());
    let err = table.rows::<CoverageRow>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "table `coverage`: no column `n_in_vocabulary` (u32)"
    );

    let mut wrong = complete();
    wrong[3] = str_column("n_listed");
    let table = coverage_file(dir.path(), DataFrame::new_infer_height(wrong).unwrap());
    let err = table.rows::<CoverageRow>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "table `coverage`: column `n_listed` is str, expected u32"
    );

    let mut wider = complete();
    wider[5] = Column::new("n_dropped".into(), [1u64]);
    let table = coverage_file(dir.path(), DataFrame::new_infer_height(wider).unwrap());
    let err = table.rows::<CoverageRow>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "table `coverage`: column `n_dropped` is u64, expected u32"
    );

    // A table read as rows of another type: the first column that type states and the file lacks.
    let words = [row(Subject::Word("nurse".into()), 0.5)];
    let mut t = Table::from_rows_in("test_retest_words", SubjectKind::Word, &words).unwrap();
    t.write(dir.path(), false).unwrap();
    let read = Table::read("alpha", &dir.path().join("test_retest_words.parquet")).unwrap();
    assert_eq!(
        read.rows::<AlphaRow>().unwrap_err().to_string(),
        "table `alpha`: no column `query` (str)"
    );

    // The error names the file; its source says why.
    let unreadable = Table::read("coverage", &dir.path().join("absent.parquet")).unwrap_err();
    assert_eq!(
        unreadable.to_string(),
        dir.path().join("absent.parquet").display().to_string()
    );
    assert_eq!(
        std::error::Error::source(&unreadable).map(ToString::to_string),
        Some("No such file or directory (os error 2)".to_owned())
    );
}

#[test]
fn concatenating_tables_with_other_columns_is_one_clear_line() {
    let coverage = CoverageRow {
        corpus: "c".into(),
        list: "occ16".into(),
        kind: "target_words".into(),
        n_listed: 2,
        n_in_vocabulary: 2,
        n_dropped: 0,
        dropped: String::new(),
    };
    let a = Table::from_rows("coverage", std::slice::from_ref(&coverage)).unwrap();
    let b = Table::from_rows("coverage", &[coverage]).unwrap();
    let words = Table::from_rows_in::<IccRow>("test_retest_words", SubjectKind::Word, &[]).unwrap();
    let err = Table::concat("coverage", &[a.clone(), b, words]).unwrap_err();
    let first = "corpus: str, list: str, kind: str, n_listed: u32, n_in_vocabulary: u32, \
                 n_dropped: u32, dropped: str";
    let third = "corpus: str, algorithm: str, rule: str, scale: str, list: str, word: str, icc: f64, \
                 f_stat: f64, df1: f64, df2: f64, p_value: f64, ci_low: f64, ci_high: f64, \
                 n_subjects: u32, n_raters: u32, n_dropped: u32, status: str";
    assert_eq!(
        err.to_string(),
        format!("table `coverage`: part 3 has columns ({third}), part 1 has ({first})")
    );
    let err = Table::concat("coverage", &[]).unwrap_err();
    assert_eq!(err.to_string(), "table `coverage`: nothing to concatenate");
    assert_eq!(Table::concat("coverage", &[a]).unwrap().height(), 1);
}

/// A row type whose `push` and `read` disagree with its columns: the generic writer and reader
/// report the first mismatch instead of building a wrong table.
#[derive(Debug, PartialEq)]
struct Miswritten {
    label: String,
    value: f64,
    /// How many values `push` gives and `read` takes: 2 is right.
    n_values: usize,
}

impl Row for Miswritten {
    type Layout = ();

    fn columns((): ()) -> Vec<ColumnDef> {
        vec![
            ColumnDef {
                name: "label",
                kind: ColumnType::Str,
            },
            ColumnDef {
                name: "value",
                kind: ColumnType::F64,
            },
        ]
    }

    fn layout_of(_: &[&str]) {}

    fn misfit(&self, (): ()) -> Option<String> {
        None
    }

    fn push<'a>(&'a self, (): (), out: &mut RowWriter<'a>) {
        match self.n_values {
            0 => {}
            1 => out.f64(self.value),
            _ => {
                out.str(&self.label);
                for _ in 1..self.n_values {
                    out.f64(self.value);
                }
            }
        }
    }

    fn read((): (), cells: &mut RowReader) -> Self {
        let label = cells.str();
        let value = cells.f64();
        let _ = cells.u32();
        Miswritten {
            label,
            value,
            n_values: 3,
        }
    }
}

#[test]
fn a_row_type_that_disagrees_with_its_columns_is_an_error() {
    let rows = |n_values| {
        [
            Miswritten {
                label: "a".into(),
                value: 1.0,
                n_values: 2,
            },
            Miswritten {
                label: "b".into(),
                value: 2.0,
                n_values,
            },
        ]
    };
    let error = |n_values| Table::from_rows("t", &rows(n_values)).unwrap_err().to_string();
    assert_eq!(error(0), "table `t`: row 1: the row gave 0 values for 2 columns");
    assert_eq!(
        error(1),
        "table `t`: row 1: column `label` is str, the row gave f64"
    );
    assert_eq!(error(3), "table `t`: row 1: the row gave more than 2 values");
    let table = Table::from_rows("t", &rows(2)).unwrap();
    assert_eq!(
        table.rows::<Miswritten>().unwrap_err().to_string(),
        "table `t`: row 0: the row took more than 2 values"
    );
}

#[test]
fn the_file_format_follows_the_name_and_another_name_is_refused() {
    let score = ScoreRow {
        embedding: "a.fifu".into(),
        rule: "dbwa".into(),
        male: "he".into(),
        female: "she".into(),
        word: "nurse".into(),
        score: -0.25,
        status: "ok".into(),
    };
    let mut table = Table::from_rows("scores", std::slice::from_ref(&score)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("s.csv");
    let parquet = dir.path().join("s.parquet");
    table.write_file(&csv).unwrap();
    table.write_file(&parquet).unwrap();
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        "embedding,rule,male,female,word,score,status\na.fifu,dbwa,he,she,nurse,-0.25,ok\n"
    );
    assert!(std::fs::read(&parquet).unwrap().starts_with(b"PAR1"));
    let txt = dir.path().join("s.txt");
    let error = table.write_file(&txt).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!("{}: a table file's name ends in .parquet or .csv", txt.display())
    );
    assert!(!txt.exists());
}
