#!/usr/bin/env bash
# Speed of gensim (workers=1) and retest-sgns, back to back on the same file and settings (dim
# 300, window 5, negative 5, sample 1e-3, min_count 5), skip-gram then CBOW.
#
# usage: crates/retest-sgns/bench/compare_speed.sh CORPUS.txt [EPOCHS] [SEED]
#   CORPUS.txt: one sentence per line, e.g. made by
#   cargo run --release -p retest-sgns --example dump_plain_text -- \
#       ../shared/data/corpora/gutenberg_lahiri/gutenberg_lahiri_150M.txt.xz gutenberg_5M.txt 5000000
# Environment: PYTHON (default .venv/bin/python at the project root, needs gensim); GENSIM_BASELINE (default
# ../shared/bench/gensim_baseline.py beside the project), run last against `retest sgns`, both
# timed from start to end (reading and vocabulary building included).
# Before each run it waits (up to 10 min) until both cores are idle, since other work on the
# machine distorts the timings.
set -euo pipefail
corpus=$1
epochs=${2:-5}
seed=${3:-1}
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-$(cd "$here/../../.." && pwd)/.venv/bin/python}

baseline=${GENSIM_BASELINE:-$here/../../../../shared/bench/gensim_baseline.py}

cargo build --quiet --release -p retest-sgns --example sgns_text
cargo build --quiet --release -p retest-cli
root=$(cd "$here/../../.." && pwd)
bin=$root/target/release/examples/sgns_text
retest=$root/target/release/retest
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

wait_idle() {
  for _ in $(seq 600); do
    read -r _ u n s i w x y z _ < /proc/stat; t1=$((u + n + s + i + w + x + y + z)); i1=$i
    sleep 1
    read -r _ u n s i w x y z _ < /proc/stat; t2=$((u + n + s + i + w + x + y + z)); i2=$i
    (( 100 - 100 * (i2 - i1) / (t2 - t1) <= 3 )) && return 0
  done
  echo "warning: the machine never became idle" >&2
}

for arch in skipgram cbow; do
  if [ $arch = cbow ]; then sg=0; flag=--cbow; else sg=1; flag=; fi
  wait_idle
  echo "== gensim $arch (load $(cut -d' ' -f1 /proc/loadavg))"
  "$python" "$here/gensim_compare.py" train "$corpus" --sg $sg --epochs "$epochs" --seed "$seed"
  wait_idle
  echo "== retest-sgns $arch (load $(cut -d' ' -f1 /proc/loadavg))"
  "$bin" --input "$corpus" --output /dev/null --epochs "$epochs" --seed "$seed" $flag 2>&1 \
    | grep -E "^read|on-CPU|^trained"
done

# The shared baseline's definition: corpus tokens × epochs / seconds from start to end.
wait_idle
echo "== gensim_baseline.py skipgram (load $(cut -d' ' -f1 /proc/loadavg))"
"$python" "$baseline" "$corpus" --sg 1 --epochs "$epochs" --seed "$seed"
wait_idle
echo "== retest sgns skipgram (load $(cut -d' ' -f1 /proc/loadavg))"
start=$(date +%s.%N)
"$retest" sgns --input "$corpus" --output "$out/ours.fifu" --epochs "$epochs" --seed "$seed"
awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "start to end: %.1f s\n", b - a }'
