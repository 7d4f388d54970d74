#!/usr/bin/env python3
"""Speed and quality of gensim's word2vec against retest-sgns on the same corpus file.

Usage:
  gensim_compare.py train CORPUS.txt [--sg 1] [--epochs 5] [--dim 300] [--seed 1] [--save OUT.txt]
      Trains gensim Word2Vec (workers=1, window 5, negative 5, sample 1e-3, min_count 5,
      alpha 0.025 -> 0.0001) and prints one JSON line with the vocabulary-building time, the
      training time and words/s = corpus tokens x epochs / training seconds (the same
      definition as `sgns_text`; gensim_baseline.py divides by build + train time instead),
      followed by the scores of `eval`. `cpu_words_per_s` divides by the process's CPU time
      during training instead (all threads; with workers=1 that is the one worker), which other
      processes competing for the cores do not inflate.
  gensim_compare.py eval VECTORS.txt...
      Loads word2vec text files and prints, per file, WordSim-353 and SimLex-999 Spearman and
      Google analogy accuracy (3CosAdd, restrict_vocab=300000), using gensim's evaluators and
      the benchmark files of the data mirror (RETEST_DATA_DIR, default ../../../../shared/data).

Set-up: python3 -m venv .venv && .venv/bin/pip install gensim
"""
import argparse
import json
import logging
import os
import sys
import time

from gensim.models import KeyedVectors, Word2Vec

here = os.path.dirname(os.path.abspath(__file__))
data = os.environ.get("RETEST_DATA_DIR", os.path.join(here, "..", "..", "..", "..", "shared", "data"))
bench = os.path.join(data, "benchmarks", "gensim")


def scores(kv):
    out = {}
    ws = os.path.join(bench, "wordsim353.tsv")
    sl = os.path.join(bench, "simlex999.txt")
    qa = os.path.join(bench, "questions-words.txt")
    logging.disable(logging.WARNING)
    out["ws353_spearman"] = round(kv.evaluate_word_pairs(ws)[1][0], 4)
    out["simlex_spearman"] = round(kv.evaluate_word_pairs(sl)[1][0], 4)
    out["analogy_acc"] = round(kv.evaluate_word_analogies(qa, restrict_vocab=300000)[0], 4)
    logging.disable(logging.NOTSET)
    return out


def train(a):
    t0 = time.perf_counter()
    m = Word2Vec(sg=a.sg, vector_size=a.dim, window=5, min_count=5, workers=1, seed=a.seed,
                 negative=5, sample=1e-3, alpha=0.025, min_alpha=0.0001)
    m.build_vocab(corpus_file=a.corpus)
    t1 = time.perf_counter()
    c1 = time.process_time()
    m.train(corpus_file=a.corpus, total_examples=m.corpus_count, total_words=m.corpus_total_words,
            epochs=a.epochs)
    t2 = time.perf_counter()
    c2 = time.process_time()
    in_vocab = int(sum(m.wv.get_vecattr(w, "count") for w in m.wv.index_to_key))
    out = {"impl": "gensim", "sg": a.sg, "epochs": a.epochs, "dim": a.dim, "seed": a.seed,
           "vocab": len(m.wv), "corpus_tokens": m.corpus_total_words, "in_vocab_tokens": in_vocab,
           "build_vocab_s": round(t1 - t0, 3), "train_s": round(t2 - t1, 3),
           "words_per_s": round(in_vocab * a.epochs / (t2 - t1)),
           "raw_words_per_s": round(m.corpus_total_words * a.epochs / (t2 - t1)),
           "train_cpu_s": round(c2 - c1, 3),
           "cpu_words_per_s": round(in_vocab * a.epochs / (c2 - c1))}
    if a.save:
        m.wv.save_word2vec_format(a.save)
    out.update(scores(m.wv))
    print(json.dumps(out), flush=True)


def evaluate(a):
    for path in a.vectors:
        kv = KeyedVectors.load_word2vec_format(path)
        print(json.dumps({"file": path, "vocab": len(kv), **scores(kv)}), flush=True)


p = argparse.ArgumentParser()
sub = p.add_subparsers(dest="cmd", required=True)
t = sub.add_parser("train")
t.add_argument("corpus")
t.add_argument("--sg", type=int, default=1)
t.add_argument("--epochs", type=int, default=5)
t.add_argument("--dim", type=int, default=300)
t.add_argument("--seed", type=int, default=1)
t.add_argument("--save")
e = sub.add_parser("eval")
e.add_argument("vectors", nargs="+")
a = p.parse_args()
{"train": train, "eval": evaluate}[a.cmd](a)
sys.exit(0)
