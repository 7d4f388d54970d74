#!/usr/bin/env python3
"""gensim's analogy answers on a small real embedding, written to `analogy_reference.json` for
`tests/solvers.rs` to compare with retest's constrained 3CosAdd and 3CosMul.

The embedding is `analogy_wt103_3000.w2v.txt` beside this file: skip-gram (dim 50) trained by
`retest sgns` on WikiText-103 valid, exported as word2vec text and cut to its 3,000 most
frequent words (the commands are in `tests/solvers.rs`). The queries are the Google analogy
questions (`questions-words.txt` of the data mirror) whose A, B and C are all in that
vocabulary (case-sensitively), the first 40 of each section, plus gender-bias queries in the
style of man : doctor :: woman : ?.

For each query A : B :: C : ? the fixture holds gensim's
`most_similar(positive=[b, c], negative=[a], topn=10)` and
`most_similar_cosmul(positive=[b, c], negative=[a], topn=10)`: no vocabulary restriction,
the three query words excluded. The score of `most_similar` is the cosine with the unit
vector of b̂ + ĉ − â, the score of `most_similar_cosmul` is (1 + cos)/2-shifted with ε = 1e-6.

Run (numbers made with gensim 4.4.0, numpy 2.x):

    python3 -m venv /tmp/venv-a && /tmp/venv-a/bin/pip install numpy gensim
    RETEST_DATA_DIR=../shared/data /tmp/venv-a/bin/python \
        crates/retest-eval/tests/data/analogy_reference.py
"""

import hashlib
import json
import os

import gensim
import numpy as np
from gensim.models import KeyedVectors

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("RETEST_DATA_DIR", os.path.join(HERE, "..", "..", "..", "..", "..", "shared", "data"))
MODEL = os.path.join(HERE, "analogy_wt103_3000.w2v.txt")
GOOGLE = os.path.join(DATA, "benchmarks", "gensim", "questions-words.txt")
OUT = os.path.join(HERE, "analogy_reference.json")

PER_SECTION = 40
BIAS_QUERIES = [
    ("man", "doctor", "woman"),
    ("woman", "doctor", "man"),
    ("he", "doctor", "she"),
    ("she", "doctor", "he"),
    ("man", "king", "woman"),
    ("he", "king", "she"),
    ("man", "engineer", "woman"),
    ("he", "engineer", "she"),
    ("man", "teacher", "woman"),
    ("he", "teacher", "she"),
    ("man", "president", "woman"),
    ("he", "president", "she"),
    ("man", "officer", "woman"),
    ("he", "officer", "she"),
    ("man", "captain", "woman"),
    ("he", "captain", "she"),
    ("man", "father", "woman"),
    ("he", "father", "she"),
    ("man", "son", "woman"),
    ("he", "his", "she"),
    ("man", "soldier", "woman"),
    ("he", "writer", "she"),
    ("man", "actor", "woman"),
    ("he", "actor", "she"),
    ("man", "player", "woman"),
    ("he", "player", "she"),
    ("man", "leader", "woman"),
    ("he", "leader", "she"),
    ("man", "director", "woman"),
    ("he", "director", "she"),
]


def google_queries(vocab):
    queries, section, taken = [], None, 0
    with open(GOOGLE, encoding="utf-8") as f:
        for line in f:
            if line.startswith(":"):
                section, taken = line[1:].strip(), 0
                continue
            a, b, c, _ = line.split()
            if taken < PER_SECTION and a in vocab and b in vocab and c in vocab:
                queries.append({"source": section, "a": a, "b": b, "c": c})
                taken += 1
    return queries


def main():
    kv = KeyedVectors.load_word2vec_format(MODEL, binary=False)
    vocab = set(kv.key_to_index)
    queries = google_queries(vocab)
    queries += [
        {"source": "bias", "a": a, "b": b, "c": c}
        for a, b, c in BIAS_QUERIES
        if a in vocab and b in vocab and c in vocab
    ]
    for q in queries:
        args = dict(positive=[q["b"], q["c"]], negative=[q["a"]], topn=10)
        q["cosadd"] = [[w, float(s)] for w, s in kv.most_similar(**args)]
        q["cosmul"] = [[w, float(s)] for w, s in kv.most_similar_cosmul(**args)]
    with open(MODEL, "rb") as f:
        model_sha256 = hashlib.sha256(f.read()).hexdigest()
    fixture = {
        "generator": "analogy_reference.py",
        "gensim": gensim.__version__,
        "numpy": np.__version__,
        "model": os.path.basename(MODEL),
        "model_sha256": model_sha256,
        "n_words": len(kv.index_to_key),
        "queries": queries,
    }
    # One query per line, so a regenerated fixture diffs line by line.
    head = json.dumps({k: v for k, v in fixture.items() if k != "queries"}, ensure_ascii=False)
    lines = [json.dumps(q, ensure_ascii=False) for q in queries]
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(head[:-1] + ', "queries": [\n' + ",\n".join(lines) + "\n]}\n")
    print(f"{len(queries)} queries -> {OUT}")


if __name__ == "__main__":
    main()
