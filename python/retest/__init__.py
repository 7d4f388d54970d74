"""retest in Python: word vectors and reliability statistics over the same Rust code as the
``retest`` command, with numpy arrays in and polars tables out.

>>> import retest
>>> emb = retest.Embeddings.load("vectors.txt")           # doctest: +SKIP
>>> emb["woman"].shape                                     # doctest: +SKIP
(300,)

Every error is a :class:`RetestError` (a ``ValueError``) with the command's one-line message.
"""

from __future__ import annotations

import io
import json
import os
import sys
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

import numpy as np
import polars as pl

from . import _retest
from ._retest import RetestError

__all__ = ["Embeddings", "RetestError", "alpha", "direct_bias", "evaluate", "icc", "kappa", "weat"]

PathLike = Union[str, "os.PathLike[str]"]


class Embeddings:
    """Word vectors: a vocabulary and one ``dim``-float row per word.

    >>> emb = retest.Embeddings.from_arrays(["he", "she"], [[1, 0], [0, 1]])
    >>> len(emb), emb.dim
    (2, 2)
    """

    def __init__(self, inner: "_retest.Embeddings", name: str = "embedding") -> None:
        self._inner = inner
        self.name = name
        """How tables name these embeddings (``embedding`` column): the path they were loaded
        from, else ``embedding``."""

    @classmethod
    def load(cls, path: PathLike, format: Optional[str] = None) -> "Embeddings":
        """Reads an embedding file in any format ``retest`` reads: ``fifu``, ``word2vec-text``,
        ``word2vec-binary``, ``glove-text`` (detected from the content unless ``format`` is given).

        >>> emb = retest.Embeddings.load("vectors.bin", format="word2vec-binary")  # doctest: +SKIP
        """
        return cls(_retest.Embeddings.load(os.fspath(path), format), name=os.fspath(path))

    @classmethod
    def from_arrays(cls, words: Sequence[str], vectors: Any) -> "Embeddings":
        """Embeddings from a list of words and a ``len(words) × dim`` array (converted to float32).

        >>> emb = retest.Embeddings.from_arrays(["a", "b"], np.eye(2))
        """
        array = np.asarray(vectors)
        if array.ndim != 2:
            raise RetestError(f"vectors must be a 2-d array (words × dim), not {array.ndim}-d")
        if array.shape[0] != len(words):
            raise RetestError(f"{len(words)} words but {array.shape[0]} vectors")
        data = np.ascontiguousarray(array, dtype="<f4")
        return cls(_retest.Embeddings.from_raw([str(w) for w in words], array.shape[1], data.tobytes()))

    @classmethod
    def from_keyed_vectors(cls, kv: Any) -> "Embeddings":
        """Embeddings from gensim ``KeyedVectors`` (``model.wv``), in its vocabulary order.

        >>> emb = retest.Embeddings.from_keyed_vectors(model.wv)  # doctest: +SKIP
        """
        return cls.from_arrays(list(kv.index_to_key), kv.vectors)

    @property
    def words(self) -> list:
        """The vocabulary, in row order."""
        return self._inner.words

    @property
    def dim(self) -> int:
        """Floats per vector."""
        return self._inner.dim

    @property
    def vectors(self) -> np.ndarray:
        """Every vector as a ``len(self) × dim`` float32 array (a copy)."""
        flat = np.frombuffer(self._inner.matrix_bytes(), dtype="<f4")
        return flat.reshape(len(self), self.dim)

    def __len__(self) -> int:
        return len(self._inner)

    def __contains__(self, word: str) -> bool:
        return word in self._inner

    def __getitem__(self, word: str) -> np.ndarray:
        """The vector of ``word`` (``KeyError`` if it is not in the vocabulary)."""
        return np.frombuffer(self._inner.vector_bytes(word), dtype="<f4")

    def save(self, path: PathLike, format: Optional[str] = None, force: bool = False) -> None:
        """Writes the embeddings as ``retest export`` does: the format follows the file name
        (``.fifu``, ``.bin``, ``.vec``; ``.txt`` needs ``format``) unless given, and an existing
        file is replaced only with ``force=True``.

        >>> emb.save("vectors.fifu")  # doctest: +SKIP
        """
        self._inner.save(os.fspath(path), format, force)

    def __repr__(self) -> str:
        return repr(self._inner)


# Column orders of the tables: the fields of `retest stats`' JSON, its `ci95` pair split in two.
_ICC_COLUMNS = [
    "form", "pingouin_name", "value", "f", "df1", "df2", "p_value", "ci_low", "ci_high",
    "n_subjects", "n_raters", "n_dropped", "status",
]
_ALPHA_COLUMNS = ["alpha", "ci_low", "ci_high", "n_cases", "n_items", "n_dropped", "status"]
_KAPPA_COLUMNS = [
    "statistic", "kappa", "observed_agreement", "expected_agreement", "n_subjects", "n_raters",
    "n_categories", "status", "categories",
]


def _table(rows: list, columns: list) -> pl.DataFrame:
    """Rows of a JSON report as a table, `ci95` split into `ci_low` and `ci_high`."""
    for row in rows:
        if "ci95" in row:
            row["ci_low"], row["ci_high"] = row.pop("ci95")
    return pl.DataFrame(rows).select(columns)


def _long(data: Any, columns: Iterable[str], value_type: Any) -> list:
    """The named columns of a polars or pandas table in long form: labels as strings, the last
    column as numbers (missing values as NaN)."""
    frame = data if isinstance(data, pl.DataFrame) else pl.from_pandas(data)
    names = list(columns)
    for name in names:
        if name not in frame.columns:
            raise RetestError(f"no column `{name}` in the table (it has: {', '.join(frame.columns)})")
    *labels, values = names
    out = [frame[name].cast(pl.Utf8).to_list() for name in labels]
    out.append(frame[values].cast(value_type).fill_null(float("nan")).to_list())
    return out


def icc(data: Any, subject: str, rater: str, value: str, form: Optional[str] = None) -> pl.DataFrame:
    """Intraclass correlations of ratings in long form (one row per subject and rater), as
    ``retest stats icc`` computes them: all six forms of Shrout & Fleiss / McGraw & Wong (or the
    one named by ``form``), with F, its degrees of freedom, p and the 95 % interval. Subjects
    with a missing rating are dropped (``n_dropped``).

    >>> retest.icc(df, subject="word", rater="seed", value="score")  # doctest: +SKIP
    """
    report = json.loads(_retest.icc_json(*_long(data, (subject, rater, value), pl.Float64), form))
    return _table(report if isinstance(report, list) else [report], _ICC_COLUMNS)


def alpha(data: Any, case: str, item: str, value: str) -> pl.DataFrame:
    """Cronbach's alpha with its 95 % interval, of data in long form (one row per case and
    item), as ``retest stats alpha`` computes it.

    >>> retest.alpha(df, case="word", item="rule", value="score")  # doctest: +SKIP
    """
    row = json.loads(_retest.alpha_json(*_long(data, (case, item, value), pl.Float64)))
    return _table([row], _ALPHA_COLUMNS)


def kappa(data: Any, subject: str, rater: str, label: str) -> pl.DataFrame:
    """Fleiss' kappa of category labels (whole numbers) in long form, and Cohen's when there
    are exactly two raters, as ``retest stats kappa`` computes them: one row per statistic.

    >>> retest.kappa(df, subject="word", rater="seed", label="sign")  # doctest: +SKIP
    """
    report = json.loads(_retest.kappa_json(*_long(data, (subject, rater, label), pl.Float64)))
    categories = report.pop("categories")
    rows = [{"statistic": name, **result, "categories": categories} for name, result in report.items()]
    return _table(rows, _KAPPA_COLUMNS)


def _weat_tests(tests: Union[PathLike, Mapping[str, Mapping[str, Sequence[str]]]]) -> list:
    """WEAT tests from a tests file (``retest weat --tests``) or a ``{name: {x, y, a, b}}`` dict."""
    if isinstance(tests, Mapping):
        out = []
        for name, sets in tests.items():
            missing = [key for key in ("x", "y", "a", "b") if key not in sets]
            if missing:
                raise RetestError(f"test `{name}`: no set {', '.join(missing)} (a test has x, y, a and b)")
            out.append((str(name), *[[str(w) for w in sets[key]] for key in ("x", "y", "a", "b")]))
        return out
    return _retest.weat_tests_file(os.fspath(tests))


def weat(
    embeddings: Union[Embeddings, Sequence[Embeddings]],
    tests: Union[PathLike, Mapping[str, Mapping[str, Sequence[str]]]],
    *,
    tests_only: Optional[Sequence[str]] = None,
    sd: Optional[str] = None,
    exact_max: Optional[int] = None,
    samples: Optional[int] = None,
    seed: Optional[int] = None,
    lowercase: bool = False,
) -> pl.DataFrame:
    """The Word Embedding Association Test (Caliskan et al. 2017) of every test on every
    embedding, as ``retest weat`` computes it: effect size, one-sided permutation p-value (exact
    up to ``exact_max`` partitions, else ``samples`` drawn from ``seed``) and the words left out;
    one row per (embedding, test), with the command's columns. ``tests`` is a tests file (e.g.
    ``wordlists/weat/caliskan.yaml``) or a dict ``{name: {"x": [...], "y": [...], "a": [...],
    "b": [...]}}``; ``sd`` is ``population`` (Caliskan's and WEFE's) or ``sample``. Warnings
    about words left out go to standard error, as the command prints them.

    >>> retest.weat(emb, {"t": {"x": ["he"], "y": ["she"], "a": ["career"], "b": ["home"]}})  # doctest: +SKIP
    """
    models = _models(embeddings)
    chosen = _weat_tests(tests)
    if tests_only is not None:
        known = [t[0] for t in chosen]
        for name in tests_only:
            if name not in known:
                raise RetestError(f"tests_only: no test `{name}` (the tests are: {', '.join(known)})")
        chosen = [t for t in chosen if t[0] in tests_only]
    default_sd, default_exact, default_samples, default_seed = _retest.weat_defaults()
    data, warnings = _retest.weat_parquet(
        [m._inner for m in models],
        [m.name for m in models],
        chosen,
        sd if sd is not None else default_sd,
        exact_max if exact_max is not None else default_exact,
        samples if samples is not None else default_samples,
        seed if seed is not None else default_seed,
        lowercase,
    )
    sys.stderr.write(warnings)
    return pl.read_parquet(io.BytesIO(data))


def evaluate(embeddings: Embeddings, benchmarks: Optional[PathLike] = None) -> pl.DataFrame:
    """The quality benchmarks of ``retest eval``: WordSim-353, SimLex-999 and MEN (Spearman and
    Pearson), Google and MSR analogies (accuracy per section, gensim's rules), one row per
    (benchmark, section, metric), with the command's columns. ``benchmarks`` is the folder of
    the benchmark files; by default ``$RETEST_DATA_DIR/benchmarks``, as for the command.

    >>> retest.evaluate(emb)  # doctest: +SKIP
    """
    if benchmarks is None:
        data = os.environ.get("RETEST_DATA_DIR")
        if data is None:
            raise RetestError(
                "no benchmark folder: pass benchmarks= or set RETEST_DATA_DIR to the data mirror"
            )
        benchmarks = os.path.join(data, "benchmarks")
    data, warnings = _retest.evaluate_parquet(embeddings._inner, embeddings.name, os.fspath(benchmarks))
    sys.stderr.write(warnings)
    return pl.read_parquet(io.BytesIO(data))


def _models(embeddings: Union[Embeddings, Sequence[Embeddings]]) -> list:
    return [embeddings] if isinstance(embeddings, Embeddings) else list(embeddings)


def direct_bias(
    embeddings: Union[Embeddings, Sequence[Embeddings]],
    pairs: Union[PathLike, Sequence[Sequence[str]]],
    words: Union[PathLike, Sequence[str]],
    *,
    c: Optional[float] = None,
    lowercase: bool = False,
) -> pl.DataFrame:
    """Direct Bias (Bolukbasi et al. 2016) of neutral ``words`` along every base pair's own
    direction and along the first principal component of all the pairs (with its explained
    variance), as ``retest direct-bias`` computes it: one row per (embedding, direction), with
    the command's columns. ``pairs`` is a pair file (``masculine feminine`` per line) or a list
    of ``(masculine, feminine)``; ``words`` a word file or a list; ``c`` the exponent (the
    command's default when not given).

    >>> retest.direct_bias(emb, [("he", "she"), ("man", "woman")], ["nurse", "engineer"])  # doctest: +SKIP
    """
    models = _models(embeddings)
    if isinstance(pairs, (str, os.PathLike)):
        pair_list, pairs_from = _retest.pairs_file(os.fspath(pairs)), os.fspath(pairs)
    else:
        pair_list, pairs_from = [(str(m), str(f)) for m, f in pairs], "the pairs given"
    if isinstance(words, (str, os.PathLike)):
        word_list, words_from = _retest.words_file(os.fspath(words)), os.fspath(words)
    else:
        word_list, words_from = [str(w) for w in words], "the words given"
    data, warnings = _retest.direct_bias_parquet(
        [m._inner for m in models],
        [m.name for m in models],
        pair_list,
        pairs_from,
        word_list,
        words_from,
        c if c is not None else _retest.direct_bias_default_c(),
        lowercase,
    )
    sys.stderr.write(warnings)
    return pl.read_parquet(io.BytesIO(data))
