#!/usr/bin/env python3
"""gensim's answers for the embeddings that `tests/gensim.rs` builds, to hard-code there.

The synthetic embedding is defined twice, here and in `tests/gensim.rs` (`synthetic_embedding`),
from the data mirror's benchmark files and integer arithmetic only, so both sides build the
same f32 matrix bit for bit; the test checks this through the SHA-256 printed below.

Run (gensim 4.4.0, numpy 2.4, scipy 1.17 when the numbers in the test were made):

    python3 -m venv .venv && .venv/bin/pip install gensim
    RETEST_DATA_DIR=../shared/data .venv/bin/python crates/retest-eval/tests/gensim_reference.py

With `--trained`, it also trains gensim skip-gram on WikiText-103 valid (5 epochs, dim 50,
seed 1, one worker), saves it as word2vec text and compares gensim's evaluation with
`cargo run --release -p retest-eval --example eval -- FILE --json` on the same file (not part of
the tests: the model file is generated, not committed).
"""

import hashlib
import json
import logging
import os
import subprocess
import sys
import tempfile

import numpy as np
from gensim.models import KeyedVectors, Word2Vec

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("RETEST_DATA_DIR", os.path.join(HERE, "..", "..", "..", "..", "shared", "data"))
BENCH = os.path.join(DATA, "benchmarks")
WS353 = os.path.join(BENCH, "gensim", "wordsim353.tsv")
SIMLEX = os.path.join(BENCH, "gensim", "simlex999.txt")
MEN = os.path.join(BENCH, "MEN", "MEN_dataset_natural_form_full")
GOOGLE = os.path.join(BENCH, "gensim", "questions-words.txt")

DIM = 16
MASK = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.state = seed

    def next_u64(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def draw(self):
        """An integer in [-2^19, 2^19)."""
        return (self.next_u64() >> 44) - (1 << 19)

    def vector(self):
        return [self.draw() for _ in range(DIM)]


def pair_words(path, sep):
    words = []
    with open(path, encoding="utf8") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if not line or line.startswith("#") or line == "word1 word2 score":
                continue
            a, b, _ = line.split(sep)
            words += [a, b]
    return words


def synthetic_embedding():
    """Words (frequency order) and an int matrix; see `synthetic_embedding` in tests/gensim.rs."""
    rng = SplitMix64(0x5EED0001)
    sections, questions = [], []
    with open(GOOGLE, encoding="utf8") as f:
        for line in f:
            if line.startswith(":"):
                sections.append(line[1:].strip())
            elif line.split():
                questions.append((len(sections) - 1, line.split()))
    # 1. One offset per section, in section order.
    offsets = [rng.vector() for _ in sections]
    # 2. Walk the questions: a pair (x, y) of a section gets v(y) = v(x) + offset + noise.
    vec, order = {}, []

    def base(w):
        if w not in vec:
            vec[w] = rng.vector()
            order.append(w)

    for s, (a, b, c, d) in questions:
        for x, y in ((a, b), (c, d)):
            base(x)
            if y not in vec:
                noise = [rng.draw() >> 2 for _ in range(DIM)]
                vec[y] = [vx + t + n for vx, t, n in zip(vec[x], offsets[s], noise)]
                order.append(y)
    # 3. The similarity benchmarks' words, in file order.
    for w in pair_words(WS353, "\t") + pair_words(SIMLEX, "\t") + pair_words(MEN, " "):
        base(w)
    # 4. Vocabulary: drop every 7th word (out of vocabulary), add a capitalised variant next to
    #    every 11th word (before it when that index is even: the variant is then the more
    #    frequent form and stands for both), and a filler word after every 10th.
    words, n_fillers = [], 0
    for i, w in enumerate(order):
        variant = w[:1].upper() + w[1:]
        with_variant = i % 11 == 5 and variant != w and variant not in vec
        if with_variant and i % 2 == 0:
            words.append(variant)
        if i % 7 != 3:
            words.append(w)
        if with_variant and i % 2 == 1:
            words.append(variant)
        if i % 10 == 9:
            words.append(f"filler{n_fillers:04}")
            n_fillers += 1
    for w in words:
        base(w)
    matrix = np.array([vec[w] for w in words], dtype=np.int64)
    assert np.abs(matrix).max() < 1 << 24
    return words, (matrix.astype(np.float32) / np.float32(1 << 19)).astype(np.float32)


def checksum(words, matrix):
    h = hashlib.sha256()
    for w in words:
        h.update(w.encode("utf8") + b"\n")
    h.update(matrix.astype("<f4").tobytes())
    return h.hexdigest()


def report(kv, label, **kw):
    """Prints gensim's numbers; returns {benchmark: (spearman, pearson)} and the analogy sections."""
    print(f"// {label}: {kw}")
    correlations = {}
    for name, path, sep in (("wordsim353", WS353, "\t"), ("simlex999", SIMLEX, "\t"), ("men", MEN, " ")):
        pearson, spearman, oov_ratio = kv.evaluate_word_pairs(path, delimiter=sep, **kw)
        n_pairs = len(pair_words(path, sep)) // 2
        skipped = round(oov_ratio * n_pairs / 100)
        correlations[name] = (float(spearman[0]), float(pearson[0]))
        print(
            f"//   {name}: spearman={float(spearman[0])!r} pearson={float(pearson[0])!r} "
            f"used={n_pairs - skipped} skipped={skipped}"
        )
    score, sections = kv.evaluate_word_analogies(GOOGLE, **kw)
    for s in sections:
        print(f"//   {s['section']}: correct={len(s['correct'])} incorrect={len(s['incorrect'])}")
    print(f"//   analogy score={float(score)!r}")
    return correlations, [(s["section"], len(s["correct"]), len(s["incorrect"])) for s in sections]


def main():
    words, matrix = synthetic_embedding()
    print(f"// synthetic embedding: {len(words)} words x {DIM}, sha256 {checksum(words, matrix)}")
    kv = KeyedVectors(DIM)
    kv.add_vectors(words, matrix)
    report(kv, "gensim defaults")
    report(kv, "restricted", restrict_vocab=1500, case_insensitive=False)
    if "--trained" in sys.argv:
        trained()


def trained():
    logging.basicConfig(level=logging.WARNING)
    corpus = os.path.join(DATA, "wikitext-103", "wiki.valid.tokens")
    sentences = [line.split() for line in open(corpus, encoding="utf8") if line.strip()]
    model = Word2Vec(sentences, vector_size=50, sg=1, epochs=5, seed=1, workers=1, min_count=5)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "wt103-valid.w2v.txt")
        model.wv.save_word2vec_format(path)
        print(f"// trained: {len(model.wv)} words x 50")
        correlations, sections = report(model.wv, "trained, gensim defaults")
        out = subprocess.run(
            ["cargo", "run", "--quiet", "--release", "-p", "retest-eval", "--example", "eval", "--", path, "--json"],
            check=True,
            capture_output=True,
            text=True,
            cwd=os.path.join(HERE, "..", "..", ".."),
            env=dict(os.environ, RETEST_DATA_DIR=DATA),
        ).stdout
        ours = json.loads(out[: out.rindex("}") + 1])
        print(out[out.rindex("}") + 1 :])
        for s in ours["similarity"]:
            g = correlations[s["name"]]
            print(f"// {s['name']}: |Δspearman|={abs(s['spearman'] - g[0]):.2e} |Δpearson|={abs(s['pearson'] - g[1]):.2e}")
        a = ours["analogy"]
        mine = [(s["name"], s["correct"], s["attempted"] - s["correct"]) for s in a["sections"]]
        mine.append(("Total accuracy", a["correct"], a["attempted"] - a["correct"]))
        print(f"// analogy counts identical to gensim's: {mine == sections}")


if __name__ == "__main__":
    main()
