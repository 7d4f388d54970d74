//! The set-level measures on any embedding files, without a pipeline: WEAT tests from a tests
//! file (`retest weat`) and Bolukbasi et al.'s Direct Bias of pair and principal-component
//! gender directions (`retest direct-bias`), one table row per (embedding, test) or
//! (embedding, direction).

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, bail, ensure};
use retest_measures::{
    DirectionSource, Model, PermutationOptions, SdKind, WeatOptions, WeatSets, bias_subspace, direct_bias,
    gender_direction, weat,
};
use retest_rng::SeedPath;
use retest_spec::{QueryTest, WeatTest};
use retest_tables::{DirectBiasRow, WeatRow, names};

use crate::driver::project::{Folders, lock_file, resolver};
use crate::lists::read_query_tests;
use crate::stages::columns::{EMPTY_SET, PCA_DIRECTION, weat_stats};
use crate::tools::inputs::{EmbeddingFiles, Found, TableFile, WordLookup};
use crate::tools::score::{read_pair_file, read_word_file};

/// What `retest weat` was asked to do.
#[derive(Debug)]
pub struct WeatRequest<'a> {
    pub embeddings: EmbeddingFiles<'a>,
    /// The tests file.
    pub tests: &'a Path,
    /// Run only these tests (all when empty), in the file's order.
    pub tests_only: &'a [String],
    pub settings: WeatSettings,
    /// Where declared files are found (the checksum lock beside the recipes).
    pub folders: &'a Folders,
    pub out: TableFile<'a>,
}

/// How WEAT's statistics are computed, the same for every test and embedding.
#[derive(Clone, Copy, Debug)]
pub struct WeatSettings {
    pub sd: SdKind,
    /// Enumerate every partition of the permutation test when there are at most this many.
    pub exact_max: u64,
    /// Partitions drawn otherwise (at least 1).
    pub samples: u64,
    /// Root seed of the sampled tests: test `t` draws from stream
    /// `retest_measures::WEAT_PERMUTATION_STREAM` of `SeedPath::new(seed).with("weat").with(t)`,
    /// the same partitions for every embedding.
    pub seed: u64,
}

impl WeatSettings {
    /// Refuses settings no test can run with.
    pub(crate) fn check(&self) -> Result<()> {
        ensure!(self.samples >= 1, "--samples must be at least 1");
        Ok(())
    }
}

/// What `retest direct-bias` was asked to do.
#[derive(Debug)]
pub struct DirectBiasRequest<'a> {
    pub embeddings: EmbeddingFiles<'a>,
    /// Base pairs: `masculine feminine` per line.
    pub pairs: &'a Path,
    /// Neutral words: one per line.
    pub words: &'a Path,
    /// The exponent `c` (finite, ≥ 0).
    pub c: f64,
    /// Also Direct Bias on the span of the first 2, …, `components` principal components.
    pub components: usize,
    pub out: TableFile<'a>,
}

/// Runs every test of the tests file (or those of `tests_only`) on every embedding file and
/// writes one row per (embedding, test). A test with a set that has no word in an embedding's
/// vocabulary gets an [`EMPTY_SET`] row with NaN numbers and a warning on stderr; the others
/// still run.
///
/// # Errors
///
/// `--out` is refused by the output policy; a file cannot be read or parsed; `tests_only` names
/// a test the file does not hold; a measure refuses its input; the table cannot be written.
pub fn weat_files(req: &WeatRequest<'_>) -> Result<()> {
    req.out.check(&req.embeddings.and(&[req.tests]))?;
    req.settings.check()?;
    // Every test is read as a query; those run must be WEAT's shape.
    let tests = selected_tests(req.folders, req.tests, req.tests_only)?;
    let tests = (tests.iter())
        .map(|t| t.weat_in(req.tests))
        .collect::<Result<Vec<_>, _>>()?;
    let rows = req.embeddings.rows_of_each(|name, model, err| {
        weat_rows(name, model, &req.embeddings.lookup, &tests, &req.settings, err)
    })?;
    req.out.write(names::WEAT_FILE, &rows, "WEAT rows")
}

/// The tests of the tests file `path` (declared sets found through `folders`' checksum lock), or
/// those of `only` when it names any, in the file's order.
///
/// # Errors
///
/// The file cannot be read, found or parsed; `only` names a test the file does not hold.
pub(crate) fn selected_tests(folders: &Folders, path: &Path, only: &[String]) -> Result<Vec<QueryTest>> {
    let mut resolver = resolver(&lock_file(&folders.recipes(None)))?;
    let mut tests = read_query_tests(path, &mut resolver)?;
    if let Some(name) = only.iter().find(|name| !tests.iter().any(|t| t.name == **name)) {
        bail!(
            "--tests-only: no test `{name}` in {} (it has: {})",
            path.display(),
            tests
                .iter()
                .map(|t| t.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if !only.is_empty() {
        tests.retain(|t| only.contains(&t.name));
    }
    Ok(tests)
}

/// One row per test of `tests` on `model` (`name` in the rows' `embedding` column), the words
/// looked up by `lookup`. A test with a set that has no word in the vocabulary gets an
/// [`EMPTY_SET`] row with NaN numbers; the others still run. Words left out (out of the
/// vocabulary, or with an all-zero vector) and empty sets are reported on `warn`, then a
/// summary line for the model.
///
/// # Errors
///
/// `settings.samples` is 0; a measure refuses its input; `warn` cannot be written.
pub fn weat_rows(
    name: &str,
    model: &Model<'_>,
    lookup: &WordLookup,
    tests: &[WeatTest],
    settings: &WeatSettings,
    warn: &mut dyn Write,
) -> Result<Vec<WeatRow>> {
    settings.check()?;
    let mut rows = Vec::with_capacity(tests.len());
    let (mut n_dropped, mut n_empty) = (0, 0);
    for test in tests {
        let sets = [("x", &test.x), ("y", &test.y), ("a", &test.a), ("b", &test.b)];
        let mut ids: [Vec<u32>; 4] = Default::default();
        let (mut dropped, mut zero) = (Vec::new(), Vec::new());
        for ((set, words), ids) in sets.iter().zip(&mut ids) {
            for word in *words {
                match lookup.find(model, word) {
                    Found::Id(id) => ids.push(id),
                    Found::OutOfVocabulary => dropped.push(format!("{set}:{word}")),
                    Found::ZeroVector => zero.push(format!("{set}:{word}")),
                }
            }
        }
        if !zero.is_empty() {
            writeln!(
                warn,
                "warning: {name}: test `{}`: left out for an all-zero vector (no direction): {}",
                test.name,
                zero.join(" ")
            )?;
        }
        n_dropped += dropped.len() + zero.len();
        dropped.extend(zero);
        let mut row = WeatRow {
            embedding: name.to_owned(),
            test: test.name.clone(),
            weat: weat_stats([&ids[0], &ids[1], &ids[2], &ids[3]], None),
            status: EMPTY_SET.to_owned(),
            detail: String::new(),
            dropped: dropped.join(" "),
        };
        let empty: Vec<&str> = sets
            .iter()
            .zip(&ids)
            .filter(|(_, ids)| ids.is_empty())
            .map(|((set, _), _)| *set)
            .collect();
        if !empty.is_empty() {
            n_empty += 1;
            row.detail = empty.join(" ");
            writeln!(
                warn,
                "warning: {name}: test `{}`: no word of set {} is in the vocabulary; its row has status {EMPTY_SET}",
                test.name,
                empty.join(", ")
            )?;
            rows.push(row);
            continue;
        }
        let seed = SeedPath::new(settings.seed).with("weat").with(&test.name);
        let options = WeatOptions {
            sd: settings.sd,
            permutation: PermutationOptions {
                exact_limit: settings.exact_max,
                samples: settings.samples,
                seed: &seed,
            },
        };
        let sets = WeatSets {
            x: &ids[0],
            y: &ids[1],
            a: &ids[2],
            b: &ids[3],
        };
        let result = weat(model, &sets, &options).with_context(|| format!("{name}: test `{}`", test.name))?;
        row.weat = weat_stats([&ids[0], &ids[1], &ids[2], &ids[3]], Some(&result));
        row.status = result.effect_size.status.as_str().to_owned();
        rows.push(row);
    }
    writeln!(
        warn,
        "{name}: {} test(s), {n_dropped} word(s) out of vocabulary left out{}",
        tests.len(),
        if n_empty > 0 {
            format!(", {n_empty} test(s) with an empty set")
        } else {
            String::new()
        }
    )?;
    Ok(rows)
}

/// Direct Bias of the neutral words along every pair's own direction and along the first
/// principal component of all the pairs in the vocabulary, for every embedding file: one row
/// per (embedding, direction).
///
/// # Errors
///
/// `--out` is refused by the output policy; `c` is negative or not finite; a file cannot be read or
/// parsed; an embedding has no neutral word, or fewer than 2 pairs, in its vocabulary; a pair
/// is degenerate; the table cannot be written.
pub fn direct_bias_files(req: &DirectBiasRequest<'_>) -> Result<()> {
    req.out.check(&req.embeddings.and(&[req.pairs, req.words]))?;
    check_exponent(req.c)?;
    let pairs = read_pair_file(req.pairs)?;
    let words = read_word_file(req.words)?;
    let (pairs_from, words_from) = (req.pairs.display().to_string(), req.words.display().to_string());
    let input = DirectBiasInput {
        pairs: &pairs.pairs,
        pairs_from: &pairs_from,
        words: &words.words,
        words_from: &words_from,
        c: req.c,
        components: req.components,
    };
    let rows = req.embeddings.rows_of_each(|name, model, err| {
        direct_bias_rows(name, model, &req.embeddings.lookup, &input, err)
    })?;
    req.out.write(names::DIRECT_BIAS_FILE, &rows, "Direct Bias rows")
}

/// Refuses a Direct Bias exponent `c` that is negative or not finite.
fn check_exponent(c: f64) -> Result<()> {
    ensure!(
        c.is_finite() && c >= 0.0,
        "--c must be a finite number ≥ 0, found {c}"
    );
    Ok(())
}

/// What Direct Bias is measured with: base pairs (masculine first) and neutral words, each with
/// where they came from (a file's path, for messages), and the exponent `c`.
#[derive(Clone, Copy, Debug)]
pub struct DirectBiasInput<'a> {
    pub pairs: &'a [(String, String)],
    pub pairs_from: &'a str,
    pub words: &'a [String],
    pub words_from: &'a str,
    /// The exponent `c` (finite, ≥ 0).
    pub c: f64,
    /// Also Direct Bias on the span of the first 2, …, `components` principal components (1:
    /// the first component only).
    pub components: usize,
}

/// Direct Bias of the neutral words on `model` (`name` in the rows) along every pair's own
/// direction and along the first principal component of all the pairs in the vocabulary: one
/// row per direction. Words and pairs out of the vocabulary are dropped and counted on `warn`.
///
/// # Errors
///
/// `c` is negative or not finite; no neutral word, or fewer than 2 pairs, is in the vocabulary; a
/// pair is degenerate; `warn` cannot be written.
pub fn direct_bias_rows(
    name: &str,
    model: &Model<'_>,
    lookup: &WordLookup,
    input: &DirectBiasInput<'_>,
    warn: &mut dyn Write,
) -> Result<Vec<DirectBiasRow>> {
    check_exponent(input.c)?;
    let (mut pair_ids, mut pairs_in, mut pairs_out) = (Vec::new(), Vec::new(), Vec::new());
    let mut zero = Vec::new();
    for (m, f) in input.pairs {
        match (lookup.find(model, m), lookup.find(model, f)) {
            (Found::Id(mi), Found::Id(fi)) => {
                pair_ids.push((mi, fi));
                pairs_in.push((m, f));
            }
            (a, b) if a == Found::ZeroVector || b == Found::ZeroVector => zero.push(format!("{m}:{f}")),
            _ => pairs_out.push(format!("{m}:{f}")),
        }
    }
    let (mut neutral, mut words_out) = (Vec::new(), Vec::new());
    for w in input.words {
        match lookup.find(model, w) {
            Found::Id(id) => neutral.push(id),
            Found::OutOfVocabulary => words_out.push(w.clone()),
            Found::ZeroVector => zero.push(w.clone()),
        }
    }
    if !zero.is_empty() {
        writeln!(
            warn,
            "warning: {name}: left out for an all-zero vector (no direction): {}",
            zero.join(" ")
        )?;
    }
    let dropped = |what: &str, list: &[String]| {
        if list.is_empty() {
            String::new()
        } else {
            format!("; {what} dropped: {}", list.join(" "))
        }
    };
    ensure!(
        !neutral.is_empty(),
        "{name}: none of the {} words of {} is in the vocabulary",
        input.words.len(),
        input.words_from
    );
    ensure!(
        pair_ids.len() >= 2,
        "{name}: direction `{PCA_DIRECTION}` needs at least 2 pairs in the vocabulary, found {} of the {} in {}{}",
        pair_ids.len(),
        input.pairs.len(),
        input.pairs_from,
        dropped("pairs", &pairs_out),
    );
    writeln!(
        warn,
        "{name}: {} of {} pairs and {} of {} words in the vocabulary{}{}",
        pair_ids.len(),
        input.pairs.len(),
        neutral.len(),
        input.words.len(),
        dropped("pairs", &pairs_out),
        dropped("words", &words_out),
    )?;
    let mut directions = Vec::with_capacity(pair_ids.len() + 1);
    for (&(mi, fi), (m, f)) in pair_ids.iter().zip(&pairs_in) {
        let direction = format!("{m}:{f}");
        let g = gender_direction(model, DirectionSource::Pair(mi, fi))
            .with_context(|| format!("{name}: direction `{direction}`"))?;
        directions.push((direction, g, f64::NAN));
    }
    let g = gender_direction(model, DirectionSource::PrincipalComponent(&pair_ids))
        .with_context(|| format!("{name}: direction `{PCA_DIRECTION}`"))?;
    let explained = g.explained_variance_ratio.first().copied().unwrap_or(f64::NAN);
    directions.push((PCA_DIRECTION.to_owned(), g, explained));
    let mut rows = Vec::with_capacity(directions.len());
    for (direction, g, explained_variance) in directions {
        let bias = direct_bias(model, &g, &neutral, input.c)
            .with_context(|| format!("{name}: direction `{direction}`"))?;
        rows.push(DirectBiasRow {
            embedding: name.to_owned(),
            direction,
            c: input.c,
            n_words: neutral.len() as u32,
            direct_bias: bias.value,
            explained_variance,
        });
    }
    rows.extend(subspace_rows(name, model, &pair_ids, &neutral, input)?);
    Ok(rows)
}

/// Direct Bias on the span of the first k = 2, …, `input.components` principal components of
/// the pairs (directions `pca:k`; the projection norm's reading, with the first k components'
/// share of variance), NaN beyond the components the pairs span.
///
/// # Errors
///
/// More components than the pairs in the vocabulary allow.
fn subspace_rows(
    name: &str,
    model: &Model<'_>,
    pairs: &[(u32, u32)],
    neutral: &[u32],
    input: &DirectBiasInput<'_>,
) -> Result<Vec<DirectBiasRow>> {
    if input.components < 2 {
        return Ok(Vec::new());
    }
    let sub =
        bias_subspace(model, pairs, input.components).with_context(|| format!("{name}: --components"))?;
    let mut rows = Vec::new();
    for k in 2..=input.components {
        let direct_bias = (sub.direct_bias(model, k, neutral, input.c)?).map_or(f64::NAN, |db| db.value);
        rows.push(DirectBiasRow {
            embedding: name.to_owned(),
            direction: format!("{PCA_DIRECTION}:{k}"),
            c: input.c,
            n_words: neutral.len() as u32,
            direct_bias,
            explained_variance: sub.explained_variance_ratio[..k].iter().sum(),
        });
    }
    Ok(rows)
}
