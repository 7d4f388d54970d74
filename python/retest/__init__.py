"""retest in Python: word vectors and reliability statistics over the same Rust code as the
``retest`` command, with numpy arrays in and polars tables out.

>>> import retest
>>> emb = retest.Embeddings.load("vectors.txt")           # doctest: +SKIP
>>> emb["woman"].shape                                     # doctest: +SKIP
(300,)

Every error is a :class:`RetestError` (a ``ValueError``) with the command's one-line message.
"""

from __future__ import annotations

import collections.abc
import io
import json
import os
import sys
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

import numpy as np
import polars as pl

from . import _retest
from ._retest import RetestError

__all__ = [
    "Embeddings", "Results", "RetestError", "alpha", "analogies", "base_pairs", "debias", "direct_bias",
    "evaluate", "icc", "kappa", "load_results", "query", "run", "score", "validity", "weat",
]

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


def _long(data: Any, columns: Iterable[str]) -> list:
    """The named columns of a polars or pandas table in long form: labels as strings, the last
    column as numbers (missing values as NaN). A missing label is refused."""
    names = list(columns)
    have = [str(c) for c in data.columns]
    for name in names:
        if name not in have:
            raise RetestError(f"no column `{name}` in the table (it has: {', '.join(have)})")
    *labels, values = names
    if isinstance(data, pl.DataFrame):
        out = [data[name].cast(pl.Utf8).to_list() for name in labels]
        numbers = data[values].cast(pl.Float64).to_list()
    else:
        # pandas: read column by column (no conversion of the whole table, which would need
        # pyarrow for its string columns).
        missing = data[labels].isna()
        out = [[None if gone else str(x) for x, gone in zip(data[name].tolist(), missing[name])] for name in labels]
        numbers = [None if x is None else float(x) for x in data[values].tolist()]
    for name, column in zip(labels, out):
        if None in column:
            raise RetestError(f"column `{name}`, row {column.index(None) + 1}: a missing label")
    out.append([float("nan") if x is None else x for x in numbers])
    return out


def icc(data: Any, subject: str, rater: str, value: str, form: Optional[str] = None) -> pl.DataFrame:
    """Intraclass correlations of ratings in long form (one row per subject and rater), as
    ``retest stats icc`` computes them: all six forms of Shrout & Fleiss / McGraw & Wong (or the
    one named by ``form``), with F, its degrees of freedom, p and the 95 % interval. Subjects
    with a missing rating are dropped (``n_dropped``).

    >>> retest.icc(df, subject="word", rater="seed", value="score")  # doctest: +SKIP
    """
    report = json.loads(_retest.icc_json(*_long(data, (subject, rater, value)), form))
    return _table(report if isinstance(report, list) else [report], _ICC_COLUMNS)


def alpha(data: Any, case: str, item: str, value: str) -> pl.DataFrame:
    """Cronbach's alpha with its 95 % interval, of data in long form (one row per case and
    item), as ``retest stats alpha`` computes it.

    >>> retest.alpha(df, case="word", item="rule", value="score")  # doctest: +SKIP
    """
    row = json.loads(_retest.alpha_json(*_long(data, (case, item, value))))
    return _table([row], _ALPHA_COLUMNS)


def kappa(data: Any, subject: str, rater: str, label: str) -> pl.DataFrame:
    """Fleiss' kappa of category labels (whole numbers) in long form, and Cohen's when there
    are exactly two raters, as ``retest stats kappa`` computes them: one row per statistic.

    >>> retest.kappa(df, subject="word", rater="seed", label="sign")  # doctest: +SKIP
    """
    report = json.loads(_retest.kappa_json(*_long(data, (subject, rater, label))))
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
    return _frame(
        *_retest.weat_parquet(
            *models,
            chosen,
            sd=sd,
            exact_max=exact_max,
            samples=samples,
            seed=seed,
            lowercase=lowercase,
        )
    )


def _query_tests(tests: Union[PathLike, Mapping[str, Mapping[str, Any]]]) -> list:
    """Tests from a tests file or a dict ``{name: {"targets": {set: [...]}, "attributes": {set:
    [...]}}}`` (or a WEAT test ``{name: {"x": [...], "y": ..., "a": ..., "b": ...}}``)."""
    if not isinstance(tests, Mapping):
        return _retest.query_tests_file(os.fspath(tests))
    out = []
    for name, test in tests.items():
        if "targets" in test or "attributes" in test:
            missing = [key for key in ("targets", "attributes") if key not in test]
            if missing:
                raise RetestError(f"test `{name}`: no {missing[0]} (a test has targets and attributes, or x, y, a and b)")
            sets = [[(str(k), [str(w) for w in v]) for k, v in test[key].items()] for key in ("targets", "attributes")]
        else:
            (_, *weat), = _weat_tests({name: test})
            sets = [list(zip("xy", weat[:2])), list(zip("ab", weat[2:]))]
        out.append((str(name), *sets))
    return out


def query(
    embeddings: Union[Embeddings, Sequence[Embeddings]],
    tests: Union[PathLike, Mapping[str, Mapping[str, Any]]],
    *,
    measures: Optional[Sequence[str]] = None,
    rnsb_holdout: Optional[float] = None,
    sd: Optional[str] = None,
    exact_max: Optional[int] = None,
    samples: Optional[int] = None,
    seed: Optional[int] = None,
    lowercase: bool = False,
) -> pl.DataFrame:
    """The set-level measures of the field as ``retest query`` computes them (as WEFE 1.0.1 does
    at its defaults): ``weat``, ``rnd``, ``ect``, ``mac``, ``rnsb`` and ``ripa`` (all by default)
    on every test, one row per (embedding, test, measure) with the command's columns. A measure
    whose shape the test does not have (WEAT 2 × 2, RND and ECT 2 × 1, MAC any, RNSB any × 2,
    RIPA 2 × 1 with target sets of one length, paired word by word) gets status
    ``not_applicable``. ``tests`` is a tests file or a dict of tests, each ``{"targets":
    {name: [words]}, "attributes": {name: [words]}}`` or WEAT's ``{"x", "y", "a", "b"}``;
    ``rnsb_holdout`` the share of each attribute set RNSB's classifier does not see, drawn from
    ``seed`` (0: every word, WEFE's ``holdout=False``).

    >>> retest.query(emb, {"family": {"targets": {"m": ["he", "him"], "f": ["she", "her"]},
    ...                               "attributes": {"home": ["home", "family"]}}})  # doctest: +SKIP
    """
    return _frame(
        *_retest.query_parquet(
            *_models(embeddings),
            _query_tests(tests),
            measures=None if measures is None else [str(m) for m in measures],
            rnsb_holdout=rnsb_holdout,
            sd=sd,
            exact_max=exact_max,
            samples=samples,
            seed=seed,
            lowercase=lowercase,
        )
    )


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
    return _frame(*_retest.evaluate_parquet(embeddings._inner, embeddings.name, os.fspath(benchmarks)))


def _models(embeddings: Union[Embeddings, Sequence[Embeddings]]) -> tuple:
    """One embedding or several as the extension takes them: the models, and their names."""
    models = [embeddings] if isinstance(embeddings, Embeddings) else list(embeddings)
    return [m._inner for m in models], [m.name for m in models]


def _frame(data: bytes, warnings: str) -> pl.DataFrame:
    """A measure's table from its Parquet bytes, its warnings written to standard error as the
    command writes them."""
    sys.stderr.write(warnings)
    return pl.read_parquet(io.BytesIO(data))


def _is_path(value: Any) -> bool:
    return isinstance(value, (str, os.PathLike))


def _pairs(pairs: Union[PathLike, Sequence[Sequence[str]]]) -> tuple:
    """Base pairs from a pair file or a list of ``(masculine, feminine)``, with where they came
    from (for messages)."""
    if _is_path(pairs):
        return _retest.pairs_file(os.fspath(pairs)), os.fspath(pairs)
    out = []
    for pair in pairs:
        if isinstance(pair, str) or len(pair) != 2:
            raise RetestError(f"a pair is (masculine, feminine), not {pair!r}")
        out.append((str(pair[0]), str(pair[1])))
    return out, "the pairs given"


def _words(words: Union[PathLike, Sequence[str]]) -> tuple:
    """Words from a word file or a list, with where they came from (for messages)."""
    if _is_path(words):
        return _retest.words_file(os.fspath(words)), os.fspath(words)
    return [str(w) for w in words], "the words given"


def direct_bias(
    embeddings: Union[Embeddings, Sequence[Embeddings]],
    pairs: Union[PathLike, Sequence[Sequence[str]]],
    words: Union[PathLike, Sequence[str]],
    *,
    c: Optional[float] = None,
    components: Optional[int] = None,
    lowercase: bool = False,
) -> pl.DataFrame:
    """Direct Bias (Bolukbasi et al. 2016) of neutral ``words`` along every base pair's own
    direction and along the first principal component of all the pairs (with its explained
    variance), as ``retest direct-bias`` computes it: one row per (embedding, direction), with
    the command's columns. ``pairs`` is a pair file (``masculine feminine`` per line) or a list
    of ``(masculine, feminine)``; ``words`` a word file or a list; ``c`` the exponent (the
    command's default when not given); ``components`` K adds Direct Bias on the span of the
    first 2, …, K components (directions ``pca:2`` … ``pca:K``).

    >>> retest.direct_bias(emb, [("he", "she"), ("man", "woman")], ["nurse", "engineer"])  # doctest: +SKIP
    """
    models = _models(embeddings)
    pair_list, pairs_from = _pairs(pairs)
    word_list, words_from = _words(words)
    return _frame(
        *_retest.direct_bias_parquet(
            *models,
            pair_list,
            pairs_from,
            word_list,
            words_from,
            c=c,
            components=components,
            lowercase=lowercase,
        )
    )


def score(
    embeddings: Union[Embeddings, Sequence[Embeddings]],
    pairs: Union[PathLike, Sequence[Sequence[str]]],
    words: Union[PathLike, Sequence[str]],
    *,
    rules: Optional[Sequence[str]] = None,
    ripa_target: Optional[str] = None,
    nbm_k: Optional[int] = None,
    nbm_pool: Optional[str] = None,
    pool_exclude: Optional[Sequence[PathLike]] = None,
    threads: Optional[int] = None,
    lowercase: bool = False,
    wordlists: Optional[PathLike] = None,
) -> pl.DataFrame:
    """Du et al.'s per-word bias scores, as ``retest score`` computes them: every word against
    every base pair under every rule (``dbwa``, ``ripa``, ``nbm``; all by default), one row per
    (embedding, rule, pair, word) with the command's columns; positive is masculine. ``pairs``
    is a pair file or a list of ``(masculine, feminine)``; ``words`` a word file or a list.
    ``ripa_target`` is ``raw`` (the paper) or ``normalized``; ``nbm_pool`` ``vocabulary`` (the
    paper) or ``neutral``, which leaves out the pairs' words and those of the ``pool_exclude``
    lists (names in the word-list folder ``wordlists`` or files; debiaswe's definitional pairs,
    equalize pairs and gender-specific words by default); the others take the command's
    defaults when not given. Pairs and words out of an embedding's vocabulary are dropped and
    said on standard error.

    >>> retest.score(emb, [("he", "she")], ["nurse", "engineer"], rules=["ripa"])  # doctest: +SKIP
    """
    models = _models(embeddings)
    return _frame(
        *_retest.score_parquet(
            *models,
            _pairs(pairs)[0],
            _words(words)[0],
            rules=None if rules is None else [str(r) for r in rules],
            ripa_target=ripa_target,
            nbm_k=nbm_k,
            nbm_pool=nbm_pool,
            pool_exclude=_list_names(pool_exclude),
            threads=threads,
            lowercase=lowercase,
            wordlists=_list_name(wordlists),
        )
    )


def validity(
    embeddings: Union[Embeddings, Sequence[Embeddings]],
    criterion: Union[str, "os.PathLike[str]", Mapping[str, float]] = "census",
    *,
    census_year: Optional[int] = None,
    pairs: Optional[Union[PathLike, Sequence[Sequence[str]]]] = None,
    rules: Optional[Sequence[str]] = None,
    ripa_target: Optional[str] = None,
    nbm_k: Optional[int] = None,
    nbm_pool: Optional[str] = None,
    pool_exclude: Optional[Sequence[PathLike]] = None,
    threads: Optional[int] = None,
    lowercase: bool = False,
    wordlists: Optional[PathLike] = None,
) -> pl.DataFrame:
    """Criterion validity as ``retest validity`` computes it: each rule's scores of the
    criterion's words along each base pair, correlated with the criterion (Pearson's r with its
    p-value, Spearman's rho), one row per (embedding, rule, pair) with the command's columns.
    ``criterion`` is ``"census"`` (Garg et al.'s logit of each occupation's share of women in
    ``census_year``, the latest by default), ``"mturk"`` (their stereotype ratings), a
    ``word,value`` CSV file, or a dict ``{word: value}``. ``pairs`` default to the word-list
    folder's ``du2021/base-pairs.txt``. Scores are positive when masculine: a valid rule
    correlates negatively with the share of women. The rules' settings are ``score``'s.

    >>> retest.validity(emb, "census", census_year=1990, rules=["ripa"])  # doctest: +SKIP
    """
    if isinstance(criterion, Mapping):
        given = ([str(w) for w in criterion], [float(v) for v in criterion.values()])
    else:
        given = os.fspath(criterion)
    return _frame(
        *_retest.validity_parquet(
            *_models(embeddings),
            None if pairs is None else _pairs(pairs)[0],
            given,
            census_year=census_year,
            rules=None if rules is None else [str(r) for r in rules],
            ripa_target=ripa_target,
            nbm_k=nbm_k,
            nbm_pool=nbm_pool,
            pool_exclude=_list_names(pool_exclude),
            threads=threads,
            lowercase=lowercase,
            wordlists=_list_name(wordlists),
        )
    )


def _debias_list(value: Any, what: str) -> Any:
    """A list of ``debias``: ``None`` for debiaswe's declared list ``what``, a declared list's name
    or a file as a string, or the pairs or words given."""
    if value is None:
        return what
    if _is_path(value):
        return os.fspath(value)
    return [tuple(str(w) for w in entry) if not isinstance(entry, str) else str(entry) for entry in value]


def debias(
    embeddings: Embeddings,
    *,
    method: str = "hard",
    definitional: Optional[Union[PathLike, Sequence[Sequence[str]]]] = None,
    equalize: Optional[Union[PathLike, Sequence[Sequence[str]]]] = None,
    gender_specific: Optional[Union[PathLike, Sequence[str]]] = None,
    lowercase: bool = False,
    wordlists: Optional[PathLike] = None,
) -> Embeddings:
    """A hard-debiased copy of ``embeddings`` (Bolukbasi et al. 2016), as ``retest debias``
    computes it: every word outside ``gender_specific`` loses its component along the first
    principal component of the ``definitional`` pairs, then each ``equalize`` pair (also in title
    case and uppercased) is made to differ along it only; every vector is unit length. Each list
    is debiaswe's own when not given, else a declared list's name, a file (text or debiaswe's
    JSON), or the pairs or words themselves.

    >>> hard = retest.debias(emb)  # doctest: +SKIP
    >>> hard.save("vectors-hard.fifu")  # doctest: +SKIP
    """
    if method != "hard":
        raise RetestError(f"unknown debiasing method `{method}`; the one method is `hard`")
    inner, log = _retest.hard_debias(
        embeddings._inner,
        embeddings.name,
        _debias_list(definitional, "definitional-pairs"),
        _debias_list(equalize, "equalize-pairs"),
        _debias_list(gender_specific, "gender-specific-full"),
        lowercase=lowercase,
        wordlists=_list_name(wordlists),
    )
    sys.stderr.write(log)
    return Embeddings(inner, name=embeddings.name)


def _queries(queries: Union[PathLike, Sequence[Sequence[str]]]) -> tuple:
    """Analogy queries from a queries file or a list of ``(a, b, c)`` or ``(a, b, c, reported)``,
    each with its line (its position in a list), and where they came from (for messages)."""
    if _is_path(queries):
        return _retest.queries_file(os.fspath(queries)), os.fspath(queries)
    out = []
    for i, query in enumerate(queries, start=1):
        if isinstance(query, str) or len(query) not in (3, 4):
            raise RetestError(f"query {i}: a query is (a, b, c) or (a, b, c, reported), not {query!r}")
        words = [str(w) for w in query]
        out.append((i, words[:3], words[3] if len(words) == 4 else None))
    return out, "the queries given"


def analogies(
    embeddings: Union[Embeddings, Sequence[Embeddings]],
    queries: Union[PathLike, Sequence[Sequence[str]]],
    *,
    solver: str = "cosadd",
    constrained: bool = True,
    top_n: Optional[int] = None,
    restrict_vocab: Optional[int] = None,
    delta: Optional[float] = None,
    squared_delta: bool = False,
    lowercase: bool = False,
) -> pl.DataFrame:
    """Analogy queries a : b :: c : ? answered as ``retest analogies`` answers them, one row per
    (embedding, query, rank) with the command's columns. ``solver`` is ``cosadd``, ``cosmul``
    (gensim's form), ``cosmul_unshifted`` (as Nissim et al. print it) or ``bolukbasi`` (with ``delta``, read as a bound on the squared distance
    with ``squared_delta``); ``constrained=False`` lets the answer be a, b or c; ``top_n``
    answers per query; ``restrict_vocab`` searches only the first N words. ``queries`` is a
    queries file or a list of ``(a, b, c)`` or ``(a, b, c, reported)``: a reported answer's rank
    is in ``reported_rank``.

    >>> retest.analogies(emb, [("man", "king", "woman", "queen")], solver="cosmul")  # doctest: +SKIP
    """
    models = _models(embeddings)
    query_list, queries_from = _queries(queries)
    return _frame(
        *_retest.analogies_parquet(
            *models,
            query_list,
            queries_from,
            solver,
            delta=delta,
            squared_delta=squared_delta,
            constrained=constrained,
            top_n=top_n,
            restrict_vocab=restrict_vocab,
            lowercase=lowercase,
        )
    )


def _list_name(value: Optional[PathLike]) -> Optional[str]:
    return None if value is None else os.fspath(value)


def _list_names(values: Optional[Sequence[PathLike]]) -> Optional[list[str]]:
    return None if values is None else [os.fspath(v) for v in values]


def base_pairs(
    embeddings: Union[Embeddings, Sequence[Embeddings]],
    *,
    pairs: Optional[PathLike] = None,
    targets: Optional[PathLike] = None,
    truth: Optional[Sequence[PathLike]] = None,
    pool_exclude: Optional[Sequence[PathLike]] = None,
    most_frequent: Optional[int] = None,
    nbm_k: Optional[int] = None,
    ripa_target: Optional[str] = None,
    example: Optional[str] = None,
    random_samples: Optional[int] = None,
    seed: Optional[int] = None,
    lowercase: bool = False,
    wordlists: Optional[PathLike] = None,
) -> dict:
    """Zhang et al.'s base-pair analyses, as ``retest base-pairs`` runs them, each embedding a
    seed in the order given: a dict of the command's tables by name (``base_pair_summary``,
    ``base_pair_kappa``, …, ``coverage``; with two or more embeddings of one vocabulary also
    ``base_pair_seeds`` and ``base_pair_variance``). The lists are names in the word-list folder
    (``wordlists``, by default the current folder's ``wordlists/`` as for the command) or paths,
    Zhang et al.'s by default; the other settings take the command's defaults when not given.

    >>> tables = retest.base_pairs([emb1, emb2], wordlists="wordlists")  # doctest: +SKIP
    >>> tables["base_pair_kappa"]  # doctest: +SKIP
    """
    models = _models(embeddings)
    tables, warnings = _retest.base_pairs_parquet(
        *models,
        pairs=_list_name(pairs),
        targets=_list_name(targets),
        truth=None if truth is None else [os.fspath(t) for t in truth],
        pool_exclude=None if pool_exclude is None else [os.fspath(p) for p in pool_exclude],
        most_frequent=most_frequent,
        nbm_k=nbm_k,
        ripa_target=ripa_target,
        example=example,
        random_samples=random_samples,
        seed=seed,
        lowercase=lowercase,
        wordlists=_list_name(wordlists),
    )
    sys.stderr.write(warnings)
    return {name: pl.read_parquet(io.BytesIO(data)) for name, data in tables}


class Results(collections.abc.Mapping):
    """The tables of a finished run, by name (``scores`` of ``bias_scores/``, ``weat``,
    ``test_retest_words``, …), each read when first asked for, and its manifest.

    >>> results = retest.load_results("results/smoke")  # doctest: +SKIP
    >>> results["test_retest_words"]  # doctest: +SKIP
    """

    def __init__(self, path: PathLike) -> None:
        self.path = os.fspath(path)
        """The run's folder, ``results/<pipeline>``."""
        manifest = os.path.join(self.path, "manifest.json")
        if not os.path.isfile(manifest):
            raise RetestError(
                f"{self.path}: not a finished run (no manifest.json, which `retest run` writes last)"
            )
        with open(manifest, encoding="utf-8") as f:
            self.manifest = json.load(f)
            """The run's manifest: plan, inputs with their checksums, versions, timings."""
        self._tables = os.path.join(self.path, "tables")
        self._files = {}
        for entry in sorted(os.listdir(self._tables)):
            full = os.path.join(self._tables, entry)
            if entry.endswith(".parquet"):
                self._files[entry[: -len(".parquet")]] = full
            elif os.path.isdir(full):
                # A table written in parts, one file per configuration.
                self._files[entry] = os.path.join(full, "*.parquet")
        self._read = {}

    def __getitem__(self, name: str) -> pl.DataFrame:
        if name not in self._files:
            raise KeyError(f"{name} (the run's tables are: {', '.join(self._files)})")
        if name not in self._read:
            self._read[name] = pl.read_parquet(self._files[name])
        return self._read[name]

    def __iter__(self):
        return iter(self._files)

    def __len__(self) -> int:
        return len(self._files)

    def __repr__(self) -> str:
        return f"Results({self.path!r}: {len(self)} tables)"


def load_results(path: PathLike) -> Results:
    """The tables of a finished run (its folder ``results/<pipeline>``) and its manifest.

    >>> retest.load_results("results/smoke")["weat"]  # doctest: +SKIP
    """
    return Results(path)


def run(
    pipeline: str,
    *,
    results: PathLike = "results",
    jobs: Optional[int] = None,
    force: bool = False,
    wordlists: Optional[PathLike] = None,
    corpora: Optional[PathLike] = None,
) -> Results:
    """Runs a pipeline (a name in the current folder's ``pipelines/``, or a path) as
    ``retest run`` does: what is done already is skipped, its log goes to standard error (a
    notebook shows it under the cell), and the finished run's tables are returned. ``results``,
    ``wordlists`` and ``corpora`` are the command's ``--results``, ``--wordlists`` and
    ``--corpora``.

    >>> results = retest.run("smoke", jobs=2)  # doctest: +SKIP
    """
    folder = _retest.run_pipeline(
        os.fspath(pipeline),
        os.fspath(results),
        jobs=jobs,
        force=force,
        wordlists=_list_name(wordlists),
        corpora=_list_name(corpora),
    )
    return Results(folder)
