//! Tests files: named tests of target sets against attribute sets, each an inline word list or
//! the name of a set in a declared JSON file of named word sets. A WEAT test has targets X, Y and
//! attributes A, B; a query of the other set-level measures names any number of each (RND and
//! ECT take two targets and one attribute set, MAC any, RNSB any targets and two attributes).
//!
//! ```yaml
//! description: Caliskan et al. (2017), tests 1–10     # optional
//! sets:                                               # optional: a declared JSON file
//!   description: WEAT word sets as packaged by WEFE   #   {set_name: [words]}, found and
//!   licence: MIT                                      #   verified like a declared word list
//!   source: { file: WEAT.json, url: https://…, sha256: 1a4a… }
//! tests:                                              # in the order they run
//!   weat1: { x: flowers, y: insects, a: pleasant_5, b: unpleasant_5a }
//!   mine: { x: [nurse, teacher], y: [engineer, pilot], a: [she, her], b: [he, him] }
//!   family: { targets: { male: male_terms, female: female_terms }, attributes: { family: family } }
//! ```
//!
//! `x, y, a, b` is the same test as `targets: {x: …, y: …}, attributes: {a: …, b: …}`.
//!
//! `sets` of one's own, a `path:` beside or below the tests file, needs no `description` or
//! `licence`: `sets: {source: {file: my_sets.json, path: my_sets.json}}`; its checksum, learnt on
//! first use, is recorded in `checksums.lock` beside the tests file.
//!
//! Test names use lowercase letters, digits, `-` and `_`. Unknown keys, a set name in a file
//! without `sets`, an empty inline list and a test defined twice are errors with the file, line,
//! column and field path ([`WeatTestsFile::parse`]); a set name the declared file does not hold
//! is an error of [`WeatTestsFile::resolve`], which sees that file's sets.

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::declaration::FileDeclaration;
use crate::document::Document;
use crate::error::{Location, SpecError};
use crate::recipe::name_problem;

/// A parsed WEAT tests file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeatTestsFile {
    /// What the tests are (empty when the file gives none).
    pub description: String,
    /// The declared JSON file of named word sets, if the file declares one.
    pub sets: Option<FileDeclaration>,
    /// The tests, in file order.
    pub tests: Vec<WeatTestSpec>,
    /// The tests file (named in errors; relative `path:`s of `sets.source` are relative to it).
    pub file: PathBuf,
}

/// One test as written: its target and attribute sets, each inline or by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeatTestSpec {
    pub name: String,
    /// The target sets (X then Y for a WEAT test), in file order.
    pub targets: Vec<SetSpec>,
    /// The attribute sets (A then B for a WEAT test), in file order.
    pub attributes: Vec<SetSpec>,
}

/// One set of a test as written: its name (`x`, …, or the key under `targets`/`attributes`),
/// its field path below the test (`x`, `targets.male`) and its words or the name of a set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetSpec {
    pub name: String,
    pub field: String,
    pub set: SetRef,
}

/// A word set of a test: the words themselves, or the name of a set of the declared file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetRef {
    Words(Vec<String>),
    Named(String),
}

/// One test with its four sets as words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeatTest {
    pub name: String,
    pub x: Vec<String>,
    pub y: Vec<String>,
    pub a: Vec<String>,
    pub b: Vec<String>,
}

/// A named set of words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordSet {
    pub name: String,
    pub words: Vec<String>,
}

/// One test with every set as words: target sets against attribute sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryTest {
    pub name: String,
    pub targets: Vec<WordSet>,
    pub attributes: Vec<WordSet>,
}

impl QueryTest {
    /// The test as WEAT reads it; `file` (the tests file) names it in the error.
    ///
    /// # Errors
    ///
    /// The test has not two target and two attribute sets.
    pub fn weat_in(&self, file: &Path) -> Result<WeatTest, SpecError> {
        self.weat().ok_or_else(|| SpecError::Invalid {
            location: Location {
                file: file.to_owned(),
                line_column: None,
                field: format!("tests.{}", self.name),
            },
            message: format!(
                "WEAT needs two target and two attribute sets, found {} and {} (`retest query` runs the \
                 measures that fit)",
                self.targets.len(),
                self.attributes.len()
            ),
        })
    }

    /// The test as WEAT reads it, when it has two target and two attribute sets.
    pub fn weat(&self) -> Option<WeatTest> {
        match (&self.targets[..], &self.attributes[..]) {
            ([x, y], [a, b]) => Some(WeatTest {
                name: self.name.clone(),
                x: x.words.clone(),
                y: y.words.clone(),
                a: a.words.clone(),
                b: b.words.clone(),
            }),
            _ => None,
        }
    }
}

impl WeatTestSpec {
    /// Every set with its field path below the test: the targets, then the attributes.
    fn sets(&self) -> impl Iterator<Item = &SetSpec> {
        self.targets.iter().chain(&self.attributes)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    description: Option<String>,
    sets: Option<FileDeclaration>,
    tests: Ordered<RawTest>,
}

/// A test as the file writes it: `x, y, a, b`, or `targets` and `attributes`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTest {
    x: Option<SetRef>,
    y: Option<SetRef>,
    a: Option<SetRef>,
    b: Option<SetRef>,
    targets: Option<Ordered<SetRef>>,
    attributes: Option<Ordered<SetRef>>,
}

impl RawTest {
    /// The test's sets, or `(field below the test, message)` for a test of neither form.
    fn spec(&self, name: &str) -> Result<WeatTestSpec, (String, String)> {
        let weat = [("x", &self.x), ("y", &self.y), ("a", &self.a), ("b", &self.b)];
        let given: Vec<&str> = weat
            .iter()
            .filter(|(_, s)| s.is_some())
            .map(|(k, _)| *k)
            .collect();
        let set = |name: &str, field: String, set: &SetRef| SetSpec {
            name: name.to_owned(),
            field,
            set: set.clone(),
        };
        match (&self.targets, &self.attributes) {
            (None, None) => {
                let missing: Vec<&str> = weat
                    .iter()
                    .filter(|(_, s)| s.is_none())
                    .map(|(k, _)| *k)
                    .collect();
                if !missing.is_empty() {
                    return Err((
                        String::new(),
                        format!(
                            "no set {} (a test has x, y, a and b, or targets and attributes)",
                            missing.join(", ")
                        ),
                    ));
                }
                let [x, y, a, b] =
                    weat.map(|(k, s)| set(k, k.to_owned(), s.as_ref().expect("every set given")));
                Ok(WeatTestSpec {
                    name: name.to_owned(),
                    targets: vec![x, y],
                    attributes: vec![a, b],
                })
            }
            (Some(targets), Some(attributes)) if given.is_empty() => {
                let sets = |kind: &str, sets: &Ordered<SetRef>| -> Result<Vec<SetSpec>, (String, String)> {
                    if sets.0.is_empty() {
                        return Err((kind.to_owned(), format!("`{kind}` needs at least one set")));
                    }
                    Ok(sets
                        .0
                        .iter()
                        .map(|(k, s)| set(k, format!("{kind}.{k}"), s))
                        .collect())
                };
                Ok(WeatTestSpec {
                    name: name.to_owned(),
                    targets: sets("targets", targets)?,
                    attributes: sets("attributes", attributes)?,
                })
            }
            (Some(_), Some(_)) => Err((
                String::new(),
                format!(
                    "give either x, y, a and b or targets and attributes, not both (found {})",
                    given.join(", ")
                ),
            )),
            (Some(_), None) => Err((String::new(), "`targets` without `attributes`".to_owned())),
            (None, Some(_)) => Err((String::new(), "`attributes` without `targets`".to_owned())),
        }
    }
}

/// The entries of a mapping in file order; a key given twice is an error.
#[derive(Debug)]
struct Ordered<V>(Vec<(String, V)>);

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Ordered<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct OrderedVisitor<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for OrderedVisitor<V> {
            type Value = Ordered<V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a mapping of names to values")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
                let mut entries: Vec<(String, V)> = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    if entries.iter().any(|(k, _)| *k == key) {
                        return Err(de::Error::custom(format!("`{key}` is defined twice")));
                    }
                    let value = map.next_value()?;
                    entries.push((key, value));
                }
                Ok(Ordered(entries))
            }
        }
        deserializer.deserialize_map(OrderedVisitor(PhantomData))
    }
}

impl<'de> Deserialize<'de> for SetRef {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SetRefVisitor;
        impl<'de> Visitor<'de> for SetRefVisitor {
            type Value = SetRef;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of words or the name of a set")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<SetRef, E> {
                Ok(SetRef::Named(name.to_owned()))
            }
            fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<SetRef, S::Error> {
                let mut words = Vec::new();
                while let Some(word) = seq.next_element::<String>()? {
                    words.push(word);
                }
                Ok(SetRef::Words(words))
            }
        }
        deserializer.deserialize_any(SetRefVisitor)
    }
}

impl WeatTestsFile {
    /// Reads and checks a tests file.
    ///
    /// # Errors
    ///
    /// The file cannot be read, or [`WeatTestsFile::parse`] refuses it.
    pub fn read(path: &Path) -> Result<WeatTestsFile, SpecError> {
        Self::from_document(Document::read(path)?)
    }

    /// Parses and checks tests-file text; `file` names it in errors.
    ///
    /// # Errors
    ///
    /// An unknown key, a wrong type, no tests, a test defined twice, a test name that is not a
    /// name, an empty inline list, or a set name when the file declares no `sets`: one error
    /// with the file, line, column and field path.
    pub fn parse(text: &str, file: &Path) -> Result<WeatTestsFile, SpecError> {
        Self::from_document(Document::parse(text, file)?)
    }

    fn from_document(doc: Document<RawFile>) -> Result<WeatTestsFile, SpecError> {
        let raw = &doc.raw;
        if let Some(message) = raw.sets.as_ref().and_then(FileDeclaration::missing_field) {
            return Err(doc.error("sets", message));
        }
        if raw.tests.0.is_empty() {
            return Err(doc.error("tests", "a tests file needs at least one test"));
        }
        let mut tests = Vec::with_capacity(raw.tests.0.len());
        for (name, test) in &raw.tests.0 {
            let spec = test.spec(name).map_err(|(field, message)| {
                let field = if field.is_empty() {
                    format!("tests.{name}")
                } else {
                    test_field(name, &field)
                };
                doc.error(&field, message)
            })?;
            if let Some((field, message)) = check_test(&spec, raw.sets.is_some()) {
                return Err(doc.error(&field, message));
            }
            tests.push(spec);
        }
        Ok(WeatTestsFile {
            description: raw.description.clone().unwrap_or_default(),
            sets: raw.sets.clone(),
            tests,
            file: doc.file.clone(),
        })
    }

    /// Resolves set names against `sets` (the parsed JSON of the declared file; `None` when the
    /// file declares none), giving every WEAT test's four sets as words, in file order.
    ///
    /// # Errors
    ///
    /// As [`WeatTestsFile::resolve_queries`], and a test without two target and two attribute
    /// sets.
    pub fn resolve(&self, sets: Option<&BTreeMap<String, Vec<String>>>) -> Result<Vec<WeatTest>, SpecError> {
        let queries = self.resolve_queries(sets)?;
        queries.iter().map(|query| query.weat_in(&self.file)).collect()
    }

    /// Resolves set names against `sets` (the parsed JSON of the declared file; `None` when the
    /// file declares none), giving every test's sets as words, in file order.
    ///
    /// # Errors
    ///
    /// A set name not in `sets` (naming the test, the field and the file), a set name when the
    /// file declares no `sets`, an empty inline list or named set, a word twice in a set or in
    /// two target (or two attribute) sets, a test name that is not a valid name.
    pub fn resolve_queries(
        &self,
        sets: Option<&BTreeMap<String, Vec<String>>>,
    ) -> Result<Vec<QueryTest>, SpecError> {
        let sets_file = self.sets.as_ref().map_or("", |d| d.source.file.as_str());
        let mut out = Vec::with_capacity(self.tests.len());
        for test in &self.tests {
            if let Some((field, message)) = check_test(test, sets.is_some()) {
                return Err(self.error(field, message));
            }
            let words = |spec: &SetSpec| -> Result<WordSet, SpecError> {
                let words = match &spec.set {
                    SetRef::Words(list) => list.clone(),
                    SetRef::Named(name) => {
                        let field = test_field(&test.name, &spec.field);
                        let found = sets.and_then(|s| s.get(name)).ok_or_else(|| {
                            self.error(
                                field.clone(),
                                format!("no set `{name}` in the declared sets file `{sets_file}`"),
                            )
                        })?;
                        if found.is_empty() {
                            return Err(
                                self.error(field, format!("the set `{name}` of `{sets_file}` has no words"))
                            );
                        }
                        found.clone()
                    }
                };
                Ok(WordSet {
                    name: spec.name.clone(),
                    words,
                })
            };
            let query = QueryTest {
                name: test.name.clone(),
                targets: test.targets.iter().map(words).collect::<Result<_, _>>()?,
                attributes: test.attributes.iter().map(words).collect::<Result<_, _>>()?,
            };
            for (specs, sets) in [
                (&test.targets, &query.targets),
                (&test.attributes, &query.attributes),
            ] {
                if let Some((at, message)) = overlap(sets) {
                    return Err(self.error(test_field(&test.name, &specs[at].field), message));
                }
            }
            out.push(query);
        }
        Ok(out)
    }

    /// An error at `field` of this file.
    fn error(&self, field: String, message: String) -> SpecError {
        SpecError::Invalid {
            location: Location {
                file: self.file.clone(),
                line_column: None,
                field,
            },
            message,
        }
    }
}

/// The first word that a test's target (or attribute) sets repeat, with the position of the
/// set at fault: twice in one set (it would count twice), or in two of the sets (the test would
/// compare a word with itself).
fn overlap(sets: &[WordSet]) -> Option<(usize, String)> {
    for (at, set) in sets.iter().enumerate() {
        if let Some((_, word)) = set
            .words
            .iter()
            .enumerate()
            .find(|(i, w)| set.words[..*i].contains(w))
        {
            return Some((at, format!("`{word}` is listed twice")));
        }
    }
    for (second, set) in sets.iter().enumerate() {
        for first in &sets[..second] {
            if let Some(word) = set.words.iter().find(|w| first.words.contains(w)) {
                let which = if sets.len() == 2 {
                    "one of the two sets"
                } else {
                    "one set"
                };
                return Some((
                    second,
                    format!(
                        "`{word}` is also in `{}`: each word belongs to {which}",
                        first.name
                    ),
                ));
            }
        }
    }
    None
}

fn test_field(test: &str, field: &str) -> String {
    format!("tests.{test}.{field}")
}

/// The first problem of one test that needs no declared sets to see: `(field path, message)`.
fn check_test(test: &WeatTestSpec, has_sets: bool) -> Option<(String, String)> {
    if let Some(message) = name_problem("test", &test.name) {
        return Some((format!("tests.{}", test.name), message));
    }
    for spec in test.sets() {
        let field = &spec.field;
        match &spec.set {
            SetRef::Words(words) if words.is_empty() => {
                return Some((
                    test_field(&test.name, field),
                    "an inline list needs at least one word".to_owned(),
                ));
            }
            SetRef::Named(name) if !has_sets => {
                return Some((
                    test_field(&test.name, field),
                    format!(
                        "`{name}` names a set, but the file declares no `sets`: list the words, \
                         or declare a JSON file of named sets"
                    ),
                ));
            }
            _ => {}
        }
    }
    None
}

/// Parses a JSON object of named word sets (`{"name": ["word", …], …}`); `file` names it in
/// errors. The names are returned sorted; a name given twice is an error.
///
/// # Errors
///
/// Text that is not such an object: one error with the file, line, column and the set at fault.
pub fn parse_named_sets(text: &str, file: &Path) -> Result<BTreeMap<String, Vec<String>>, SpecError> {
    let json_error = |field: String, inner: serde_json::Error| {
        let message = inner.to_string();
        let message = match message.find(" at line ") {
            Some(cut) => message[..cut].to_owned(),
            None => message,
        };
        SpecError::Invalid {
            location: Location {
                file: file.to_owned(),
                line_column: (inner.line() > 0).then(|| (inner.line(), inner.column().max(1))),
                field,
            },
            message,
        }
    };
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let sets: Ordered<Vec<String>> =
        serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
            let path = error.path().to_string();
            let field = if path == "." { String::new() } else { path };
            json_error(field, error.into_inner())
        })?;
    deserializer.end().map_err(|e| json_error(String::new(), e))?;
    Ok(sets.0.into_iter().collect())
}
