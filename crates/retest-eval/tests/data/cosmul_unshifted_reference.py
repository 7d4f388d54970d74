#!/usr/bin/env python3
"""3CosMul as Nissim, van Noord & van der Goot (2020, Eq. 2) print it, without Levy & Goldberg's
shift, computed with numpy in float64 and written to `cosmul_unshifted_reference.json` for
`tests/solvers.rs`:

    score(D) = cos(D, B) · cos(D, C) / (cos(D, A) + ε),   ε = 1e-6,

over the unit vectors of `analogy_wt103_3000.w2v.txt` (the model of `analogy_reference.py`),
for the queries of `analogy_reference.json`, every one of the 3,000 words a candidate: the ten
best answers constrained (A, B and C excluded) and unconstrained, ties to the lower row.
gensim has no such solver; this script is a direct transcription of the printed formula.

Run (numbers made with numpy 2.4.6):

    python3 -m venv /tmp/venv-n && /tmp/venv-n/bin/pip install numpy
    /tmp/venv-n/bin/python crates/retest-eval/tests/data/cosmul_unshifted_reference.py
"""

import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "analogy_wt103_3000.w2v.txt")
QUERIES = os.path.join(HERE, "analogy_reference.json")
OUT = os.path.join(HERE, "cosmul_unshifted_reference.json")
EPSILON = 1e-6
TOP = 10


def read_model(path):
    with open(path, encoding="utf-8") as f:
        n, dim = map(int, f.readline().split())
        words, rows = [], np.zeros((n, dim))
        for i in range(n):
            parts = f.readline().rstrip("\n").split(" ")
            words.append(parts[0])
            rows[i] = [float(x) for x in parts[1 : dim + 1]]
    # Rows as retest reads them: f32 values, normalised in float64.
    rows = rows.astype(np.float32).astype(np.float64)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return words, rows / np.where(norms == 0, 1, norms)


def top(scores, excluded):
    scores = scores.copy()
    scores[list(excluded)] = -np.inf
    order = np.lexsort((np.arange(len(scores)), -scores))
    return [int(r) for r in order[:TOP]]


def main():
    words, unit = read_model(MODEL)
    row = {w: i for i, w in enumerate(words)}
    with open(QUERIES, encoding="utf-8") as f:
        queries = json.load(f)["queries"]
    out = []
    for q in queries:
        a, b, c = row[q["a"]], row[q["b"]], row[q["c"]]
        cos = unit @ unit[[a, b, c]].T
        scores = cos[:, 1] * cos[:, 2] / (cos[:, 0] + EPSILON)
        entry = {"a": q["a"], "b": q["b"], "c": q["c"]}
        for name, excluded in (("constrained", {a, b, c}), ("unconstrained", set())):
            entry[name] = [[words[r], float(scores[r])] for r in top(scores, excluded)]
        out.append(entry)
    fixture = {"generator": "cosmul_unshifted_reference.py", "numpy": np.__version__,
               "epsilon": EPSILON, "model": os.path.basename(MODEL)}
    head = json.dumps(fixture, ensure_ascii=False)
    lines = [json.dumps(q, ensure_ascii=False) for q in out]
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(head[:-1] + ', "queries": [\n' + ",\n".join(lines) + "\n]}\n")
    print(f"{len(out)} queries -> {OUT}")


if __name__ == "__main__":
    main()
