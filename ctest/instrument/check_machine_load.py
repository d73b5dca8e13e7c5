#!/usr/bin/python3
"""The machine's load during a run (instrument/machine_load.hpp), end to end on sweep3d.

    check_machine_load.py busy|busy_short|idle|beside SWEEP3D REPLAY MPIEXEC DECK MACHINE WORK_DIR

busy: while one spinning process per CPU loads the machine, a traced 2-rank sweep3d run with
      a machine file (so it prints the measured-vs-modelled table) must record
      machine_load = "busy" with others > 0.25, print the line
      `machine: busy during this run (others used N% of the CPUs, steal S%[, some task waited
      for a CPU W% of the time]): the measured-vs-modelled comparison is unreliable` once,
      under the table, mark /compare reliable = 0 with that line, and instrument-replay --self
      of the run must print the same line just above its last line.
busy_short: the same with the deck's own 12 iterations (~0.2 s: too short for /proc/stat's
      jiffies): where the kernel keeps /proc/pressure/cpu, busy by machine_load_cpu_wait > 0.3
      alone, with the line and reliable = 0 as above; without it, unknown.
idle: the same run with nothing started beside it. The machine is shared (other builds and
      tests run meanwhile), so "idle" cannot be asserted; what is checked is that the record
      is consistent: a state of busy, idle or unknown; known figures in range
      (0 <= others <= 1, steal >= 0; NaN only when unknown); the line printed if and only if
      the state is busy, and /compare reliable = 0 if and only if busy or marked by the host's
      lines alone (cpus:, speed:). A 2-rank run is not pinned (no pinned_cpu).
beside: a 1-rank run on the lowest CPU with one spinning process pinned to each other CPU:
      with --beside N (N the other CPUs: companions on purpose) others < 0.25, not busy, and
      the detail names the companions; without it, busy (others > 0.25).
Exit 1 with the first difference.
"""
import math
import os
import re
import subprocess
import sys
import time

import h5py

LINE = re.compile(r"^machine: busy during this run \((others used [0-9]+% of the CPUs, steal [0-9]+\.[0-9]%)?"
                  r"(, )?(some task waited for a CPU [0-9]+% of the time)?\): "
                  r"the measured-vs-modelled comparison is unreliable$")


# The marks of the host's doing, not the load's, which any run may carry beside the load's line:
# a rank's CPU slower than another's (uneven_cpus.hpp) or a CPU that changed speed during the
# run (speed_check.hpp).
HOST_LINES = ("cpus: ", "speed: ")


def fail(msg):
    print("check_machine_load: " + msg, file=sys.stderr)
    sys.exit(1)


def text(v):
    return v.decode() if isinstance(v, bytes) else v


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        fail("%s: exit %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p.stdout


def long_deck(deck, work):
    """The deck with 60 iterations instead of its 12: about a second at 2 ranks on an idle
    2-vCPU VM, long enough for /proc/stat's jiffies to tell (machine_load.hpp: 50 per CPU)."""
    with open(deck) as f:
        lines = f.read().split("\n")
    words = lines[2].split()
    if len(words) != 4 or not words[3].startswith("-"):
        fail("%s: line 3 is not 'dx dy dz -iterations': %r" % (deck, lines[2]))
    lines[2] = " ".join(words[:3] + ["-60.0"])
    path = os.path.join(work, "deck60")
    with open(path, "w") as f:
        f.write("\n".join(lines))
    return path


def run_sweep3d(sweep3d, mpiexec, deck, machine, results):
    return run([mpiexec, "-n", "2", sweep3d, deck, "--grid", "1x2", "--mk", "10", "--mmi", "3",
                "--machine", machine, "--trace", "600000", "--results", results])


def recorded(path):
    with h5py.File(path, "r") as f:
        a = f.attrs
        load = {k: a[k] for k in ("machine_load", "machine_load_others", "machine_load_steal",
                                  "machine_load_cpu_wait", "machine_load_detail") if k in a}
        compare = dict(f["compare"].attrs)
        return load, compare, ("pinned_cpu" in a)


def busy_lines(stdout):
    return [ln for ln in stdout.splitlines() if ln.startswith("machine: busy")]


def expected_line(load):
    """The busy line from the recorded figures, a NaN one left out (machine_load.hpp)."""
    parts = []
    others, steal = float(load["machine_load_others"]), float(load["machine_load_steal"])
    wait = float(load.get("machine_load_cpu_wait", float("nan")))
    if not math.isnan(others):
        parts.append("others used %.0f%% of the CPUs" % (100 * others))
    if not math.isnan(steal):
        parts.append("steal %.1f%%" % (100 * steal))
    if not math.isnan(wait):
        parts.append("some task waited for a CPU %.0f%% of the time" % (100 * wait))
    return "machine: busy during this run (%s): the measured-vs-modelled comparison is unreliable" % ", ".join(parts)


def run_beside_spinners(sweep3d, mpiexec, deck, machine, results):
    spinners = []
    try:
        for _ in range(os.cpu_count() or 2):
            spinners.append(subprocess.Popen([sys.executable, "-c", "while True: pass"]))
        time.sleep(0.5)
        return run_sweep3d(sweep3d, mpiexec, deck, machine, results)
    finally:
        for s in spinners:
            s.kill()
        for s in spinners:
            s.wait()


def check_line_and_replay(case, out, load, compare, replay, results):
    lines = busy_lines(out)
    if len(lines) != 1 or not LINE.match(lines[0]):
        fail("%s run: expected one line matching %s on stdout, found %r" % (case, LINE.pattern, lines))
    if lines[0] != expected_line(load):
        fail("%s run: the line %r does not give the recorded figures (%r)" % (case, lines[0], expected_line(load)))
    table = out.find("Measured vs modelled")
    if table < 0 or out.find(lines[0]) < table:
        fail("%s run: the line is not under the measured-vs-modelled table" % case)
    # The busy line first; the spinners may also slow one rank more than the other, which the
    # uneven-CPU line under it says (instrument/uneven_cpus.hpp).
    because = text(compare.get("unreliable_because")).split("\n")
    if int(compare.get("reliable", -1)) != 0 or because[0] != lines[0] or \
            not all(line.startswith(HOST_LINES) for line in because[1:]):
        fail("%s run: /compare attributes %r, expected reliable = 0 and the line (then any cpus: or speed: line)"
             % (case, compare))
    replayed = run([replay, results, "--self"]).splitlines()
    if len(replayed) < 2 or replayed[-2] != lines[0] or not replayed[-1].startswith("replay T_total"):
        fail("instrument-replay --self: expected the busy line just above its last line, got:\n"
             + "\n".join(replayed[-4:]))


def check_busy_short(sweep3d, replay, mpiexec, deck, machine, work):
    results = os.path.join(work, "busy_short.h5")
    out = run_beside_spinners(sweep3d, mpiexec, deck, machine, results)
    load, compare, _ = recorded(results)
    state = text(load.get("machine_load"))
    wait = float(load.get("machine_load_cpu_wait", float("nan")))
    if not os.path.exists("/proc/pressure/cpu"):
        # No pressure: unknown, or busy by /proc/stat if the spinners slowed the run past the
        # jiffies' half second a CPU.
        others = float(load.get("machine_load_others", float("nan")))
        if not math.isnan(wait) or state not in ("unknown", "busy") or (state == "busy" and not others > 0.25):
            fail("short busy run without /proc/pressure/cpu: state %r, others %r, cpu_wait %r; expected "
                 "cpu_wait NaN and unknown, or busy by others" % (state, others, wait))
        print("busy_short: no /proc/pressure/cpu here: %s, cpu_wait NaN" % state)
        return
    if state != "busy" or not wait > 0.3:
        fail("short busy run: machine_load = %r, cpu_wait %r (%s); expected busy with cpu_wait > 0.3"
             % (state, wait, text(load.get("machine_load_detail"))))
    detail = text(load.get("machine_load_detail"))
    others = float(load.get("machine_load_others", float("nan")))
    if "too short" in detail and not math.isnan(others):
        fail("short busy run: busy by cpu_wait alone, yet others %r recorded from too few jiffies" % others)
    check_line_and_replay("short busy", out, load, compare, replay, results)
    print("busy_short: cpu_wait %.0f%% (%s); line printed, /compare reliable = 0, replay says so"
          % (100 * wait, text(load.get("machine_load_detail"))))


def check_busy(sweep3d, replay, mpiexec, deck, machine, work):
    results = os.path.join(work, "busy.h5")
    out = run_beside_spinners(sweep3d, mpiexec, deck, machine, results)
    load, compare, _ = recorded(results)
    state = text(load.get("machine_load"))
    if state != "busy":
        fail("busy run: machine_load = %r (%s), expected busy; detail: %s"
             % (state, load, text(load.get("machine_load_detail"))))
    others, steal = float(load["machine_load_others"]), float(load["machine_load_steal"])
    if not (others > 0.25 or steal > 0.05):
        fail("busy run: others %.3f, steal %.3f: neither past its threshold" % (others, steal))
    if not 0.0 <= others <= 1.0 or not 0.0 <= steal <= 1.0:
        fail("busy run: others %.3f, steal %.3f: expected fractions" % (others, steal))
    check_line_and_replay("busy", out, load, compare, replay, results)
    print("busy: others %.1f%%, steal %.1f%%; line printed, /compare reliable = 0, replay says so"
          % (100 * others, 100 * steal))


def check_beside(sweep3d, mpiexec, deck, machine, work):
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        fail("beside: one CPU in the affinity mask: no companion can run beside the run")
    results = {}
    spinners = []
    try:
        for cpu in cpus[1:]:
            spinners.append(subprocess.Popen(["taskset", "-c", str(cpu), sys.executable, "-c", "while True: pass"]))
        time.sleep(0.5)
        for name, extra in (("told", ["--beside", str(len(cpus) - 1)]), ("not_told", [])):
            path = os.path.join(work, name + ".h5")
            run([mpiexec, "-n", "1", sweep3d, deck, "--mk", "10", "--mmi", "3", "--machine", machine,
                 "--results", path] + extra)
            results[name] = recorded(path)[0]
    finally:
        for s in spinners:
            s.kill()
        for s in spinners:
            s.wait()
    told, not_told = results["told"], results["not_told"]
    # The spinners' share of the node's CPUs (/proc/stat counts every CPU, the mask's or not).
    share = (len(cpus) - 1) / float(os.cpu_count() or len(cpus))
    o_told, o_not = float(told["machine_load_others"]), float(not_told["machine_load_others"])
    if text(told.get("machine_load")) != "idle" or not o_told < 0.25:
        fail("beside: with --beside the run reads %s (others %r): expected idle, the companions' CPUs its own; %s"
             % (text(told.get("machine_load")), o_told, text(told.get("machine_load_detail"))))
    if "beside it on purpose (--beside), counted as its own" not in text(told["machine_load_detail"]):
        fail("beside: the detail does not name the companions: %s" % text(told["machine_load_detail"]))
    if not o_not > 0.6 * share or not o_told < o_not - 0.6 * share:
        fail("beside: others %.3f told, %.3f not told, the spinners' share %.3f: expected the told run's "
             "lower by about that share" % (o_told, o_not, share))
    print("beside: others %.2f told, %.2f not told" % (float(told["machine_load_others"]),
                                                       float(not_told["machine_load_others"])))


def check_idle(sweep3d, mpiexec, deck, machine, work):
    results = os.path.join(work, "idle.h5")
    out = run_sweep3d(sweep3d, mpiexec, deck, machine, results)
    load, compare, pinned = recorded(results)
    state = text(load.get("machine_load"))
    if state not in ("busy", "idle", "unknown"):
        fail("idle run: machine_load = %r, expected busy, idle or unknown" % state)
    others, steal = float(load["machine_load_others"]), float(load["machine_load_steal"])
    if state != "unknown" and not (0.0 <= others <= 1.0 and 0.0 <= steal <= 1.0):
        fail("idle run: state %s with others %r, steal %r: expected fractions" % (state, others, steal))
    if state == "unknown" and not (math.isnan(others) or 0.0 <= others <= 1.0):
        fail("idle run: unknown with others %r: expected NaN or a fraction" % others)
    lines = busy_lines(out)
    if (state == "busy") != (len(lines) == 1) or len(lines) > 1:
        fail("idle run: state %s but %d busy lines on stdout" % (state, len(lines)))
    # Not busy: reliable, unless the run saw one rank's CPU slower than the other's, or a CPU
    # change speed during the run (uneven_cpus.hpp, speed_check.hpp: the host's doing, not the
    # load's), said by cpus: and speed: lines only.
    because = [ln for ln in (text(compare.get("unreliable_because")) or "").split("\n") if ln]
    uneven_only = bool(because) and all(ln.startswith(HOST_LINES) for ln in because)
    if state == "busy" and int(compare.get("reliable", -1)) != 0:
        fail("idle run: state busy but /compare reliable = %r" % compare.get("reliable"))
    if state != "busy" and int(compare.get("reliable", -1)) != (0 if uneven_only else 1):
        fail("idle run: state %s but /compare reliable = %r, because %r"
             % (state, compare.get("reliable"), because))
    if pinned:
        fail("idle run: a 2-rank run records pinned_cpu; expected none")
    print("idle: state %s, others %s, steal %s (%s)" % (state, others, steal, text(load["machine_load_detail"])))


def main():
    if len(sys.argv) != 8 or sys.argv[1] not in ("busy", "busy_short", "idle", "beside"):
        fail("usage: check_machine_load.py busy|busy_short|idle|beside SWEEP3D REPLAY MPIEXEC DECK MACHINE WORK_DIR")
    case, sweep3d, replay, mpiexec, deck, machine, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    if case == "busy_short":
        check_busy_short(sweep3d, replay, mpiexec, deck, machine, work)
        return
    deck = long_deck(deck, work)
    if case == "busy":
        check_busy(sweep3d, replay, mpiexec, deck, machine, work)
    elif case == "beside":
        check_beside(sweep3d, mpiexec, deck, machine, work)
    else:
        check_idle(sweep3d, mpiexec, deck, machine, work)


if __name__ == "__main__":
    main()
