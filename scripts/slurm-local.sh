#!/usr/bin/env bash
# Starts or stops a private one-node Slurm (MUNGE + slurmctld + slurmd) on this machine, for the
# campaign runner's Slurm tests and for trying the Slurm backend without a cluster.
#
#   scripts/slurm-local.sh start DIR   writes DIR/slurm.conf, starts munged, slurmctld and slurmd
#                                      with all their state, logs and sockets under DIR, waits
#                                      until the node is idle, prints DIR/slurm.conf's path
#   scripts/slurm-local.sh stop DIR    cancels the jobs left, stops the three daemons
#
# Clients (sbatch, squeue, scontrol, scancel) reach this Slurm with SLURM_CONF=DIR/slurm.conf.
# Nothing under /etc or /run is touched and no systemd is needed, so it runs in containers and
# CI runners beside (not instead of) any Slurm the machine has: its own MUNGE key and socket,
# its own free ports. The node is this host with its real CPU count; process tracking is
# proctrack/linuxproc and task/none because cgroups are often missing or read-only there.
# The daemons run as root (slurmd must start jobs as their owner): run as root or with sudo.
set -euo pipefail
source "$(dirname "$0")/usage.sh"
script_help "$0" "$@"

die() { echo "slurm-local: error: $*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: slurm-local.sh start|stop DIR"
action=$1
dir=$2

if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    exec sudo -n "$0" "$@"
  fi
  die "the Slurm daemons must run as root (slurmd starts jobs as their user): run as root or with passwordless sudo"
fi

# Kills the daemon whose pid is in FILE and waits for it to go (SIGKILL after 10 s).
stop_pidfile() {
  local file=$1 pid
  [ -s "$file" ] || return 0
  pid=$(cat "$file")
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$file"
}

stop_all() {
  local d=$1
  if [ -f "$d/slurm.conf" ] && [ -s "$d/run/slurmctld.pid" ] && kill -0 "$(cat "$d/run/slurmctld.pid")" 2>/dev/null; then
    # Jobs first, so that no slurmstepd or job process outlives the daemons.
    # Every user's: under sudo the jobs are the caller's, not root's.
    local jobs
    jobs=$(SLURM_CONF="$d/slurm.conf" timeout 10 squeue -h -o %i 2>/dev/null || true)
    if [ -n "$jobs" ]; then
      # shellcheck disable=SC2086  # one job id a word
      SLURM_CONF="$d/slurm.conf" timeout 10 scancel --quiet $jobs 2>/dev/null || true
    fi
    for _ in $(seq 50); do
      [ -z "$(SLURM_CONF="$d/slurm.conf" timeout 5 squeue -h -t all -o %i 2>/dev/null | head -1)" ] && break
      [ -z "$(SLURM_CONF="$d/slurm.conf" timeout 5 squeue -h -o %i 2>/dev/null)" ] && break
      sleep 0.2
    done
  fi
  stop_pidfile "$d/run/slurmd.pid"
  stop_pidfile "$d/run/slurmctld.pid"
  stop_pidfile "$d/run/munged.pid"
}

# Two free TCP ports, from the kernel (bind to port 0).
free_ports() {
  /usr/bin/python3 - <<'EOF'
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))
EOF
}

case $action in
  stop)
    [ -d "$dir" ] || exit 0
    stop_all "$(cd "$dir" && pwd)"
    exit 0
    ;;
  start) ;;
  *) die "unknown action '$action' (expected start or stop)" ;;
esac

for p in munged slurmctld slurmd sinfo; do
  command -v "$p" >/dev/null || die "$p not found: install Debian's slurm-wlm and munge (scripts/install-deps.sh)"
done

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
stop_all "$dir"   # a previous start in the same directory
mkdir -p "$dir/munge" "$dir/run" "$dir/log" "$dir/state" "$dir/spool"
chmod 0700 "$dir/munge"

# MUNGE: a fresh key, its own socket. --force: the temp directory's parents are world-writable
# (/tmp), which munged otherwise refuses.
key="$dir/munge/munge.key"
[ -s "$key" ] || { dd if=/dev/urandom of="$key" bs=1024 count=1 status=none; chmod 0400 "$key"; }
socket="$dir/munge/munge.socket"
munged --force --key-file="$key" --socket="$socket" --pid-file="$dir/run/munged.pid" \
       --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed" \
  || die "munged did not start: $(tail -3 "$dir/log/munged.log" 2>/dev/null | tr '\n' ' ')"

# The node as slurmd sees it (CPUs, sockets, cores, threads, memory), under this host's name.
host=$(hostname -s)
node=$(slurmd -C | head -1) || die "slurmd -C failed: cannot read this machine's hardware"
[[ $node == NodeName=* ]] || die "slurmd -C printed '$node', expected a NodeName= line"
node=$(sed "s/^NodeName=[^ ]*/NodeName=$host/" <<<"$node")
read -r ctld_port slurmd_port < <(free_ports)

cat >"$dir/slurm.conf" <<EOF
# Written by scripts/slurm-local.sh: a private one-node Slurm, everything under $dir.
ClusterName=suite-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MinJobAge=600
KillWait=5
InactiveLimit=0
SlurmdTimeout=60
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$SLURM_CONF" -i \
  || die "slurmctld did not start: $(tail -3 "$dir/log/slurmctld.log" 2>/dev/null | tr '\n' ' ')"
slurmd -f "$SLURM_CONF" -N "$host" \
  || die "slurmd did not start: $(tail -3 "$dir/log/slurmd.log" 2>/dev/null | tr '\n' ' ')"

# Ready when the node takes jobs: idle (or mixed/allocated if something was already queued).
state=""
for _ in $(seq 300); do
  state=$(sinfo -h -n "$host" -o %t 2>/dev/null | head -1 || true)
  case $state in idle|mix|alloc) echo "$SLURM_CONF"; exit 0 ;; esac
  sleep 0.2
done
logs="slurmctld: $(tail -2 "$dir/log/slurmctld.log" 2>/dev/null | tr '\n' ' ') slurmd: $(tail -2 "$dir/log/slurmd.log" 2>/dev/null | tr '\n' ' ')"
stop_all "$dir"
die "node $host not idle after 60 s (state '${state:-none}'): $logs"
