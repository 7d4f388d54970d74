"""Writes the fixture of Gonen & Goldberg's (2019) residual-bias tests (tests/residual.rs): a
small model (residual_model.bin, word2vec binary) whose words carry a planted gender direction,
and, with scikit-learn, numpy and scipy as Gonen & Goldberg's code uses them
(gonenhila/gender_bias_lipstick, `limit_vocab`, `compute_bias_by_projection`,
`cluster_and_visualize`, `train_and_predict`, `get_tuples_prof`):

* the candidate words: the first LIMIT words that are lowercase, shorter than 20 characters,
  without digits or punctuation (but `_` between words), less the gender-specific words of
  their male and female word files (kept in the model's order; their code's set difference
  loses the order, which only matters for ties);
* each candidate's bias cos(w, he) - cos(w, she);
* the vectors tested: each unit vector less its component along he - she, normalised again (a
  debiased model; the labels and biases stay the original model's, as Gonen & Goldberg take
  them);
* 2-means accuracy of the CLUSTERED most masculine and most feminine candidates,
  KMeans(n_clusters=2, n_init=10, random_state=r) for r = 0..9;
* RBF SVC(gamma='auto') accuracy, trained on TRAINED words of each gender drawn from the
  CLASSIFIED most masculine and most feminine (numpy's default_rng(7)), tested on the rest;
* each profession's share of masculine words (positive bias) among its NEIGHBOURS nearest
  candidates, and Pearson's r (with its p-value) of the shares with the professions' bias.

Run from this folder, with the data mirror's word files:

    python3 -m venv /tmp/venv-sk && /tmp/venv-sk/bin/pip install numpy scipy scikit-learn
    RETEST_DATA_DIR=../../../../../shared/data /tmp/venv-sk/bin/python residual_reference.py
"""

import itertools
import os
import string
import sys
from importlib.metadata import version

import numpy as np
from scipy.stats import pearsonr
from sklearn import svm
from sklearn.cluster import KMeans

HERE = os.path.dirname(os.path.abspath(__file__))
LISTS = os.path.join(os.environ["RETEST_DATA_DIR"], "word_lists", "gender_bias_lipstick")
DIM, LIMIT, CLUSTERED, CLASSIFIED, TRAINED, NEIGHBOURS = 16, 1000, 100, 300, 100, 20
RESIDUAL = 1.0
PROFESSIONS = ["nurse", "engineer", "doctor", "teacher", "pilot", "dancer", "clerk", "judge",
               "baker", "farmer", "lawyer", "singer", "soldier", "banker", "tailor", "writer"]
# Words the filter drops (case, length, digit, punctuation) and phrases it keeps or drops.
FILTERED = ["Capital", "averyveryverylongword", "word2", "co-op", "new_york", "bad_w.rd"]


def read_list(name):
    with open(os.path.join(LISTS, name)) as f:
        return [line.strip() for line in f if line.strip()]


def has_punct(w):
    return any(c in string.punctuation for c in w)


def has_digit(w):
    return any(c in "0123456789" for c in w)


def keep(w):
    # Gonen & Goldberg's limit_vocab, one word at a time.
    if w.lower() != w or len(w) >= 20 or has_digit(w):
        return False
    if "_" in w:
        return not any(has_punct(sub) for sub in w.split("_"))
    return not has_punct(w)


def cosine(a, b):
    return a.dot(b) / (np.linalg.norm(a) * np.linalg.norm(b))


def main():
    rng = np.random.default_rng(2019)
    specific = read_list("male_word_file.txt") + read_list("female_word_file.txt")
    letters = ("".join(p) for p in itertools.product(string.ascii_lowercase, repeat=3))
    taken = set(specific) | set(PROFESSIONS) | {"he", "she"}
    filler = [w for w in letters if w not in taken][:1150]
    words = ["he", "she"] + specific[:10] + specific[-10:] + FILTERED + PROFESSIONS + filler
    gender = rng.standard_normal(DIM)
    gender /= np.linalg.norm(gender)
    strength = rng.uniform(-1.0, 1.0, len(words))
    strength[:2] = [1.5, -1.5]
    # A second trace of gender, orthogonal to the first, that he and she do not carry: what
    # removing he - she leaves for the clustering and the classifier to find.
    residual = rng.standard_normal(DIM)
    residual -= residual.dot(gender) * gender
    residual /= np.linalg.norm(residual)
    vectors = 0.5 * rng.standard_normal((len(words), DIM)) + np.outer(strength, gender + RESIDUAL * residual)
    vectors[:2] = np.outer(strength[:2], 2.0 * gender) + 0.1 * rng.standard_normal((2, DIM))
    vectors = vectors.astype(np.float32)
    with open(os.path.join(HERE, "residual_model.bin"), "wb") as f:
        f.write(f"{len(words)} {DIM}\n".encode())
        for w, v in zip(words, vectors):
            f.write(w.encode() + b" " + v.astype("<f4").tobytes() + b"\n")

    index = {w: i for i, w in enumerate(words)}
    excluded = set(specific)
    candidates = [w for w in words[:LIMIT] if keep(w) and w not in excluded]
    wv = vectors.astype(np.float64)
    he, she = wv[index["he"]], wv[index["she"]]
    bias = {w: cosine(wv[index[w]], he) - cosine(wv[index[w]], she) for w in candidates}
    ranked = sorted(candidates, key=lambda w: bias[w])
    # The vectors tested: the unit vectors with their he - she component removed, normalised
    # again (a debiased model), the labels and biases staying the original model's.
    unit = wv / np.linalg.norm(wv, axis=1)[:, None]
    d = (he - she) / np.linalg.norm(he - she)
    unit = unit - np.outer(unit.dot(d), d)
    unit /= np.linalg.norm(unit, axis=1)[:, None]

    female, male = ranked[:CLUSTERED], ranked[-CLUSTERED:]
    x = np.array([unit[index[w]] for w in male + female])
    y_true = [1] * CLUSTERED + [0] * CLUSTERED
    cluster = []
    for r in range(10):
        y_pred = KMeans(n_clusters=2, n_init=10, random_state=r).fit_predict(x)
        correct = sum(int(a == b) for a, b in zip(y_true, y_pred)) / len(y_true)
        cluster.append(max(correct, 1 - correct))

    females, males = ranked[:CLASSIFIED], ranked[-CLASSIFIED:]
    split = np.random.default_rng(7)
    males = [males[i] for i in split.permutation(CLASSIFIED)]
    females = [females[i] for i in split.permutation(CLASSIFIED)]
    x_train = [unit[index[w]] for w in males[:TRAINED] + females[:TRAINED]]
    y_train = [1] * TRAINED + [0] * TRAINED
    x_test = [unit[index[w]] for w in males[TRAINED:] + females[TRAINED:]]
    y_test = [1] * (CLASSIFIED - TRAINED) + [0] * (CLASSIFIED - TRAINED)
    clf = svm.SVC(gamma="auto")
    clf.fit(x_train, y_train)
    svm_accuracy = float(np.mean(clf.predict(x_test) == np.array(y_test)))

    cand_units = np.array([unit[index[w]] for w in candidates])
    shares = []
    targets = [w for w in PROFESSIONS if w in bias]
    for w in targets:
        sim = cand_units.dot(unit[index[w]])
        order = [candidates[i] for i in sim.argsort()[::-1] if candidates[i] != w][:NEIGHBOURS]
        shares.append(sum(1 for t in order if bias[t] > 0) / NEIGHBOURS)
    r, p = pearsonr([bias[w] for w in targets], shares)

    with open(os.path.join(HERE, "residual_reference.txt"), "w") as f:
        f.write(f"# numpy {version('numpy')}, scipy {version('scipy')}, scikit-learn "
                f"{version('scikit-learn')}, python {sys.version.split()[0]}\n")
        f.write(f"sizes {LIMIT} {CLUSTERED} {CLASSIFIED} {TRAINED} {NEIGHBOURS}\n")
        f.write("candidates " + " ".join(candidates) + "\n")
        f.write("bias " + " ".join(repr(bias[w]) for w in candidates) + "\n")
        f.write("cluster_accuracy " + " ".join(repr(a) for a in cluster) + "\n")
        f.write("train_masculine " + " ".join(males[:TRAINED]) + "\n")
        f.write("train_feminine " + " ".join(females[:TRAINED]) + "\n")
        f.write(f"svm_accuracy {svm_accuracy!r} {len(clf.support_)}\n")
        f.write("targets " + " ".join(targets) + "\n")
        f.write("shares " + " ".join(repr(s) for s in shares) + "\n")
        f.write(f"neighbour_r {r!r} {p!r}\n")


if __name__ == "__main__":
    main()
