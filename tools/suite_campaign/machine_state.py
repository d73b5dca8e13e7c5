"""How busy the machine was around a run, so that the report can mark a run whose timings
others disturbed (busy_others > 0.25 or steal > 0.05, the contract's thresholds).

Sampled before and after the run from /proc: the 1-minute load average (/proc/loadavg), the
machine's CPU time by state (/proc/stat's "cpu" line, in clock ticks) and the CPU time of the
runner's children (getrusage(RUSAGE_CHILDREN): the run and everything it started, once
reaped). Over the run:
  steal       = steal ticks / all ticks (time the hypervisor gave to other guests);
  busy_others = (busy ticks - the run's own CPU time) / all ticks, clipped to [0, 1]: the share
                of the machine's CPU time that other processes used while the run ran.
"""

import os
import resource

TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


def _loadavg():
    try:
        with open("/proc/loadavg") as f:
            return float(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _cpu_ticks():
    """(all, busy, steal) ticks of the machine since boot, or None without /proc/stat."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    # user nice system idle iowait irq softirq steal guest guest_nice; guest is inside user.
    values = [int(v) for v in fields[1:]]
    values += [0] * (10 - len(values))
    total = sum(values[:8])
    idle = values[3] + values[4]
    return total, total - idle - values[7], values[7]


def _children_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Sample:
    """The machine's state at one moment."""

    def __init__(self):
        self.loadavg = _loadavg()
        self.ticks = _cpu_ticks()
        self.children_cpu = _children_cpu_seconds()


# Below this many clock ticks per CPU (0.5 s at 100 Hz) the tick counters cannot tell a
# quiet run from a busy one (one tick of another process is several percent of the interval),
# so steal and busy_others stay None ("unknown"), as the apps' own record does
# (instrument/machine_load.hpp).
MIN_TICKS_PER_CPU = 50


def load_between(before, after, cpus=None):
    """The manifest's "load" record of a run between two samples."""
    record = {"loadavg_before": before.loadavg, "loadavg_after": after.loadavg,
              "steal": None, "busy_others": None}
    cpus = cpus or os.cpu_count() or 1
    if before.ticks and after.ticks:
        total = after.ticks[0] - before.ticks[0]
        if total >= MIN_TICKS_PER_CPU * cpus:
            busy = after.ticks[1] - before.ticks[1]
            own = (after.children_cpu - before.children_cpu) * TICKS_PER_SECOND
            record["steal"] = round((after.ticks[2] - before.ticks[2]) / total, 4)
            record["busy_others"] = round(min(1.0, max(0.0, (busy - own) / total)), 4)
    return record
