//! `retest weat` and `retest direct-bias` end to end on a model trained by `retest sgns`: the
//! table holds the numbers `retest-measures` gives on the same model, a test left with an empty
//! set gets its own row and warning, Caliskan et al.'s tests resolve WEFE's sets from the data
//! mirror offline, and bad input gives one line, compared in full.

use std::path::{Path, PathBuf};
use std::process::Output;

use retest_measures::{
    DirectionSource, Model, PermutationOptions, RnsbOptions, SdKind, WEAT_EXACT_PARTITIONS_MAX, WeatOptions,
    WeatSets, bias_subspace, direct_bias, ect, gender_direction, mac, ripa_query, rnd, rnsb,
    subspace_direct_bias, weat,
};
use retest_rng::SeedPath;
use retest_tables::{QueryRow, Table, WeatRow, WeatStats};
use retest_test_support::{arg, data_file, stderr, write_file};

/// `retest ARGS` in the workspace, offline, with the data mirror and a cache in `dir`.
fn retest(args: &[&str], dir: &Path) -> Output {
    retest_test_support::run_cached(env!("CARGO_BIN_EXE_retest"), args, dir)
}

/// A tiny skip-gram model of WikiText-103 valid (words seen at least 3 times), in `dir`.
fn trained_model(dir: &Path) -> PathBuf {
    let model = dir.join("model.fifu");
    let corpus = data_file("wikitext-103/wiki.valid.tokens");
    let out = retest(
        &[
            "sgns",
            "--input",
            arg(&corpus),
            "--output",
            arg(&model),
            "--dim",
            "20",
            "--epochs",
            "1",
            "--min-count",
            "3",
        ],
        dir,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    model
}

/// `retest weat MODEL --tests TESTS EXTRA… --out OUT` with a cache in `dir`.
fn weat_run(dir: &Path, model: &Path, tests: &str, extra: &[&str], out: &Path) -> Output {
    let mut args = vec!["weat", arg(model), "--tests", tests];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--out", arg(out)]);
    retest(&args, dir)
}

/// `retest direct-bias MODEL --pairs PAIRS --words WORDS EXTRA… --out OUT` with `pairs` and
/// `words` written to files in `dir` and `OUT` = `dir/db.csv`: the the pairs file and
/// `OUT`.
fn direct_bias_run(
    dir: &Path,
    model: &Path,
    pairs: &str,
    words: &str,
    extra: &[&str],
) -> (Output, PathBuf, PathBuf) {
    let (pairs_file, words_file) = (dir.join("pairs.txt"), dir.join("words.txt"));
    std::fs::write(&pairs_file, pairs).unwrap();
    std::fs::write(&words_file, words).unwrap();
    let out_file = dir.join("db.csv");
    let mut args = vec![
        "direct-bias",
        arg(model),
        "--pairs",
        arg(&pairs_file),
        "--words",
        arg(&words_file),
    ];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--out", arg(&out_file)]);
    (retest(&args, dir), pairs_file, out_file)
}

/// The words, dimension and vectors of an embedding file.
fn load(model: &Path) -> (Vec<String>, usize, Vec<f32>) {
    let (words, dim, raw, _) = retest_embeddings::read(model, None).unwrap().into_parts();
    (words, dim, raw)
}

fn ids(model: &Model<'_>, words: &[&str]) -> Vec<u32> {
    words.iter().filter_map(|w| model.vocab().id(w)).collect()
}

const TESTS: &str = "\
description: a gender test, a test with one word out of vocabulary, a test with no X
tests:
  gender:
    x: [king, father, son, brother]
    y: [queen, mother, daughter, sister]
    a: [he, him, his, man]
    b: [she, her, woman, girl]
  places: {x: [city, town], y: [river, lake], a: [north, east], b: [south, west, zzqqzz]}
  nowords: {x: [zzqqzz], y: [king], a: [he], b: [she]}
";

#[test]
fn weat_on_a_trained_model_gives_the_numbers_of_the_measures_crate() {
    let dir = tempfile::tempdir().unwrap();
    let model_file = trained_model(dir.path());
    let tests = write_file(dir.path(), "tests.yaml", TESTS);
    let out_file = dir.path().join("weat.parquet");
    // 70 partitions for `gender`: sampled with at most 10 enumerated; 6 for `places`: exact.
    let out = weat_run(
        dir.path(),
        &model_file,
        arg(&tests),
        &["--exact-max", "10", "--samples", "50", "--seed", "7"],
        &out_file,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let m = model_file.display();
    assert_eq!(
        stderr(&out),
        format!(
            "warning: {m}: test `nowords`: no word of set x is in the vocabulary; its row has status empty_set\n\
             {m}: 3 test(s), 2 word(s) out of vocabulary left out, 1 test(s) with an empty set\n\
             3 WEAT rows → {}\n",
            out_file.display()
        )
    );
    let rows: Vec<WeatRow> = Table::read("weat", &out_file).unwrap().rows().unwrap();
    assert_eq!(rows.len(), 3);

    let (words, dim, raw) = load(&model_file);
    let model = Model::new(&words, &raw, dim).unwrap();
    let expected = |name: &str, sets: [&[&str]; 4], exact_limit: u64| {
        let [x, y, a, b] = sets.map(|s| ids(&model, s));
        let seed = SeedPath::new(7).with("weat").with(name);
        let options = WeatOptions {
            sd: SdKind::Population,
            permutation: PermutationOptions {
                exact_limit,
                samples: 50,
                seed: &seed,
            },
        };
        let sets = WeatSets {
            x: &x,
            y: &y,
            a: &a,
            b: &b,
        };
        weat(&model, &sets, &options).unwrap()
    };
    let gender = expected(
        "gender",
        [
            &["king", "father", "son", "brother"],
            &["queen", "mother", "daughter", "sister"],
            &["he", "him", "his", "man"],
            &["she", "her", "woman", "girl"],
        ],
        10,
    );
    let places = expected(
        "places",
        [
            &["city", "town"],
            &["river", "lake"],
            &["north", "east"],
            &["south", "west"],
        ],
        10,
    );
    let row = |name: &str, n: [u32; 4], w: &retest_measures::Weat, dropped: &str| WeatRow {
        embedding: m.to_string(),
        test: name.into(),
        weat: WeatStats {
            n_x: n[0],
            n_y: n[1],
            n_a: n[2],
            n_b: n[3],
            statistic: w.statistic,
            effect_size: w.effect_size.d,
            p_value: w.permutation.p,
            p_method: w.permutation.method.as_str().into(),
            n_partitions: w.permutation.partitions,
        },
        status: "ok".into(),
        detail: String::new(),
        dropped: dropped.into(),
    };
    assert_eq!(rows[0], row("gender", [4, 4, 4, 4], &gender, ""));
    assert_eq!(rows[0].weat.p_method, "sampled");
    assert_eq!(rows[0].weat.n_partitions, 50);
    assert_eq!(rows[1], row("places", [2, 2, 2, 2], &places, "b:zzqqzz"));
    assert_eq!(rows[1].weat.p_method, "exact");
    assert_eq!(rows[1].weat.n_partitions, 6);
    let empty = &rows[2];
    assert_eq!(
        (
            empty.test.as_str(),
            [empty.weat.n_x, empty.weat.n_y, empty.weat.n_a, empty.weat.n_b],
            empty.weat.p_method.as_str(),
            empty.weat.n_partitions,
            empty.status.as_str(),
            empty.detail.as_str(),
            empty.dropped.as_str()
        ),
        ("nowords", [0, 1, 1, 1], "", 0, "empty_set", "x", "x:zzqqzz")
    );
    assert!(empty.weat.statistic.is_nan() && empty.weat.effect_size.is_nan() && empty.weat.p_value.is_nan());

    // The defaults: exact up to a million partitions; the sample SD on request; one test only.
    let out_file = dir.path().join("weat.csv");
    let out = weat_run(
        dir.path(),
        &model_file,
        arg(&tests),
        &["--tests-only", "gender", "--sd", "sample"],
        &out_file,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let csv = std::fs::read_to_string(&out_file).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some(
            "embedding,test,n_x,n_y,n_a,n_b,statistic,effect_size,p_value,p_method,n_partitions,status,detail,dropped"
        )
    );
    let fields: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(lines.next(), None, "{csv}");
    let exact = expected(
        "gender",
        [
            &["king", "father", "son", "brother"],
            &["queen", "mother", "daughter", "sister"],
            &["he", "him", "his", "man"],
            &["she", "her", "woman", "girl"],
        ],
        WEAT_EXACT_PARTITIONS_MAX,
    );
    let sample_d = retest_measures::effect_size(&exact.x_scores, &exact.y_scores, SdKind::Sample).unwrap();
    let number = |i: usize| fields[i].parse::<f64>().unwrap();
    assert_eq!(
        &fields[..6],
        [m.to_string().as_str(), "gender", "4", "4", "4", "4"]
    );
    assert!((number(6) - exact.statistic).abs() < 1e-12);
    assert!((number(7) - sample_d.d).abs() < 1e-12);
    assert!((number(8) - exact.permutation.p).abs() < 1e-12);
    assert_eq!(&fields[9..], ["exact", "70", "ok", "\"\"", "\"\""]);
}

#[test]
fn weat_runs_caliskans_tests_on_wefes_sets_from_the_mirror() {
    let dir = tempfile::tempdir().unwrap();
    let model_file = trained_model(dir.path());
    let out_file = dir.path().join("caliskan.parquet");
    let out = weat_run(
        dir.path(),
        &model_file,
        "wordlists/weat/caliskan.yaml",
        &["--lowercase"],
        &out_file,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let rows: Vec<WeatRow> = Table::read("weat", &out_file).unwrap().rows().unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r.test.as_str()).collect();
    let expected: Vec<String> = (1..=10).map(|i| format!("weat{i}")).collect();
    assert_eq!(names, expected);
    // WEFE's weat7 is math, algebra, … vs poetry, art, …: 8 words each, some missing here.
    let weat7 = &rows[6];
    assert_eq!(
        weat7.weat.n_x as usize + weat7.dropped.matches("x:").count(),
        8,
        "{weat7:?}"
    );
    for row in &rows {
        assert!(
            ["ok", "no_spread", "empty_set"].contains(&row.status.as_str()),
            "{row:?}"
        );
        assert_eq!(row.status == "empty_set", !row.detail.is_empty(), "{row:?}");
    }
    assert!(rows.iter().any(|r| r.status == "ok"), "{rows:?}");
}

#[test]
fn direct_bias_gives_one_row_per_pair_and_the_principal_component() {
    let dir = tempfile::tempdir().unwrap();
    let model_file = trained_model(dir.path());
    let (out, _, out_file) = direct_bias_run(
        dir.path(),
        &model_file,
        "he she\nman woman\nzzqq qqzz\nking queen\n",
        "city\nriver\nteacher\nzzqqzz\n",
        &["--c", "0.5"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let m = model_file.display();
    assert_eq!(
        stderr(&out),
        format!(
            "{m}: 3 of 4 pairs and 3 of 4 words in the vocabulary; pairs dropped: zzqq:qqzz; words dropped: zzqqzz\n\
             4 Direct Bias rows → {}\n",
            out_file.display()
        )
    );
    let (vocab, dim, raw) = load(&model_file);
    let model = Model::new(&vocab, &raw, dim).unwrap();
    let neutral = ids(&model, &["city", "river", "teacher"]);
    let id = |w: &str| model.vocab().id(w).unwrap();
    let pair_ids = [("he", "she"), ("man", "woman"), ("king", "queen")].map(|(m, f)| (id(m), id(f)));
    let csv = std::fs::read_to_string(&out_file).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("embedding,direction,c,n_words,direct_bias,explained_variance")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let names: Vec<&str> = rows.iter().map(|r| r[1]).collect();
    assert_eq!(names, ["he:she", "man:woman", "king:queen", "pca"]);
    let sources = [
        DirectionSource::Pair(pair_ids[0].0, pair_ids[0].1),
        DirectionSource::Pair(pair_ids[1].0, pair_ids[1].1),
        DirectionSource::Pair(pair_ids[2].0, pair_ids[2].1),
        DirectionSource::PrincipalComponent(&pair_ids),
    ];
    for (row, source) in rows.iter().zip(sources) {
        let g = gender_direction(&model, source).unwrap();
        let bias = direct_bias(&model, &g, &neutral, 0.5).unwrap();
        assert_eq!(&row[..4], [m.to_string().as_str(), row[1], "0.5", "3"]);
        let value: f64 = row[4].parse().unwrap();
        assert!((value - bias.value).abs() < 1e-12, "{row:?} vs {}", bias.value);
        let explained: f64 = row[5].parse().unwrap();
        if row[1] == "pca" {
            assert!(
                (explained - g.explained_variance_ratio[0]).abs() < 1e-12,
                "{row:?}"
            );
        } else {
            assert!(explained.is_nan(), "{row:?}");
        }
    }
}

/// `--components 3`: Direct Bias on the span of the first two and three components of the pairs
/// in the vocabulary, with their share of variance; more components than pairs are refused.
#[test]
fn direct_bias_on_the_first_principal_components() {
    let dir = tempfile::tempdir().unwrap();
    let model_file = trained_model(dir.path());
    let pairs = "he she\nman woman\nking queen\n";
    let (out, _, out_file) = direct_bias_run(
        dir.path(),
        &model_file,
        pairs,
        "city\nriver\nteacher\n",
        &["--components", "3"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let (vocab, dim, raw) = load(&model_file);
    let model = Model::new(&vocab, &raw, dim).unwrap();
    let neutral = ids(&model, &["city", "river", "teacher"]);
    let id = |w: &str| model.vocab().id(w).unwrap();
    let pair_ids = [("he", "she"), ("man", "woman"), ("king", "queen")].map(|(m, f)| (id(m), id(f)));
    let sub = bias_subspace(&model, &pair_ids, 3).unwrap();
    let csv = std::fs::read_to_string(&out_file).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 3 + 1 + 2);
    for (row, k) in rows[4..].iter().zip([2, 3]) {
        assert_eq!(row[1], format!("pca:{k}"));
        let want = subspace_direct_bias(&model, &sub.axes[..k], &neutral, 1.0)
            .unwrap()
            .value;
        let value: f64 = row[4].parse().unwrap();
        assert!((value - want).abs() < 1e-12, "{row:?} vs {want}");
        let explained: f64 = row[5].parse().unwrap();
        let share: f64 = sub.explained_variance_ratio[..k].iter().sum();
        assert!((explained - share).abs() < 1e-12, "{row:?}");
    }
    let (out, _, _) = direct_bias_run(
        dir.path(),
        &model_file,
        pairs,
        "city\n",
        &["--components", "4", "--force"],
    );
    assert!(!out.status.success());
    assert_eq!(
        stderr(&out),
        format!(
            "{m}: 3 of 3 pairs and 1 of 1 words in the vocabulary\n\
             error: {m}: --components: bias subspace: 4 components asked; 3 definitional pairs allow 1 to 3\n",
            m = model_file.display()
        )
    );
}

#[test]
fn a_principal_component_of_one_pair_in_the_vocabulary_is_one_error_line() {
    let dir = tempfile::tempdir().unwrap();
    let model_file = trained_model(dir.path());
    let (out, pairs, out_file) =
        direct_bias_run(dir.path(), &model_file, "he she\nzzqq qqzz\n", "city\n", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {}: direction `pca` needs at least 2 pairs in the vocabulary, found 1 of the 2 in {}; \
             pairs dropped: zzqq:qqzz\n",
            model_file.display(),
            pairs.display()
        )
    );
    assert!(!out_file.exists());
}

#[test]
fn an_output_that_is_an_input_and_a_bad_tests_file_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let model_file = write_file(dir.path(), "v.txt", "2 2\nhe 1 0\nshe 0 1\n");
    let tests = write_file(
        dir.path(),
        "tests.yaml",
        "tests: {t: {x: [a], y: [b], a: [c], b: [d], z: [e]}}\n",
    );
    let out = weat_run(dir.path(), &model_file, arg(&tests), &[], &model_file);
    assert_eq!(
        stderr(&out),
        format!(
            "error: --out {0}: that is the input file {0}; choose another output file\n",
            model_file.display()
        )
    );
    let out_file = dir.path().join("o.csv");
    let out = weat_run(dir.path(), &model_file, arg(&tests), &[], &out_file);
    assert_eq!(
        stderr(&out),
        format!(
            "error: {}:1:45: field `tests.t.z`: unknown field `z`, expected one of `x`, `y`, `a`, `b`, `targets`, `attributes`\n",
            tests.display()
        )
    );
    std::fs::write(&tests, "tests: {t: {x: [he], y: [she], a: [he], b: [she]}}\n").unwrap();
    let out = weat_run(
        dir.path(),
        &model_file,
        arg(&tests),
        &["--tests-only", "t,u"],
        &out_file,
    );
    assert_eq!(
        stderr(&out),
        format!(
            "error: --tests-only: no test `u` in {} (it has: t)\n",
            tests.display()
        )
    );
    assert!(!out_file.exists());
}

#[test]
fn weat_on_hand_made_vectors_gives_the_hand_computed_statistic() {
    // Unit vectors in the plane: s(w) = cos(w, love) − cos(w, hate) with love = (1, 0) and
    // hate = (0, 1) is w₁ − w₂ for a unit w.
    let dir = tempfile::tempdir().unwrap();
    let model_file = write_file(
        dir.path(),
        "v.txt",
        "6 2\nrose 1 0\nlily 0.6 0.8\nant 0 1\nbee 0.8 0.6\nlove 2 0\nhate 0 3\n",
    );
    let tests = write_file(
        dir.path(),
        "tests.yaml",
        "tests:\n  flowers: {x: [rose, lily], y: [ant, bee], a: [love], b: [hate]}\n",
    );
    let out_file = dir.path().join("o.csv");
    let out = weat_run(dir.path(), &model_file, arg(&tests), &[], &out_file);
    assert!(out.status.success(), "{}", stderr(&out));
    let csv = std::fs::read_to_string(&out_file).unwrap();
    let fields: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    let number = |i: usize| fields[i].parse::<f64>().unwrap();
    // s: rose 1, lily −0.2, ant −1, bee 0.2. S = 0.8 − (−0.8) = 1.6.
    assert!((number(6) - 1.6).abs() < 1e-6, "{csv}");
    // Means 0.4 and −0.4; pooled population SD √((1 + 0.04 + 1 + 0.04)/4) = √0.52.
    assert!((number(7) - 0.8 / 0.52f64.sqrt()).abs() < 1e-6, "{csv}");
    // Of the 6 splits, only {rose, bee} (sum 1.2) beats the observed sum 0.8.
    assert!((number(8) - 1.0 / 6.0).abs() < 1e-12, "{csv}");
    assert_eq!(&fields[9..12], ["exact", "6", "ok"]);
}

/// `retest query` on the WEAT tests and on a query of two targets against one attribute set:
/// its WEAT rows are `retest weat`'s, RND, ECT and RIPA do not fit a 2 × 2 test nor RIPA target
/// sets of two lengths, and its RND, ECT, MAC, RNSB and RIPA values are the measures crate's on
/// the same ids.
#[test]
fn query_runs_every_measure_that_fits_and_its_weat_is_the_weat_command() {
    let dir = tempfile::tempdir().unwrap();
    let model_file = trained_model(dir.path());
    let query_test = "  kin: {targets: {male: [king, father, son], female: [queen, mother, daughter]}, \
                      attributes: {pronouns: [he, him, she, her, zzqqzz]}}\n  \
                      uneven: {targets: {male: [king, father], female: [queen]}, attributes: {p: [he]}}\n";
    let tests = write_file(dir.path(), "tests.yaml", format!("{TESTS}{query_test}"));
    let (weat_file, query_file) = (dir.path().join("weat.parquet"), dir.path().join("query.parquet"));
    let out = weat_run(
        dir.path(),
        &model_file,
        arg(&tests),
        &["--tests-only", "gender,places"],
        &weat_file,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = retest(
        &[
            "query",
            arg(&model_file),
            "--tests",
            arg(&tests),
            "--rnsb-holdout",
            "0",
            "--out",
            arg(&query_file),
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let weat_rows: Vec<WeatRow> = Table::read("weat", &weat_file).unwrap().rows().unwrap();
    let rows: Vec<QueryRow> = Table::read("query", &query_file).unwrap().rows().unwrap();
    let row = |test: &str, measure: &str| {
        rows.iter()
            .find(|r| r.test == test && r.measure == measure)
            .unwrap_or_else(|| panic!("no row {test} {measure}"))
    };
    assert_eq!(rows.len(), 5 * 6);
    for w in &weat_rows {
        let q = row(&w.test, "weat");
        assert_eq!(
            (q.value, q.p_value, &q.status),
            (w.weat.effect_size, w.weat.p_value, &w.status)
        );
        for measure in ["rnd", "ect", "ripa"] {
            let q = row(&w.test, measure);
            assert_eq!(q.status, "not_applicable");
            assert_eq!(
                q.detail,
                format!("{measure} takes 2 target and 1 attribute sets; the test has 2 and 2")
            );
        }
    }
    assert_eq!(row("nowords", "mac").status, "empty_set");
    assert_eq!(row("nowords", "mac").detail, "x");
    assert_eq!(row("kin", "weat").status, "not_applicable");
    assert_eq!(row("kin", "rnsb").status, "not_applicable");
    assert_eq!(row("kin", "rnd").dropped, "pronouns:zzqqzz");
    assert_eq!(
        (
            row("uneven", "ripa").status.as_str(),
            row("uneven", "ripa").detail.as_str()
        ),
        (
            "not_applicable",
            "ripa pairs the two target sets word by word; they have 2 and 1 words"
        )
    );

    let (words, dim, raw) = load(&model_file);
    let model = Model::new(&words, &raw, dim).unwrap();
    let (male, female) = (
        ids(&model, &["king", "father", "son"]),
        ids(&model, &["queen", "mother", "daughter"]),
    );
    let pronouns = ids(&model, &["he", "him", "she", "her"]);
    assert_eq!(
        row("kin", "rnd").value,
        rnd(&model, &male, &female, &pronouns).unwrap().value
    );
    assert_eq!(
        row("kin", "ect").value,
        ect(&model, &male, &female, &pronouns).unwrap()
    );
    assert_eq!(
        row("kin", "mac").value,
        mac(&model, &[&male, &female], &[&pronouns]).unwrap()
    );
    let pairs: Vec<(u32, u32)> = male.iter().copied().zip(female.iter().copied()).collect();
    assert_eq!(
        row("kin", "ripa").value,
        ripa_query(&model, &pairs, &pronouns).unwrap()
    );
    let (x, y) = (
        ids(&model, &["king", "father", "son", "brother"]),
        ids(&model, &["queen", "mother", "daughter", "sister"]),
    );
    let (a, b) = (
        ids(&model, &["he", "him", "his", "man"]),
        ids(&model, &["she", "her", "woman", "girl"]),
    );
    let seed = SeedPath::new(1).with("rnsb").with("gender");
    let all = RnsbOptions {
        holdout: 0.0,
        seed: &seed,
    };
    assert_eq!(
        row("gender", "rnsb").value,
        rnsb(&model, &[&x, &y], &a, &b, &all).unwrap()
    );
}
