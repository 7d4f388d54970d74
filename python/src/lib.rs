//! `retest._retest`: the Rust side of the Python package, a thin layer over the library crates
//! the `retest` command uses. Python's `retest/__init__.py` wraps it: numpy arrays in and out,
//! polars tables from the JSON reports.
//!
//! Every error becomes a `retest.RetestError` (a `ValueError`) carrying the command line's
//! one-line message; long work runs with the GIL released.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use pyo3::create_exception;
use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use retest_embeddings::Format;
use retest_measures::{Constraint, Measure, Model, Rule, Scoring};
use retest_pipeline::{CriterionSource, Overwrite, QueryLine, WeatSettings, WordLookup};
use retest_reliability::Matrix;
use retest_spec::{QueryTest, WeatTest, WordSet, defaults};
use retest_tables::{Row, Table, TableName, names};

// Named `retest.RetestError`, where users catch it.
create_exception!(
    retest,
    RetestError,
    PyValueError,
    "An error of retest, with the one-line message the `retest` command prints."
);

/// `error` as a [`RetestError`] with the command's one-line message.
fn raised(error: impl Into<anyhow::Error>) -> PyErr {
    RetestError::new_err(retest_pipeline::one_line(&error.into()))
}

fn format_named(name: Option<&str>) -> PyResult<Option<Format>> {
    name.map(str::parse::<Format>).transpose().map_err(raised)
}

/// The setting named `name` (by its stable name, as the command's flag takes it), else `default`.
fn parsed<T>(name: Option<&str>, default: T) -> PyResult<T>
where
    T: std::str::FromStr,
    T::Err: Into<anyhow::Error>,
{
    name.map_or(Ok(default), |n| n.parse().map_err(raised))
}

/// The folders the commands find word lists and the checksum lock in: the ones given, else the
/// current folder's project (`wordlists/`, `corpora/`), as for the command.
fn folders(wordlists: Option<PathBuf>, corpora: Option<PathBuf>) -> retest_pipeline::Folders {
    retest_pipeline::Folders {
        results: PathBuf::from("results"),
        corpora,
        wordlists,
    }
}

/// Word vectors: a vocabulary and one `dim`-float row per word.
#[pyclass(module = "retest._retest", name = "Embeddings", frozen)]
#[derive(Debug)]
struct PyEmbeddings {
    inner: retest_embeddings::Embeddings,
}

#[pymethods]
impl PyEmbeddings {
    /// Reads an embedding file in any format the `retest` command reads (detected from its
    /// content, or `format`: fifu, word2vec-text, word2vec-binary, glove-text).
    #[staticmethod]
    #[pyo3(signature = (path, format=None))]
    fn load(py: Python<'_>, path: PathBuf, format: Option<&str>) -> PyResult<Self> {
        let format = format_named(format)?;
        let inner = py
            .allow_threads(|| retest_embeddings::read(&path, format))
            .map_err(raised)?;
        Ok(PyEmbeddings { inner })
    }

    /// Embeddings from words and `len(words) × dim` little-endian `float32` values, row-major.
    #[staticmethod]
    fn from_raw(words: Vec<String>, dim: usize, values: &[u8]) -> PyResult<Self> {
        if !values.len().is_multiple_of(4) {
            return Err(RetestError::new_err(format!(
                "{} bytes of vectors are not whole float32 values",
                values.len()
            )));
        }
        let vectors: Vec<f32> = values
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        let inner = retest_embeddings::Embeddings::new(words, dim, vectors).map_err(raised)?;
        Ok(PyEmbeddings { inner })
    }

    /// The vocabulary, in row order.
    #[getter]
    fn words(&self) -> Vec<String> {
        self.inner.words().to_vec()
    }

    /// Floats per vector.
    #[getter]
    fn dim(&self) -> usize {
        self.inner.dim()
    }

    fn __len__(&self) -> usize {
        self.inner.n_words()
    }

    fn __contains__(&self, word: &str) -> bool {
        self.inner.index(word).is_some()
    }

    /// The vector of `word` as little-endian `float32` bytes.
    fn vector_bytes<'py>(&self, py: Python<'py>, word: &str) -> PyResult<Bound<'py, PyBytes>> {
        let row = self
            .inner
            .get(word)
            .ok_or_else(|| PyKeyError::new_err(word.to_owned()))?;
        Ok(PyBytes::new(py, &le_bytes(row)))
    }

    /// Every vector, row-major, as little-endian `float32` bytes.
    fn matrix_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &le_bytes(self.inner.vectors()))
    }

    /// Writes the embeddings as `retest export` does: the format is `format` or the one the
    /// file name ends in; an existing file is replaced only with `force`.
    #[pyo3(signature = (path, format=None, force=false))]
    fn save(&self, py: Python<'_>, path: PathBuf, format: Option<&str>, force: bool) -> PyResult<()> {
        let format = format_named(format)?;
        py.allow_threads(|| {
            retest_pipeline::save_embeddings(&self.inner, &path, format, Overwrite::forced(force))
        })
        .map_err(raised)
    }

    fn __repr__(&self) -> String {
        format!(
            "Embeddings({} words, dim {})",
            self.inner.n_words(),
            self.inner.dim()
        )
    }
}

fn le_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Ratings in long form as a matrix: one row per subject and one column per rater, each in the
/// order of its first appearance; a cell no rating fills is missing (NaN). The labels name the
/// cell of an error.
struct Wide {
    subjects: Vec<String>,
    raters: Vec<String>,
    values: Vec<f64>,
}

impl Wide {
    fn from_long(subjects: Vec<String>, raters: Vec<String>, values: Vec<f64>) -> PyResult<Wide> {
        if subjects.len() != raters.len() || raters.len() != values.len() {
            return Err(RetestError::new_err(format!(
                "the subject, rater and value columns differ in length ({}, {}, {})",
                subjects.len(),
                raters.len(),
                values.len()
            )));
        }
        // Each label's position, in the order of first appearance (looked up in a map: a long
        // table has one row per subject and rater).
        fn position(labels: &mut Vec<String>, index: &mut BTreeMap<String, usize>, label: &str) -> usize {
            *index.entry(label.to_owned()).or_insert_with(|| {
                labels.push(label.to_owned());
                labels.len() - 1
            })
        }
        let (mut rows, mut cols) = (Vec::new(), Vec::new());
        let (mut row_index, mut col_index) = (BTreeMap::new(), BTreeMap::new());
        let cells: Vec<(usize, usize)> = subjects
            .iter()
            .zip(&raters)
            .map(|(s, r)| {
                (
                    position(&mut rows, &mut row_index, s),
                    position(&mut cols, &mut col_index, r),
                )
            })
            .collect();
        let mut wide = vec![f64::NAN; rows.len() * cols.len()];
        let mut filled = vec![false; wide.len()];
        for ((i, j), value) in cells.into_iter().zip(values) {
            let at = i * cols.len() + j;
            if std::mem::replace(&mut filled[at], true) {
                return Err(RetestError::new_err(format!(
                    "subject `{}`, rater `{}`: more than one value",
                    rows[i], cols[j]
                )));
            }
            wide[at] = value;
        }
        Ok(Wide {
            subjects: rows,
            raters: cols,
            values: wide,
        })
    }

    fn matrix(&self) -> PyResult<Matrix<'_>> {
        Matrix::new(&self.values, self.subjects.len(), self.raters.len()).map_err(raised)
    }
}

/// The six ICC forms (or the one named by `form`) of long-form ratings, as the JSON
/// `retest stats icc` prints.
#[pyfunction]
#[pyo3(signature = (subjects, raters, values, form=None))]
fn icc_json(
    subjects: Vec<String>,
    raters: Vec<String>,
    values: Vec<f64>,
    form: Option<&str>,
) -> PyResult<String> {
    let wide = Wide::from_long(subjects, raters, values)?;
    let report = retest_pipeline::icc_report(wide.matrix()?, form).map_err(raised)?;
    Ok(report.to_string())
}

/// Cronbach's alpha of long-form data (cases × items), as the JSON `retest stats alpha` prints.
#[pyfunction]
fn alpha_json(cases: Vec<String>, items: Vec<String>, values: Vec<f64>) -> PyResult<String> {
    let wide = Wide::from_long(cases, items, values)?;
    Ok(retest_pipeline::alpha_report(wide.matrix()?).to_string())
}

/// Fleiss' kappa (and Cohen's for two raters) of long-form category labels, as the JSON
/// `retest stats kappa` prints.
#[pyfunction]
fn kappa_json(subjects: Vec<String>, raters: Vec<String>, labels: Vec<f64>) -> PyResult<String> {
    let wide = Wide::from_long(subjects, raters, labels)?;
    let cell = |row: usize, column: usize| {
        format!(
            "subject `{}`, rater `{}`",
            wide.subjects[row], wide.raters[column]
        )
    };
    let report = retest_pipeline::kappa_report(wide.matrix()?, &cell).map_err(raised)?;
    Ok(report.to_string())
}

/// One WEAT test as Python passes it: its name and the sets X, Y, A, B.
type TestSets = (String, Vec<String>, Vec<String>, Vec<String>, Vec<String>);

/// The tests of a WEAT tests file (the `retest weat --tests` format; a declared sets file is
/// found and checked as the command finds it, from the current folder's project).
#[pyfunction]
fn weat_tests_file(path: PathBuf) -> PyResult<Vec<TestSets>> {
    let folders = folders(None, None);
    let lock = retest_pipeline::lock_file(&folders.recipes(None));
    let mut resolver = retest_pipeline::resolver(&lock).map_err(raised)?;
    let tests = retest_pipeline::read_weat_tests(&path, &mut resolver).map_err(raised)?;
    Ok(tests.into_iter().map(|t| (t.name, t.x, t.y, t.a, t.b)).collect())
}

/// WEAT of every test on every embedding (`names` name them in the table), as `retest weat`
/// computes it (a setting not given takes the command's default): the table as Parquet bytes,
/// and the warnings the command prints.
#[pyfunction]
#[pyo3(signature = (embeddings, names, tests, sd=None, exact_max=None, samples=None, seed=None, lowercase=false))]
#[allow(clippy::too_many_arguments)]
fn weat_parquet<'py>(
    py: Python<'py>,
    embeddings: Vec<PyRef<'py, PyEmbeddings>>,
    names: Vec<String>,
    tests: Vec<TestSets>,
    sd: Option<&str>,
    exact_max: Option<u64>,
    samples: Option<u64>,
    seed: Option<u64>,
    lowercase: bool,
) -> PyResult<(Bound<'py, PyBytes>, String)> {
    let settings = weat_settings(sd, exact_max, samples, seed)?;
    let tests: Vec<WeatTest> = tests
        .into_iter()
        .map(|(name, x, y, a, b)| WeatTest { name, x, y, a, b })
        .collect();
    let models = inner(&embeddings);
    let lookup = WordLookup { lowercase };
    table_of(py, names::WEAT_FILE, |warnings| {
        rows_of_each(&models, &names, |name, model| {
            retest_pipeline::weat_rows(name, model, &lookup, &tests, &settings, warnings)
        })
    })
}

/// One test of `retest query` as Python passes it: its name, and its target and attribute sets,
/// each named.
type QuerySets = (String, Vec<(String, Vec<String>)>, Vec<(String, Vec<String>)>);

/// The tests of a tests file as queries (the `retest query --tests` format; a declared sets file
/// is found and checked as the command finds it, from the current folder's project).
#[pyfunction]
fn query_tests_file(path: PathBuf) -> PyResult<Vec<QuerySets>> {
    let folders = folders(None, None);
    let mut resolver =
        retest_pipeline::resolver(&retest_pipeline::lock_file(&folders.recipes(None))).map_err(raised)?;
    let tests = retest_pipeline::read_query_tests(&path, &mut resolver).map_err(raised)?;
    let named = |sets: Vec<WordSet>| sets.into_iter().map(|s| (s.name, s.words)).collect();
    Ok(tests
        .into_iter()
        .map(|t| (t.name, named(t.targets), named(t.attributes)))
        .collect())
}

/// The measures of `retest query` on every test and embedding (a setting not given takes the
/// command's default): the table as Parquet bytes, and the lines the command prints.
#[pyfunction]
#[pyo3(signature = (embeddings, names, tests, measures=None, rnsb_holdout=None, sd=None, exact_max=None, samples=None, seed=None, lowercase=false))]
#[allow(clippy::too_many_arguments)]
fn query_parquet<'py>(
    py: Python<'py>,
    embeddings: Vec<PyRef<'py, PyEmbeddings>>,
    names: Vec<String>,
    tests: Vec<QuerySets>,
    measures: Option<Vec<String>>,
    rnsb_holdout: Option<f64>,
    sd: Option<&str>,
    exact_max: Option<u64>,
    samples: Option<u64>,
    seed: Option<u64>,
    lowercase: bool,
) -> PyResult<(Bound<'py, PyBytes>, String)> {
    let measures: Vec<Measure> = match measures {
        None => defaults::QUERY_MEASURES.to_vec(),
        Some(names) => (names.iter())
            .map(|n| n.parse().map_err(raised))
            .collect::<PyResult<_>>()?,
    };
    let settings = retest_pipeline::QuerySettings {
        measures: &measures,
        weat: weat_settings(sd, exact_max, samples, seed)?,
        rnsb_holdout: rnsb_holdout.unwrap_or(defaults::RNSB_HOLDOUT),
    };
    let sets = |sets: Vec<(String, Vec<String>)>| {
        sets.into_iter()
            .map(|(name, words)| WordSet { name, words })
            .collect()
    };
    let tests: Vec<QueryTest> = (tests.into_iter())
        .map(|(name, targets, attributes)| QueryTest {
            name,
            targets: sets(targets),
            attributes: sets(attributes),
        })
        .collect();
    let models = inner(&embeddings);
    let lookup = WordLookup { lowercase };
    table_of(py, names::QUERY_FILE, |warnings| {
        rows_of_each(&models, &names, |name, model| {
            retest_pipeline::query_rows(name, model, &lookup, &tests, &settings, warnings)
        })
    })
}

/// WEAT's settings, each the command's default when not given.
fn weat_settings(
    sd: Option<&str>,
    exact_max: Option<u64>,
    samples: Option<u64>,
    seed: Option<u64>,
) -> PyResult<WeatSettings> {
    Ok(WeatSettings {
        sd: parsed(sd, defaults::WEAT_SD)?,
        exact_max: exact_max.unwrap_or(defaults::WEAT_EXACT_PARTITIONS_MAX),
        samples: samples.unwrap_or(defaults::WEAT_SAMPLED_PARTITIONS),
        seed: seed.unwrap_or(defaults::WEAT_SEED),
    })
}

/// Direct Bias (Bolukbasi et al. 2016) of `words` along each pair's direction and the pairs'
/// first principal component on every embedding, as `retest direct-bias` computes it (`c` the
/// command's default when not given): the table as Parquet bytes, and the warnings the command
/// prints.
#[pyfunction]
#[pyo3(signature = (embeddings, names, pairs, pairs_from, words, words_from, c=None, components=None, lowercase=false))]
#[allow(clippy::too_many_arguments)]
fn direct_bias_parquet<'py>(
    py: Python<'py>,
    embeddings: Vec<PyRef<'py, PyEmbeddings>>,
    names: Vec<String>,
    pairs: Vec<(String, String)>,
    pairs_from: String,
    words: Vec<String>,
    words_from: String,
    c: Option<f64>,
    components: Option<usize>,
    lowercase: bool,
) -> PyResult<(Bound<'py, PyBytes>, String)> {
    let models = inner(&embeddings);
    let input = retest_pipeline::DirectBiasInput {
        pairs: &pairs,
        pairs_from: &pairs_from,
        words: &words,
        words_from: &words_from,
        c: c.unwrap_or(defaults::DIRECT_BIAS_C),
        components: components.unwrap_or(1),
    };
    let lookup = WordLookup { lowercase };
    table_of(py, names::DIRECT_BIAS_FILE, |warnings| {
        rows_of_each(&models, &names, |name, model| {
            retest_pipeline::direct_bias_rows(name, model, &lookup, &input, warnings)
        })
    })
}

/// The quality benchmarks of `retest eval` (word similarity, Google and MSR analogies from the
/// folder `benchmarks`) on `embeddings` (named `name` in the table): the table as Parquet bytes,
/// and the warnings the command prints.
#[pyfunction]
fn evaluate_parquet<'py>(
    py: Python<'py>,
    embeddings: PyRef<'py, PyEmbeddings>,
    name: String,
    benchmarks: PathBuf,
) -> PyResult<(Bound<'py, PyBytes>, String)> {
    let emb = &embeddings.inner;
    table_of(py, names::EVAL_FILE, |warnings| {
        Ok(retest_pipeline::evaluate(&name, emb, &benchmarks, warnings)?.1)
    })
}

/// The embeddings inside the Python objects.
fn inner<'a>(embeddings: &'a [PyRef<'_, PyEmbeddings>]) -> Vec<&'a retest_embeddings::Embeddings> {
    embeddings.iter().map(|e| &e.inner).collect()
}

/// The rules and their settings as Python gives them, each the command's default when not given
/// (`threads`: all cores).
struct Rules {
    rules: Vec<Rule>,
    ripa_target: retest_measures::RipaTarget,
    nbm_k: usize,
    nbm_pool: retest_measures::NbmPool,
    /// The words the neutral pool leaves out (none with the vocabulary).
    pool_exclude: Vec<String>,
    threads: usize,
}

/// The settings of NBM's neighbour pool as Python gives them: its kind and, for the neutral
/// pool, the lists whose words it leaves out (the command's default lists when not given),
/// found through `folders`.
struct Pool<'a> {
    kind: Option<&'a str>,
    exclude: Option<Vec<String>>,
    folders: &'a retest_pipeline::Folders,
}

impl Rules {
    fn of(
        rules: Option<Vec<String>>,
        ripa_target: Option<&str>,
        nbm_k: Option<usize>,
        pool: Pool<'_>,
        threads: Option<usize>,
    ) -> PyResult<Rules> {
        let nbm_pool = parsed(pool.kind, defaults::NBM_POOL)?;
        let pool_exclude = match nbm_pool {
            retest_measures::NbmPool::Vocabulary => Vec::new(),
            retest_measures::NbmPool::Neutral => {
                let names = (pool.exclude).unwrap_or_else(|| {
                    defaults::ZHANG_POOL_EXCLUDE
                        .iter()
                        .map(|s| (*s).to_owned())
                        .collect()
                });
                let lock = retest_pipeline::lock_file(&pool.folders.recipes(None));
                let mut resolver = retest_pipeline::resolver(&lock).map_err(raised)?;
                retest_pipeline::pool_exclude_words(&names, &pool.folders.wordlists(None), &mut resolver)
                    .map_err(raised)?
            }
        };
        Ok(Rules {
            rules: match rules {
                None => defaults::RULES.to_vec(),
                Some(names) => (names.iter())
                    .map(|n| n.parse().map_err(raised))
                    .collect::<PyResult<_>>()?,
            },
            ripa_target: parsed(ripa_target, defaults::RIPA_TARGET)?,
            nbm_k: nbm_k.unwrap_or(defaults::NBM_K as usize),
            nbm_pool,
            pool_exclude,
            threads: threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)),
        })
    }

    fn scoring(&self) -> Scoring<'_> {
        Scoring {
            rules: &self.rules,
            ripa_target: self.ripa_target,
            nbm_k: self.nbm_k,
            nbm_pool: self.nbm_pool,
            pool_exclude: &self.pool_exclude,
            threads: self.threads,
        }
    }
}

/// Bias scores of `words` against every pair under every rule on every embedding, as
/// `retest score` computes them (a setting not given takes the command's default; `threads`:
/// all cores): the table as Parquet bytes, and the lines the command prints.
#[pyfunction]
#[pyo3(signature = (embeddings, names, pairs, words, rules=None, ripa_target=None, nbm_k=None, nbm_pool=None, pool_exclude=None, threads=None, lowercase=false, wordlists=None, corpora=None))]
#[allow(clippy::too_many_arguments)]
fn score_parquet<'py>(
    py: Python<'py>,
    embeddings: Vec<PyRef<'py, PyEmbeddings>>,
    names: Vec<String>,
    pairs: Vec<(String, String)>,
    words: Vec<String>,
    rules: Option<Vec<String>>,
    ripa_target: Option<&str>,
    nbm_k: Option<usize>,
    nbm_pool: Option<&str>,
    pool_exclude: Option<Vec<String>>,
    threads: Option<usize>,
    lowercase: bool,
    wordlists: Option<PathBuf>,
    corpora: Option<PathBuf>,
) -> PyResult<(Bound<'py, PyBytes>, String)> {
    let folders = folders(wordlists, corpora);
    let pool = Pool {
        kind: nbm_pool,
        exclude: pool_exclude,
        folders: &folders,
    };
    let rules = Rules::of(rules, ripa_target, nbm_k, pool, threads)?;
    let input = retest_pipeline::ScoreInput::new(pairs, words, &WordLookup { lowercase }, rules.scoring());
    let models = inner(&embeddings);
    table_of(py, names::SCORES, |warnings| {
        rows_of_each(&models, &names, |name, model| {
            retest_pipeline::score_rows(name, model, &input, warnings)
        })
    })
}

/// A criterion as Python gives it: `census` (of `census_year`), `mturk`, a `word,value` CSV file,
/// or its words and values.
#[derive(FromPyObject)]
enum CriterionArg {
    Named(String),
    Given(Vec<String>, Vec<f64>),
}

/// The validity of every rule's scores along every pair on every embedding against a criterion,
/// as `retest validity` computes it (a setting not given takes the command's default; `pairs`:
/// the word-list folder's `du2021/base-pairs.txt`): the table
/// as Parquet bytes, and the lines the command prints.
#[pyfunction]
#[pyo3(signature = (embeddings, names, pairs, criterion, census_year=None, rules=None, ripa_target=None, nbm_k=None, nbm_pool=None, pool_exclude=None, threads=None, lowercase=false, wordlists=None, corpora=None))]
#[allow(clippy::too_many_arguments)]
fn validity_parquet<'py>(
    py: Python<'py>,
    embeddings: Vec<PyRef<'py, PyEmbeddings>>,
    names: Vec<String>,
    pairs: Option<Vec<(String, String)>>,
    criterion: CriterionArg,
    census_year: Option<u32>,
    rules: Option<Vec<String>>,
    ripa_target: Option<&str>,
    nbm_k: Option<usize>,
    nbm_pool: Option<&str>,
    pool_exclude: Option<Vec<String>>,
    threads: Option<usize>,
    lowercase: bool,
    wordlists: Option<PathBuf>,
    corpora: Option<PathBuf>,
) -> PyResult<(Bound<'py, PyBytes>, String)> {
    let folders = folders(wordlists, corpora);
    let criterion = match criterion {
        CriterionArg::Given(words, values) => retest_pipeline::Criterion {
            name: "criterion".to_owned(),
            words,
            values,
            left_out: Vec::new(),
        },
        CriterionArg::Named(name) => {
            let source = CriterionSource::named(&name, census_year).map_err(raised)?;
            let mut resolver = retest_pipeline::resolver(&retest_pipeline::lock_file(&folders.recipes(None)))
                .map_err(raised)?;
            retest_pipeline::read_criterion(source, &folders.wordlists(None), &mut resolver)
                .map_err(raised)?
        }
    };
    let pairs = match pairs {
        Some(pairs) => pairs,
        None => {
            (retest_pipeline::read_pair_file(&folders.wordlists(None).join(defaults::VALIDITY_PAIRS)))
                .map_err(raised)?
                .pairs
        }
    };
    let pool = Pool {
        kind: nbm_pool,
        exclude: pool_exclude,
        folders: &folders,
    };
    let rules = Rules::of(rules, ripa_target, nbm_k, pool, threads)?;
    let lookup = WordLookup { lowercase };
    let input = retest_pipeline::ScoreInput::new(pairs, criterion.words.clone(), &lookup, rules.scoring());
    let models = inner(&embeddings);
    table_of(py, names::VALIDITY_FILE, |warnings| {
        rows_of_each(&models, &names, |name, model| {
            retest_pipeline::validity_rows(name, model, &lookup, &input, &criterion, warnings)
        })
    })
}

/// A list of hard debiasing as Python gives it: a declared list's name or a file, or its
/// entries.
#[derive(FromPyObject)]
enum ListArg<T> {
    Named(String),
    Given(Vec<T>),
}

impl<T> ListArg<T> {
    /// The list, named ones read as `retest debias` reads them (`read`), entries given named
    /// `given`.
    fn list(
        self,
        what: &str,
        read: impl FnOnce(&str) -> anyhow::Result<retest_pipeline::DebiasList<T>>,
    ) -> PyResult<retest_pipeline::DebiasList<T>> {
        match self {
            ListArg::Named(name) => read(&name).map_err(raised),
            ListArg::Given(entries) if entries.is_empty() => Err(RetestError::new_err(format!(
                "the {what} given: the list is empty"
            ))),
            ListArg::Given(entries) => Ok(retest_pipeline::DebiasList {
                name: "given".to_owned(),
                entries,
                file: None,
            }),
        }
    }
}

/// `embedding` hard-debiased as `retest debias` does it (`name` in the lines it prints): the
/// new embeddings, and those lines.
#[pyfunction]
#[pyo3(signature = (embedding, name, definitional, equalize, gender_specific, lowercase=false, wordlists=None, corpora=None))]
#[allow(clippy::too_many_arguments)]
fn hard_debias(
    py: Python<'_>,
    embedding: PyRef<'_, PyEmbeddings>,
    name: String,
    definitional: ListArg<(String, String)>,
    equalize: ListArg<(String, String)>,
    gender_specific: ListArg<String>,
    lowercase: bool,
    wordlists: Option<PathBuf>,
    corpora: Option<PathBuf>,
) -> PyResult<(PyEmbeddings, String)> {
    use retest_pipeline::DebiasList;
    let folders = folders(wordlists, corpora);
    let folder = folders.wordlists(None);
    let mut resolver =
        retest_pipeline::resolver(&retest_pipeline::lock_file(&folders.recipes(None))).map_err(raised)?;
    let lists = retest_pipeline::DebiasLists {
        definitional: definitional.list("definitional pairs", |n| {
            DebiasList::pairs(n, &folder, &mut resolver)
        })?,
        equalize: equalize.list("equalize pairs", |n| DebiasList::pairs(n, &folder, &mut resolver))?,
        gender_specific: gender_specific.list("gender-specific words", |n| {
            DebiasList::words(n, &folder, &mut resolver)
        })?,
    };
    let mut log = Vec::new();
    let model = &embedding.inner;
    let inner = py
        .allow_threads(|| retest_pipeline::hard_debias_embeddings(&name, model, &lists, lowercase, &mut log))
        .map_err(raised)?;
    Ok((PyEmbeddings { inner }, String::from_utf8_lossy(&log).into_owned()))
}

/// One analogy query as Python passes it: its line (or position), the words a, b, c and the
/// answer it reports, if any.
type Query = (usize, [String; 3], Option<String>);

/// The queries of a queries file (the `retest analogies --queries` format).
#[pyfunction]
fn queries_file(path: PathBuf) -> PyResult<Vec<Query>> {
    let queries = retest_pipeline::read_query_file(&path).map_err(raised)?;
    Ok(queries
        .into_iter()
        .map(|q| (q.line, q.words, q.reported))
        .collect())
}

/// Every query answered on every embedding, as `retest analogies` answers it (a setting not
/// given takes the command's default): the table as Parquet bytes, and the lines the command
/// prints.
#[pyfunction]
#[pyo3(signature = (embeddings, names, queries, queries_from, solver, delta=None, squared_delta=false, constrained=true, top_n=None, restrict_vocab=None, lowercase=false))]
#[allow(clippy::too_many_arguments)]
fn analogies_parquet<'py>(
    py: Python<'py>,
    embeddings: Vec<PyRef<'py, PyEmbeddings>>,
    names: Vec<String>,
    queries: Vec<Query>,
    queries_from: String,
    solver: &str,
    delta: Option<f64>,
    squared_delta: bool,
    constrained: bool,
    top_n: Option<usize>,
    restrict_vocab: Option<usize>,
    lowercase: bool,
) -> PyResult<(Bound<'py, PyBytes>, String)> {
    let solver = retest_pipeline::analogy_solver(solver.parse().map_err(raised)?, delta, squared_delta)
        .map_err(raised)?;
    let queries: Vec<QueryLine> = (queries.into_iter())
        .map(|(line, words, reported)| QueryLine {
            line,
            words,
            reported,
        })
        .collect();
    let input = retest_pipeline::AnalogyInput {
        queries: &queries,
        queries_from: &queries_from,
        solver,
        constraint: if constrained {
            Constraint::Constrained
        } else {
            Constraint::Unconstrained
        },
        top_n: top_n.unwrap_or(defaults::ANALOGY_TOP_N),
        restrict_vocab,
    };
    let lookup = WordLookup { lowercase };
    let models = inner(&embeddings);
    table_of(py, names::ANALOGIES_FILE, |warnings| {
        let mut rows = Vec::new();
        for (emb, name) in models.iter().zip(&names) {
            rows.extend(retest_pipeline::analogy_rows(
                name, emb, &lookup, &input, warnings,
            )?);
        }
        Ok(rows)
    })
}

/// Zhang et al.'s base-pair analyses on the embeddings, each a seed in the order given, as
/// `retest base-pairs` runs them (a list or setting not given takes the command's default; lists
/// are names in `wordlists`, or paths): each table's name and Parquet bytes, and the lines the
/// command prints.
#[pyfunction]
#[pyo3(signature = (embeddings, names, pairs=None, targets=None, truth=None, pool_exclude=None, most_frequent=None, nbm_k=None, ripa_target=None, example=None, random_samples=None, seed=None, lowercase=false, wordlists=None, corpora=None))]
#[allow(clippy::too_many_arguments)]
fn base_pairs_parquet<'py>(
    py: Python<'py>,
    embeddings: Vec<PyRef<'py, PyEmbeddings>>,
    names: Vec<String>,
    pairs: Option<String>,
    targets: Option<String>,
    truth: Option<Vec<String>>,
    pool_exclude: Option<Vec<String>>,
    most_frequent: Option<usize>,
    nbm_k: Option<u32>,
    ripa_target: Option<&str>,
    example: Option<String>,
    random_samples: Option<usize>,
    seed: Option<u64>,
    lowercase: bool,
    wordlists: Option<PathBuf>,
    corpora: Option<PathBuf>,
) -> PyResult<(NamedTables<'py>, String)> {
    let owned = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let params = retest_spec::BasePairParams {
        pairs: pairs.unwrap_or_else(|| defaults::ZHANG_PAIRS.to_owned()),
        professions: targets.unwrap_or_else(|| defaults::ZHANG_PROFESSIONS.to_owned()),
        truth: truth.unwrap_or_else(|| owned(defaults::ZHANG_TRUTH)),
        pool_exclude: pool_exclude.unwrap_or_else(|| owned(defaults::ZHANG_POOL_EXCLUDE)),
        most_frequent: most_frequent.unwrap_or(defaults::ZHANG_MOST_FREQUENT),
        nbm_k: nbm_k.unwrap_or(defaults::ZHANG_NBM_K),
        flip: defaults::ZHANG_FLIP.map(|pair| pair.map(str::to_owned)),
        example: example.unwrap_or_else(|| defaults::ZHANG_EXAMPLE.to_owned()),
        random_samples: random_samples.unwrap_or(defaults::ZHANG_RANDOM_SAMPLES),
    };
    check_base_pair_params(&params)?;
    let folders = folders(wordlists, corpora);
    let input = retest_pipeline::BasePairsInput {
        params: &params,
        ripa_target: parsed(ripa_target, defaults::RIPA_TARGET)?,
        lowercase,
        seed: seed.unwrap_or(defaults::WEAT_SEED),
        folders: &folders,
    };
    let models = inner(&embeddings);
    let (tables, warnings) = py
        .allow_threads(|| -> anyhow::Result<_> {
            let mut warnings = Vec::new();
            let named = models
                .iter()
                .zip(&names)
                .map(|(emb, name)| Ok((name.clone(), Cow::Borrowed(*emb))));
            let tables = retest_pipeline::base_pair_tables(&input, named, &mut warnings)?;
            let bytes = (tables.into_iter())
                .map(|mut t| Ok((t.name.to_owned(), t.parquet_bytes()?)))
                .collect::<anyhow::Result<Vec<_>>>()?;
            Ok((bytes, warnings))
        })
        .map_err(raised)?;
    let tables = (tables.into_iter())
        .map(|(name, bytes)| (name, PyBytes::new(py, &bytes)))
        .collect();
    Ok((tables, String::from_utf8_lossy(&warnings).into_owned()))
}

/// Tables by name, each as Parquet bytes.
type NamedTables<'py> = Vec<(String, Bound<'py, PyBytes>)>;

/// Refuses the base-pair settings the command's flags refuse, named as the Python keywords.
fn check_base_pair_params(params: &retest_spec::BasePairParams) -> PyResult<()> {
    let refuse = |what: &str| Err(RetestError::new_err(what.to_owned()));
    if params.most_frequent < 2 {
        return refuse("most_frequent must be at least 2");
    }
    if params.nbm_k == 0 {
        return refuse("nbm_k must be at least 1");
    }
    if !(1..=defaults::ZHANG_MAX_RANDOM_SAMPLES).contains(&params.random_samples) {
        return Err(RetestError::new_err(format!(
            "random_samples must be between 1 and {}",
            defaults::ZHANG_MAX_RANDOM_SAMPLES
        )));
    }
    Ok(())
}

/// Runs pipeline `pipeline` (a name in `pipelines/` or a path) as `retest run` does, with its
/// log on standard error, and returns the run's folder.
#[pyfunction]
#[pyo3(signature = (pipeline, results, jobs=None, force=false, wordlists=None, corpora=None))]
fn run_pipeline(
    py: Python<'_>,
    pipeline: &str,
    results: PathBuf,
    jobs: Option<usize>,
    force: bool,
    wordlists: Option<PathBuf>,
    corpora: Option<PathBuf>,
) -> PyResult<PathBuf> {
    let folders = retest_pipeline::Folders {
        results,
        corpora,
        wordlists,
    };
    let options = retest_pipeline::RunOptions { jobs, force };
    let finished = py
        .allow_threads(|| retest_pipeline::run_pipeline(&folders, pipeline, &options))
        .map_err(raised)?;
    let run = finished.tables.parent().map(PathBuf::from).unwrap_or_default();
    let mut err = std::io::stderr();
    // As the command says it: where the tables and the report are.
    let _ = writeln!(
        err,
        "pipeline `{}` done: {} files in {}, report in {}",
        finished.pipeline,
        finished.written.len(),
        finished.tables.display(),
        finished.report.display()
    );
    Ok(run)
}

/// The rows `rows` gives for each embedding (as a model of the measures) with its name, in order.
fn rows_of_each<R>(
    embeddings: &[&retest_embeddings::Embeddings],
    names: &[String],
    mut rows: impl FnMut(&str, &Model<'_>) -> anyhow::Result<Vec<R>>,
) -> anyhow::Result<Vec<R>> {
    let mut all = Vec::new();
    for (emb, name) in embeddings.iter().zip(names) {
        let model = Model::new(emb.words(), emb.vectors(), emb.dim())?;
        all.extend(rows(name, &model)?);
    }
    Ok(all)
}

/// Runs `rows` with the GIL released (it may write warnings for standard error) and returns its
/// rows as the Parquet bytes of table `name`, with the warnings: how a measure's table reaches
/// Python.
fn table_of<'py, R: Row<Layout = ()>>(
    py: Python<'py>,
    name: TableName<R>,
    rows: impl FnOnce(&mut Vec<u8>) -> anyhow::Result<Vec<R>> + Send,
) -> PyResult<(Bound<'py, PyBytes>, String)> {
    let (bytes, warnings) = py
        .allow_threads(|| -> anyhow::Result<(Vec<u8>, Vec<u8>)> {
            let mut warnings = Vec::new();
            let rows = rows(&mut warnings)?;
            Ok((Table::of(name, &rows)?.parquet_bytes()?, warnings))
        })
        .map_err(raised)?;
    Ok((
        PyBytes::new(py, &bytes),
        String::from_utf8_lossy(&warnings).into_owned(),
    ))
}

/// The pairs of a pair file (`masculine feminine` per line), read as `retest direct-bias --pairs`
/// and `retest score --pairs` read it.
#[pyfunction]
fn pairs_file(path: PathBuf) -> PyResult<Vec<(String, String)>> {
    Ok(retest_pipeline::read_pair_file(&path).map_err(raised)?.pairs)
}

/// The words of a word file (one per line), read as the commands read `--words`.
#[pyfunction]
fn words_file(path: PathBuf) -> PyResult<Vec<String>> {
    Ok(retest_pipeline::read_word_file(&path).map_err(raised)?.words)
}

#[pymodule]
fn _retest(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("RetestError", m.py().get_type::<RetestError>())?;
    m.add_class::<PyEmbeddings>()?;
    m.add_function(wrap_pyfunction!(icc_json, m)?)?;
    m.add_function(wrap_pyfunction!(alpha_json, m)?)?;
    m.add_function(wrap_pyfunction!(kappa_json, m)?)?;
    m.add_function(wrap_pyfunction!(weat_tests_file, m)?)?;
    m.add_function(wrap_pyfunction!(weat_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(direct_bias_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(pairs_file, m)?)?;
    m.add_function(wrap_pyfunction!(words_file, m)?)?;
    m.add_function(wrap_pyfunction!(score_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(validity_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(query_tests_file, m)?)?;
    m.add_function(wrap_pyfunction!(query_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(queries_file, m)?)?;
    m.add_function(wrap_pyfunction!(analogies_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(base_pairs_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(hard_debias, m)?)?;
    m.add_function(wrap_pyfunction!(run_pipeline, m)?)?;
    Ok(())
}
