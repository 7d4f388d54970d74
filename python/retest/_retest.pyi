# Type stubs of the Rust extension module; `retest/__init__.py` is the documented interface.
from typing import Optional, Union

class RetestError(ValueError): ...

class Embeddings:
    @staticmethod
    def load(path: str, format: Optional[str] = None) -> "Embeddings": ...
    @staticmethod
    def from_raw(words: list[str], dim: int, values: bytes) -> "Embeddings": ...
    @property
    def words(self) -> list[str]: ...
    @property
    def dim(self) -> int: ...
    def __len__(self) -> int: ...
    def __contains__(self, word: str) -> bool: ...
    def vector_bytes(self, word: str) -> bytes: ...
    def matrix_bytes(self) -> bytes: ...
    def save(self, path: str, format: Optional[str] = None, force: bool = False) -> None: ...

def icc_json(subjects: list[str], raters: list[str], values: list[float], form: Optional[str] = None) -> str: ...
def alpha_json(cases: list[str], items: list[str], values: list[float]) -> str: ...
def kappa_json(subjects: list[str], raters: list[str], labels: list[float]) -> str: ...
def weat_tests_file(path: str) -> list[tuple[str, list[str], list[str], list[str], list[str]]]: ...
def weat_parquet(
    embeddings: list[Embeddings],
    names: list[str],
    tests: list[tuple[str, list[str], list[str], list[str], list[str]]],
    sd: Optional[str] = None,
    exact_max: Optional[int] = None,
    samples: Optional[int] = None,
    seed: Optional[int] = None,
    lowercase: bool = False,
) -> tuple[bytes, str]: ...
def evaluate_parquet(embeddings: Embeddings, name: str, benchmarks: str) -> tuple[bytes, str]: ...
def direct_bias_parquet(
    embeddings: list[Embeddings],
    names: list[str],
    pairs: list[tuple[str, str]],
    pairs_from: str,
    words: list[str],
    words_from: str,
    c: Optional[float] = None,
    components: Optional[int] = None,
    lowercase: bool = False,
) -> tuple[bytes, str]: ...
def pairs_file(path: str) -> list[tuple[str, str]]: ...
def words_file(path: str) -> list[str]: ...
def score_parquet(
    embeddings: list[Embeddings],
    names: list[str],
    pairs: list[tuple[str, str]],
    words: list[str],
    rules: Optional[list[str]] = None,
    ripa_target: Optional[str] = None,
    nbm_k: Optional[int] = None,
    nbm_pool: Optional[str] = None,
    pool_exclude: Optional[list[str]] = None,
    threads: Optional[int] = None,
    lowercase: bool = False,
    wordlists: Optional[str] = None,
    corpora: Optional[str] = None,
) -> tuple[bytes, str]: ...
def queries_file(path: str) -> list[tuple[int, list[str], Optional[str]]]: ...
def analogies_parquet(
    embeddings: list[Embeddings],
    names: list[str],
    queries: list[tuple[int, list[str], Optional[str]]],
    queries_from: str,
    solver: str,
    delta: Optional[float] = None,
    squared_delta: bool = False,
    constrained: bool = True,
    top_n: Optional[int] = None,
    restrict_vocab: Optional[int] = None,
    lowercase: bool = False,
) -> tuple[bytes, str]: ...
def base_pairs_parquet(
    embeddings: list[Embeddings],
    names: list[str],
    pairs: Optional[str] = None,
    targets: Optional[str] = None,
    truth: Optional[list[str]] = None,
    pool_exclude: Optional[list[str]] = None,
    most_frequent: Optional[int] = None,
    nbm_k: Optional[int] = None,
    ripa_target: Optional[str] = None,
    example: Optional[str] = None,
    random_samples: Optional[int] = None,
    seed: Optional[int] = None,
    lowercase: bool = False,
    wordlists: Optional[str] = None,
    corpora: Optional[str] = None,
) -> tuple[list[tuple[str, bytes]], str]: ...
def run_pipeline(
    pipeline: str,
    results: str,
    jobs: Optional[int] = None,
    force: bool = False,
    wordlists: Optional[str] = None,
    corpora: Optional[str] = None,
) -> str: ...
def query_tests_file(path: str) -> list[tuple[str, list[tuple[str, list[str]]], list[tuple[str, list[str]]]]]: ...
def query_parquet(
    embeddings: list[Embeddings],
    names: list[str],
    tests: list[tuple[str, list[tuple[str, list[str]]], list[tuple[str, list[str]]]]],
    measures: Optional[list[str]] = None,
    rnsb_holdout: Optional[float] = None,
    sd: Optional[str] = None,
    exact_max: Optional[int] = None,
    samples: Optional[int] = None,
    seed: Optional[int] = None,
    lowercase: bool = False,
) -> tuple[bytes, str]: ...
def validity_parquet(
    embeddings: list[Embeddings],
    names: list[str],
    pairs: Optional[list[tuple[str, str]]],
    criterion: Union[str, tuple[list[str], list[float]]],
    census_year: Optional[int] = None,
    rules: Optional[list[str]] = None,
    ripa_target: Optional[str] = None,
    nbm_k: Optional[int] = None,
    nbm_pool: Optional[str] = None,
    pool_exclude: Optional[list[str]] = None,
    threads: Optional[int] = None,
    lowercase: bool = False,
    wordlists: Optional[str] = None,
    corpora: Optional[str] = None,
) -> tuple[bytes, str]: ...
def hard_debias(
    embedding: Embeddings,
    name: str,
    definitional: Union[str, list[tuple[str, str]]],
    equalize: Union[str, list[tuple[str, str]]],
    gender_specific: Union[str, list[str]],
    lowercase: bool = False,
    wordlists: Optional[str] = None,
    corpora: Optional[str] = None,
) -> tuple[Embeddings, str]: ...
