"""Writes weat_reference.txt: a small deterministic embedding and the WEAT and Direct Bias values
that tests/weat.rs checks retest-measures against.

An implementation independent of the Rust code: numpy for the vectors, itertools.combinations
and math.fsum (correctly rounded sums, so a partition tying with the observed one is never
greater) for the exact permutation p-value, numpy.linalg.svd for the principal component.
WEFE (1.0.1) cross-checks the WEAT statistic and the effect size (population SD) when it is
installed; its own p-value is not used (it has no exact method, and its sampled one draws words
with replacement from an unseeded generator).

    python3 -m venv /tmp/venv-weat && /tmp/venv-weat/bin/pip install numpy wefe
    /tmp/venv-weat/bin/python weat_reference.py   # from this folder

Fixture format: one value per line, `key value...`, whitespace-separated; floats are written
with repr() (shortest round-trip), vectors as float32 values.
"""

import itertools
import math
import os

import numpy as np

N_WORDS, DIM = 40, 8
SEED = 20260611


def embedding():
    """40 words x 8 dims, float32. A gender axis e: pairs (2i, 2i + 1), i < 10, are
    c_i +/- 0.8 e; X-like targets 20..26 lean +0.4 e, Y-like 28..34 lean -0.4 e; word 39 is a
    copy of word 38 (a tie between X and Y in test t8x8)."""
    rng = np.random.default_rng(SEED)
    base = rng.standard_normal((N_WORDS, DIM))
    e = rng.standard_normal(DIM)
    e /= np.linalg.norm(e)
    vecs = base.copy()
    for i in range(10):
        vecs[2 * i] = base[2 * i] + 0.8 * e
        vecs[2 * i + 1] = base[2 * i] - 0.8 * e + 0.3 * base[2 * i + 1]
    for w in range(20, 27):
        vecs[w] += 0.4 * e
    for w in range(28, 35):
        vecs[w] -= 0.4 * e
    vecs[39] = vecs[38]
    return vecs.astype(np.float32)


def unit(v):
    v = v.astype(np.float64)
    n = math.sqrt(float(np.dot(v, v)))
    return v / n if n > 0 else v


def s_word(U, w, A, B):
    """s(w, A, B): mean cosine with A minus mean cosine with B, one word at a time."""
    ca = [float(np.dot(U[w], U[a])) for a in A]
    cb = [float(np.dot(U[w], U[b])) for b in B]
    return math.fsum(ca) / len(ca) - math.fsum(cb) / len(cb)


def weat_case(U, X, Y, A, B):
    sx = [s_word(U, w, A, B) for w in X]
    sy = [s_word(U, w, A, B) for w in Y]
    pooled = sx + sy
    statistic = math.fsum(sx) - math.fsum(sy)
    mu = math.fsum(pooled) / len(pooled)
    ss = math.fsum((v - mu) ** 2 for v in pooled)
    diff = math.fsum(sx) / len(sx) - math.fsum(sy) / len(sy)
    d_pop = diff / math.sqrt(ss / len(pooled))
    d_sample = diff / math.sqrt(ss / (len(pooled) - 1))
    # Exact p by brute force over every |X|-subset of the pooled scores.
    observed = math.fsum(sx)
    greater = total = 0
    margin = math.inf
    for c in itertools.combinations(range(len(pooled)), len(X)):
        total += 1
        value = math.fsum(pooled[i] for i in c)
        if value > observed:
            greater += 1
        if value != observed:
            margin = min(margin, abs(value - observed))
    assert total == math.comb(len(pooled), len(X))
    # No partition lies within rounding of the observed sum unless it ties exactly, so any
    # summation order gives the same count.
    assert margin > 1e-12, margin
    # Schroeder et al.: mean attribute difference and the normalised scores.
    a_mean = np.mean(U[A], axis=0)
    b_mean = np.mean(U[B], axis=0)
    d_vec = a_mean - b_mean
    d_norm = float(np.linalg.norm(d_vec))
    nx = [float(np.dot(U[w], d_vec)) / d_norm for w in X]
    ny = [float(np.dot(U[w], d_vec)) / d_norm for w in Y]
    return {
        "x": X, "y": Y, "a": A, "b": B,
        "s_x": sx, "s_y": sy,
        "normalized_x": nx, "normalized_y": ny,
        "statistic": [statistic],
        "d_population": [d_pop],
        "d_sample": [d_sample],
        "p_greater": [greater],
        "p_partitions": [total],
        "p_exact": [greater / total],
        "attribute_difference": [d_norm],
    }


def wefe_check(vecs, words, case, dim=DIM):
    """WEFE's statistic and effect size on the same vectors, if WEFE is installed."""
    try:
        from gensim.models import KeyedVectors
        from wefe.metrics import WEAT
        from wefe.query import Query
        from wefe.word_embedding_model import WordEmbeddingModel
    except ImportError:
        return False
    # float64 storage: WEFE's cosines are then f64 like ours (float32 storage gives ~1e-7).
    kv = KeyedVectors(vector_size=dim, dtype=np.float64)
    kv.add_vectors(words, vecs.astype(np.float64))
    model = WordEmbeddingModel(kv, "fixture")
    sets = [[words[i] for i in case[k]] for k in "xyab"]
    query = Query(sets[:2], sets[2:], ["X", "Y"], ["A", "B"])
    r = WEAT().run_query(query, model, lost_vocabulary_threshold=0.0)
    assert abs(r["weat"] - case["statistic"][0]) < 1e-9, (r["weat"], case["statistic"])
    assert abs(r["effect_size"] - case["d_population"][0]) < 1e-9, (r, case["d_population"])
    return True


def direction_case(U, pairs, neutral):
    if len(pairs) == 1:
        m, f = pairs[0]
        g = U[m] - U[f]
        g /= np.linalg.norm(g)
        ratios = [1.0]
    else:
        rows = []
        for m, f in pairs:
            mu = (U[m] + U[f]) / 2
            rows += [U[m] - mu, U[f] - mu]
        R = np.array(rows)
        R = R - R.mean(axis=0)  # PCA's centring (a no-op up to rounding)
        _, sv, vt = np.linalg.svd(R, full_matrices=False)
        g = vt[0]
        if np.mean([np.dot(U[m] - U[f], g) for m, f in pairs]) < 0:
            g = -g
        var = sv ** 2
        ratios = list(var[: min(len(pairs), DIM)] / var.sum())
    proj = [float(np.dot(U[w], g)) for w in neutral]
    return {
        "pairs": [i for p in pairs for i in p],
        "vector": [float(v) for v in g],
        "explained_variance_ratio": [float(r) for r in ratios],
        "neutral": neutral,
        "projections": proj,
        "direct_bias_c1": [math.fsum(abs(p) for p in proj) / len(proj)],
        "direct_bias_c0.5": [math.fsum(abs(p) ** 0.5 for p in proj) / len(proj)],
    }


def fmt(v):
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    return repr(float(v))


def fixture_lines(script, words, vecs, dim):
    """A fixture's first lines: the script that wrote it, its shape, one `word` line a vector."""
    lines = [
        f"# Written by {script}; do not edit.",
        f"shape {len(words)} {dim}",
    ]
    for w, v in zip(words, vecs):
        lines.append(f"word {w} " + " ".join(repr(float(x)) for x in v))
    return lines


def weat_lines(U, vecs, words, tests, dim=DIM):
    """The `weat.NAME.KEY` lines of each test (X, Y, A, B by row), and whether WEFE checked them."""
    lines = []
    wefe_used = False
    for name, (X, Y, A, B) in tests.items():
        case = weat_case(U, X, Y, A, B)
        wefe_used = wefe_check(vecs, words, case, dim) or wefe_used
        for key, values in case.items():
            lines.append(f"weat.{name}.{key} " + " ".join(fmt(v) for v in values))
    return lines, wefe_used


def embedding_fixture(script):
    """The embedding, its words, its unit vectors, and the first lines of a fixture holding it."""
    vecs = embedding()
    words = [f"w{i:02d}" for i in range(N_WORDS)]
    U = np.array([unit(v) for v in vecs])
    return vecs, words, U, fixture_lines(script, words, vecs, DIM)


def write_fixture(name, lines):
    """Writes the lines, each ended by a newline, to the file `name` beside this script."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, name), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    vecs, words, U, lines = embedding_fixture("weat_reference.py")
    tests = {
        # 8 + 8 targets: C(16, 8) = 12870 partitions; w38 in X and w39 in Y have one vector.
        "t8x8": ([20, 21, 22, 23, 24, 25, 26, 38], [28, 29, 30, 31, 32, 33, 34, 39], [0, 2, 4, 6], [1, 3, 5, 7]),
        # Unequal targets (5 + 7) and unequal attributes (3 + 5): C(12, 5) = 792.
        "t5x7": ([20, 22, 24, 29, 31], [21, 23, 25, 27, 30, 32, 35], [8, 10, 12], [9, 11, 13, 15, 17]),
        # One attribute word each side.
        "t3x4": ([35, 36, 37], [26, 27, 28, 33], [0], [1]),
    }
    weat, wefe_used = weat_lines(U, vecs, words, tests)
    lines += weat
    neutral = list(range(20, 38))
    directions = {
        "pair_w00_w01": [(0, 1)],
        "pair_w04_w05": [(4, 5)],
        "pca7": [(2 * i, 2 * i + 1) for i in range(7)],
        "pca10": [(2 * i, 2 * i + 1) for i in range(10)],
    }
    for name, pairs in directions.items():
        case = direction_case(U, pairs, neutral)
        for key, values in case.items():
            lines.append(f"direction.{name}.{key} " + " ".join(fmt(v) for v in values))
    lines.append(f"# wefe cross-check: {'yes' if wefe_used else 'no'}")
    write_fixture("weat_reference.txt", lines)
    print("wefe cross-check:", wefe_used)


if __name__ == "__main__":
    main()
