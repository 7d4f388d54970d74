"""The package's runs and whole-run analyses against the `retest` command, on the smoke pipeline
(small models of WikiText-103's validation set; RETEST_DATA_DIR names the data mirror)."""

import os
import pathlib
import subprocess

import polars as pl
import pytest

import retest

ROOT = pathlib.Path(__file__).resolve().parents[2]
RETEST_BIN = os.environ.get("RETEST_BIN")

pytestmark = [
    pytest.mark.skipif(RETEST_BIN is None, reason="RETEST_BIN (the retest command) is not set"),
    pytest.mark.skipif("RETEST_DATA_DIR" not in os.environ, reason="RETEST_DATA_DIR (the data mirror) is not set"),
]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The smoke pipeline run from Python and by the command, each into its own results folder,
    from the project's folder (its pipelines/, corpora/ and wordlists/)."""
    base = tmp_path_factory.mktemp("runs")
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        from_python = retest.run("smoke", results=base / "python", jobs=2)
    finally:
        os.chdir(here)
    subprocess.run(
        [RETEST_BIN, "--results", str(base / "command"), "run", "smoke", "--jobs", "2"],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )
    return from_python, base / "command" / "smoke"


def test_a_run_from_python_writes_the_tables_the_command_writes(runs):
    from_python, command = runs
    loaded = retest.load_results(command)
    assert list(from_python) == list(loaded)
    assert {"weat", "test_retest_words", "bias_scores", "base_pair_kappa", "analogy_answers"} <= set(loaded)
    for name in loaded:
        assert from_python[name].equals(loaded[name]), name
    assert from_python.manifest["pipeline"] == loaded.manifest["pipeline"] == "smoke"
    assert from_python.manifest["plan"] == loaded.manifest["plan"]


def test_a_run_in_a_notebook_shows_its_log_under_the_cell(tmp_path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    # ipykernel forwards what the process writes to its file descriptors only outside pytest.
    monkeypatch.delenv("PYTEST_CURRENT_TEST")
    notebook = nbformat.v4.new_notebook()
    code = f"import os, retest\nos.chdir({str(ROOT)!r})\nprint(retest.run('smoke', results={str(tmp_path)!r}, jobs=2))"
    notebook.cells = [nbformat.v4.new_code_cell(code)]
    nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3").execute()
    outputs = notebook.cells[0].outputs
    log = "".join(o["text"] for o in outputs if o.get("name") == "stderr")
    # The log arrives as the run goes, in several parts, not once at the end.
    assert sum(o.get("name") == "stderr" for o in outputs) > 1
    for line in ["] trained wikitext-103-valid sgns seed-00 in ", "] measured wikitext-103-valid glove seed-02\n",
                 f"pipeline `smoke` done: 93 files in {tmp_path / 'smoke' / 'tables'}, "]:
        assert line in log
    printed = "".join(o["text"] for o in outputs if o.get("name") == "stdout")
    assert printed == f"Results({str(tmp_path / 'smoke')!r}: 46 tables)\n"


def test_load_results_reads_every_table_and_the_parts_of_the_bias_scores(runs):
    _, command = runs
    results = retest.load_results(command)
    tables = command / "tables"
    files = sorted(p.stem for p in tables.glob("*.parquet"))
    assert sorted(set(results) - {"bias_scores"}) == files
    assert results["weat"].equals(pl.read_parquet(tables / "weat.parquet"))
    parts = [pl.read_parquet(p) for p in sorted((tables / "bias_scores").glob("*.parquet"))]
    assert len(parts) == 3  # sgns, sgns+hard, glove
    assert results["bias_scores"].equals(pl.concat(parts))
    with pytest.raises(KeyError) as error:
        results["nothing"]
    assert error.value.args[0].startswith("nothing (the run's tables are: agreement, ")
    assert repr(results) == f"Results({str(command)!r}: {len(files) + 1} tables)"


def test_load_results_of_an_unfinished_run_says_so(tmp_path):
    with pytest.raises(retest.RetestError) as error:
        retest.load_results(tmp_path)
    assert str(error.value) == f"{tmp_path}: not a finished run (no manifest.json, which `retest run` writes last)"


def test_a_run_of_an_unknown_pipeline_says_which(tmp_path):
    with pytest.raises(retest.RetestError) as error:
        retest.run(str(tmp_path / "nothing.yaml"), results=tmp_path)
    assert str(error.value) == f"cannot read {tmp_path / 'nothing.yaml'}: No such file or directory (os error 2)"


def smoke_seeds(command):
    """The smoke run's three SGNS seeds."""
    return sorted((command.parent / "embeddings").glob("wikitext-103-valid/sgns-*/seed-*.fifu"))


def test_base_pairs_equal_the_command(runs, tmp_path, monkeypatch):
    _, command = runs
    seeds = smoke_seeds(command)
    assert len(seeds) == 3
    out = tmp_path / "base-pairs"
    subprocess.run(
        [RETEST_BIN, "base-pairs", *map(str, seeds), "--most-frequent", "5000", "--nbm-k", "20", "--out", str(out)],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )
    monkeypatch.chdir(ROOT)
    tables = retest.base_pairs([retest.Embeddings.load(s) for s in seeds], most_frequent=5000, nbm_k=20)
    assert sorted(tables) == sorted(p.stem for p in out.glob("*.parquet"))
    assert {"base_pair_seeds", "base_pair_variance", "coverage"} <= set(tables)
    for name, table in tables.items():
        assert table.equals(pl.read_parquet(out / f"{name}.parquet")), name


def test_base_pairs_with_a_missing_list_say_where_they_looked(runs, tmp_path):
    _, command = runs
    emb = retest.Embeddings.load(smoke_seeds(command)[0])
    with pytest.raises(retest.RetestError) as error:
        retest.base_pairs(emb, wordlists=tmp_path)
    assert str(error.value) == (
        f"base-pair list `zhang-pairs`: no file `zhang-pairs.txt` or `zhang-pairs.yaml` in the word-list folder "
        f"{tmp_path} (--wordlists DIR names another)"
    )
    with pytest.raises(retest.RetestError) as error:
        retest.base_pairs(emb, most_frequent=1)
    assert str(error.value) == "most_frequent must be at least 2"


def test_analogies_on_a_trained_seed_equal_the_command(runs, tmp_path):
    _, command = runs
    seed = str(smoke_seeds(command)[0])
    queries = ROOT / "wordlists" / "analogies" / "family.txt"
    out = tmp_path / "analogies.parquet"
    subprocess.run(
        [RETEST_BIN, "analogies", seed, "--queries", str(queries), "--solver", "cosmul", "--out", str(out)],
        check=True,
        capture_output=True,
    )
    got = retest.analogies(retest.Embeddings.load(seed), queries, solver="cosmul")
    assert got.equals(pl.read_parquet(out))
    assert (got["status"] == "ok").sum() > 0
