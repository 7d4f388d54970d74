#!/usr/bin/env python3
"""Independent reference for retest's reproduction of Zhang, Sneyd & Stevenson (2020)'s
base-pair analyses ("Robustness and reliability of gender bias assessment in word
embeddings: the role of base pairs"), written to `zhang_reference.json` beside this file so
that Rust tests can compare retest's numbers with it.

The same analyses are computed on two models:

  * "wt103_3000": `analogy_wt103_3000.w2v.txt` (retest-eval's test data: skip-gram, dim 50,
    the 3,000 most frequent words of a cased WikiText model, rows in decreasing frequency).
    It is real, but on it Table 4 has no words, the animal list has none, BSRI one,
    `ripa_flip` is null and 3 of the 10 pairs are out of the vocabulary.
  * "synthetic": `zhang_synthetic.w2v.txt` (beside this file), written by this script so
    that every table is exercised (see "Synthetic model" below).

Conventions are retest's: positive = masculine; every score is
computed in float64 and then rounded to float32 (retest stores f32 scores); the float32
values (as float64) are used for everything downstream (labels, SDs, differences).

Scores for a base pair (m, f):
  * DB/WA(w) = unit(w)·unit(m) − unit(w)·unit(f)             (unit(0) = 0)
  * RIPA(w)  = w · (m − f)/‖m − f‖                            (raw vectors)
  * NBM(w)   = (#masculine − #feminine)/k among the k = 100 neutral-pool words with the
               highest cosine to w (w itself excluded, ties → lower row); a neighbour n is
               masculine when DB/WA(n) with the same pair is ≥ 0.
  label(score) = 1 (masculine) if score ≥ 0 else 0.

Sets:
  * limited vocabulary L: first min(50000, n) rows, `^[A-Za-z]+$`, length < 20;
  * neutral pool: first min(50000, n) rows, `^[a-z]+$`, length < 20, minus every string of
    debiaswe's equalize_pairs.json and gender_specific_full.json, every word of Bolukbasi's
    definitional pairs and every word of the 10 listed base pairs (exact strings).

Base pairs: the 10 pairs of zhang-pairs.txt, but — as retest does — only those with both
words in the vocabulary are analysed (file order kept); on the cased 3,000-word model
john/mary, guy/gal and boy/girl are out of it, so 7 pairs remain (all 10 on the synthetic
model). "All pairs" below means those analysed (P of them: P·(P−1)/2 comparisons, P raters);
every listed pair's words still leave the neutral pool.

Synthetic model (`zhang_synthetic.w2v.txt`, built by `build_synthetic`, deterministic:
everything is drawn from numpy's default_rng(2020) in a fixed order — the gender direction,
the profession subsets, the dropped truth words, the row order, the vectors):
  * dim 12, 1,258 words, word2vec text with `%.9g` values (they read back to the same
    float32; the script checks the round trip and analyses exactly those float32 values);
  * 900 fillers `filleraaa`, `filleraab`, … (letters only, so they are in L and the pool);
  * the 10 base pairs and their str.capitalize() forms (so Table 3 has all 10 pairs);
    king and queen (so ripa_flip is defined);
  * the first 60 single-lowercase-word professions of professions.json (no `_`) plus
    professor, each with plural p+"s", str.capitalize() and str.upper() forms, except: 10
    take p+"es" instead (p+"s" absent: the +es rule), 8 have no UPPER form and 5 no plural
    (both excluded from Table 4, which keeps 48 words, professor included); the subsets are
    in the JSON's synthetic_model;
  * every BSRI and animals word except 3 of each (queen never dropped): out-of-vocabulary
    words are dropped from Table 5;
  * gendered words of the exclusion lists (spokesman/spokeswoman, chairman/chairwoman,
    councilman/councilwoman, husband/wife; actress, businessman, … are professions anyway),
    so the pool exclusion removes words that are present;
  * row order (= frequency order): a random shuffle in which the fillers are drawn later
    on the whole (sort keys U(0, 1) for other words, U(0.25, 1.25) for fillers), so the first
    rows are gendered, profession and trait words;
  * vectors: N(0, I) plus a shift along one random unit gender direction g: +2.5·g for
    masculine words (masculine pair members and their capitalised forms, king, truth `m`
    words, masculine extras), −2.5·g for feminine ones, and +1.0·g / −1.0·g for professions
    whose debiaswe stereotypical score is > 0 / < 0 (0 for 0.0), with all their forms. (With
    ±0.8 / ±0.3 in 12 dimensions the labels were coin flips: Table 2's Fleiss κ ≈ −0.01 and
    a mean difference cosine of 0.03; with 2.5 / 1.0 the κs are ≈ 0.4–0.46, Table 5's
    ≈ 0.5–1 and 8 of 62 professions flip between man/woman and king/queen.)
  * robustness: the model is accepted only when no reported decision is within a small
    margin of its threshold (see fragile_decisions below); otherwise PERTURB_SCALE·N(0, 1)
    noise from default_rng(2021), default_rng(2022), … is added until it is, with a
    warning. Seed 2020 needed no perturbation (synthetic_model.perturbation_seed = null).

JSON layout: {"description", "versions", "models": {"wt103_3000": {…}, "synthetic": {…}},
"synthetic_model" (generation parameters and word subsets), "anova"}. Each model holds (rules
"dbwa", "ripa", "nbm"; pairs named "masculine/feminine"; NaN → null):
  model_file, n_words, limited_vocabulary, pool_size, professions_in_vocabulary,
  listed_pairs, pairs (analysed), pairs_out_of_vocabulary, k, scores (rule → pair →
  profession → score), table1 (per rule over L × P pairs: n, mean, sd with ddof=0), table2
  (per rule over professions: Fleiss' κ across the P pairs, magnitude_changed /
  magnitude_within, same_label, n_words), table3 (Cohen's κ pair vs capitalised pair, for
  pairs whose Capitalised words are both in the vocabulary; NBM's neighbours are then
  labelled with the capitalised pair) + capitalised_pairs, table4 (Cohen's κ base profession
  vs plural / Capital / UPPER form, same lowercase pair; plural = p+"s" if present, else
  p+"es") + table4_words + table4_forms (or table4_note when no word qualifies), table5
  (Cohen's κ truth vs predicted on BSRI and animal lists) + table5_words, table6 (Cohen's κ
  between rules), difference_cosines (d = unit(f) − unit(m), float64, not rounded) +
  mean_difference_cosine, pair_kappas (DB/WA labels, diagonal 1), fig2_r_code (Pearson r per
  pair over its P points, diagonal included), fig2_r_text (P − 1 points, diagonal
  excluded), ripa_flip ((man, woman) vs (king, queen) RIPA labels; null when one of the four
  words is out of the vocabulary, as in wt103_3000, which lacks queen), and fragile_decisions (margins
  and count of decisions close to a threshold: |DB/WA| or |RIPA| < 1e-4 for a reported word
  under a pair it is labelled with, |DB/WA| < 1e-5 for a pool word (NBM neighbour label),
  a 100th/101st neighbour cosine gap < 1e-6, or a Table 2 difference within 1e-5 of the SD;
  0 on both models). anova (top level, model-independent): a fixed synthetic W×P×S dataset
  with statsmodels' type-I ANOVA and the random-effects variance components from the
  expected mean squares.

Requirements (the fixture was made with Python 3.11.7 and):
    numpy==2.4.6 scipy==1.17.1 scikit-learn==1.9.1 statsmodels==0.15.0 pandas==3.1.1
    (patsy==1.0.3 comes with statsmodels)

Regenerate both `zhang_synthetic.w2v.txt` and `zhang_reference.json` (from the
repository root):

    python3 -m venv /tmp/zvenv && /tmp/zvenv/bin/pip install numpy scipy scikit-learn statsmodels pandas
    /tmp/zvenv/bin/python crates/retest-pipeline/tests/data/zhang_reference.py \
        --data-dir ../shared/data

The synthetic model depends on numpy's Generator streams (NumPy does not promise that they
stay the same across versions, so use the pinned numpy) and on the word lists; the script
rewrites the .w2v.txt and the JSON together. Every input can also be given
explicitly (see --help); paths are relative to the repository root unless absolute.
"""

import argparse
import json
import math
import os
import re
import warnings

import numpy as np
import pandas as pd
import scipy
import sklearn
import statsmodels
import statsmodels.formula.api as smf
from scipy.stats import pearsonr
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.anova import anova_lm
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

HERE = os.path.dirname(os.path.abspath(__file__))
# tests/data → tests → retest-pipeline → crates → repository root
REPO = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))

RULES = ["dbwa", "ripa", "nbm"]
K_NEIGHBOURS = 100
VOCAB_LIMIT = 50000
MAX_LEN = 20  # words must be strictly shorter than this


# ----------------------------------------------------------------------------------------
# Input readers
# ----------------------------------------------------------------------------------------


def read_w2v(path):
    """word2vec text format: header `n dim`, then `word v1 … vdim`. Vectors as float32."""
    with open(path, encoding="utf-8") as fh:
        n, dim = (int(x) for x in fh.readline().split())
        words, rows = [], []
        for line in fh:
            parts = line.rstrip("\n").rstrip(" ").split(" ")
            if len(parts) < dim + 1:
                continue
            # The word is everything before the last `dim` fields.
            words.append(" ".join(parts[:-dim]))
            rows.append(np.array(parts[-dim:], dtype=np.float32))
    assert len(words) == n, f"header says {n} words, read {len(words)}"
    return words, np.vstack(rows)


def content_lines(path):
    """Non-empty lines that are not `#` comments, split on whitespace."""
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if line and not line.startswith("#"):
                yield line.split()


def read_pairs(path):
    return [(f[0], f[1]) for f in content_lines(path)]


def read_truth(path):
    """`word m|f` lines; truth label 1 = masculine."""
    return [(f[0], 1 if f[1] == "m" else 0) for f in content_lines(path)]


def flatten_strings(obj):
    """Every string inside a nested JSON structure."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, (list, tuple)):
        for x in obj:
            yield from flatten_strings(x)
    elif isinstance(obj, dict):
        for x in obj.values():
            yield from flatten_strings(x)


# ----------------------------------------------------------------------------------------
# Helpers
# ----------------------------------------------------------------------------------------


def unit_rows(mat):
    """Row-normalise in float64; a zero row stays zero."""
    mat = np.asarray(mat, dtype=np.float64)
    norms = np.linalg.norm(mat, axis=-1, keepdims=True)
    return np.divide(mat, norms, out=np.zeros_like(mat), where=norms > 0)


def f32(x):
    """Round float64 scores to float32 and bring them back as float64 (retest stores f32)."""
    return np.asarray(x, dtype=np.float64).astype(np.float32).astype(np.float64)


def labels_of(scores):
    return (np.asarray(scores) >= 0).astype(int)


def kappa(a, b):
    """Cohen's κ; NaN when undefined: sklearn's own NaN (e.g. both label vectors constant and
    equal), and NaN for no words at all (where sklearn would raise)."""
    if len(a) == 0:
        return float("nan")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(cohen_kappa_score(np.asarray(a), np.asarray(b)))


def pair_name(pair):
    return f"{pair[0]}/{pair[1]}"


def clean(obj):
    """NaN/inf → None, numpy scalars → Python, recursively (for strict JSON)."""
    if isinstance(obj, dict):
        return {k: clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [clean(v) for v in obj]
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        x = float(obj)
        return None if not math.isfinite(x) else x
    return obj


# ----------------------------------------------------------------------------------------
# Scoring
# ----------------------------------------------------------------------------------------


class Scorer:
    """Computes the three rules for any vocabulary rows under any (m, f) pair."""

    def __init__(self, words, vecs, pool_rows):
        self.words = words
        self.index = {}
        for i, w in enumerate(words):
            self.index.setdefault(w, i)  # first occurrence wins (there are no duplicates)
        self.raw = vecs.astype(np.float64)
        self.unit = unit_rows(self.raw)
        self.pool_rows = np.asarray(pool_rows, dtype=np.int64)  # ascending row order
        self._pool_dbwa = {}

    def __contains__(self, w):
        return w in self.index

    def dbwa(self, rows, pair):
        m, f = (self.unit[self.index[x]] for x in pair)
        u = self.unit[rows]
        return f32(u @ m - u @ f)

    def ripa(self, rows, pair):
        m, f = (self.raw[self.index[x]] for x in pair)
        diff = m - f
        norm = np.linalg.norm(diff)
        b = diff / norm if norm > 0 else diff
        return f32(self.raw[rows] @ b)

    def pool_masculine(self, pair):
        """Neighbour labels of the pool under `pair`: DB/WA (float32) ≥ 0 → masculine."""
        if pair not in self._pool_dbwa:
            self._pool_dbwa[pair] = self.dbwa(self.pool_rows, pair) >= 0
        return self._pool_dbwa[pair]

    def neighbours(self, rows):
        """For each row, the positions (into the pool) of its K nearest pool words by cosine,
        the word itself excluded, ties broken by the lower row index."""
        cos = self.unit[rows] @ self.unit[self.pool_rows].T  # float64
        out = np.empty((len(rows), K_NEIGHBOURS), dtype=np.int64)
        for i, r in enumerate(rows):
            c = cos[i].copy()
            c[self.pool_rows == r] = -np.inf  # the word itself is never its own neighbour
            # Stable sort of −cos: equal cosines keep pool (= row) order, i.e. lower row first.
            order = np.argsort(-c, kind="stable")
            out[i] = order[:K_NEIGHBOURS]
        return out

    def nbm(self, neigh, pair):
        masc = self.pool_masculine(pair)[neigh]  # (n_rows, K) booleans
        n_m = masc.sum(axis=1)
        n_f = K_NEIGHBOURS - n_m
        return f32((n_m - n_f) / K_NEIGHBOURS)

    def all_rules(self, words, pairs):
        """{rule: {pair: float64 array of float32-rounded scores}} for a list of words."""
        rows = np.array([self.index[w] for w in words], dtype=np.int64)
        neigh = self.neighbours(rows) if len(rows) else np.empty((0, K_NEIGHBOURS), np.int64)
        out = {r: {} for r in RULES}
        for p in pairs:
            out["dbwa"][p] = self.dbwa(rows, p)
            out["ripa"][p] = self.ripa(rows, p)
            out["nbm"][p] = self.nbm(neigh, p)
        return out


# ----------------------------------------------------------------------------------------
# ANOVA check on synthetic data
# ----------------------------------------------------------------------------------------


def anova_check():
    W, P, S = 5, 4, 3
    values, recs = [], []
    for w in range(W):
        for p in range(P):
            for s in range(S):
                y = math.sin(1.7 * w + 0.9 * p * p + 0.37 * s + 0.11 * w * s) + 0.3 * w - 0.2 * s
                values.append(y)
                recs.append({"w": w, "p": p, "s": s, "y": y})
    df = pd.DataFrame(recs)
    fit = smf.ols("y ~ C(w) + C(p) + C(s) + C(w):C(p) + C(w):C(s) + C(p):C(s)", data=df).fit()
    table = anova_lm(fit, typ=1)
    names = {
        "C(w)": "word",
        "C(p)": "pair",
        "C(s)": "seed",
        "C(w):C(p)": "word:pair",
        "C(w):C(s)": "word:seed",
        "C(p):C(s)": "pair:seed",
        "Residual": "residual",
    }
    ss = {names[t]: float(table.loc[t, "sum_sq"]) for t in names}
    dof = {names[t]: float(table.loc[t, "df"]) for t in names}
    ms = {t: ss[t] / dof[t] for t in ss}
    # Random-effects variance components from the expected mean squares (unclipped).
    est = {
        "residual": ms["residual"],
        "word:pair": (ms["word:pair"] - ms["residual"]) / S,
        "word:seed": (ms["word:seed"] - ms["residual"]) / P,
        "pair:seed": (ms["pair:seed"] - ms["residual"]) / W,
        "word": (ms["word"] - ms["word:pair"] - ms["word:seed"] + ms["residual"]) / (P * S),
        "pair": (ms["pair"] - ms["word:pair"] - ms["pair:seed"] + ms["residual"]) / (W * S),
        "seed": (ms["seed"] - ms["word:seed"] - ms["pair:seed"] + ms["residual"]) / (W * P),
    }
    return {
        "dims": {"words": W, "pairs": P, "seeds": S},
        "formula": "y = sin(1.7*w + 0.9*p*p + 0.37*s + 0.11*w*s) + 0.3*w - 0.2*s",
        "values": values,
        "sum_of_squares": ss,
        "df": dof,
        "estimates": est,
    }


# ----------------------------------------------------------------------------------------
# Synthetic model
# ----------------------------------------------------------------------------------------

SYNTH_SEED = 2020  # numpy default_rng seed of the synthetic model
SYNTH_DIM = 12
SYNTH_FILLERS = 900  # `filleraaa`, `filleraab`, … (letters only, so they enter L and the pool)
SYNTH_PROFESSIONS = 60  # the first 60 single lowercase words of professions.json
SYNTH_ES = 10  # of them, plural p+"es" (and p+"s" absent), to exercise the +es rule
SYNTH_NO_UPPER = 8  # … no UPPER form (left out of Table 4)
SYNTH_NO_PLURAL = 5  # … no plural at all (left out of Table 4)
SYNTH_DROPPED_TRUTH = 3  # words of each truth list left out (out-of-vocabulary dropping)
GENDER_SHIFT = 2.5  # ± along g for gendered words (pair words, truth words, king/queen, extras)
PROFESSION_SHIFT = 1.0  # ± along g for professions (and their forms) by stereotypical sign
PERTURB_SCALE = 1e-3  # sd of the perturbation added when the model has near-zero decisions
PERTURB_TRIES = 200
# Gendered words of debiaswe's exclusion lists added to the vocabulary (1 = masculine), so the
# pool exclusion removes words that are actually present.
SYNTH_GENDERED_EXTRAS = [("spokesman", 1), ("spokeswoman", 0), ("chairman", 1),
                         ("chairwoman", 0), ("councilman", 1), ("councilwoman", 0),
                         ("husband", 1), ("wife", 0)]
SYNTH_MODEL = "crates/retest-pipeline/tests/data/zhang_synthetic.w2v.txt"

# Robustness margins: a reported decision closer than this to its threshold is "fragile"
# (an f32 implementation could take the other side).
SCORE_MARGIN = 1e-4  # |DB/WA|, |RIPA| of every reported word under every pair it is scored with
POOL_MARGIN = 1e-5  # |DB/WA| of every pool word (NBM's neighbour labels) under those pairs
GAP_MARGIN = 1e-6  # cosine gap between the 100th and 101st neighbour of every reported word
SD_MARGIN = 1e-5  # | |s_i − s_j| − SD | in Table 2's magnitude comparison


def letters(i, width=3):
    """0 → 'aaa', 1 → 'aab', … (base 26, lowercase letters only)."""
    out = []
    for _ in range(width):
        i, r = divmod(i, 26)
        out.append(chr(ord("a") + r))
    assert i == 0
    return "".join(reversed(out))


def build_synthetic(listed_pairs, profession_rows, truth, exclusion, perturb_seed=None):
    """The synthetic model: (words in row order, float32 vectors, description of the words).

    Everything is drawn from default_rng(SYNTH_SEED) in a fixed order (g, the subsets, the
    row order, the vectors); `perturb_seed`, when given, adds PERTURB_SCALE·N(0, 1) noise from
    default_rng(perturb_seed) to every vector."""
    rng = np.random.default_rng(SYNTH_SEED)
    g = rng.standard_normal(SYNTH_DIM)
    g /= np.linalg.norm(g)

    gender = {}  # word → +1 masculine / −1 feminine
    prof = {}  # word → sign of its profession's stereotypical score (0 for 0.0)
    order = []  # construction order (deterministic), before shuffling

    def add(w, gsign=None, psign=None):
        if w not in order_set:
            order.append(w)
            order_set.add(w)
        if gsign is not None:
            assert gender.get(w, gsign) == gsign, f"conflicting gender for {w}"
            gender[w] = gsign
        if psign is not None:
            assert prof.get(w, psign) == psign, f"conflicting profession sign for {w}"
            prof[w] = psign

    order_set = set()
    # Base pairs and their capitalised forms.
    for m, f in listed_pairs:
        add(m, +1), add(f, -1), add(m.capitalize(), +1), add(f.capitalize(), -1)
    add("king", +1), add("queen", -1)

    # Professions.
    single = [(w, s) for w, _, s in profession_rows if re.fullmatch(r"[a-z]+", w)]
    chosen = single[:SYNTH_PROFESSIONS]
    perm = rng.permutation(len(chosen))
    es = set(perm[:SYNTH_ES].tolist())
    no_upper = set(perm[SYNTH_ES:SYNTH_ES + SYNTH_NO_UPPER].tolist())
    no_plural = set(perm[SYNTH_ES + SYNTH_NO_UPPER:
                         SYNTH_ES + SYNTH_NO_UPPER + SYNTH_NO_PLURAL].tolist())
    stereo = {w: s for w, _, s in profession_rows}
    for i, (p, s) in enumerate(chosen):
        sign = int(np.sign(s))
        forms = [p]
        if i not in no_plural:
            forms.append(p + ("es" if i in es else "s"))
        forms.append(p.capitalize())
        if i not in no_upper:
            forms.append(p.upper())
        for w in forms:
            add(w, psign=sign)
    # professor with all its forms.
    sign = int(np.sign(stereo["professor"]))
    for w in ["professor", "professors", "Professor", "PROFESSOR"]:
        add(w, psign=sign)

    # Truth lists, minus a few words each (queen, which must stay, is never dropped).
    dropped = {}
    for lname in ("bsri", "animals"):
        cands = [w for w, _ in truth[lname] if w != "queen"]
        drop = sorted(rng.choice(len(cands), SYNTH_DROPPED_TRUTH, replace=False).tolist())
        dropped[lname] = [cands[i] for i in drop]
        for w, t in truth[lname]:
            if w not in dropped[lname]:
                add(w, +1 if t == 1 else -1)

    for w, t in SYNTH_GENDERED_EXTRAS:
        assert w in exclusion, w
        add(w, +1 if t == 1 else -1)

    fillers = ["filler" + letters(i) for i in range(SYNTH_FILLERS)]
    for w in fillers:
        assert w not in order_set
        add(w)

    # Sanity: the plural rule must find exactly the intended plural.
    vocab = set(order)
    assert len(vocab) == len(order)
    for i, (p, _) in enumerate(chosen):
        if i in no_plural:
            assert p + "s" not in vocab and p + "es" not in vocab, p
        elif i in es:
            assert p + "s" not in vocab and p + "es" in vocab, p
        else:
            assert p + "s" in vocab, p
    assert all(re.fullmatch(r"[a-z]+", w) for w in fillers)

    # Row order = frequency order: a random shuffle, fillers drawn later on the whole.
    filler_set = set(fillers)
    is_filler = np.array([w in filler_set for w in order])
    keys = np.where(is_filler, rng.uniform(0.25, 1.25, len(order)), rng.uniform(0.0, 1.0, len(order)))
    rows = np.argsort(keys, kind="stable")
    words = [order[i] for i in rows]

    vecs = rng.standard_normal((len(words), SYNTH_DIM))
    shift = np.array([GENDER_SHIFT * gender.get(w, 0) + PROFESSION_SHIFT * prof.get(w, 0)
                      for w in words])
    vecs += shift[:, None] * g[None, :]
    if perturb_seed is not None:
        vecs += PERTURB_SCALE * np.random.default_rng(perturb_seed).standard_normal(vecs.shape)
    vecs = vecs.astype(np.float32)

    info = {
        "seed": SYNTH_SEED,
        "perturbation_seed": perturb_seed,
        "perturbation_scale": PERTURB_SCALE if perturb_seed is not None else None,
        "dim": SYNTH_DIM,
        "n_words": len(words),
        "n_fillers": SYNTH_FILLERS,
        "gender_shift": GENDER_SHIFT,
        "profession_shift": PROFESSION_SHIFT,
        "gender_direction": g.tolist(),
        "professions": [p for p, _ in chosen] + ["professor"],
        "professions_plural_es": sorted(chosen[i][0] for i in es),
        "professions_without_upper": sorted(chosen[i][0] for i in no_upper),
        "professions_without_plural": sorted(chosen[i][0] for i in no_plural),
        "dropped_truth_words": dropped,
        "gendered_extras": [w for w, _ in SYNTH_GENDERED_EXTRAS],
    }
    return words, vecs, info


def write_w2v(path, words, vecs):
    """word2vec text; `%.9g` reads back to the same float32."""
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(f"{len(words)} {vecs.shape[1]}\n")
        for w, v in zip(words, vecs):
            fh.write(w + " " + " ".join("%.9g" % float(x) for x in v) + "\n")


# ----------------------------------------------------------------------------------------
# Analyses of one model
# ----------------------------------------------------------------------------------------


def analyse(words, vecs, listed_pairs, profession_list, truth, exclusion):
    """All analyses on one model: (JSON dict, list of fragile decisions)."""
    n = len(words)
    issues = []

    # --- vocabularies -------------------------------------------------------------------
    head = range(min(VOCAB_LIMIT, n))
    re_l, re_pool = re.compile(r"^[A-Za-z]+$"), re.compile(r"^[a-z]+$")
    limited = [i for i in head if re_l.match(words[i]) and len(words[i]) < MAX_LEN]
    pool = [i for i in head
            if re_pool.match(words[i]) and len(words[i]) < MAX_LEN and words[i] not in exclusion]
    assert len(pool) > K_NEIGHBOURS

    sc = Scorer(words, vecs, pool)
    # As retest does, only the pairs with both words in the vocabulary are analysed (in file
    # order); the others are recorded in `pairs_out_of_vocabulary`.
    pairs = [p for p in listed_pairs if p[0] in sc and p[1] in sc]
    missing = [pair_name(p) for p in listed_pairs if p not in pairs]
    names = [pair_name(p) for p in pairs]
    n_pairs = len(pairs)
    assert n_pairs >= 2, "need at least two base pairs in the vocabulary"

    professions = [w for w in profession_list if w in sc]
    prof = sc.all_rules(professions, pairs)
    prof_labels = {r: {p: labels_of(prof[r][p]) for p in pairs} for r in RULES}

    out = {
        "listed_pairs": [pair_name(p) for p in listed_pairs],
        "pairs": names,
        "pairs_out_of_vocabulary": missing,
        "k": K_NEIGHBOURS,
        "n_words": n,
        "limited_vocabulary": len(limited),
        "pool_size": len(pool),
        "professions_in_vocabulary": professions,
    }

    # --- 2. scores ----------------------------------------------------------------------
    out["scores"] = {
        r: {pair_name(p): {w: float(s) for w, s in zip(professions, prof[r][p])} for p in pairs}
        for r in RULES
    }

    # --- 3. table 1: distribution of all scores over L × 10 pairs ----------------------
    lim_words = [words[i] for i in limited]
    lim = sc.all_rules(lim_words, pairs)
    table1 = {}
    for r in RULES:
        allv = np.concatenate([lim[r][p] for p in pairs])
        table1[r] = {"n": int(allv.size), "mean": float(np.mean(allv)), "sd": float(np.std(allv))}
    out["table1"] = table1

    # --- 4. table 2: consistency across pairs over professions -------------------------
    table2 = {}
    n_prof = len(professions)
    for r in RULES:
        scores = np.column_stack([prof[r][p] for p in pairs])  # (professions, 10)
        labels = labels_of(scores)
        fk = fleiss_kappa(aggregate_raters(labels)[0])
        sd = table1[r]["sd"]
        changed = []
        for w, row in zip(professions, scores):
            diffs = np.abs(row[:, None] - row[None, :])
            iu = np.triu_indices(n_pairs, k=1)  # the unordered i<j comparisons (45 for 10)
            changed.append(np.sum(diffs[iu] >= sd) / len(iu[0]))
            gap = float(np.min(np.abs(diffs[iu] - sd)))
            if gap < SD_MARGIN:
                issues.append(f"table2 {r} {w}: a difference is {gap:.2g} from the SD")
        mc = float(np.mean(changed))
        same = float(np.mean([np.all(lr == lr[0]) for lr in labels]))
        table2[r] = {"fleiss_kappa": float(fk), "magnitude_changed": mc,
                     "magnitude_within": 1.0 - mc, "same_label": same, "n_words": n_prof}
    out["table2"] = table2

    # --- 5. table 3: pair vs capitalised pair ------------------------------------------
    cap_pairs = [(p, (p[0].capitalize(), p[1].capitalize())) for p in pairs
                 if p[0].capitalize() in sc and p[1].capitalize() in sc]
    cap_scores = sc.all_rules(professions, [c for _, c in cap_pairs])
    out["table3"] = {
        r: {pair_name(p): kappa(prof_labels[r][p], labels_of(cap_scores[r][c]))
            for p, c in cap_pairs}
        for r in RULES
    }
    out["capitalised_pairs"] = [pair_name(p) for p, _ in cap_pairs]

    # --- 6. table 4: base word vs plural / Capital / UPPER -----------------------------
    def plural(w):
        for cand in (w + "s", w + "es"):
            if cand in sc:
                return cand
        return None

    t4 = [w for w in professions
          if plural(w) is not None and w.capitalize() in sc and w.upper() in sc]
    out["table4_words"] = t4
    t4_forms = []
    if len(t4) >= 1:
        base = sc.all_rules(t4, pairs)
        forms = {"plural": [plural(w) for w in t4],
                 "capital": [w.capitalize() for w in t4],
                 "upper": [w.upper() for w in t4]}
        table4 = {}
        for form, fw in forms.items():
            t4_forms += fw
            fs = sc.all_rules(fw, pairs)
            table4[form] = {
                r: {pair_name(p): kappa(labels_of(base[r][p]), labels_of(fs[r][p])) for p in pairs}
                for r in RULES
            }
        out["table4"] = table4
        out["table4_forms"] = forms
    else:
        out["table4"] = {}
        out["table4_note"] = ("no profession in the vocabulary has a plural, a Capitalised "
                              "and an UPPER form all in the vocabulary")

    # --- 7. table 5: truth vs prediction on BSRI and animals ---------------------------
    table5, t5_words = {}, {}
    for lname, items in truth.items():
        kept = [(w, t) for w, t in items if w in sc]  # file order
        lw = [w for w, _ in kept]
        tl = np.array([t for _, t in kept], dtype=int)
        t5_words[lname] = lw
        ls = sc.all_rules(lw, pairs)
        table5[lname] = {
            r: {pair_name(p): kappa(tl, labels_of(ls[r][p])) for p in pairs} for r in RULES
        }
    out["table5"] = table5
    out["table5_words"] = t5_words

    # --- 8. table 6: agreement between rules -------------------------------------------
    out["table6"] = {
        f"{ra}&{rb}": {pair_name(p): kappa(prof_labels[ra][p], prof_labels[rb][p]) for p in pairs}
        for ra, rb in (("dbwa", "ripa"), ("dbwa", "nbm"), ("ripa", "nbm"))
    }

    # --- 9. difference cosines and figure 2 ---------------------------------------------
    d = np.vstack([sc.unit[sc.index[f]] - sc.unit[sc.index[m]] for m, f in pairs])
    du = unit_rows(d)
    cosm = du @ du.T  # float64, not rounded (these are not scores)
    out["difference_cosines"] = {
        names[i]: {names[j]: float(cosm[i, j]) for j in range(n_pairs)} for i in range(n_pairs)
    }
    iu = np.triu_indices(n_pairs, k=1)
    out["mean_difference_cosine"] = float(np.mean(cosm[iu]))

    kap = np.ones((n_pairs, n_pairs))  # diagonal = 1
    for i in range(n_pairs):
        for j in range(n_pairs):
            if i != j:
                kap[i, j] = kappa(prof_labels["dbwa"][pairs[i]], prof_labels["dbwa"][pairs[j]])
    out["pair_kappas"] = {
        names[i]: {names[j]: float(kap[i, j]) for j in range(n_pairs)} for i in range(n_pairs)
    }

    def r_of(x, y):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return float(pearsonr(x, y)[0])

    out["fig2_r_code"] = {names[i]: r_of(cosm[i], kap[i]) for i in range(n_pairs)}
    out["fig2_r_text"] = {
        names[i]: r_of(np.delete(cosm[i], i), np.delete(kap[i], i)) for i in range(n_pairs)
    }

    # --- 10. RIPA label flips between (man, woman) and (king, queen) ---------------------
    mw, kq = ("man", "woman"), ("king", "queen")
    if all(w in sc for w in mw + kq):
        rs = sc.all_rules(professions, [mw, kq])["ripa"]
        flipped = int(np.sum(labels_of(rs[mw]) != labels_of(rs[kq])))
        out["ripa_flip"] = {"n_words": n_prof, "flipped": flipped,
                            "share": flipped / n_prof if n_prof else float("nan")}
    else:
        out["ripa_flip"] = None

    # --- robustness: decisions too close to their threshold ---------------------------
    # Which words are scored under which pairs (only what the tables above label).
    all_pairs = pairs + [c for _, c in cap_pairs]
    labelled = [(professions, all_pairs + ([mw, kq] if out["ripa_flip"] else []))]
    labelled += [(t4_forms, pairs)]
    labelled += [(t5_words[lname], pairs) for lname in t5_words]
    for ws, ps in labelled:
        if not ws:
            continue
        rows = np.array([sc.index[w] for w in ws], dtype=np.int64)
        for p in ps:
            for rule, vals in (("dbwa", sc.dbwa(rows, p)), ("ripa", sc.ripa(rows, p))):
                for w, v in zip(ws, vals):
                    if abs(v) < SCORE_MARGIN:
                        issues.append(f"{rule} {w} under {pair_name(p)} = {v:.3g}")
    for p in all_pairs:  # NBM's neighbour labels
        vals = sc.dbwa(sc.pool_rows, p)
        for i in np.flatnonzero(np.abs(vals) < POOL_MARGIN):
            issues.append(f"pool label: dbwa {words[sc.pool_rows[i]]} under {pair_name(p)} "
                          f"= {vals[i]:.3g}")
    reported = sorted({w for ws, _ in labelled for w in ws}, key=lambda w: sc.index[w])
    rows = np.array([sc.index[w] for w in reported], dtype=np.int64)
    if len(rows):
        cos = sc.unit[rows] @ sc.unit[sc.pool_rows].T
        for i, r in enumerate(rows):
            c = cos[i].copy()
            c[sc.pool_rows == r] = -np.inf
            top = np.sort(c)[::-1][K_NEIGHBOURS - 1:K_NEIGHBOURS + 1]
            if top[0] - top[1] < GAP_MARGIN:
                issues.append(f"neighbours of {words[r]}: 100th/101st cosine gap "
                              f"{top[0] - top[1]:.2g}")
    out["fragile_decisions"] = {
        "margins": {"score": SCORE_MARGIN, "pool_label": POOL_MARGIN,
                    "neighbour_gap": GAP_MARGIN, "table2_sd": SD_MARGIN},
        "n": len(issues),
        "first": issues[:50],
    }
    return out, issues


def summary(name, out):
    t4 = out["table4_words"]
    t5 = out["table5_words"]
    print(f"== {name}")
    print(f"words {out['n_words']}, |L| {out['limited_vocabulary']}, pool {out['pool_size']}")
    print(f"pairs analysed: {len(out['pairs'])} {out['pairs']}; out of vocabulary: "
          f"{out['pairs_out_of_vocabulary']}")
    print(f"professions in vocabulary: {len(out['professions_in_vocabulary'])}")
    print(f"table4 words: {len(t4)}")
    print(f"capitalised pairs: {len(out['capitalised_pairs'])} {out['capitalised_pairs']}")
    print(f"bsri words: {len(t5['bsri'])}, animals words: {len(t5['animals'])}")
    for r in RULES:
        t1, t2 = out["table1"][r], out["table2"][r]
        print(f"{r}: table1 mean {t1['mean']:.4f} sd {t1['sd']:.4f}; table2 fleiss "
              f"{t2['fleiss_kappa']:.4f} within {t2['magnitude_within']:.3f} "
              f"same {t2['same_label']:.3f}")
    print(f"mean difference cosine {out['mean_difference_cosine']:.4f}")
    print(f"ripa_flip {out['ripa_flip']}")
    print(f"fragile decisions: {out['fragile_decisions']['n']}")


# ----------------------------------------------------------------------------------------
# Main
# ----------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", default="../shared/data",
                    help="shared data directory holding word_lists/debiaswe/")
    ap.add_argument("--model", default="crates/retest-eval/tests/data/analogy_wt103_3000.w2v.txt")
    ap.add_argument("--synthetic-model", default=SYNTH_MODEL,
                    help="where the synthetic model is written (and read back from)")
    ap.add_argument("--pairs", default="wordlists/zhang2020/zhang-pairs.txt")
    ap.add_argument("--professions", default=None,
                    help="default: DATA_DIR/word_lists/debiaswe/professions.json")
    ap.add_argument("--bsri", default="wordlists/zhang2020/bsri.txt")
    ap.add_argument("--animals", default="wordlists/zhang2020/animals.txt")
    ap.add_argument("--equalize", default=None,
                    help="default: DATA_DIR/word_lists/debiaswe/equalize_pairs.json")
    ap.add_argument("--gender-specific", default=None,
                    help="default: DATA_DIR/word_lists/debiaswe/gender_specific_full.json")
    ap.add_argument("--definitional", default="wordlists/bolukbasi/definitional-pairs.txt")
    ap.add_argument("--out", default=os.path.join(HERE, "zhang_reference.json"))
    a = ap.parse_args()

    debiaswe = os.path.join(a.data_dir, "word_lists", "debiaswe")
    a.professions = a.professions or os.path.join(debiaswe, "professions.json")
    a.equalize = a.equalize or os.path.join(debiaswe, "equalize_pairs.json")
    a.gender_specific = a.gender_specific or os.path.join(debiaswe, "gender_specific_full.json")

    def at(path):  # repository-relative unless absolute
        return path if os.path.isabs(path) else os.path.join(REPO, path)

    # --- inputs -------------------------------------------------------------------------
    listed_pairs = read_pairs(at(a.pairs))
    with open(at(a.professions), encoding="utf-8") as fh:
        profession_rows = json.load(fh)
    profession_list = [row[0] for row in profession_rows]
    truth = {"bsri": read_truth(at(a.bsri)), "animals": read_truth(at(a.animals))}

    exclusion = set()
    for path in (a.equalize, a.gender_specific):
        with open(at(path), encoding="utf-8") as fh:
            exclusion.update(flatten_strings(json.load(fh)))
    for m, f in read_pairs(at(a.definitional)):
        exclusion.update((m, f))
    for m, f in listed_pairs:  # every listed pair, in the vocabulary or not
        exclusion.update((m, f))

    lists = (listed_pairs, profession_list, truth, exclusion)

    # --- the small real model -------------------------------------------------------------
    words, vecs = read_w2v(at(a.model))
    wt103, wt103_issues = analyse(words, vecs, *lists)
    for msg in wt103_issues[:10]:
        print(f"note (wt103_3000, not fixable): fragile {msg}")

    # --- the synthetic model --------------------------------------------------------------
    for attempt in range(PERTURB_TRIES + 1):
        perturb_seed = None if attempt == 0 else SYNTH_SEED + attempt
        s_words, s_vecs, s_info = build_synthetic(listed_pairs, profession_rows, truth,
                                                  exclusion, perturb_seed)
        synthetic, s_issues = analyse(s_words, s_vecs, *lists)
        if not s_issues:
            break
        print(f"WARNING: synthetic model with perturbation seed {perturb_seed} has "
              f"{len(s_issues)} fragile decision(s), e.g. {s_issues[0]}; trying "
              f"perturbation seed {SYNTH_SEED + attempt + 1}")
    else:
        raise SystemExit("no perturbation seed gave a synthetic model without fragile decisions")
    if perturb_seed is not None:
        print(f"WARNING: the synthetic model uses perturbation seed {perturb_seed} "
              f"(scale {PERTURB_SCALE}); document it in the docstring if it changed")
    write_w2v(at(a.synthetic_model), s_words, s_vecs)
    back_words, back_vecs = read_w2v(at(a.synthetic_model))
    assert back_words == s_words and np.array_equal(back_vecs, s_vecs), "w2v round trip"

    wt103 = {"model_file": a.model, **wt103}
    synthetic = {"model_file": a.synthetic_model, **synthetic}
    out = {
        "description": "Zhang, Sneyd & Stevenson (2020) base-pair analyses on analogy_wt103_3000 "
                       "and on the synthetic zhang_synthetic model; generated by "
                       "zhang_reference.py",
        "versions": {"numpy": np.__version__, "scipy": scipy.__version__,
                     "scikit-learn": sklearn.__version__,
                     "statsmodels": statsmodels.__version__, "pandas": pd.__version__},
        "models": {"wt103_3000": wt103, "synthetic": synthetic},
        "synthetic_model": s_info,
        # --- 11. ANOVA (model-independent) ------------------------------------------------
        "anova": anova_check(),
    }

    out = clean(out)
    with open(a.out, "w", encoding="utf-8") as fh:
        json.dump(out, fh, indent=1, ensure_ascii=False, allow_nan=False)
        fh.write("\n")

    # --- summary -------------------------------------------------------------------------
    summary("wt103_3000", out["models"]["wt103_3000"])
    summary("synthetic", out["models"]["synthetic"])
    print(f"wrote {at(a.synthetic_model)} ({os.path.getsize(at(a.synthetic_model))} bytes)")
    print(f"wrote {a.out} ({os.path.getsize(a.out)} bytes)")


if __name__ == "__main__":
    main()
