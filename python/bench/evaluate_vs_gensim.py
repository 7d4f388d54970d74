"""retest.evaluate against gensim's evaluators, from Python, on the same word2vec text file:
load times, evaluation times and the WordSim-353 Spearman and Google accuracy of both.

usage: python python/bench/evaluate_vs_gensim.py VECTORS.txt $RETEST_DATA_DIR/benchmarks
(in a virtual environment with gensim and `pip install ./python`)."""
import sys, time
from gensim.models import KeyedVectors
import retest

path, bench = sys.argv[1], sys.argv[2]
t = time.perf_counter(); kv = KeyedVectors.load_word2vec_format(path); t_load_g = time.perf_counter() - t
t = time.perf_counter(); emb = retest.Embeddings.load(path); t_load_r = time.perf_counter() - t
t = time.perf_counter()
ws = kv.evaluate_word_pairs(f"{bench}/gensim/wordsim353.tsv")
sl = kv.evaluate_word_pairs(f"{bench}/gensim/simlex999.txt")
an = kv.evaluate_word_analogies(f"{bench}/gensim/questions-words.txt")
t_g = time.perf_counter() - t
t = time.perf_counter(); table = retest.evaluate(emb, benchmarks=bench); t_r = time.perf_counter() - t
t = time.perf_counter(); table2 = retest.evaluate(retest.Embeddings.from_keyed_vectors(kv), benchmarks=bench); t_r2 = time.perf_counter() - t
def get(b, s, m):
    return table.filter((table["benchmark"] == b) & (table["section"] == s) & (table["metric"] == m))["value"][0]
print(f"load: gensim {t_load_g:.2f} s, retest {t_load_r:.2f} s")
print(f"gensim ws353+simlex+google: {t_g:.2f} s; retest.evaluate (7 benchmarks incl. MSR): {t_r:.2f} s; from_keyed_vectors+evaluate {t_r2:.2f} s")
print(f"ws353 spearman gensim {ws[1][0]:.6f} retest {get('wordsim353','','spearman'):.6f}")
print(f"google total gensim {an[0]:.6f} retest {get('google','total','accuracy'):.6f}")

