"""Writes weat_trained_reference.txt: Caliskan et al.'s gender tests 6-8 on a retest-trained
SGNS seed, computed independently of the Rust code (numpy, brute-force permutations with
math.fsum, as weat_reference.py; WEFE 1.0.1 cross-checks the statistic and the effect size).

The seed is seed 0 of SGNS in pipelines/gutenberg.yaml (Gutenberg, first 5M tokens, dim 100),
exported as word2vec text; only the vectors of the tests' words that are in its (lowercased)
vocabulary go into the fixture, so tests/weat.rs needs neither the seed nor the data mirror:

    RETEST_DATA_DIR=../shared/data retest --results R run gutenberg
    retest embeddings export R/gutenberg/embeddings/gutenberg/sgns-*/seed-00.fifu \
        --format word2vec-text --output /tmp/seed-00.txt
    python3 -m venv /tmp/venv-weat && /tmp/venv-weat/bin/pip install numpy wefe
    /tmp/venv-weat/bin/python weat_trained_reference.py /tmp/seed-00.txt ../../../../../shared/data/word_lists/wefe/WEAT.json
"""

import json
import sys

import numpy as np

from weat_reference import fixture_lines, unit, weat_lines, write_fixture

# Caliskan et al.'s tests 6-8 by WEFE set name (wordlists/weat/caliskan.yaml).
TESTS = {
    "weat6": ("male_names", "female_names", "career", "family"),
    "weat7": ("math", "arts", "male_terms", "female_terms"),
    "weat8": ("science", "arts_2", "male_terms_2", "female_terms_2"),
}


def read_word2vec_text(path):
    with open(path, encoding="utf-8") as f:
        n, dim = map(int, f.readline().split())
        vectors = {}
        for line in f:
            parts = line.rstrip("\n").split(" ")
            vectors[parts[0]] = np.array(parts[1:], dtype=np.float32)
    assert len(vectors) == n
    return vectors, dim


def main():
    vectors, dim = read_word2vec_text(sys.argv[1])
    with open(sys.argv[2], encoding="utf-8") as f:
        sets = json.load(f)
    words = []
    tests = {}
    for name, set_names in TESTS.items():
        ids = []
        for set_name in set_names:
            # The corpus is lowercased, so is the lookup (retest's case policy).
            in_vocabulary = [w.lower() for w in sets[set_name] if w.lower() in vectors]
            for w in in_vocabulary:
                if w not in words:
                    words.append(w)
            ids.append([words.index(w) for w in in_vocabulary])
        tests[name] = ids
    vecs = np.array([vectors[w] for w in words])
    U = np.array([unit(v) for v in vecs])
    lines = fixture_lines("weat_trained_reference.py", words, vecs, dim)
    weat, wefe_used = weat_lines(U, vecs, words, tests, dim)
    lines += weat
    lines.append(f"# wefe cross-check: {'yes' if wefe_used else 'no'}")
    write_fixture("weat_trained_reference.txt", lines)
    print("words:", len(words), "wefe cross-check:", wefe_used)


if __name__ == "__main__":
    main()
