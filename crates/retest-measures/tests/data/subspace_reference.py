"""Writes subspace_reference.txt: the embedding of weat_reference.py and, on it, Bolukbasi et
al.'s gender subspace beyond its first direction, which tests/subspace.rs checks
retest-measures against:

* the first k principal components of seven definitional pairs, fitted as debiaswe's `doPCA`
  fits them (scikit-learn's PCA on the pairs' unit vectors centred on each pair's mean), with
  their explained-variance ratios;
* Direct Bias of the neutral words on the span of the first k components, in both readings: the
  norm of each unit vector's projection on the subspace, and the absolute cosines with each
  component summed (Schröder et al.'s `DirectBias.individual_bias`), with c = 1 and c = 2;
* the indirect bias beta(w, v) of word pairs (Bolukbasi et al. 2016, section 5.2) with respect to
  the first component and to the three-dimensional subspace;
* the first component with each pair left out in turn (its cosine with the full first component
  and the Direct Bias along it).

Independent of the Rust code: scikit-learn's PCA (LAPACK's SVD) where retest takes Jacobi
rotations of the Gram matrix. Component signs are arbitrary in PCA; they are aligned as retest
aligns them (toward the masculine words) before a signed value is written.

    python3 -m venv /tmp/venv-sk && /tmp/venv-sk/bin/pip install numpy scikit-learn
    /tmp/venv-sk/bin/python subspace_reference.py   # from this folder
"""

from importlib.metadata import version

import numpy as np
from sklearn.decomposition import PCA

from weat_reference import embedding_fixture, fmt, write_fixture

PAIRS = [(2 * i, 2 * i + 1) for i in range(7)]
NEUTRAL = list(range(20, 38))
INDIRECT = [(20, 28), (21, 30), (24, 25), (22, 35), (26, 27)]
K = 5


def components(U, pairs, k):
    """doPCA: each pair's two unit vectors less their mean, stacked; the first k components,
    each turned toward the masculine (first) words."""
    rows = []
    for m, f in pairs:
        centre = (U[m] + U[f]) / 2
        rows += [U[m] - centre, U[f] - centre]
    pca = PCA(n_components=k)
    pca.fit(np.array(rows))
    axes = []
    for axis in pca.components_:
        if np.mean([np.dot(U[m] - U[f], axis) for m, f in pairs]) < 0:
            axis = -axis
        axes.append(axis)
    return np.array(axes), pca.explained_variance_ratio_


def direct_bias(U, axes, words, c):
    along = np.array([[np.dot(U[w], b) for b in axes] for w in words])
    norms = np.linalg.norm(along, axis=1)
    summed = np.abs(along).sum(axis=1)
    return float(np.mean(norms**c)), float(np.mean(summed**c)), norms


def beta(U, axes, w, v):
    def rejection(x):
        return x - sum(np.dot(x, b) * b for b in axes)

    cosine = float(np.dot(U[w], U[v]))
    wr, vr = rejection(U[w]), rejection(U[v])
    return cosine, (cosine - np.dot(wr, vr) / (np.linalg.norm(wr) * np.linalg.norm(vr))) / cosine


def main():
    _, _, U, lines = embedding_fixture("subspace_reference.py")
    lines.insert(1, f"# numpy {version('numpy')}, scikit-learn {version('scikit-learn')}")
    lines.append("pairs " + " ".join(fmt(i) for p in PAIRS for i in p))
    lines.append("neutral " + " ".join(fmt(w) for w in NEUTRAL))
    axes, ratios = components(U, PAIRS, K)
    lines.append("explained " + " ".join(fmt(r) for r in ratios))
    for j, axis in enumerate(axes):
        lines.append(f"axis.{j + 1} " + " ".join(fmt(x) for x in axis))
    for k in range(1, K + 1):
        for c in (1.0, 2.0):
            value, summed, norms = direct_bias(U, axes[:k], NEUTRAL, c)
            lines.append(f"db.k{k}.c{int(c)} {fmt(value)} {fmt(summed)}")
        lines.append(f"norms.k{k} " + " ".join(fmt(x) for x in norms))
    lines.append("indirect.pairs " + " ".join(fmt(i) for p in INDIRECT for i in p))
    for k in (1, 3):
        values = [beta(U, axes[:k], w, v) for w, v in INDIRECT]
        lines.append(f"indirect.k{k}.cosine " + " ".join(fmt(c) for c, _ in values))
        lines.append(f"indirect.k{k}.beta " + " ".join(fmt(b) for _, b in values))
    full = axes[0]
    cosines, biases = [], []
    for i in range(len(PAIRS)):
        left, _ = components(U, PAIRS[:i] + PAIRS[i + 1:], 1)
        cosines.append(float(np.dot(left[0], full)))
        biases.append(direct_bias(U, left, NEUTRAL, 1.0)[0])
    lines.append("left_out.cos " + " ".join(fmt(c) for c in cosines))
    lines.append("left_out.db " + " ".join(fmt(b) for b in biases))
    write_fixture("subspace_reference.txt", lines)


if __name__ == "__main__":
    main()
