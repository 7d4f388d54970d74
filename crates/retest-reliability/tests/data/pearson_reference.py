"""Prints the Pearson reference cases of tests/pearson_reference.rs with scipy.stats.pearsonr.

Run in a venv with scipy 1.x: `python pearson_reference.py > pearson_reference.in`.
"""
import numpy as np
import scipy
from scipy.stats import pearsonr

rng = np.random.default_rng(2021)
cases = [
    ("hand", [1.0, 2.0, 3.0, 4.0, 5.0], [2.0, 4.0, 5.0, 4.0, 5.0]),
    ("negative", [1.0, 2.0, 3.0, 4.0], [10.0, 7.0, 8.0, 1.0]),
    ("three", [0.1, 0.5, 0.2], [1.0, 3.0, 1.2]),
]
x = rng.normal(size=200)
cases.append(("normal200", list(x), list(0.3 * x + rng.normal(size=200))))
x = rng.normal(size=1000) * 0.01
cases.append(("weak1000", list(x), list(0.02 * x + rng.normal(size=1000) * 0.01)))
print(f"// Printed by pearson_reference.py with scipy {scipy.__version__}")
print("&[")
for name, a, b in cases:
    r, p = pearsonr(a, b)
    fmt = lambda v: "[" + ", ".join(repr(float(t)) for t in v) + "]"
    print(f'("{name}", &{fmt(a)}, &{fmt(b)}, {float(r)!r}, {float(p)!r}),')
print("]")
