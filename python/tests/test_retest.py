"""The Python package against independent references (pingouin, statsmodels, scikit-learn via
the project's recorded vectors) and against the `retest` command on the same input."""

import json
import os
import pathlib
import subprocess

import numpy as np
import polars as pl
import pytest

import retest

ROOT = pathlib.Path(__file__).resolve().parents[2]
REFERENCE = ROOT.parent / "shared" / "reference" / "reliability_vectors.json"
RETEST_BIN = os.environ.get("RETEST_BIN")


def reference():
    if not REFERENCE.exists():
        pytest.fail(f"the reference vectors are missing: {REFERENCE}")
    return json.loads(REFERENCE.read_text())


# pingouin's `Type` column for each ICC form.
PINGOUIN_TYPE = {
    "icc1_1": "ICC1", "icc2_1": "ICC2", "icc3_1": "ICC3", "icc1_k": "ICC1k", "icc2_k": "ICC2k", "icc3_k": "ICC3k",
}


def long_form(matrix, value="value"):
    """A subjects × raters matrix as a long table."""
    rows = [
        {"subject": f"s{i}", "rater": f"r{j}", value: x}
        for i, row in enumerate(matrix)
        for j, x in enumerate(row)
    ]
    return pl.DataFrame(rows)


def test_icc_equals_pingouin_on_every_recorded_matrix():
    for case in reference()["reliability"]:
        table = retest.icc(long_form(case["matrix"]), subject="subject", rater="rater", value="value")
        assert table.columns == [
            "form", "pingouin_name", "value", "f", "df1", "df2", "p_value", "ci_low", "ci_high",
            "n_subjects", "n_raters", "n_dropped", "status",
        ]
        for row in table.iter_rows(named=True):
            name = PINGOUIN_TYPE[row["form"]]
            assert row["value"] == pytest.approx(case["icc"][name], abs=1e-10)
            assert row["f"] == pytest.approx(case["icc_f"][name], rel=1e-10)
            assert row["p_value"] == pytest.approx(case["icc_pval"][name], rel=1e-8, abs=1e-300)
            # pingouin rounds its interval to two decimals.
            assert [round(row["ci_low"], 2), round(row["ci_high"], 2)] == case["icc_ci95"][name]


def test_alpha_equals_pingouin():
    for case in reference()["reliability"]:
        table = retest.alpha(long_form(case["matrix"]), case="subject", item="rater", value="value")
        assert table["alpha"][0] == pytest.approx(case["cronbach_alpha"], abs=1e-10)


def test_kappa_equals_statsmodels_and_scikit_learn():
    for case in reference()["agreement"]:
        table = retest.kappa(long_form(case["labels"], "label"), subject="subject", rater="rater", label="label")
        fleiss = table.filter(pl.col("statistic") == "fleiss")
        assert fleiss["kappa"][0] == pytest.approx(case["fleiss_kappa"], abs=1e-10)
        two = [row[:2] for row in case["labels"]]
        cohen = retest.kappa(long_form(two, "label"), subject="subject", rater="rater", label="label")
        assert cohen.filter(pl.col("statistic") == "cohen")["kappa"][0] == pytest.approx(
            case["cohen_kappa_first_two_raters"], abs=1e-10
        )


def test_a_missing_rating_drops_its_subject_as_the_command_does():
    matrix = reference()["reliability"][0]["matrix"]
    table = long_form(matrix).filter(~((pl.col("subject") == "s0") & (pl.col("rater") == "r1")))
    row = retest.icc(table, subject="subject", rater="rater", value="value", form="ICC2").row(0, named=True)
    assert (row["n_subjects"], row["n_dropped"]) == (len(matrix) - 1, 1)


@pytest.mark.skipif(RETEST_BIN is None, reason="RETEST_BIN (the retest command) is not set")
def test_icc_alpha_and_kappa_equal_the_command(tmp_path):
    case = reference()["reliability"][1]
    csv = tmp_path / "ratings.csv"
    csv.write_text("\n".join(",".join(repr(x) for x in row) for row in case["matrix"]) + "\n")

    def command(*args):
        out = subprocess.run([RETEST_BIN, "stats", *args, str(csv)], check=True, capture_output=True, text=True)
        return json.loads(out.stdout)

    table = retest.icc(long_form(case["matrix"]), subject="subject", rater="rater", value="value")
    for want, got in zip(command("icc"), table.iter_rows(named=True)):
        want["ci_low"], want["ci_high"] = want.pop("ci95")
        assert got == want
    alpha = retest.alpha(long_form(case["matrix"]), case="subject", item="rater", value="value")
    want = command("alpha")
    want["ci_low"], want["ci_high"] = want.pop("ci95")
    assert alpha.row(0, named=True) == want

    labels = reference()["agreement"][0]["labels"]
    csv.write_text("\n".join(",".join(str(x) for x in row) for row in labels) + "\n")
    want = command("kappa")
    table = retest.kappa(long_form(labels, "label"), subject="subject", rater="rater", label="label")
    assert table.row(0, named=True) == {"statistic": "fleiss", **want["fleiss"], "categories": want["categories"]}


def test_a_pandas_table_gives_the_rows_of_the_same_polars_table():
    pd = pytest.importorskip("pandas")
    case = reference()["reliability"][0]
    table = long_form(case["matrix"])
    # pandas' default string columns (object), a missing rating as NaN: no pyarrow needed.
    frame = pd.DataFrame({name: table[name].to_list() for name in table.columns})
    frame.loc[3, "value"] = float("nan")
    polars_table = table.with_columns(pl.when(pl.int_range(pl.len()) == 3).then(None).otherwise(pl.col("value")).alias("value"))
    got = retest.icc(frame, subject="subject", rater="rater", value="value")
    assert got.equals(retest.icc(polars_table, subject="subject", rater="rater", value="value"))
    assert got["n_dropped"][0] == 1
    assert retest.alpha(frame, case="subject", item="rater", value="value").equals(
        retest.alpha(polars_table, case="subject", item="rater", value="value")
    )
    frame.loc[0, "rater"] = None
    with pytest.raises(retest.RetestError) as error:
        retest.icc(frame, subject="subject", rater="rater", value="value")
    assert str(error.value) == "column `rater`, row 1: a missing label"


def test_ratings_with_two_values_for_one_cell_are_refused():
    table = pl.DataFrame({"s": ["a", "a", "b"], "r": ["x", "x", "x"], "v": [1.0, 2.0, 3.0]})
    with pytest.raises(retest.RetestError) as error:
        retest.icc(table, subject="s", rater="r", value="v")
    assert str(error.value) == "subject `a`, rater `x`: more than one value"
    assert isinstance(error.value, ValueError)
    assert f"{type(error.value).__module__}.{type(error.value).__name__}" == "retest.RetestError"


def test_a_missing_column_and_an_unknown_form_are_named():
    table = pl.DataFrame({"s": ["a", "b"], "r": ["x", "x"], "v": [1.0, 2.0]})
    with pytest.raises(retest.RetestError) as error:
        retest.icc(table, subject="s", rater="rater", value="v")
    assert str(error.value) == "no column `rater` in the table (it has: s, r, v)"
    with pytest.raises(retest.RetestError) as error:
        retest.icc(table, subject="s", rater="r", value="v", form="ICC9")
    assert str(error.value) == (
        "unknown ICC form `ICC9`: expected one of icc1_1, icc2_1, icc3_1, icc1_k, icc2_k, icc3_k "
        "(or pingouin's names)"
    )


def test_kappa_refuses_a_label_that_is_not_a_whole_number():
    table = pl.DataFrame({"s": ["a", "a"], "r": ["x", "y"], "v": [1.0, 0.5]})
    with pytest.raises(retest.RetestError) as error:
        retest.kappa(table, subject="s", rater="r", label="v")
    assert str(error.value) == "subject `a`, rater `y`: `0.5` is not a category label: kappa needs whole numbers"


def test_embeddings_from_arrays_keep_words_and_float32_values(tmp_path):
    vectors = np.array([[1.0, 2.0, 3.0], [-0.5, 0.25, 1e-3]])
    emb = retest.Embeddings.from_arrays(["he", "she"], vectors)
    assert (len(emb), emb.dim, emb.words) == (2, 3, ["he", "she"])
    assert "she" in emb and "they" not in emb
    np.testing.assert_array_equal(emb["she"], vectors[1].astype(np.float32))
    np.testing.assert_array_equal(emb.vectors, vectors.astype(np.float32))
    with pytest.raises(KeyError):
        emb["they"]
    assert repr(emb) == "Embeddings(2 words, dim 3)"


def test_embeddings_saved_and_loaded_in_every_format_are_the_same(tmp_path):
    rng = np.random.default_rng(7)
    words = [f"w{i}" for i in range(20)]
    vectors = rng.standard_normal((20, 8)).astype(np.float32)
    emb = retest.Embeddings.from_arrays(words, vectors)
    for name, fmt in [("e.bin", None), ("e.vec", None), ("e.txt", "glove-text"), ("e.fifu", None)]:
        path = tmp_path / name
        emb.save(path, format=fmt)
        back = retest.Embeddings.load(path)
        assert back.words == words
        if fmt is None and name.endswith(".fifu"):
            # finalfusion stores unit rows and their norms: each value comes back within a few
            # float32 ulps (the bound the project README documents).
            np.testing.assert_allclose(back.vectors, vectors, rtol=4e-7, atol=1e-7)
        else:
            # The text formats keep the shortest decimal that reads back as the same float32.
            np.testing.assert_array_equal(back.vectors, vectors)


def test_saving_over_a_file_needs_force(tmp_path):
    emb = retest.Embeddings.from_arrays(["a"], [[1.0, 0.0]])
    path = tmp_path / "e.vec"
    emb.save(path)
    with pytest.raises(retest.RetestError) as error:
        emb.save(path)
    assert str(error.value) == (
        f"--output {path}: the file exists (it holds word2vec-text embeddings); pass --force to replace it"
    )
    emb.save(path, force=True)


def test_reading_a_missing_file_says_which(tmp_path):
    path = tmp_path / "nothing.vec"
    with pytest.raises(retest.RetestError) as error:
        retest.Embeddings.load(path)
    assert str(error.value) == f"{path}: No such file or directory (os error 2)"


def test_vectors_of_the_wrong_shape_are_refused():
    with pytest.raises(retest.RetestError) as error:
        retest.Embeddings.from_arrays(["a", "b"], [[1.0, 2.0]])
    assert str(error.value) == "2 words but 1 vectors"


@pytest.mark.skipif(RETEST_BIN is None, reason="RETEST_BIN (the retest command) is not set")
def test_a_loaded_file_has_the_vectors_the_command_exports(tmp_path):
    rng = np.random.default_rng(3)
    words = [f"x{i}" for i in range(10)]
    emb = retest.Embeddings.from_arrays(words, rng.standard_normal((10, 4)))
    emb.save(tmp_path / "a.bin")
    subprocess.run(
        [RETEST_BIN, "embeddings", "export", str(tmp_path / "a.bin"), "--output", str(tmp_path / "b.vec")],
        check=True,
        capture_output=True,
    )
    np.testing.assert_array_equal(retest.Embeddings.load(tmp_path / "b.vec").vectors, emb.vectors)


WEAT_FIXTURE = ROOT / "crates" / "retest-measures" / "tests" / "data" / "weat_trained_reference.txt"


def weat_fixture():
    """The recorded model (a retest-trained SGNS seed's vectors of the tests' words) and, per
    test, its sets and the statistic, effect size and exact p-value computed with numpy and
    cross-checked with WEFE 1.0.1 (weat_trained_reference.py beside it)."""
    words, vectors, fields = [], [], {}
    for line in WEAT_FIXTURE.read_text().splitlines():
        if line.startswith("#") or line.startswith("shape"):
            continue
        key, *values = line.split(" ")
        if key == "word":
            words.append(values[0])
            vectors.append([float(v) for v in values[1:]])
        else:
            fields[key] = values
    tests = {}
    for key, values in fields.items():
        _, test, field = key.split(".")
        tests.setdefault(test, {})[field] = values
    return words, np.array(vectors, dtype=np.float32), tests


def test_weat_equals_the_independent_reference_and_wefe():
    words, vectors, tests = weat_fixture()
    emb = retest.Embeddings.from_arrays(words, vectors)
    sets = {
        name: {s: [words[int(i)] for i in fields[s]] for s in ("x", "y", "a", "b")}
        for name, fields in tests.items()
    }
    table = retest.weat(emb, sets)
    assert table["test"].to_list() == list(tests)
    for row in table.iter_rows(named=True):
        want = tests[row["test"]]
        assert row["statistic"] == pytest.approx(float(want["statistic"][0]), abs=1e-9)
        assert row["effect_size"] == pytest.approx(float(want["d_population"][0]), abs=1e-9)
        assert row["p_method"] == "exact"
        assert row["p_value"] == pytest.approx(float(want["p_exact"][0]), abs=1e-15)
        assert row["n_partitions"] == int(want["p_partitions"][0])


@pytest.mark.skipif(RETEST_BIN is None, reason="RETEST_BIN (the retest command) is not set")
def test_weat_equals_the_command(tmp_path):
    words, vectors, tests = weat_fixture()
    path = str(tmp_path / "seed.vec")
    retest.Embeddings.from_arrays(words, vectors).save(path)
    lines = ["tests:"]
    for name, fields in tests.items():
        sets = ", ".join(f"{s}: [{', '.join(words[int(i)] for i in fields[s])}, unseen_{s}]" for s in ("x", "y", "a", "b"))
        lines.append(f"  {name}: {{ {sets} }}")
    (tmp_path / "tests.yaml").write_text("\n".join(lines) + "\n")
    out = tmp_path / "weat.parquet"
    subprocess.run(
        [RETEST_BIN, "weat", path, "--tests", str(tmp_path / "tests.yaml"), "--samples", "500", "--exact-max", "1000",
         "--out", str(out)],
        check=True,
        capture_output=True,
        cwd=tmp_path,
    )
    got = retest.weat(retest.Embeddings.load(path), tmp_path / "tests.yaml", samples=500, exact_max=1000)
    want = pl.read_parquet(out)
    assert got.equals(want), (got, want)
    assert set(got["p_method"]) == {"exact", "sampled"}


def test_weat_names_unknown_tests_and_missing_sets():
    emb = retest.Embeddings.from_arrays(["a", "b"], np.eye(2))
    with pytest.raises(retest.RetestError) as error:
        retest.weat(emb, {"t": {"x": ["a"], "y": ["b"], "a": ["a"]}})
    assert str(error.value) == "test `t`: no set b (a test has x, y, a and b)"
    with pytest.raises(retest.RetestError) as error:
        retest.weat(emb, {"t": {"x": ["a"], "y": ["b"], "a": ["a"], "b": ["b"]}}, tests_only=["u"])
    assert str(error.value) == "tests_only: no test `u` (the tests are: t)"
    with pytest.raises(retest.RetestError) as error:
        retest.weat(emb, {"t": {"x": ["a"], "y": ["b"], "a": ["a"], "b": ["b"]}}, sd="median")
    assert str(error.value) == "unknown standard deviation 'median': expected one of population, sample"


BENCHMARKS = ROOT.parent / "shared" / "data" / "benchmarks"


@pytest.mark.skipif(RETEST_BIN is None, reason="RETEST_BIN (the retest command) is not set")
def test_evaluate_equals_the_command(tmp_path):
    words, vectors, _ = weat_fixture()
    # The fixture's words plus frequent benchmark words, with reproducible random vectors.
    extra = [w for w in ["king", "queen", "man", "woman", "boy", "girl", "car", "automobile", "cup", "coffee"] if w not in words]
    rng = np.random.default_rng(11)
    vectors = np.vstack([vectors, rng.standard_normal((len(extra), vectors.shape[1]))])
    path = str(tmp_path / "seed.vec")
    retest.Embeddings.from_arrays(words + extra, vectors).save(path)
    out = tmp_path / "eval.parquet"
    subprocess.run(
        [RETEST_BIN, "eval", path, "--benchmarks", str(BENCHMARKS), "--out", str(out)],
        check=True,
        capture_output=True,
    )
    got = retest.evaluate(retest.Embeddings.load(path), benchmarks=BENCHMARKS)
    assert got.equals(pl.read_parquet(out)), got
    assert set(got["benchmark"]) >= {"wordsim353", "simlex999", "men", "google", "msr"}


def test_evaluate_without_a_benchmark_folder_says_how_to_give_one(monkeypatch):
    monkeypatch.delenv("RETEST_DATA_DIR", raising=False)
    emb = retest.Embeddings.from_arrays(["a"], [[1.0]])
    with pytest.raises(retest.RetestError) as error:
        retest.evaluate(emb)
    assert str(error.value) == "no benchmark folder: pass benchmarks= or set RETEST_DATA_DIR to the data mirror"


def direct_bias_model():
    words, vectors, _ = weat_fixture()
    return words, retest.Embeddings.from_arrays(words, vectors)


@pytest.mark.skipif(RETEST_BIN is None, reason="RETEST_BIN (the retest command) is not set")
def test_direct_bias_equals_the_command_from_files_and_from_lists(tmp_path):
    words, emb = direct_bias_model()
    path = str(tmp_path / "seed.vec")
    emb.save(path)
    pairs = [("john", "amy"), ("paul", "joan"), ("mike", "sarah"), ("bill", "nobody")]
    neutral = ["management", "professional", "corporation", "salary", "office", "business", "unseen"]
    (tmp_path / "pairs.txt").write_text("".join(f"{m} {f}\n" for m, f in pairs))
    (tmp_path / "words.txt").write_text("".join(f"{w}\n" for w in neutral))
    out = tmp_path / "db.parquet"
    subprocess.run(
        [RETEST_BIN, "direct-bias", path, "--pairs", str(tmp_path / "pairs.txt"), "--words",
         str(tmp_path / "words.txt"), "--out", str(out)],
        check=True,
        capture_output=True,
    )
    want = pl.read_parquet(out)
    loaded = retest.Embeddings.load(path)
    from_files = retest.direct_bias(loaded, tmp_path / "pairs.txt", tmp_path / "words.txt")
    from_lists = retest.direct_bias(loaded, pairs, neutral)
    assert from_files.equals(want), from_files
    assert from_lists.equals(want)
    assert want["direction"].to_list() == ["john:amy", "paul:joan", "mike:sarah", "pca"]


def test_direct_bias_needs_two_pairs_and_a_finite_exponent():
    words, emb = direct_bias_model()
    with pytest.raises(retest.RetestError) as error:
        retest.direct_bias(emb, [("john", "amy"), ("x", "y")], ["office"])
    assert str(error.value) == (
        "embedding: direction `pca` needs at least 2 pairs in the vocabulary, found 1 of the 2 in the pairs given; "
        "pairs dropped: x:y"
    )
    with pytest.raises(retest.RetestError) as error:
        retest.direct_bias(emb, [("john", "amy"), ("paul", "joan")], ["office"], c=-1)
    assert str(error.value) == "--c must be a finite number ≥ 0, found -1"


def command_table(tmp_path, *args, cwd=None):
    """The table the command writes for `args` (its --out is added here)."""
    out = tmp_path / f"command-{len(list(tmp_path.iterdir()))}.parquet"
    done = subprocess.run([RETEST_BIN, *args, "--out", str(out)], capture_output=True, text=True, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return pl.read_parquet(out)


@pytest.mark.skipif(RETEST_BIN is None, reason="RETEST_BIN (the retest command) is not set")
def test_score_equals_the_command_from_files_and_from_lists(tmp_path):
    words, emb = direct_bias_model()
    path = str(tmp_path / "seed.vec")
    emb.save(path)
    pairs = [("john", "amy"), ("paul", "joan"), ("Mike", "Sarah"), ("bill", "nobody")]
    targets = ["management", "professional", "Office", "salary", "unseen", "management"]
    (tmp_path / "pairs.txt").write_text("".join(f"{m} {f}\n" for m, f in pairs))
    # A word file may not repeat a word; a list may (its first place is kept).
    (tmp_path / "words.txt").write_text("".join(f"{w}\n" for w in targets[:-1]))
    loaded = retest.Embeddings.load(path)
    files = ["--pairs", str(tmp_path / "pairs.txt"), "--words", str(tmp_path / "words.txt")]
    want = command_table(tmp_path, "score", path, *files, "--nbm-k", "5")
    assert want.equals(retest.score(loaded, tmp_path / "pairs.txt", tmp_path / "words.txt", nbm_k=5))
    assert want.equals(retest.score(loaded, pairs, targets, nbm_k=5))
    assert set(want["rule"]) == {"dbwa", "ripa", "nbm"} and want.height > 0

    want = command_table(
        tmp_path, "score", path, *files, "--rules", "ripa,nbm", "--ripa-target", "normalized", "--nbm-k", "3",
        "--nbm-pool", "neutral", "--lowercase",
    )
    got = retest.score(
        loaded, pairs, targets, rules=["ripa", "nbm"], ripa_target="normalized", nbm_k=3, nbm_pool="neutral",
        lowercase=True, threads=1,
    )
    assert want.equals(got)
    assert "mike" in set(got["male"]) and "office" in set(got["word"])


def test_score_names_an_unknown_rule_and_a_missing_file(tmp_path):
    words, emb = direct_bias_model()
    with pytest.raises(retest.RetestError) as error:
        retest.score(emb, [("john", "amy")], ["office"], rules=["weat"])
    assert str(error.value) == "unknown scoring rule 'weat': expected one of dbwa, ripa, nbm"
    with pytest.raises(retest.RetestError) as error:
        retest.score(emb, [("john", "amy")], ["office"], rules=[])
    assert str(error.value) == "--rules: give at least one of dbwa, ripa, nbm"
    with pytest.raises(retest.RetestError) as error:
        retest.score(emb, tmp_path / "none.txt", ["office"])
    assert str(error.value) == f"cannot read {tmp_path / 'none.txt'}: No such file or directory (os error 2)"


@pytest.mark.skipif(RETEST_BIN is None, reason="RETEST_BIN (the retest command) is not set")
def test_analogies_equal_the_command_from_a_file_and_from_a_list(tmp_path):
    words, emb = direct_bias_model()
    path = str(tmp_path / "seed.vec")
    emb.save(path)
    queries = [("john", "amy", "paul", "joan"), ("paul", "joan", "mike"), ("mike", "unseen", "john")]
    (tmp_path / "queries.txt").write_text("# a b c [reported]\n" + "".join(" ".join(q) + "\n" for q in queries))
    loaded = retest.Embeddings.load(path)
    for flags, settings in [
        (["--solver", "cosadd"], {}),
        (["--solver", "cosmul", "--unconstrained", "--top-n", "3", "--restrict-vocab", "40"],
         {"solver": "cosmul", "constrained": False, "top_n": 3, "restrict_vocab": 40}),
        (["--solver", "bolukbasi", "--delta", "1.2", "--squared-delta"],
         {"solver": "bolukbasi", "delta": 1.2, "squared_delta": True}),
    ]:
        want = command_table(tmp_path, "analogies", path, "--queries", str(tmp_path / "queries.txt"), *flags)
        got = retest.analogies(loaded, tmp_path / "queries.txt", **settings)
        assert want.equals(got), (flags, got)
        # The queries' lines (their positions in a list) appear in the warnings only.
        from_list = retest.analogies(loaded, queries, **settings)
        assert from_list.equals(got)
    assert set(want["status"]) == {"ok", "out_of_vocabulary"}


def test_analogies_refuse_delta_for_another_solver_and_a_malformed_query():
    words, emb = direct_bias_model()
    with pytest.raises(retest.RetestError) as error:
        retest.analogies(emb, [("john", "amy", "paul")], solver="cosadd", delta=1.0)
    assert str(error.value) == "--delta and --squared-delta apply to --solver bolukbasi only"
    with pytest.raises(retest.RetestError) as error:
        retest.analogies(emb, [("john", "amy")])
    assert str(error.value) == "query 1: a query is (a, b, c) or (a, b, c, reported), not ('john', 'amy')"
    with pytest.raises(retest.RetestError) as error:
        retest.analogies(emb, [("x", "y", "z")])
    assert str(error.value) == "embedding: none of the 1 queries of the queries given has its three words in the vocabulary"


@pytest.mark.skipif(RETEST_BIN is None, reason="RETEST_BIN (the retest command) is not set")
def test_query_equals_the_command_from_a_file_and_from_a_dict(tmp_path):
    words, emb = direct_bias_model()
    path = str(tmp_path / "seed.vec")
    emb.save(path)
    _, _, fixture_tests = weat_fixture()
    sets = {s: [words[int(i)] for i in fixture_tests["weat6"][s]] for s in ("x", "y", "a", "b")}
    tests = {
        "weat6": sets,
        "career": {"targets": {"male": sets["x"], "female": sets["y"]}, "attributes": {"career": sets["a"] + ["unseen"]}},
    }
    lines = ["tests:"]
    lines.append("  weat6: {" + ", ".join(f"{k}: [{', '.join(v)}]" for k, v in sets.items()) + "}")
    lines.append(
        f"  career: {{targets: {{male: [{', '.join(sets['x'])}], female: [{', '.join(sets['y'])}]}}, "
        f"attributes: {{career: [{', '.join(sets['a'])}, unseen]}}}}"
    )
    (tmp_path / "tests.yaml").write_text("\n".join(lines) + "\n")
    want = command_table(tmp_path, "query", path, "--tests", str(tmp_path / "tests.yaml"), "--rnsb-holdout", "0")
    loaded = retest.Embeddings.load(path)
    assert want.equals(retest.query(loaded, tmp_path / "tests.yaml", rnsb_holdout=0))
    assert want.equals(retest.query(loaded, tests, rnsb_holdout=0))
    statuses = {(r["test"], r["measure"]): r["status"] for r in want.iter_rows(named=True)}
    assert statuses[("weat6", "rnd")] == "not_applicable" and statuses[("career", "rnd")] == "ok"
    assert statuses[("weat6", "rnsb")] == "ok" and statuses[("career", "weat")] == "not_applicable"
    # WEAT's row is `retest weat`'s effect size and p-value.
    weat_row = retest.weat(loaded, {"weat6": sets}).row(0, named=True)
    query_row = want.filter((pl.col("test") == "weat6") & (pl.col("measure") == "weat")).row(0, named=True)
    assert (query_row["value"], query_row["p_value"]) == (weat_row["effect_size"], weat_row["p_value"])


def test_query_names_a_measure_that_is_not_a_query_measure():
    words, emb = direct_bias_model()
    with pytest.raises(retest.RetestError) as error:
        retest.query(emb, {"t": {"targets": {"m": ["john"]}, "attributes": {"a": ["office"]}}}, measures=["nbm"])
    assert str(error.value) == "--measures: `nbm` is not a query measure (they are: weat, rnd, ect, mac, rnsb, ripa)"
    with pytest.raises(retest.RetestError) as error:
        retest.query(emb, {"t": {"targets": {"m": ["john"]}}})
    assert str(error.value) == "test `t`: no attributes (a test has targets and attributes, or x, y, a and b)"


VALIDITY = ROOT / "crates" / "retest-cli" / "tests" / "data"


@pytest.mark.skipif(RETEST_BIN is None, reason="RETEST_BIN (the retest command) is not set")
def test_validity_equals_the_command_from_a_file_and_from_a_dict(tmp_path):
    model = retest.Embeddings.load(VALIDITY / "validity_model.vec")
    (tmp_path / "pairs.txt").write_text("he she\nman woman\n")
    criterion = VALIDITY / "validity_criterion.csv"
    want = command_table(
        tmp_path, "validity", str(VALIDITY / "validity_model.vec"), "--criterion", str(criterion),
        "--pairs", str(tmp_path / "pairs.txt"), "--rules", "dbwa,ripa",
    )
    got = retest.validity(model, criterion, pairs=tmp_path / "pairs.txt", rules=["dbwa", "ripa"])
    assert want.equals(got)
    values = dict(line.split(",") for line in criterion.read_text().splitlines()[1:])
    given = retest.validity(
        model, {w: float(v) for w, v in values.items()}, pairs=[("he", "she"), ("man", "woman")], rules=["dbwa", "ripa"]
    )
    assert given.drop("criterion").equals(got.drop("criterion"))
    assert set(given["criterion"]) == {"criterion"}
    with pytest.raises(retest.RetestError) as error:
        retest.validity(model, "mturk", census_year=1900)
    assert str(error.value) == "--census-year applies to --criterion census only"


@pytest.mark.skipif(RETEST_BIN is None, reason="RETEST_BIN (the retest command) is not set")
def test_debias_equals_the_command_and_takes_lists_as_given(tmp_path):
    path = VALIDITY / "debias_model.vec"
    out = tmp_path / "command.vec"
    done = subprocess.run(
        [RETEST_BIN, "debias", str(path), "--output", str(out)], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    want = retest.Embeddings.load(out)
    model = retest.Embeddings.load(path)
    hard = retest.debias(model, wordlists=ROOT / "wordlists")
    assert hard.words == want.words
    assert np.array_equal(hard.vectors, want.vectors)
    debiaswe = pathlib.Path(os.environ["RETEST_DATA_DIR"]) / "word_lists" / "debiaswe"
    lists = {
        key: json.loads((debiaswe / f"{file}.json").read_text())
        for key, file in [
            ("definitional", "definitional_pairs"),
            ("equalize", "equalize_pairs"),
            ("gender_specific", "gender_specific_full"),
        ]
    }
    given = retest.debias(model, **lists)
    assert np.array_equal(given.vectors, hard.vectors)
    with pytest.raises(retest.RetestError) as error:
        retest.debias(model, gender_specific=["zz"], wordlists=ROOT / "wordlists")
    assert str(error.value) == f"{path}: gender-specific words `given`: none of the 1 in the vocabulary"

