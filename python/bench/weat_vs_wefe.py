"""retest.weat against WEFE 1.0.1's WEAT from Python, same vectors and sets (Caliskan's tests
6-8 from WEFE's WEAT.json, lowercased), WEFE with its sampled p-value at its default 10,000
iterations; retest's p-values are exact here.

usage: RETEST_DATA_DIR=../shared/data python python/bench/weat_vs_wefe.py VECTORS.txt \
    $RETEST_DATA_DIR/word_lists/wefe/WEAT.json wordlists/weat/caliskan.yaml
(in a virtual environment with `pip install wefe==1.0.1 ./python`)."""
import json, sys, time
from gensim.models import KeyedVectors
from wefe.metrics import WEAT
from wefe.query import Query
from wefe.word_embedding_model import WordEmbeddingModel
import retest

path, sets_path, tests_path = sys.argv[1:4]
sets = json.load(open(sets_path))
tests = {"weat6": ("male_names", "female_names", "career", "family"),
         "weat7": ("math", "arts", "male_terms", "female_terms"),
         "weat8": ("science", "arts_2", "male_terms_2", "female_terms_2")}
kv = KeyedVectors.load_word2vec_format(path)
model = WordEmbeddingModel(kv, "sgns")
emb = retest.Embeddings.from_keyed_vectors(kv)
t = time.perf_counter()
ours = retest.weat(emb, tests_path, tests_only=list(tests), lowercase=True)
t_ours = time.perf_counter() - t
t = time.perf_counter()
theirs = {}
for name, (x, y, a, b) in tests.items():
    q = Query([sets[x], sets[y]], [sets[a], sets[b]], [x, y], [a, b])
    theirs[name] = WEAT().run_query(q, model, return_effect_size=True, calculate_p_value=True,
                                    preprocessors=[{"lowercase": True}], lost_vocabulary_threshold=1.0)
t_wefe = time.perf_counter() - t
print(f"retest.weat: {t_ours:.3f} s; WEFE WEAT: {t_wefe:.1f} s")
for row in ours.iter_rows(named=True):
    r = theirs[row["test"]]
    print(f"{row['test']}: d retest {row['effect_size']:.9f} WEFE {r['effect_size']:.9f}; p retest {row['p_value']:.6f} ({row['p_method']}) WEFE {r['p_value']:.6f}")
