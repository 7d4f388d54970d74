"""retest in Python: word vectors and reliability statistics over the same Rust code as the
``retest`` command, with numpy arrays in and polars tables out.

>>> import retest
>>> emb = retest.Embeddings.load("vectors.txt")           # doctest: +SKIP
>>> emb["woman"].shape                                     # doctest: +SKIP
(300,)

Every error is a :class:`RetestError` (a ``ValueError``) with the command's one-line message.
"""

from __future__ import annotations

import json
import os
from typing import Any, Iterable, Optional, Sequence, Union

import numpy as np
import polars as pl

from . import _retest
from ._retest import RetestError

__all__ = ["Embeddings", "RetestError", "alpha", "icc", "kappa"]

PathLike = Union[str, "os.PathLike[str]"]


class Embeddings:
    """Word vectors: a vocabulary and one ``dim``-float row per word.

    >>> emb = retest.Embeddings.from_arrays(["he", "she"], [[1, 0], [0, 1]])
    >>> len(emb), emb.dim
    (2, 2)
    """

    def __init__(self, inner: "_retest.Embeddings") -> None:
        self._inner = inner

    @classmethod
    def load(cls, path: PathLike, format: Optional[str] = None) -> "Embeddings":
        """Reads an embedding file in any format ``retest`` reads: ``fifu``, ``word2vec-text``,
        ``word2vec-binary``, ``glove-text`` (detected from the content unless ``format`` is given).

        >>> emb = retest.Embeddings.load("vectors.bin", format="word2vec-binary")  # doctest: +SKIP
        """
        return cls(_retest.Embeddings.load(os.fspath(path), format))

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
