use retest_tables::{BiasTensor, IccRow, IccStats, Subject, SubjectKind, bias_scores_table, icc_table};

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
    let mut t = icc_table("test_retest_words", SubjectKind::Word, &words).unwrap();
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
    let t = icc_table("test_retest_pairs", SubjectKind::Pair, &pairs).unwrap();
    assert_eq!(&t.columns()[5..7], ["male", "female"]);
    let err = icc_table("test_retest_pairs", SubjectKind::Pair, &words).unwrap_err();
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
    let write = |dir: &std::path::Path| {
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
