"""Train one gensim Word2Vec configuration with several seeds on the start of the Gutenberg
corpus, as a study that already has its models would: the input of `retest reliability`.

    python scripts/models/gensim_seeds.py OUT_DIR [--tokens 1000000] [--seeds 4]

Writes OUT_DIR/w2v-seed{1..n}.txt (word2vec text, `save_word2vec_format`) and OUT_DIR/counts.txt
(`word count` per line, gensim's vocabulary counts), then:

    retest reliability OUT_DIR/w2v-seed*.txt --name w2v --lowercase --counts OUT_DIR/counts.txt

The corpus is read from $RETEST_DATA_DIR/corpora/gutenberg_lahiri/gutenberg_lahiri_150M.txt.xz,
lowercased and split on non-letters (a plain reading, not retest's tokeniser).
"""

import argparse
import lzma
import os
import re
from pathlib import Path

from gensim.models import Word2Vec


def sentences(path, tokens):
    """Lines of lowercased words, up to `tokens` words in all."""
    out, seen = [], 0
    with lzma.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            words = re.findall(r"[a-z]+(?:'[a-z]+)?", line.lower())
            if not words:
                continue
            out.append(words)
            seen += len(words)
            if seen >= tokens:
                break
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--tokens", type=int, default=1_000_000)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--dim", type=int, default=50)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    data = Path(os.environ.get("RETEST_DATA_DIR", "../shared/data"))
    corpus = sentences(data / "corpora/gutenberg_lahiri/gutenberg_lahiri_150M.txt.xz", args.tokens)
    args.out.mkdir(parents=True, exist_ok=True)
    for seed in range(1, args.seeds + 1):
        # One worker: gensim is deterministic for a seed only single-threaded.
        model = Word2Vec(
            corpus, vector_size=args.dim, window=5, min_count=5, sg=1, negative=5,
            epochs=args.epochs, seed=seed, workers=1,
        )
        model.wv.save_word2vec_format(str(args.out / f"w2v-seed{seed}.txt"))
        if seed == 1:
            with open(args.out / "counts.txt", "w", encoding="utf-8") as f:
                for word in model.wv.index_to_key:
                    f.write(f"{word} {model.wv.get_vecattr(word, 'count')}\n")
        print(f"seed {seed}: {len(model.wv)} words", flush=True)


if __name__ == "__main__":
    main()
