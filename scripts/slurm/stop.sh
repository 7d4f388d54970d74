#!/usr/bin/env bash
# Stops the single-node Slurm cluster started by start.sh (slurmd, slurmctld, munged), by the
# process ids in its state folder, and waits for them to exit.
set -uo pipefail

dir="${RETEST_SLURM_DIR:-/run/retest-slurm}"
for pidfile in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munge/munged.pid"; do
  [ -f "$pidfile" ] || continue
  pid="$(cat "$pidfile")"
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    for _ in $(seq 1 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    if kill -0 "$pid" 2>/dev/null; then
      kill -9 "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$pidfile"
done
