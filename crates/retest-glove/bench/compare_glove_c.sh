#!/usr/bin/env bash
# GloVe's C tools and `retest glove`, back to back on the same file and settings: vocabulary
# (min_count 5), co-occurrence counting (window 15) at the same memory budget, shuffle, and
# training (dim 300, x_max 100, alpha 0.75, eta 0.05, W + W~ output) on one thread. Prints each
# stage's user CPU, wall time and peak RSS, the cost per iteration of both, and the intrinsic
# quality of both vector sets (`retest eval`).
#
# usage: crates/retest-glove/bench/compare_glove_c.sh GLOVE_BUILD_DIR CORPUS.txt [ITER] [MEMORY_GIB]
#   GLOVE_BUILD_DIR: the `build/` folder of github.com/stanfordnlp/GloVe after `make`
#     (vocab_count, cooccur, shuffle, glove).
#   CORPUS.txt: one sentence per line, e.g. made by
#     cargo run --release -p retest-sgns --example dump_plain_text -- \
#         ../shared/data/corpora/gutenberg_lahiri/gutenberg_lahiri_150M.txt.xz gutenberg_5M.txt 5000000
# Environment: OUT (default: a fresh temporary folder) receives every file and log;
#   RETEST_DATA_DIR for the benchmarks `retest eval` reads.
set -euo pipefail
glove=$1
corpus=$2
iter=${3:-7}
memory=${4:-4}
out=${OUT:-$(mktemp -d)}
root=$(cd "$(dirname "$0")/../../.." && pwd)
mkdir -p "$out"

cargo build --quiet --release -p retest-cli
retest=$root/target/release/retest

timed() { # name, command...: runs the command under /usr/bin/time, stdout/stderr into $out
  local name=$1
  shift
  /usr/bin/time -f "%U %e %M" -o "$out/$name.time" "$@"
  read -r user wall rss < "$out/$name.time"
  printf '%-24s user %7.2f s  wall %7.2f s  peak RSS %6d MB\n' "$name" "$user" "$wall" $((rss / 1024))
}

echo "== GloVe C tools ($glove), $iter iterations, -memory $memory"
timed c_vocab_count sh -c "'$glove/vocab_count' -min-count 5 -verbose 0 < '$corpus' > '$out/vocab.txt'"
timed c_cooccur sh -c "'$glove/cooccur' -memory $memory -vocab-file '$out/vocab.txt' -verbose 0 \
  -window-size 15 < '$corpus' > '$out/cooccurrence.bin'"
timed c_shuffle sh -c "'$glove/shuffle' -memory $memory -verbose 0 -seed 1 \
  < '$out/cooccurrence.bin' > '$out/cooccurrence.shuf.bin'"
timed c_glove sh -c "'$glove/glove' -save-file '$out/c_vectors' -threads 1 \
  -input-file '$out/cooccurrence.shuf.bin' -x-max 100 -iter $iter -vector-size 300 -binary 0 \
  -write-header 1 -vocab-file '$out/vocab.txt' -verbose 2 -eta 0.05 -alpha 0.75 -model 2 \
  -seed 1 2> '$out/c_glove.log'"
echo "records: $(( $(stat -c %s "$out/cooccurrence.bin") / 16 ))"
grep -E "iter: " "$out/c_glove.log" | sed 's/.*iter/iter/'

echo "== retest glove, $iter iterations, --memory $memory"
timed retest_glove "$retest" glove --input "$corpus" --output "$out/retest.fifu" --iter "$iter" \
  --memory "$memory" --seed 1 --force 2> "$out/retest_glove.log"
cat "$out/retest_glove.log"

echo "== quality (retest eval)"
# glove.c appends an averaged `<unk>` vector that its header does not count: leave it out.
grep -v '^<unk> ' "$out/c_vectors.txt" > "$out/c_vectors_words.txt"
"$retest" eval "$out/c_vectors_words.txt" "$out/retest.fifu"
