"""Writes bakarov_reference.txt: the embedding of weat_reference.py and Bakarov's two detectors
on it, Occupational Stereotypes and Gender Direction (Garg et al.'s relative norm distance),
which tests/bakarov.rs checks retest-measures against.

Independent of the Rust code: numpy for the vectors, the means and the norms, numpy.linalg.svd
for the principal component, math.fsum for the sums. The projections are taken on Bakarov's
female - male axis, the sign opposite to retest's (positive = masculine), so the test also checks
that convention; the relative norm distance is written as Garg et al. compute it,
||w - v_male|| - ||w - v_female|| (negative = masculine), the negative of retest's.

    python3 -m venv /tmp/venv-bakarov && /tmp/venv-bakarov/bin/pip install numpy
    /tmp/venv-bakarov/bin/python bakarov_reference.py   # from this folder

Fixture format: as weat_reference.txt, one value per line, `key value...`; floats written with
repr(), vectors as float32 values.
"""

import math

import numpy as np

from weat_reference import embedding_fixture, fmt, write_fixture

MALE = [0, 2, 4, 6, 8, 10, 12]
FEMALE = [1, 3, 5, 7, 9, 11, 13]
WORDS = list(range(20, 38))


def female_minus_male_axis(U, pairs):
    """Unit axis pointing to the feminine words: one pair, or doPCA's first component."""
    if len(pairs) == 1:
        m, f = pairs[0]
        axis = U[f] - U[m]
        return axis / np.linalg.norm(axis)
    rows = []
    for m, f in pairs:
        mu = (U[m] + U[f]) / 2
        rows += [U[m] - mu, U[f] - mu]
    R = np.array(rows)
    R = R - R.mean(axis=0)
    _, _, vt = np.linalg.svd(R, full_matrices=False)
    axis = vt[0]
    if np.mean([np.dot(U[f] - U[m], axis) for m, f in pairs]) < 0:
        axis = -axis
    return axis


def main():
    _, _, U, lines = embedding_fixture("bakarov_reference.py")
    directions = {
        "pair_w00_w01": [(0, 1)],
        "pca7": list(zip(MALE, FEMALE)),
    }
    for name, pairs in directions.items():
        axis = female_minus_male_axis(U, pairs)
        proj = [float(np.dot(U[w], axis)) for w in WORDS]
        lines.append(f"os.{name}.pairs " + " ".join(fmt(i) for p in pairs for i in p))
        lines.append(f"os.{name}.occupations " + " ".join(fmt(w) for w in WORDS))
        lines.append(f"os.{name}.female_projections " + " ".join(fmt(p) for p in proj))
        lines.append(f"os.{name}.value " + fmt(math.fsum(abs(p) for p in proj) / len(proj)))
    v_male = U[MALE].mean(axis=0)
    v_female = U[FEMALE].mean(axis=0)
    garg = [float(np.linalg.norm(U[w] - v_male) - np.linalg.norm(U[w] - v_female)) for w in WORDS]
    lines.append("rnd.male " + " ".join(fmt(w) for w in MALE))
    lines.append("rnd.female " + " ".join(fmt(w) for w in FEMALE))
    lines.append("rnd.words " + " ".join(fmt(w) for w in WORDS))
    lines.append("rnd.garg_per_word " + " ".join(fmt(g) for g in garg))
    lines.append("rnd.garg_sum " + fmt(math.fsum(garg)))
    write_fixture("bakarov_reference.txt", lines)


if __name__ == "__main__":
    main()
