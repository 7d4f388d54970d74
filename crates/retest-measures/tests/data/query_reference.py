"""Writes query_reference.txt: WEFE 1.0.1's query measures (RND, ECT, MAC, RNSB, RIPA) at its
defaults, on the model and the sets of weat_trained_reference.txt (Caliskan et al.'s tests 6-8
on a retest-trained SGNS seed), with a numpy transcription of each definition beside them.

For every test t with sets x, y, a, b:

* rnd.a, rnd.b: RND with targets (x, y) and attribute a (or b): the mean over attribute words w
  of ||w - mean(x)|| - ||w - mean(y)|| (raw vectors, WEFE's `distance="norm"`);
* ect.a, ect.b: ECT with targets (x, y) and attribute a (or b): Spearman's rho between
  cos(mean(x), w) and cos(mean(y), w) over the attribute words;
* ripa.a, ripa.b: RIPA with targets (x, y) paired word by word (the first min(|x|, |y|) of
  each) and attribute a (or b): the mean over attribute words w of the mean over pairs of
  w . (x_i - y_i)/||x_i - y_i|| (raw vectors);
* mac: MAC with targets (x, y) and attributes (a, b): the mean, over every target word and
  attribute set, of the mean cosine distance 1 - cos(t, w) to the set's words;
* rnsb: RNSB with targets (x, y) and attributes (a, b), `holdout=False`: a logistic regression
  (scikit-learn, liblinear, C = 1, intercept penalised) of a (+1) against b (-1), then the KL
  divergence of the targets' normalised P(-1) from the uniform distribution; `rnsb_exact` is the
  same with liblinear's tolerance at 1e-12 (the optimum itself, to compare to 1e-8).

Run from this folder, with WEFE 1.0.1 (it brings gensim, scikit-learn, scipy and numpy):

    python3 -m venv /tmp/venv-wefe && /tmp/venv-wefe/bin/pip install wefe==1.0.1
    /tmp/venv-wefe/bin/python query_reference.py
"""

import math
import sys
from importlib.metadata import version

import numpy as np
from gensim.models import KeyedVectors
from scipy.stats import entropy, spearmanr
from sklearn.linear_model import LogisticRegression
from wefe.metrics import ECT, MAC, RIPA, RND, RNSB
from wefe.query import Query
from wefe.word_embedding_model import WordEmbeddingModel

from weat_reference import write_fixture


def read_fixture(path):
    words, vectors, sets = [], [], {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            key, *values = line.split()
            if key == "word":
                words.append(values[0])
                vectors.append(np.array(values[1:], dtype=np.float64).astype(np.float32))
            elif key.startswith("weat.") and key.split(".")[2] in ("x", "y", "a", "b"):
                _, test, name = key.split(".")
                sets.setdefault(test, {})[name] = [int(v) for v in values]
    return words, np.array(vectors), sets


def cos(u, v):
    return float(np.dot(u, v) / (np.linalg.norm(u) * np.linalg.norm(v)))


def numpy_rnd(V, x, y, a):
    mx, my = V[x].astype(np.float64).mean(axis=0), V[y].astype(np.float64).mean(axis=0)
    W = V[a].astype(np.float64)
    return math.fsum(np.linalg.norm(w - mx) - np.linalg.norm(w - my) for w in W) / len(a)


def numpy_ect(V, x, y, a):
    mx, my = V[x].astype(np.float64).mean(axis=0), V[y].astype(np.float64).mean(axis=0)
    W = V[a].astype(np.float64)
    return spearmanr([cos(mx, w) for w in W], [cos(my, w) for w in W]).correlation


def numpy_ripa(V, x, y, a):
    V = V.astype(np.float64)
    directions = [(V[i] - V[j]) / np.linalg.norm(V[i] - V[j]) for i, j in zip(x, y)]
    return float(np.mean([np.mean([np.dot(V[w], d) for d in directions]) for w in a]))


def numpy_mac(V, targets, attributes):
    V = V.astype(np.float64)
    scores = [np.mean([1 - cos(V[t], V[w]) for w in A]) for T in targets for t in T for A in attributes]
    return float(np.mean(scores))


def rnsb_with(V, x, y, a, b, tol):
    X = np.concatenate([V[a], V[b]]).astype(np.float64)
    labels = np.concatenate([np.ones(len(a)), -np.ones(len(b))])
    clf = LogisticRegression(solver="liblinear", max_iter=10000, tol=tol).fit(X, labels)
    negative = list(clf.classes_).index(-1)
    p = clf.predict_proba(V[x + y].astype(np.float64))[:, negative]
    p = p / p.sum()
    return float(entropy(p, np.ones(len(p)) / len(p)))


def main():
    words, V, sets = read_fixture("weat_trained_reference.txt")
    kv = KeyedVectors(vector_size=V.shape[1])
    kv.add_vectors(words, V)
    model = WordEmbeddingModel(kv, "seed-00")
    lines = [
        f"# wefe {version('wefe')}, scikit-learn {version('scikit-learn')}, scipy {version('scipy')}, "
        f"numpy {version('numpy')}, gensim {version('gensim')}"
    ]
    for test, s in sets.items():
        x, y, a, b = (s[k] for k in ("x", "y", "a", "b"))
        names = {k: [words[i] for i in s[k]] for k in s}

        def query(attributes):
            return Query([names["x"], names["y"]], [names[k] for k in attributes], ["x", "y"], list(attributes))

        for attribute, ids in (("a", a), ("b", b)):
            rnd = RND().run_query(query([attribute]), model)["result"]
            ect = ECT().run_query(query([attribute]), model)["result"]
            mine = numpy_rnd(V, x, y, ids), numpy_ect(V, x, y, ids)
            assert abs(rnd - mine[0]) < 1e-5 and abs(ect - mine[1]) < 1e-9, (test, rnd, ect, mine)
            lines += [f"query.{test}.rnd.{attribute} {rnd!r}", f"query.{test}.ect.{attribute} {ect!r}"]
            lines += [f"numpy.{test}.rnd.{attribute} {mine[0]!r}", f"numpy.{test}.ect.{attribute} {mine[1]!r}"]
            # RIPA pairs the target sets word by word: the first min(|x|, |y|) of each.
            n = min(len(x), len(y))
            pairs = Query([names["x"][:n], names["y"][:n]], [names[attribute]], ["x", "y"], [attribute])
            ripa = RIPA().run_query(pairs, model)["result"]
            mine = numpy_ripa(V, x[:n], y[:n], ids)
            assert abs(ripa - mine) < 1e-5, (test, ripa, mine)
            lines += [f"query.{test}.ripa.{attribute} {ripa!r}", f"numpy.{test}.ripa.{attribute} {mine!r}"]
        mac = MAC().run_query(query(["a", "b"]), model)["result"]
        mine = numpy_mac(V, [x, y], [a, b])
        assert abs(mac - mine) < 1e-6, (test, mac, mine)
        rnsb = RNSB().run_query(query(["a", "b"]), model, holdout=False)["result"]
        exact = rnsb_with(V, x, y, a, b, 1e-12)
        assert abs(rnsb - rnsb_with(V, x, y, a, b, 1e-4)) < 1e-12
        lines += [
            f"query.{test}.mac {mac!r}",
            f"numpy.{test}.mac {mine!r}",
            f"query.{test}.rnsb {rnsb!r}",
            f"numpy.{test}.rnsb_exact {exact!r}",
        ]
    write_fixture("query_reference.txt", lines)
    print("\n".join(lines), file=sys.stderr)


if __name__ == "__main__":
    main()
