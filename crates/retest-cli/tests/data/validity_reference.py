"""Writes the fixture of `retest validity` (tests/validity.rs): a small model, a criterion and, for
every rule and base pair, scipy's Pearson r (with its p-value) and Spearman rho of the rule's
scores with the criterion. The scores are the ones `retest score` writes (float32 cosines), so
that the correlations are compared on the same numbers; numpy's DB/WA = cos(w, m) - cos(w, f) and
RIPA = w . (m - f)/||m - f|| (raw target vector) check them to 1e-6 first.

    python3 -m venv /tmp/venv-scipy && /tmp/venv-scipy/bin/pip install numpy scipy
    /tmp/venv-scipy/bin/python validity_reference.py model    # the model and the criterion
    retest score validity_model.vec --pairs pairs.txt --words words.txt --rules dbwa,ripa \
        --out /tmp/scores.csv    # pairs.txt: "he she" and "man woman"; words.txt: the criterion's words
    /tmp/venv-scipy/bin/python validity_reference.py /tmp/scores.csv
"""

import csv
import os
import sys
from importlib.metadata import version

import numpy as np
from scipy.stats import pearsonr, spearmanr

HERE = os.path.dirname(os.path.abspath(__file__))
PAIRS = [("he", "she"), ("man", "woman")]
# The criterion's words; `absent` is not in the model, so n_words is 8.
CRITERION = ["nurse", "engineer", "teacher", "pilot", "clerk", "doctor", "baker", "judge", "absent"]


def main():
    rng = np.random.default_rng(20181)
    words = [w for pair in PAIRS for w in pair] + CRITERION[:-1] + ["filler1", "filler2"]
    vectors = rng.standard_normal((len(words), 5)).astype(np.float32)
    values = rng.uniform(-2.0, 2.0, len(CRITERION))
    if sys.argv[1] == "model":
        write_model(words, vectors, values)
    else:
        write_reference(words, vectors, values, sys.argv[1])


def write_model(words, vectors, values):
    with open(os.path.join(HERE, "validity_model.vec"), "w") as f:
        f.write(f"{len(words)} 5\n")
        for w, v in zip(words, vectors):
            f.write(w + " " + " ".join(repr(float(x)) for x in v) + "\n")
    with open(os.path.join(HERE, "validity_criterion.csv"), "w") as f:
        f.write("word,value\n")
        f.writelines(f"{w},{v!r}\n" for w, v in zip(CRITERION, values))


def write_reference(words, vectors, values, scores_csv):
    with open(scores_csv) as f:
        scores = {(r["rule"], f"{r['male']}:{r['female']}", r["word"]): float(r["score"]) for r in csv.DictReader(f)}
    row = {w: vectors[i].astype(np.float64) for i, w in enumerate(words)}
    unit = lambda v: v / np.linalg.norm(v)
    present = [(w, v) for w, v in zip(CRITERION, values) if w in row]
    lines = [f"# validity_reference.py: numpy {version('numpy')}, scipy {version('scipy')}",
             "rule,reference,n_words,pearson_r,spearman_r,p_value"]
    rules = {
        "dbwa": lambda w, m, f: float(unit(w) @ unit(m) - unit(w) @ unit(f)),
        "ripa": lambda w, m, f: float(w @ ((m - f) / np.linalg.norm(m - f))),
    }
    for rule, score in rules.items():
        for m, f in PAIRS:
            x = [scores[(rule, f"{m}:{f}", w)] for w, _ in present]
            for got, (w, _) in zip(x, present):
                assert abs(got - score(row[w], row[m], row[f])) < 1e-6, (rule, m, f, w)
            y = [v for _, v in present]
            r, p = pearsonr(x, y)
            rho = spearmanr(x, y).correlation
            lines.append(f"{rule},{m}:{f},{len(x)},{r!r},{rho!r},{p!r}")
    with open(os.path.join(HERE, "validity_reference.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
