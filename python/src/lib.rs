//! `retest._retest`: the Rust side of the Python package, a thin layer over the library crates
//! the `retest` command uses. Python's `retest/__init__.py` wraps it: numpy arrays in and out,
//! polars tables from the JSON reports.
//!
//! Every error becomes a `retest.RetestError` (a `ValueError`) carrying the command line's
//! one-line message; long work runs with the GIL released.

use std::collections::BTreeMap;
use std::path::PathBuf;

use pyo3::create_exception;
use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use retest_embeddings::Format;
use retest_measures::{Model, SdKind};
use retest_pipeline::{Overwrite, WeatSettings, WordLookup};
use retest_reliability::Matrix;
use retest_spec::{WeatTest, defaults};
use retest_tables::{Row, Table, TableName, names};

create_exception!(
    _retest,
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
    let folders = retest_pipeline::Folders {
        results: PathBuf::from("results"),
        corpora: None,
        wordlists: None,
    };
    let lock = retest_pipeline::lock_file(&folders.recipes(None));
    let mut resolver = retest_pipeline::resolver(&lock).map_err(raised)?;
    let tests = retest_pipeline::read_weat_tests(&path, &mut resolver).map_err(raised)?;
    Ok(tests.into_iter().map(|t| (t.name, t.x, t.y, t.a, t.b)).collect())
}

/// WEAT of every test on every embedding (`names` name them in the table), as `retest weat`
/// computes it: the table as Parquet bytes, and the warnings the command prints.
#[pyfunction]
#[pyo3(signature = (embeddings, names, tests, sd, exact_max, samples, seed, lowercase))]
#[allow(clippy::too_many_arguments)]
fn weat_parquet<'py>(
    py: Python<'py>,
    embeddings: Vec<PyRef<'py, PyEmbeddings>>,
    names: Vec<String>,
    tests: Vec<TestSets>,
    sd: &str,
    exact_max: u64,
    samples: u64,
    seed: u64,
    lowercase: bool,
) -> PyResult<(Bound<'py, PyBytes>, String)> {
    let settings = WeatSettings {
        sd: sd.parse::<SdKind>().map_err(raised)?,
        exact_max,
        samples,
        seed,
    };
    let tests: Vec<WeatTest> = tests
        .into_iter()
        .map(|(name, x, y, a, b)| WeatTest { name, x, y, a, b })
        .collect();
    let models: Vec<&retest_embeddings::Embeddings> = embeddings.iter().map(|e| &e.inner).collect();
    let lookup = WordLookup { lowercase };
    table_of(py, names::WEAT_FILE, |warnings| {
        rows_of_each(&models, &names, |name, model| {
            retest_pipeline::weat_rows(name, model, &lookup, &tests, &settings, warnings)
        })
    })
}

/// Direct Bias (Bolukbasi et al. 2016) of `words` along each pair's direction and the pairs'
/// first principal component on every embedding, as `retest direct-bias` computes it: the table
/// as Parquet bytes, and the warnings the command prints.
#[pyfunction]
#[pyo3(signature = (embeddings, names, pairs, pairs_from, words, words_from, c, lowercase))]
#[allow(clippy::too_many_arguments)]
fn direct_bias_parquet<'py>(
    py: Python<'py>,
    embeddings: Vec<PyRef<'py, PyEmbeddings>>,
    names: Vec<String>,
    pairs: Vec<(String, String)>,
    pairs_from: String,
    words: Vec<String>,
    words_from: String,
    c: f64,
    lowercase: bool,
) -> PyResult<(Bound<'py, PyBytes>, String)> {
    let models: Vec<&retest_embeddings::Embeddings> = embeddings.iter().map(|e| &e.inner).collect();
    let input = retest_pipeline::DirectBiasInput {
        pairs: &pairs,
        pairs_from: &pairs_from,
        words: &words,
        words_from: &words_from,
        c,
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

/// The command's default Direct Bias exponent `c`.
#[pyfunction]
fn direct_bias_default_c() -> f64 {
    defaults::DIRECT_BIAS_C
}

/// The command's defaults of WEAT's settings: `(sd, exact_max, samples, seed)`.
#[pyfunction]
fn weat_defaults() -> (String, u64, u64, u64) {
    (
        defaults::WEAT_SD.to_string(),
        defaults::WEAT_EXACT_PARTITIONS_MAX,
        defaults::WEAT_SAMPLED_PARTITIONS,
        defaults::WEAT_SEED,
    )
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
    m.add_function(wrap_pyfunction!(weat_defaults, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(direct_bias_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(pairs_file, m)?)?;
    m.add_function(wrap_pyfunction!(words_file, m)?)?;
    m.add_function(wrap_pyfunction!(direct_bias_default_c, m)?)?;
    Ok(())
}
