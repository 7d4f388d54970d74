"""Writes the fixture of `retest debias` (tests/debias.rs): a small model whose words come from
debiaswe's lists (all ten definitional pairs; equalize pairs in lower, Title and UPPER case, as
debiaswe looks them up; gender-specific and neutral words; a planted gender direction), and the
model hard-debiased by a transcription of debiaswe's `debias` (debiaswe/debias.py and we.py at
6bb03ee: `WordEmbedding` normalises the vectors it reads, `doPCA` fits scikit-learn's PCA with 10
components to the centred definitional pairs, `drop` removes a vector's component along another)
on debiaswe's own JSON lists.

Run from this folder, with the data mirror's debiaswe lists:

    python3 -m venv /tmp/venv-sk && /tmp/venv-sk/bin/pip install numpy scikit-learn
    RETEST_DATA_DIR=../../../../../shared/data /tmp/venv-sk/bin/python debias_reference.py
"""

import json
import os
import sys
from importlib.metadata import version

import numpy as np
from sklearn.decomposition import PCA

HERE = os.path.dirname(os.path.abspath(__file__))
LISTS = os.path.join(os.environ["RETEST_DATA_DIR"], "word_lists", "debiaswe")
DIM = 16

MASCULINE = ["man", "boy", "he", "father", "son", "guy", "male", "his", "himself", "John",
             "spokesman", "Dad", "dad", "DAD", "Catholic_Priest", "uncle", "king", "King",
             "husbands", "Ex_Boyfriend", "ex_boyfriend", "monastery"]
FEMININE = ["woman", "girl", "she", "mother", "daughter", "gal", "female", "her", "herself",
            "Mary", "spokeswoman", "Mom", "mom", "MOM", "Nun", "aunt", "queen", "Queen",
            "wives", "Ex_Girlfriend", "ex_girlfriend", "convent", "actress"]
NEUTRAL = ["nurse", "engineer", "doctor", "receptionist", "programmer", "homemaker", "captain",
           "dancer", "the", "of", "and", "science", "art", "family", "career", "."]


def load(name):
    with open(os.path.join(LISTS, name)) as f:
        return json.load(f)


# debiaswe's we.py and debias.py, transcribed.
def drop(u, v):
    return u - v * u.dot(v) / v.dot(v)


def normalize(vecs):
    vecs /= np.linalg.norm(vecs, axis=1)[:, np.newaxis]


def do_pca(pairs, vecs, index, num_components=10):
    matrix = []
    for a, b in pairs:
        center = (vecs[index[a]] + vecs[index[b]]) / 2
        matrix.append(vecs[index[a]] - center)
        matrix.append(vecs[index[b]] - center)
    pca = PCA(n_components=num_components)
    pca.fit(np.array(matrix))
    return pca


def debias(words, vecs, gender_specific_words, definitional, equalize):
    index = {w: i for i, w in enumerate(words)}
    gender_direction = do_pca(definitional, vecs, index).components_[0]
    specific_set = set(gender_specific_words)
    for i, w in enumerate(words):
        if w not in specific_set:
            vecs[i] = drop(vecs[i], gender_direction)
    normalize(vecs)
    candidates = {x for e1, e2 in equalize for x in [(e1.lower(), e2.lower()),
                                                     (e1.title(), e2.title()),
                                                     (e1.upper(), e2.upper())]}
    for (a, b) in candidates:
        if a in index and b in index:
            y = drop((vecs[index[a]] + vecs[index[b]]) / 2, gender_direction)
            z = np.sqrt(1 - np.linalg.norm(y) ** 2)
            if (vecs[index[a]] - vecs[index[b]]).dot(gender_direction) < 0:
                z = -z
            vecs[index[a]] = z * gender_direction + y
            vecs[index[b]] = -z * gender_direction + y
    normalize(vecs)


def write(name, words, vecs):
    with open(os.path.join(HERE, name), "w") as f:
        f.write(f"{len(words)} {DIM}\n")
        for w, v in zip(words, vecs):
            f.write(w + " " + " ".join(repr(float(x)) for x in v) + "\n")


def main():
    rng = np.random.default_rng(2016)
    words = MASCULINE + FEMININE + NEUTRAL
    gender = rng.standard_normal(DIM)
    sign = [1.0] * len(MASCULINE) + [-1.0] * len(FEMININE) + list(rng.uniform(-0.5, 0.5, len(NEUTRAL)))
    vecs = rng.standard_normal((len(words), DIM)) + np.outer(sign, gender)
    vecs *= rng.uniform(0.5, 3.0, (len(words), 1))
    vecs = vecs.astype(np.float32)
    write("debias_model.vec", words, vecs)
    # WordEmbedding's reading: normalised when the norms differ.
    norms = np.linalg.norm(vecs, axis=1)
    assert max(norms) - min(norms) > 0.0001
    normalize(vecs)
    debias(words, vecs, load("gender_specific_full.json"), load("definitional_pairs.json"),
           load("equalize_pairs.json"))
    write("debias_reference.vec", words, vecs)
    print(f"numpy {version('numpy')}, scikit-learn {version('scikit-learn')}, "
          f"python {sys.version.split()[0]}", file=sys.stderr)


if __name__ == "__main__":
    main()
