#!/usr/bin/python3
"""A one-rank run pinned to one CPU (instrument/cpu_pinning.hpp), end to end on sweep3d.

    check_cpu_pinning.py SWEEP3D MPIEXEC DECK WORK_DIR

  - a 1-rank run records pinned_cpu = the lowest CPU of the affinity mask it started with
    (os.sched_getaffinity, what `taskset -p` shows), or none when that mask holds one CPU;
  - with that CPU held by another run (the test holds its lock file, in a lock folder of its
    own: SUITE_CPU_LOCK_DIR), the next CPU of the mask;
  - with --no-pin it records none, nor with --threads 2 (one CPU would serialise the threads);
  - started bound to one CPU (the highest of the mask, as `taskset -c` would), it is left
    alone and records none;
  - with --pin-cpu N it records N, for each CPU of the mask, even when started bound to
    another (the launcher's binding replaced); --pin-cpu beside --no-pin, with --threads 2, or
    of a CPU the kernel refuses (1023, where the machine has fewer) is one error line and a
    non-zero exit (at 2 ranks: machine_load.cmake's instrument.pin_cpu_ranks.np2).
The results (the iteration monitor and the flux check lines) are the same pinned or not.
Exit 1 with the first difference.
"""
import fcntl
import os
import subprocess
import sys

import h5py


ENV = dict(os.environ)


def fail(msg):
    print("check_cpu_pinning: " + msg, file=sys.stderr)
    sys.exit(1)


def run(cmd, cpus=None):
    pre = (lambda: os.sched_setaffinity(0, cpus)) if cpus else None
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, preexec_fn=pre, env=ENV)
    if p.returncode != 0:
        fail("%s: exit %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p.stdout


def refused(cmd, expected):
    """cmd exits non-zero with exactly one stderr line, which ends with `expected`."""
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=ENV)
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    if p.returncode == 0 or len(lines) != 1 or not lines[0].endswith(expected):
        fail("%s: expected exit != 0 and one line ending %r; exit %d, stderr:\n%s"
             % (" ".join(cmd), expected, p.returncode, p.stderr))


def pinned_cpu(path):
    with h5py.File(path, "r") as f:
        return int(f.attrs["pinned_cpu"]) if "pinned_cpu" in f.attrs else None


def main():
    if len(sys.argv) != 5:
        fail("usage: check_cpu_pinning.py SWEEP3D MPIEXEC DECK WORK_DIR")
    sweep3d, mpiexec, deck, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    # A lock folder of this test's own: other tests' pinned runs (ctest -j) hold no CPU here.
    locks = os.path.join(work, "cpu-locks")
    os.makedirs(locks, exist_ok=True)
    ENV["SUITE_CPU_LOCK_DIR"] = locks
    mask = sorted(os.sched_getaffinity(0))

    def sweep(name, *extra, cpus=None):
        path = os.path.join(work, name + ".h5")
        out = run([mpiexec, "-n", "1", sweep3d, deck, "--no-machine", "--results", path, *extra], cpus)
        return pinned_cpu(path), out

    got, pinned_out = sweep("default")
    expected = mask[0] if len(mask) > 1 else None
    if got != expected:
        fail("1-rank run with the mask %s: pinned_cpu %r, expected %r" % (mask, got, expected))
    if len(mask) > 1:  # the lowest CPU held by another run: the next one
        with open(os.path.join(locks, "hpc-perfmodel-suite-cpu%d.lock" % mask[0]), "w") as held:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
            got, _ = sweep("lowest_held")
        if got != mask[1]:
            fail("1-rank run with CPU %d held: pinned_cpu %r, expected %r" % (mask[0], got, mask[1]))
    got, free_out = sweep("no_pin", "--no-pin")
    if got is not None:
        fail("1-rank run with --no-pin: pinned_cpu %r, expected none" % got)
    got, _ = sweep("threads", "--threads", "2")
    if got is not None:
        fail("1-rank run with --threads 2: pinned_cpu %r, expected none (one CPU would serialise them)" % got)
    got, _ = sweep("bound", cpus={mask[-1]})
    if got is not None:
        fail("1-rank run bound to CPU %d: pinned_cpu %r, expected none (left alone)" % (mask[-1], got))

    for cpu in mask:  # --pin-cpu: that CPU, bound elsewhere or not
        got, _ = sweep("pin_cpu%d" % cpu, "--pin-cpu", str(cpu))
        if got != cpu:
            fail("1-rank run with --pin-cpu %d: pinned_cpu %r" % (cpu, got))
        got, _ = sweep("pin_cpu%d_bound" % cpu, "--pin-cpu", str(cpu), cpus={mask[0] if cpu != mask[0] else mask[-1]})
        if got != cpu:
            fail("1-rank run bound elsewhere with --pin-cpu %d: pinned_cpu %r" % (cpu, got))
    base = [sweep3d, deck, "--no-machine", "--no-results"]
    refused([mpiexec, "-n", "1", *base, "--pin-cpu", str(mask[0]), "--no-pin"], "--pin-cpu: expected it without --no-pin")
    refused([mpiexec, "-n", "1", *base, "--pin-cpu", str(mask[0]), "--threads", "2"],
            "--pin-cpu: expected one thread (2 asked: one CPU would serialise them)")
    if (os.cpu_count() or 1) <= 1023:  # the option's last CPU, absent here
        refused([mpiexec, "-n", "1", *base, "--pin-cpu", "1023"],
                "--pin-cpu: expected a CPU this process may run on; CPU 1023 is refused (not online, or outside its cpuset)")

    def flux_lines(out):  # the deck's physics, not its timings
        return [ln for ln in out.splitlines() if ln.startswith(" Flux check:") or ln.startswith("  its =")]

    if flux_lines(pinned_out) != flux_lines(free_out) or not flux_lines(pinned_out):
        fail("the flux lines differ pinned and unpinned (or there are none):\n%s\n---\n%s"
             % ("\n".join(flux_lines(pinned_out)), "\n".join(flux_lines(free_out))))
    print("mask %s: pinned to %r by default; none with --no-pin; none when bound to one CPU; --pin-cpu N to N"
          % (mask, expected))


if __name__ == "__main__":
    main()
