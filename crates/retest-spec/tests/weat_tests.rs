//! WEAT tests files: a good file parses in file order and resolves its named sets; every bad
//! one gives one located line, compared in full.

use std::collections::BTreeMap;
use std::path::Path;

use retest_spec::{SetRef, SpecError, WeatTest, WeatTestsFile, parse_named_sets};

const FILE: &str = "weat/t.yaml";

/// A set of a `x, y, a, b` test, as the parser names it.
fn set(name: &str, set: SetRef) -> retest_spec::SetSpec {
    retest_spec::SetSpec {
        name: name.into(),
        field: name.into(),
        set,
    }
}

fn parse(text: &str) -> Result<WeatTestsFile, SpecError> {
    WeatTestsFile::parse(text, Path::new(FILE))
}

fn message(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

const GOOD: &str = "\
description: two tests
sets:
  description: named sets
  licence: MIT
  source: { file: sets.json, sha256: 1a4a448a1825b29c67a7ebb7733343084b015f5b8ed720b2d9e193840a3d49a1 }
tests:
  zeta: { x: flowers, y: [ant, bee], a: [good], b: bad_words }
  alpha:
    x: [rose]
    y: [wasp]
    a: [love]
    b: [hate, grief]
";

const SETS: &str = r#"{"flowers": ["rose", "lily"], "bad_words": ["hate"], "unused": []}"#;

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|w| (*w).to_owned()).collect()
}

#[test]
fn a_good_file_keeps_its_order_and_resolves_its_sets() {
    let file = parse(GOOD).unwrap();
    assert_eq!(file.description, "two tests");
    assert_eq!(file.file, Path::new(FILE));
    let declared = file.sets.as_ref().unwrap();
    assert_eq!(declared.source.file, "sets.json");
    let names: Vec<&str> = file.tests.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["zeta", "alpha"], "file order, not sorted");
    assert_eq!(file.tests[0].targets[0].set, SetRef::Named("flowers".into()));
    assert_eq!(
        file.tests[0].targets[1].set,
        SetRef::Words(words(&["ant", "bee"]))
    );
    assert_eq!(file.tests[0].targets[1].field, "y");

    let sets = parse_named_sets(SETS, Path::new("sets.json")).unwrap();
    let tests = file.resolve(Some(&sets)).unwrap();
    assert_eq!(
        tests,
        [
            WeatTest {
                name: "zeta".into(),
                x: words(&["rose", "lily"]),
                y: words(&["ant", "bee"]),
                a: words(&["good"]),
                b: words(&["hate"]),
            },
            WeatTest {
                name: "alpha".into(),
                x: words(&["rose"]),
                y: words(&["wasp"]),
                a: words(&["love"]),
                b: words(&["hate", "grief"]),
            },
        ]
    );
}

#[test]
fn a_file_without_sets_resolves_its_inline_lists() {
    let file = parse("tests:\n  t: {x: [a], y: [b], a: [c], b: [d]}\n").unwrap();
    assert_eq!(file.description, "");
    assert_eq!(file.sets, None);
    let tests = file.resolve(None).unwrap();
    assert_eq!(tests[0].b, ["d"]);
}

#[test]
fn an_unknown_key_is_one_located_line() {
    assert_eq!(
        message("tests: {t: {x: [a], y: [b], a: [c], b: [d], z: [e]}}"),
        "weat/t.yaml:1:45: field `tests.t.z`: unknown field `z`, expected one of `x`, `y`, `a`, `b`, `targets`, `attributes`"
    );
    assert_eq!(
        message("tests:\n  t: {x: [a], y: [b], a: [c], b: [d]}\nset: {}\n"),
        "weat/t.yaml:3:1: field `set`: unknown field `set`, expected one of `description`, `sets`, `tests`"
    );
}

#[test]
fn a_set_name_missing_from_the_sets_names_the_test_the_field_and_the_file() {
    let file = parse(GOOD).unwrap();
    let sets: BTreeMap<String, Vec<String>> = [("bad_words".to_owned(), words(&["hate"]))].into();
    assert_eq!(
        file.resolve(Some(&sets)).unwrap_err().to_string(),
        "weat/t.yaml: field `tests.zeta.x`: no set `flowers` in the declared sets file `sets.json`"
    );
    let empty: BTreeMap<String, Vec<String>> = [
        ("flowers".to_owned(), vec![]),
        ("bad_words".to_owned(), words(&["hate"])),
    ]
    .into();
    assert_eq!(
        file.resolve(Some(&empty)).unwrap_err().to_string(),
        "weat/t.yaml: field `tests.zeta.x`: the set `flowers` of `sets.json` has no words"
    );
}

#[test]
fn a_set_name_without_sets_is_refused_where_it_is_written() {
    assert_eq!(
        message("tests:\n  t: {x: [a], y: insects, a: [c], b: [d]}\n"),
        "weat/t.yaml:2:18: field `tests.t.y`: `insects` names a set, but the file declares no \
         `sets`: list the words, or declare a JSON file of named sets"
    );
    // The same file, built by hand and resolved without sets.
    let file = WeatTestsFile {
        description: String::new(),
        sets: None,
        tests: vec![retest_spec::WeatTestSpec {
            name: "t".into(),
            targets: vec![
                set("x", SetRef::Words(words(&["a"]))),
                set("y", SetRef::Named("insects".into())),
            ],
            attributes: vec![
                set("a", SetRef::Words(words(&["c"]))),
                set("b", SetRef::Words(words(&["d"]))),
            ],
        }],
        file: FILE.into(),
    };
    assert_eq!(
        file.resolve(None).unwrap_err().to_string(),
        "weat/t.yaml: field `tests.t.y`: `insects` names a set, but the file declares no `sets`: \
         list the words, or declare a JSON file of named sets"
    );
}

#[test]
fn an_empty_inline_list_is_refused() {
    assert_eq!(
        message("tests:\n  t: {x: [a], y: [b], a: [], b: [d]}\n"),
        "weat/t.yaml:2:26: field `tests.t.a`: an inline list needs at least one word"
    );
}

#[test]
fn a_word_twice_in_a_set_or_in_both_sets_of_a_side_is_refused() {
    let message = |text: &str| parse(text).unwrap().resolve(None).unwrap_err().to_string();
    assert_eq!(
        message("tests:\n  t: {x: [a, e, a], y: [b], a: [c], b: [d]}\n"),
        "weat/t.yaml: field `tests.t.x`: `a` is listed twice"
    );
    assert_eq!(
        message("tests:\n  t: {x: [a, e], y: [b, e], a: [c], b: [d]}\n"),
        "weat/t.yaml: field `tests.t.y`: `e` is also in `x`: each word belongs to one of the two sets"
    );
    assert_eq!(
        message("tests:\n  t: {x: [a], y: [b], a: [c, d], b: [d]}\n"),
        "weat/t.yaml: field `tests.t.b`: `d` is also in `a`: each word belongs to one of the two sets"
    );
}

#[test]
fn bad_names_repeats_and_no_tests_are_refused() {
    assert_eq!(
        message("tests:\n  Flowers: {x: [a], y: [b], a: [c], b: [d]}\n"),
        "weat/t.yaml:2:12: field `tests.Flowers`: `Flowers` is not a valid test name: use \
         lowercase letters, digits, `-` and `_`"
    );
    assert_eq!(
        message("tests:\n  t: {x: [a], y: [b], a: [c], b: [d]}\n  t: {x: [a], y: [b], a: [c], b: [d]}\n"),
        "weat/t.yaml:2:3: field `tests`: `t` is defined twice"
    );
    assert_eq!(
        message("tests: {}\n"),
        "weat/t.yaml:1:8: field `tests`: a tests file needs at least one test"
    );
    assert_eq!(
        message("tests:\n  t: {x: 3, y: [b], a: [c], b: [d]}\n"),
        "weat/t.yaml:2:10: field `tests.t.x`: invalid type: integer `3`, expected a list of words or \
         the name of a set"
    );
}

#[test]
fn named_sets_are_a_json_object_of_word_lists() {
    let sets = parse_named_sets(SETS, Path::new("sets.json")).unwrap();
    assert_eq!(
        sets.keys().collect::<Vec<_>>(),
        ["bad_words", "flowers", "unused"]
    );
    let error = |text: &str| {
        parse_named_sets(text, Path::new("s.json"))
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        error("{\"a\": [\"x\", 3]}"),
        "s.json:1:13: field `a[1]`: invalid type: integer `3`, expected a string"
    );
    assert_eq!(
        error("{\"a\": [\"x\"],\n \"a\": [\"y\"]}"),
        "s.json:2:4: `a` is defined twice"
    );
    assert_eq!(
        error("[]"),
        "s.json:1:1: invalid type: sequence, expected a mapping of names to values"
    );
    assert_eq!(error("{} {}"), "s.json:1:4: trailing characters");
}

#[test]
fn the_project_caliskan_file_parses_and_resolves_against_wefe_sets() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let file = WeatTestsFile::read(&root.join("wordlists/weat/caliskan.yaml")).unwrap();
    let names: Vec<&str> = file.tests.iter().map(|t| t.name.as_str()).collect();
    let expected: Vec<String> = (1..=10).map(|i| format!("weat{i}")).collect();
    assert_eq!(names, expected);
    let declared = file.sets.as_ref().unwrap();
    assert_eq!(declared.source.file, "WEAT.json");
    assert_eq!(
        declared.source.sha256.as_deref(),
        Some("1a4a448a1825b29c67a7ebb7733343084b015f5b8ed720b2d9e193840a3d49a1")
    );
    // Every set name of the file, resolved against a stand-in holding each name once.
    let mut sets = BTreeMap::new();
    for test in &file.tests {
        for spec in test.targets.iter().chain(&test.attributes) {
            let SetRef::Named(name) = &spec.set else {
                panic!("{}: Caliskan's tests name their sets", test.name)
            };
            sets.insert(name.clone(), vec![name.clone()]);
        }
    }
    let tests = file.resolve(Some(&sets)).unwrap();
    assert_eq!(tests[6].x, ["math"]);
    assert_eq!(tests[6].a, ["male_terms"]);
    assert_eq!(sets.len(), 31, "every set of WEAT.json");
}

#[test]
fn a_query_names_any_number_of_target_and_attribute_sets() {
    let text = "sets: {source: {file: sets.json, path: sets.json}}\ntests:\n  \
                family: {targets: {male: [he, him], female: [she, her]}, attributes: {home: flowers}}\n  \
                weat: {x: [a], y: [b], a: [c], b: [d]}\n";
    let file = parse(text).unwrap();
    let fields: Vec<&str> = file.tests[0]
        .targets
        .iter()
        .chain(&file.tests[0].attributes)
        .map(|s| s.field.as_str())
        .collect();
    assert_eq!(fields, ["targets.male", "targets.female", "attributes.home"]);
    let sets = parse_named_sets(SETS, Path::new("sets.json")).unwrap();
    let queries = file.resolve_queries(Some(&sets)).unwrap();
    let family = &queries[0];
    assert_eq!(
        (
            family.targets.len(),
            family.attributes.len(),
            family.attributes[0].name.as_str()
        ),
        (2, 1, "home")
    );
    assert_eq!(family.attributes[0].words, words(&["rose", "lily"]));
    assert_eq!(family.weat(), None);
    let weat = queries[1].weat().unwrap();
    assert_eq!((weat.x, weat.b), (words(&["a"]), words(&["d"])));
    // WEAT takes the 2 × 2 tests only, and says which test does not fit.
    assert_eq!(
        file.resolve(Some(&sets)).unwrap_err().to_string(),
        "weat/t.yaml: field `tests.family`: WEAT needs two target and two attribute sets, found 2 and 1 \
         (`retest query` runs the measures that fit)"
    );
}

#[test]
fn a_test_of_neither_form_is_refused_with_what_it_lacks() {
    assert_eq!(
        message("tests:\n  t: {x: [a], y: [b], a: [c]}\n"),
        "weat/t.yaml:2:6: field `tests.t`: no set b (a test has x, y, a and b, or targets and attributes)"
    );
    assert_eq!(
        message("tests:\n  t: {x: [a], targets: {m: [b]}, attributes: {c: [c]}}\n"),
        "weat/t.yaml:2:6: field `tests.t`: give either x, y, a and b or targets and attributes, not both (found x)"
    );
    assert_eq!(
        message("tests:\n  t: {targets: {m: [b]}}\n"),
        "weat/t.yaml:2:6: field `tests.t`: `targets` without `attributes`"
    );
    assert_eq!(
        message("tests:\n  t: {targets: {}, attributes: {c: [c]}}\n"),
        "weat/t.yaml:2:16: field `tests.t.targets`: `targets` needs at least one set"
    );
    let file = parse("tests:\n  t: {targets: {m: [he], f: [she], n: [he]}, attributes: {c: [c]}}\n").unwrap();
    assert_eq!(
        file.resolve_queries(None).unwrap_err().to_string(),
        "weat/t.yaml: field `tests.t.targets.n`: `he` is also in `m`: each word belongs to one set"
    );
}
