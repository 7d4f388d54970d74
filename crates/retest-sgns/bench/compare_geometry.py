#!/usr/bin/env python3
"""How far apart two word2vec text files are, and the shape of each.

Usage:
  compare_geometry.py A.txt B.txt [C.txt D.txt ...]
      For each pair (A, B), (C, D), ... prints one JSON line with, over the words both files
      hold (in A's order):
        procrustes_cos   mean over words of cos(a_w, R b_w), R the orthogonal matrix that
                         minimises sum_w |a_w - R b_w|^2 (orthogonal Procrustes: R = U V^T for
                         the SVD U S V^T = A^T B); 1 means B is a rotation of A
        procrustes_cos_top10k   the same over the 10,000 words listed first (the most frequent,
                         for files written in frequency order)
        norm_a, norm_b   mean Euclidean norm of a vector
        pairwise_cos_a, pairwise_cos_b   mean cosine over all pairs of distinct words,
                         (|sum_w u_w|^2 - n) / (n (n - 1)) with u_w the unit vectors

Reads the files with numpy only (no gensim needed).
"""
import json
import sys

import numpy as np


_loaded = {}


def load(path):
    """Words and vectors of a word2vec text file (each file read once per run)."""
    if path in _loaded:
        return _loaded[path]
    with open(path, encoding="utf-8") as f:
        n, dim = (int(x) for x in f.readline().split())
        words = []
        vectors = np.empty((n, dim), dtype=np.float64)
        for i, line in enumerate(f):
            parts = line.rstrip("\n").split(" ")
            words.append(parts[0])
            vectors[i] = np.asarray(parts[1:], dtype=np.float64)
    _loaded[path] = (words, vectors)
    return words, vectors


def mean_pairwise_cos(x):
    u = x / np.linalg.norm(x, axis=1, keepdims=True)
    s = u.sum(axis=0)
    n = len(u)
    return float((s @ s - n) / (n * (n - 1)))


def aligned_cos(a, b):
    u, _, vt = np.linalg.svd(a.T @ b)
    rb = b @ (u @ vt).T
    cos = (a * rb).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(rb, axis=1))
    return float(cos.mean())


def compare(path_a, path_b):
    words_a, a = load(path_a)
    words_b, b = load(path_b)
    index_b = {w: i for i, w in enumerate(words_b)}
    shared = [i for i, w in enumerate(words_a) if w in index_b]
    a_shared = a[shared]
    b_shared = b[[index_b[words_a[i]] for i in shared]]
    top = min(10_000, len(shared))
    return {
        "a": path_a,
        "b": path_b,
        "shared_words": len(shared),
        "procrustes_cos": round(aligned_cos(a_shared, b_shared), 6),
        "procrustes_cos_top10k": round(aligned_cos(a_shared[:top], b_shared[:top]), 6),
        "norm_a": round(float(np.linalg.norm(a, axis=1).mean()), 6),
        "norm_b": round(float(np.linalg.norm(b, axis=1).mean()), 6),
        "pairwise_cos_a": round(mean_pairwise_cos(a), 6),
        "pairwise_cos_b": round(mean_pairwise_cos(b), 6),
    }


paths = sys.argv[1:]
if not paths or len(paths) % 2:
    sys.exit(__doc__)
for i in range(0, len(paths), 2):
    print(json.dumps(compare(paths[i], paths[i + 1])), flush=True)
