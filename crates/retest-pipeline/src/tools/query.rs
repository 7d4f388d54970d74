//! The set-level measures of the field on any embedding files, without a pipeline
//! (`retest query`): every measure asked for on every test of a tests file, one table row per
//! (embedding, test, measure). A measure whose shape the test does not have gets a
//! `not_applicable` row.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, bail, ensure};
use retest_measures::{
    Measure, Model, PermutationOptions, RnsbOptions, WeatOptions, WeatSets, ect, mac, ripa_query, rnd, rnsb,
    weat,
};
use retest_rng::SeedPath;
use retest_spec::QueryTest;
use retest_tables::{QueryRow, names};

use crate::driver::project::Folders;
use crate::stages::columns::EMPTY_SET;
use crate::tools::inputs::{EmbeddingFiles, Found, TableFile, WordLookup};
use crate::tools::set_level::{WeatSettings, selected_tests};

/// The status of a measure's row on a test without the sets it takes.
pub const NOT_APPLICABLE: &str = "not_applicable";

/// What `retest query` was asked to do.
#[derive(Debug)]
pub struct QueryRequest<'a> {
    pub embeddings: EmbeddingFiles<'a>,
    /// The tests file.
    pub tests: &'a Path,
    /// Run only these tests (all when empty), in the file's order.
    pub tests_only: &'a [String],
    pub settings: QuerySettings<'a>,
    /// Where declared files are found (the checksum lock beside the recipes).
    pub folders: &'a Folders,
    pub out: TableFile<'a>,
}

/// The measures and how they are computed, the same for every test and embedding.
#[derive(Clone, Copy, Debug)]
pub struct QuerySettings<'a> {
    /// The measures, each a set-level measure that takes target and attribute sets.
    pub measures: &'a [Measure],
    /// WEAT's statistics; its `seed` is also the root of RNSB's holdout split: test `t` draws
    /// from `SeedPath::new(seed).with("rnsb").with(t)`.
    pub weat: WeatSettings,
    /// The share of each attribute set RNSB's classifier does not see (0: every word).
    pub rnsb_holdout: f64,
}

/// The measures a query runs, with the shape each takes: `(target sets, attribute sets)`, `None`
/// for any number (at least one).
const SHAPES: [(Measure, Option<usize>, Option<usize>); 6] = [
    (Measure::Weat, Some(2), Some(2)),
    (Measure::Rnd, Some(2), Some(1)),
    (Measure::Ect, Some(2), Some(1)),
    (Measure::Mac, None, None),
    (Measure::Rnsb, None, Some(2)),
    (Measure::Ripa, Some(2), Some(1)),
];

/// The query measures' names, for messages.
fn query_measures() -> String {
    SHAPES.map(|(m, ..)| m.name()).join(", ")
}

impl QuerySettings<'_> {
    /// Refuses settings no test can run with.
    fn check(&self) -> Result<()> {
        ensure!(
            !self.measures.is_empty(),
            "--measures: give at least one of {}",
            query_measures()
        );
        for m in self.measures {
            if !SHAPES.iter().any(|(s, ..)| s == m) {
                bail!(
                    "--measures: `{m}` is not a query measure (they are: {})",
                    query_measures()
                );
            }
        }
        ensure!(
            (0.0..1.0).contains(&self.rnsb_holdout),
            "--rnsb-holdout must be in [0, 1), found {}",
            self.rnsb_holdout
        );
        self.weat.check()
    }
}

/// Runs every measure on every test of the tests file (or those of `tests_only`) on every
/// embedding file and writes one row per (embedding, test, measure).
///
/// # Errors
///
/// `--out` is refused by the output policy; the settings are refused; a file cannot be read or
/// parsed; `tests_only` names a test the file does not hold; the table cannot be written.
pub fn query_files(req: &QueryRequest<'_>) -> Result<()> {
    req.out.check(&req.embeddings.and(&[req.tests]))?;
    req.settings.check()?;
    let tests = selected_tests(req.folders, req.tests, req.tests_only)?;
    let rows = req.embeddings.rows_of_each(|name, model, err| {
        query_rows(name, model, &req.embeddings.lookup, &tests, &req.settings, err)
    })?;
    req.out.write(names::QUERY_FILE, &rows, "query rows")
}

/// A test's sets looked up in a model: each set's ids, the words left out (as `set:word`; out of
/// the vocabulary, then with an all-zero vector) and the names of the sets left empty.
struct Resolved<'t> {
    targets: Vec<Vec<u32>>,
    /// With two target sets: the pairs of their words at the same place in the lists whose two
    /// words are both in the vocabulary (RIPA's pairs).
    pairs: Vec<(u32, u32)>,
    attributes: Vec<Vec<u32>>,
    dropped: Vec<String>,
    zero: Vec<String>,
    empty: Vec<&'t str>,
}

impl<'t> Resolved<'t> {
    fn of(test: &'t QueryTest, model: &Model<'_>, lookup: &WordLookup) -> Resolved<'t> {
        let (mut dropped, mut zero, mut empty) = (Vec::new(), Vec::new(), Vec::new());
        let mut ids_of = |sets: &'t [retest_spec::WordSet]| -> Vec<Vec<u32>> {
            (sets.iter())
                .map(|set| {
                    let mut ids = Vec::with_capacity(set.words.len());
                    for word in &set.words {
                        match lookup.find(model, word) {
                            Found::Id(id) => ids.push(id),
                            Found::OutOfVocabulary => dropped.push(format!("{}:{word}", set.name)),
                            Found::ZeroVector => zero.push(format!("{}:{word}", set.name)),
                        }
                    }
                    if ids.is_empty() {
                        empty.push(set.name.as_str());
                    }
                    ids
                })
                .collect()
        };
        let targets = ids_of(&test.targets);
        let attributes = ids_of(&test.attributes);
        let pairs = match &test.targets[..] {
            [x, y] => (x.words.iter().zip(&y.words))
                .filter_map(|(a, b)| match (lookup.find(model, a), lookup.find(model, b)) {
                    (Found::Id(a), Found::Id(b)) => Some((a, b)),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        Resolved {
            targets,
            pairs,
            attributes,
            dropped,
            zero,
            empty,
        }
    }

    fn ids(sets: &[Vec<u32>]) -> Vec<&[u32]> {
        sets.iter().map(Vec::as_slice).collect()
    }
}

/// One row per measure of `settings` for each test of `tests` on `model` (`name` in the rows'
/// `embedding` column), the words looked up by `lookup`. A test without the sets a measure takes
/// gets a [`NOT_APPLICABLE`] row, one with a set that has no word in the vocabulary an
/// [`EMPTY_SET`] row; both with NaN values. Words left out and empty sets are reported on `warn`,
/// then a summary line for the model.
///
/// # Errors
///
/// The settings are refused; a measure refuses its input; `warn` cannot be written.
pub fn query_rows(
    name: &str,
    model: &Model<'_>,
    lookup: &WordLookup,
    tests: &[QueryTest],
    settings: &QuerySettings<'_>,
    warn: &mut dyn Write,
) -> Result<Vec<QueryRow>> {
    settings.check()?;
    let mut rows = Vec::with_capacity(tests.len() * settings.measures.len());
    let (mut n_dropped, mut n_empty) = (0, 0);
    for test in tests {
        let sets = Resolved::of(test, model, lookup);
        n_dropped += sets.dropped.len() + sets.zero.len();
        if !sets.zero.is_empty() {
            writeln!(
                warn,
                "warning: {name}: test `{}`: left out for an all-zero vector (no direction): {}",
                test.name,
                sets.zero.join(" ")
            )?;
        }
        if !sets.empty.is_empty() {
            n_empty += 1;
            writeln!(
                warn,
                "warning: {name}: test `{}`: no word of set {} is in the vocabulary; its rows have status {EMPTY_SET}",
                test.name,
                sets.empty.join(", ")
            )?;
        }
        let count = |s: &[Vec<u32>]| s.iter().map(|ids| ids.len() as u32).sum::<u32>();
        for &measure in settings.measures {
            let mut row = QueryRow {
                embedding: name.to_owned(),
                test: test.name.clone(),
                measure: measure.name().to_owned(),
                value: f64::NAN,
                p_value: f64::NAN,
                n_targets: count(&sets.targets),
                n_attributes: count(&sets.attributes),
                status: "ok".to_owned(),
                detail: String::new(),
                dropped: sets
                    .dropped
                    .iter()
                    .chain(&sets.zero)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(" "),
            };
            if let Some(shape) = misfit(measure, test) {
                row.status = NOT_APPLICABLE.to_owned();
                row.detail = shape;
            } else if !sets.empty.is_empty() {
                row.status = EMPTY_SET.to_owned();
                row.detail = sets.empty.join(" ");
            } else if measure == Measure::Ripa && sets.pairs.is_empty() {
                row.status = EMPTY_SET.to_owned();
                row.detail = "no pair of target words with both in the vocabulary".to_owned();
            } else {
                (row.value, row.p_value, row.status) = measured(measure, model, &test.name, &sets, settings)
                    .with_context(|| format!("{name}: test `{}`: {measure}", test.name))?;
            }
            rows.push(row);
        }
    }
    writeln!(
        warn,
        "{name}: {} test(s) × {} measure(s), {n_dropped} word(s) out of vocabulary left out{}",
        tests.len(),
        settings.measures.len(),
        if n_empty > 0 {
            format!(", {n_empty} test(s) with an empty set")
        } else {
            String::new()
        }
    )?;
    Ok(rows)
}

/// Why `measure` does not fit `test` (the sets it takes against the test's), or `None`.
fn misfit(measure: Measure, test: &QueryTest) -> Option<String> {
    let (_, targets, attributes) = SHAPES.iter().find(|(m, ..)| *m == measure)?;
    let fits = |want: &Option<usize>, have: usize| want.is_none_or(|n| n == have);
    let paired = || test.targets[0].words.len() == test.targets[1].words.len();
    if fits(targets, test.targets.len())
        && fits(attributes, test.attributes.len())
        && (measure != Measure::Ripa || paired())
    {
        return None;
    }
    let count = |n: &Option<usize>| n.map_or("any number of".to_owned(), |n| n.to_string());
    if fits(targets, test.targets.len()) && fits(attributes, test.attributes.len()) {
        // RIPA's shape fits; its target sets must pair word by word.
        let (x, y) = (test.targets[0].words.len(), test.targets[1].words.len());
        return Some(format!(
            "ripa pairs the two target sets word by word; they have {x} and {y} words"
        ));
    }
    Some(format!(
        "{measure} takes {} target and {} attribute sets; the test has {} and {}",
        count(targets),
        count(attributes),
        test.targets.len(),
        test.attributes.len()
    ))
}

/// `(value, p-value, status)` of `measure` on a test whose sets fit it and are not empty.
fn measured(
    measure: Measure,
    model: &Model<'_>,
    test: &str,
    sets: &Resolved<'_>,
    settings: &QuerySettings<'_>,
) -> Result<(f64, f64, String)> {
    let (targets, attributes) = (Resolved::ids(&sets.targets), Resolved::ids(&sets.attributes));
    let ok = |value: f64| (value, f64::NAN, "ok".to_owned());
    Ok(match measure {
        Measure::Weat => {
            // The seed path of `retest weat`: the same partitions, the same p-values.
            let seed = SeedPath::new(settings.weat.seed).with("weat").with(test);
            let options = WeatOptions {
                sd: settings.weat.sd,
                permutation: PermutationOptions {
                    exact_limit: settings.weat.exact_max,
                    samples: settings.weat.samples,
                    seed: &seed,
                },
            };
            let sets = WeatSets {
                x: targets[0],
                y: targets[1],
                a: attributes[0],
                b: attributes[1],
            };
            let result = weat(model, &sets, &options)?;
            let status = result.effect_size.status.as_str().to_owned();
            (result.effect_size.d, result.permutation.p, status)
        }
        Measure::Rnd => ok(rnd(model, targets[0], targets[1], attributes[0])?.value),
        Measure::Ect => match ect(model, targets[0], targets[1], attributes[0])? {
            value if value.is_nan() => (value, f64::NAN, "not_computed".to_owned()),
            value => ok(value),
        },
        Measure::Mac => ok(mac(model, &targets, &attributes)?),
        Measure::Ripa => ok(ripa_query(model, &sets.pairs, attributes[0])?),
        Measure::Rnsb => {
            let seed = SeedPath::new(settings.weat.seed).with("rnsb").with(test);
            let options = RnsbOptions {
                holdout: settings.rnsb_holdout,
                seed: &seed,
            };
            ok(rnsb(model, &targets, attributes[0], attributes[1], &options)?)
        }
        other => bail!("`{other}` is not a query measure"),
    })
}
