#!/usr/bin/env bash
# Starts a single-node Slurm cluster on this machine, for tests and trying the Slurm executor:
# munged, slurmctld and slurmd run as background daemons (no systemd needed, works in a
# container) with every file they use under one state folder. Installs nothing: it needs the
# Debian packages slurmctld, slurmd, slurm-client and munge, and root.
#
#   scripts/slurm/start.sh            # prints the SLURM_CONF line clients need
#   export SLURM_CONF=/run/retest-slurm/slurm.conf
#   sinfo; sbatch …; squeue
#   scripts/slurm/stop.sh
#
# RETEST_SLURM_DIR moves the state folder (default /run/retest-slurm). The node gets this
# machine's host name, CPUs and memory (from `slurmd -C`); its one partition is `debug`.
set -euo pipefail

dir="${RETEST_SLURM_DIR:-/run/retest-slurm}"
for tool in munged slurmctld slurmd sinfo; do
  if ! command -v "$tool" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$tool" ]; then
    echo "start.sh: $tool not found: apt-get install -y slurmctld slurmd slurm-client munge" >&2
    exit 1
  fi
done
if [ "$(id -u)" -ne 0 ]; then
  echo "start.sh: must run as root (the daemons switch users and write their state)" >&2
  exit 1
fi
if [ -f "$dir/slurmctld.pid" ] && kill -0 "$(cat "$dir/slurmctld.pid")" 2>/dev/null; then
  echo "start.sh: a cluster from $dir is running; stop it first: scripts/slurm/stop.sh" >&2
  exit 1
fi

rm -rf "$dir"
mkdir -p "$dir"/{munge,state,spool,log}
chmod 0755 "$dir"
host="$(hostname -s)"

# munge: a fresh key, socket and logs of our own.
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chown -R munge:munge "$dir/munge"
chmod 0755 "$dir/munge"
chmod 0400 "$dir/munge/munge.key"
socket="$dir/munge/munge.socket"
su -s /bin/sh munge -c "/usr/sbin/munged --key-file=$dir/munge/munge.key --socket=$socket \
  --pid-file=$dir/munge/munged.pid --log-file=$dir/munge/munged.log --seed-file=$dir/munge/munged.seed"

node="$(/usr/sbin/slurmd -C | head -n1)"   # NodeName=<host> CPUs=… RealMemory=…
cat > "$dir/slurm.conf" <<CONF
ClusterName=retest
# Loopback addresses: the node's host name need not resolve (containers, CI machines).
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
MpiDefault=none
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
# cgroup plugins need systemd or a writable cgroup tree: track processes by their parent.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=1024
ReturnToService=2
KillWait=5
MinJobAge=600
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"

/usr/sbin/slurmctld -f "$SLURM_CONF"
/usr/sbin/slurmd -f "$SLURM_CONF"

for _ in $(seq 1 60); do
  state="$(sinfo -h -o '%T' 2>/dev/null | head -n1 || true)"
  if [ "$state" = "idle" ]; then
    echo "export SLURM_CONF=$SLURM_CONF"
    exit 0
  fi
  sleep 1
done
echo "start.sh: the node did not become idle within 60 s (state: ${state:-none}); logs in $dir/log" >&2
tail -n 20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
exit 1
