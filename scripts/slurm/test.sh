#!/usr/bin/env bash
# Integration test of `retest run --executor slurm` against a real single-node Slurm cluster
# that this script starts (scripts/slurm/start.sh) and stops again.
#
# 1. The smoke pipeline through Slurm (prepare job → training array → aggregation job) gives
#    byte for byte the tables, embeddings and prepared corpus of a local run.
# 2. A training task killed mid-run leaves no output and shows as failed in `retest status`;
#    resubmitting trains that task only, leaves every finished file untouched, and the result
#    equals a local run.
#
# Needs the Debian packages slurmctld, slurmd, slurm-client and munge (.ci/run installs them)
# and root for the daemons (through sudo when run as another user; the jobs run as the caller).
# The daemons are stopped on every exit, failed or not. KEEP=1 keeps the work folder.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$(pwd)"
t0=$(date +%s)

export RETEST_DATA_DIR="${RETEST_DATA_DIR:-$(cd .. && pwd)/shared/data}"
export RETEST_OFFLINE=1
export RETEST_CORPORA_DIR="$root/corpora"
unset RETEST_RESULTS_DIR RETEST_WORDLISTS_DIR
work="$(mktemp -d /tmp/retest-slurm-test.XXXXXX)"
chmod 0755 "$work"
# The cluster's state (munge key and socket, slurm.conf, logs) lives in the work folder too.
export RETEST_SLURM_DIR="$work/daemons"
export RETEST_CACHE_DIR="$work/cache"

passed=0
failed=0
say() { echo "[$(($(date +%s) - t0))s] $*"; }
ok() { passed=$((passed + 1)); say "ok: $*"; }
fail() { failed=$((failed + 1)); say "FAILED: $*"; }
check() { # check DESCRIPTION COMMAND...
  local what="$1"; shift
  if "$@"; then ok "$what"; else fail "$what"; fi
}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo env RETEST_SLURM_DIR="$RETEST_SLURM_DIR" "$@"; fi
}
cleanup() {
  if [ -n "${SLURM_CONF:-}" ]; then
    # Our private cluster: cancel whatever is left, so no job outlives its daemons.
    squeue -h -o '%A' 2>/dev/null | xargs -r scancel 2>/dev/null || true
  fi
  as_root scripts/slurm/stop.sh || true
  if [ "${KEEP:-0}" = 1 ]; then
    echo "work folder kept: $work"
  else
    as_root rm -rf "$work/daemons"
    rm -rf "$work"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cargo build --release --locked -p retest-cli
retest="$root/target/release/retest"
say "built $retest"

eval "$(as_root scripts/slurm/start.sh)"   # exports SLURM_CONF
say "single-node Slurm up: $(sinfo -h -o '%P %a %T %N %c CPUs')"

# Waits until no job is queued or running (at most $1 seconds).
wait_for_queue() {
  local limit="$1" start
  start=$(date +%s)
  while [ -n "$(squeue -h)" ]; do
    if [ $(($(date +%s) - start)) -gt "$limit" ]; then
      squeue
      return 1
    fi
    sleep 0.5
  done
}
# The id of the job submitted for STAGE, from `retest run --executor slurm` output.
job_id() { awk -v s="$1" '$1 == "submitted" && $2 == s { print $4 }' "$2"; }
# The states of a job's tasks, counted: `COMPLETED:6`, `COMPLETED:3 CANCELLED:1`.
job_state() {
  scontrol show job "$1" -o | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | sort | uniq -c \
    | awk '{ printf "%s%s:%s", (NR > 1 ? " " : ""), $2, $1 }'
}
same_files() { # same_files DIR_A DIR_B PATTERN: same relative file list, byte-identical
  # (training times, seed-NN.timing.json, differ from run to run and are left out)
  local a="$1" b="$2" pattern="$3"
  local la lb
  la="$(cd "$a" && find . -type f -path "$pattern" ! -name '*.timing.json' | sort)"
  lb="$(cd "$b" && find . -type f -path "$pattern" ! -name '*.timing.json' | sort)"
  if [ -z "$la" ] || [ "$la" != "$lb" ]; then
    echo "file lists differ under $a and $b ($pattern):"; diff <(echo "$la") <(echo "$lb") || true
    return 1
  fi
  local f
  while read -r f; do cmp "$a/$f" "$b/$f" || return 1; done <<<"$la"
}

# ---------------------------------------------------------------------------------------------
say "1. smoke: local run"
local_rc=0
"$retest" --results "$work/local" run smoke -j 2 >"$work/local.out" 2>&1 || local_rc=$?
say "local run exited $local_rc"

say "1. smoke: Slurm run (prepare job, training array, aggregation job)"
"$retest" --results "$work/slurm" run smoke --executor slurm --max-parallel 2 --mem 1G --time 10:00 \
  --sbatch-arg='--comment=smoke "#1" \ test' | tee "$work/submit1.out"
prepare_id="$(job_id prepare "$work/submit1.out")"
train_id="$(job_id train "$work/submit1.out")"
aggregate_id="$(job_id aggregate "$work/submit1.out")"
check "three jobs submitted" test -n "$prepare_id" -a -n "$train_id" -a -n "$aggregate_id"
check "sbatch scripts written" test -s "$work/slurm/smoke/slurm/prepare.sbatch" \
  -a -s "$work/slurm/smoke/slurm/train.sbatch" -a -s "$work/slurm/smoke/slurm/aggregate.sbatch"
check "training script: array of 6 tasks, 2 at a time" grep -qx '#SBATCH --array=0-5%2' \
  "$work/slurm/smoke/slurm/train.sbatch"
check "training array depends on the prepare job" \
  grep -q "^submitted train .*after prepare job $prepare_id succeeds" "$work/submit1.out"
check "aggregation job depends on the training array" \
  grep -q "^submitted aggregate .*after train job $train_id succeeds" "$work/submit1.out"
check "--sbatch-arg reaches sbatch as one argument" \
  grep -qF 'Comment=smoke "#1" \ test' <(scontrol show job "$prepare_id")
check "squeue and sacct hints printed" grep -q "squeue -j $prepare_id,$train_id,$aggregate_id" "$work/submit1.out"
check "jobs finished within 5 min" wait_for_queue 300
say "states: prepare $(job_state "$prepare_id"); train $(job_state "$train_id"); aggregate $(job_state "$aggregate_id")"
check "prepare job completed" test "$(job_state "$prepare_id")" = COMPLETED:1
check "all 6 training tasks completed" test "$(job_state "$train_id")" = COMPLETED:6
check "local run succeeded" test "$local_rc" = 0
check "aggregation job completed" test "$(job_state "$aggregate_id")" = COMPLETED:1
check "embeddings identical to the local run" same_files "$work/local" "$work/slurm" "./embeddings/*"
check "prepared corpus and co-occurrences identical" same_files "$work/local/corpora" "$work/slurm/corpora" "*"
check "tables identical to the local run" same_files "$work/local/smoke" "$work/slurm/smoke" "./tables/*"
check "per-configuration measure tables identical" same_files "$work/local/smoke" "$work/slurm/smoke" "./measure/*.parquet"
"$retest" --results "$work/slurm" status smoke >"$work/status1.out"
cat "$work/status1.out"
check "status: every training done" grep -Eq '^  train +6/6 done$' "$work/status1.out"
check "status: every job done" grep -Eq '^  all jobs +12/12 done$' "$work/status1.out"

# ---------------------------------------------------------------------------------------------
say "2. kill a training task mid-run, resubmit"
mkdir -p "$work/pipelines"
# Four SGNS seeds of a few seconds each, so that a task can be caught running.
awk '/^glove:/ { skip = 1; next } skip && /^  / { next } { skip = 0; print }' pipelines/smoke.yaml \
  | sed -e 's/^name: smoke/name: slurm-kill/' -e 's/^n_seeds: 3/n_seeds: 4/' \
    -e 's/^algorithms: .*/algorithms: [sgns]/' -e 's/^  epochs: 2$/  epochs: 40/' \
  >"$work/pipelines/slurm-kill.yaml"
export RETEST_WORDLISTS_DIR="$root/wordlists"
kill_pipeline="$work/pipelines/slurm-kill.yaml"
"$retest" --results "$work/kill" run "$kill_pipeline" --executor slurm --prepare-locally --max-parallel 2 \
  --mem 1G | tee "$work/submit2.out"
train_id="$(job_id train "$work/submit2.out")"
check "no second submission while jobs are queued" \
  bash -c '! "$@" >/dev/null 2>"$0" && grep -q "still queued or running" "$0"' "$work/submit-twice.err" \
  "$retest" --results "$work/kill" run "$kill_pipeline" --executor slurm
check "prepared locally: no prepare job" test -z "$(job_id prepare "$work/submit2.out")"
victim=3
start=$(date +%s)
until squeue -h -r -t R -o '%i' | grep -qx "${train_id}_$victim"; do
  if [ $(($(date +%s) - start)) -gt 120 ]; then squeue -r; break; fi
  sleep 0.2
done
sleep 1
scancel "${train_id}_$victim"
say "cancelled task ${train_id}_$victim"
check "jobs finished within 3 min" wait_for_queue 180
seeds="$work/kill/embeddings/wikitext-103-valid"
check "killed task left no output" test -z "$(find "$seeds" -name "seed-0$victim.fifu")"
check "killed task left no partial file" test -z "$(find "$seeds" -name '*.tmp' -o -name '*.partial')"
check "the other tasks finished" test "$(find "$seeds" -name 'seed-*.fifu' | wc -l)" = 3
"$retest" --results "$work/kill" status "$kill_pipeline" >"$work/status2.out"
cat "$work/status2.out"
check "status: killed task failed, with its log" \
  grep -q "last attempt failed: .*retest-slurm-kill-train-${train_id}_$victim.out" "$work/status2.out"
check "status: summary names the task to rerun" \
  grep -Eq "^  train +3/4 done, 1 failed; array tasks to rerun: $victim\$" "$work/status2.out"
before="$(cd "$seeds" && find . -name 'seed-*.fifu' -exec stat -c '%n %i %Y' {} + | sort)"

"$retest" --results "$work/kill" run "$kill_pipeline" --executor slurm --max-parallel 2 --mem 1G \
  | tee "$work/submit3.out"
retrain_id="$(job_id train "$work/submit3.out")"
aggregate_id="$(job_id aggregate "$work/submit3.out")"
check "resubmission: one task to run" grep -q "4 training jobs, 1 to run" "$work/submit3.out"
check "resubmission: no prepare job" test -z "$(job_id prepare "$work/submit3.out")"
check "resubmission: array of the missing task only" grep -q "array $victim%2" "$work/submit3.out"
check "jobs finished within 3 min" wait_for_queue 180
check "resubmitted task completed" test "$(job_state "$retrain_id")" = COMPLETED:1
check "only the missing task ran" test "$(cd "$work/kill/slurm-kill/slurm/logs" && ls retest-slurm-kill-train-"$retrain_id"_*)" \
  = "retest-slurm-kill-train-${retrain_id}_$victim.out"
after="$(cd "$seeds" && find . -name 'seed-*.fifu' ! -name "seed-0$victim.fifu" -exec stat -c '%n %i %Y' {} + | sort)"
check "finished files untouched (inode, mtime)" test "$before" = "$after"
check "aggregation job after resubmission completed" test "$(job_state "$aggregate_id")" = COMPLETED:1
"$retest" --results "$work/local-kill" run "$kill_pipeline" -j 2 >"$work/local-kill.out" 2>&1
check "every seed identical to a local run" same_files "$work/local-kill" "$work/kill" "./embeddings/*"
check "tables identical to a local run" same_files "$work/local-kill/slurm-kill" "$work/kill/slurm-kill" "./tables/*"
"$retest" --results "$work/kill" status "$kill_pipeline" >"$work/status3.out"
cat "$work/status3.out"
check "status: every training done" grep -Eq '^  train +4/4 done$' "$work/status3.out"
check "status: every job done" grep -Eq '^  all jobs +8/8 done$' "$work/status3.out"

say "slurm integration test took $(($(date +%s) - t0)) s"
echo "slurm: $passed passed, $failed failed"
[ "$failed" = 0 ]
