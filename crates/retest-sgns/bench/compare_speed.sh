#!/usr/bin/env bash
# Speed of gensim (workers=1) and retest-sgns, back to back on the same file and settings (dim
# 300, window 5, negative 5, sample 1e-3, min_count 5), skip-gram then CBOW.
#
# usage: crates/retest-sgns/bench/compare_speed.sh CORPUS.txt [EPOCHS] [SEED]
#   CORPUS.txt: one sentence per line, e.g. made by
#   cargo run --release -p retest-sgns --example dump_plain_text -- \
#       ../shared/data/corpora/gutenberg_lahiri/gutenberg_lahiri_150M.txt.xz gutenberg_5M.txt 5000000
# Environment: PYTHON (default /work/.venv/bin/python, needs gensim).
# Before each run it waits (up to 10 min) until both cores are idle, since other work on the
# machine distorts the timings.
set -euo pipefail
corpus=$1
epochs=${2:-5}
seed=${3:-1}
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-/work/.venv/bin/python}

cargo build --quiet --release -p retest-sgns --example sgns_text
bin=$(cd "$here/../../.." && pwd)/target/release/examples/sgns_text

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
