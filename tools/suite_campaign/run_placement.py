"""Whether a predicted run had the placement of CPUs its probe measured (issue 39).

On a virtual machine the host decides which cores the guest's vCPUs run on, and within a
node a small BSP superstep is a few cache lines passed between the processes' cores: on the
2-vCPU AMD EPYC guest the round trip of a line was 60-80, 130-160 or 500-580 ns by placement,
and a small superstep's cost moved 2-3x with it (instrument/include/instrument/
core_round_trip.hpp). The probes name the placement their figures are true of in the machine
file: bspprobe bsp.core_round_trip_seconds, loggps-probe loggp.core_round_trip_seconds. A run
records its own: a profiled bsplib run in its profile (`# core_round_trip_seconds = a b`, at
bsp_begin and bsp_end, the file BSP_PROFILE names); multigrid in its results file's
/multigrid/core_round_trip (the same two: what this reader takes for multigrid; its own table
checks the pair below, taken a little earlier and later); sweep3d, tycho and multigrid at their
start and at gather_results in the results file's root attributes core_round_trip_start and
core_round_trip_end. A run whose round trip is more
than SAME_PLACEMENT_RATIO from the probe's ran at another placement: its comparison says more
of the host than of the model, and the report marks it unreliable, as it does a busy run.

placement_ratio is instrument::placement_ratio (bspmodel's): the largest of run/probe and probe/run over the
run's samples; None (unknown, never "other") when the probe or the run measured none (p = 1,
more processes than CPUs, a probe written before it was kept) or a record cannot be read.
"""
import math
import os
import stat

import suite_inputs as si

from . import bsp_machine_file
from .results import NotOurs, Reader, ReaderBug, open_results, read_in_child

SAME_PLACEMENT_RATIO = 1.5  # bspmodel::kSamePlacementRatio
PROBE_KEYS = {"bspprobe": "bsp.core_round_trip_seconds",    # the machine file's key, by probe
              "loggps-probe": "loggp.core_round_trip_seconds"}
PROFILE_LINE = "# core_round_trip_seconds ="
PROFILE_HEAD_BYTES = 4096   # the format line and the round trip come before the header
MAX_SAMPLES = 8             # as the C++ profile reader (profile_table.cpp)
RESULTS_DATASET = "core_round_trip"  # /<app>/core_round_trip of a results file, seconds
RESULTS_ATTRIBUTES = ("core_round_trip_start", "core_round_trip_end")  # the root's, seconds
# loggps-probe's samples where its CPUs moved while it ran (instrument::kMovedKey): its file then
# names no round trip, its parameters being of no one placement ("135 ns, 514 ns").
MOVED_KEY = "probe.core_round_trip_moved"

SAME, OTHER, UNKNOWN = "same", "other", "unknown"


def placement_ratio(probe_seconds, run_seconds):
    """max(run/probe, probe/run) over the run's samples; None when either is unknown (no
    probe figure > 0, no sample, a sample not > 0)."""
    if probe_seconds is None or not probe_seconds > 0 or not run_seconds:
        return None
    worst = 0.0
    for rt in run_seconds:
        if rt is None or not rt > 0:
            return None
        worst = max(worst, rt / probe_seconds, probe_seconds / rt)
    return worst


def placement_of(ratio):
    """"same", "other" or "unknown" of a placement_ratio."""
    if ratio is None:
        return UNKNOWN
    return SAME if ratio <= SAME_PLACEMENT_RATIO else OTHER


def _seconds(text):
    try:
        v = float(text)
    except ValueError:
        return None
    return v if math.isfinite(v) and 0 < v <= 1 else None


def probe_round_trip(machine_path, key=PROBE_KEYS["bspprobe"]):
    """The round trip a machine file names under key; None when absent or unreadable."""
    try:
        entries = bsp_machine_file.read_entries(machine_path)
    except si.Refusal:
        return None
    value = entries.get(key)
    return _seconds(value[0]) if value else None


def probe_moved(machine_path):
    """The samples a probe's file lists where its CPUs moved while it ran ("135 ns, 514 ns");
    None when it lists none or cannot be read."""
    try:
        entries = bsp_machine_file.read_entries(machine_path)
    except si.Refusal:
        return None
    value = entries.get(MOVED_KEY)
    return value[0] if value else None


def profile_round_trips(path):
    """The samples of a bsplib profile's `# core_round_trip_seconds = a b` line ([] when it
    has none, or is not a readable regular file, or the line is not 1-8 numbers in (0, 1] s)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except OSError:
        return []
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return []
        head = os.read(fd, PROFILE_HEAD_BYTES).decode("utf-8", "replace")
    except OSError:
        return []
    finally:
        os.close(fd)
    for line in head.splitlines():
        if not line.startswith("#"):
            break  # the header: the round trip line comes before it
        if line.startswith(PROFILE_LINE):
            values = [_seconds(t) for t in line[len(PROFILE_LINE):].split()]
            if 1 <= len(values) <= MAX_SAMPLES and None not in values:
                return values
            return []
    return []


def _results_round_trips_here(path):
    """/<app>/core_round_trip of a results file, else its root attributes core_round_trip_start
    and _end (those present), in the reading child: 1-8 seconds > 0."""
    h5py, f = open_results(path)
    with f:
        rd = Reader(h5py, f, path)
        app = rd.attribute(f, "/", "app", "string", required=False)
        d = None
        if app and "/" not in app and rd.child(app, h5py.Group, required=False) is not None:
            d = rd.child(f"{app}/{RESULTS_DATASET}", h5py.Dataset, required=False)
        if d is None:
            values = [rd.attribute(f, "/", name, "value", required=False) for name in RESULTS_ATTRIBUTES]
            return [float(v) if isinstance(v, (int, float)) and math.isfinite(v) and 0 < v <= 1 else None
                    for v in values if v is not None]
        if d.ndim != 1 or not 1 <= d.shape[0] <= MAX_SAMPLES or d.dtype.kind != "f":
            rd.fail(f"/{app}/{RESULTS_DATASET}", f"expected 1 to {MAX_SAMPLES} seconds, found shape "
                                                 f"{d.shape} of {d.dtype}")
        values = [float(v) for v in d[()]]
    return [v if math.isfinite(v) and 0 < v <= 1 else None for v in values]


def results_round_trips(path):
    """The run's samples in its results file ([] when it records none or cannot be read: the
    report lists unreadable files on its own)."""
    try:
        values = read_in_child(path, _results_round_trips_here)
    except (NotOurs, ReaderBug):
        return []
    return values if None not in values else []


def probe_machine(store, step):
    """(path, key) of the machine file of the first probe the run names that keeps a round
    trip (bspprobe's, loggps-probe's; its `needs` keep the order of its arguments: the first
    machine file bsp_predict gets is the one its results are scored with); (None, None) if it
    names none."""
    by_id = {s["id"]: s for s in store.steps}
    for sid in step.get("needs") or []:
        p = by_id.get(sid)
        key = PROBE_KEYS.get(os.path.basename((p or {}).get("program") or ""))
        if p and p.get("kind") == "probe" and p.get("machine") and key:
            return store.path(p["machine"]), key
    return None, None


def run_round_trips(store, step):
    """The run's own samples: its profile's (BSP_PROFILE of its environment), else its
    results file's; [] when it recorded none."""
    profile = (step.get("env") or {}).get("BSP_PROFILE")
    if profile:
        if not os.path.isabs(profile) or not os.path.exists(profile):
            # a campaign directory moved since: the profile beside the run's other files
            profile = store.path(os.path.join(step.get("dir") or "", os.path.basename(profile)))
        values = profile_round_trips(profile)
        if values:
            return values
    if step.get("results") and os.path.isfile(store.path(step["results"])):
        return results_round_trips(store.path(step["results"]))
    return []


def run_placement(store, step):
    """{"placement": same/other/unknown, "ratio", "probe_s", "run_s", "probe_moved"} of one
    run. A loggps-probe times its two ranks' pair; a run of another rank count times other
    pairs (the largest of s with s + P/2), so it is not compared (unknown), as the apps do.
    probe_moved: the probe's samples where its CPUs moved while it ran (why it is unknown),
    else None."""
    machine, key = probe_machine(store, step)
    if key == PROBE_KEYS["loggps-probe"] and step.get("ranks") != 2:
        machine = None
    probe_s = probe_round_trip(machine, key) if machine else None
    moved = probe_moved(machine) if machine and probe_s is None else None
    run_s = run_round_trips(store, step) if probe_s else []
    ratio = placement_ratio(probe_s, run_s)
    return {"placement": placement_of(ratio), "ratio": ratio, "probe_s": probe_s, "run_s": run_s,
            "probe_moved": moved}


def placements(store, run_ids):
    """{run id: run_placement} of the runs named."""
    by_id = {s["id"]: s for s in store.steps}
    return {i: run_placement(store, by_id[i]) for i in run_ids if i in by_id}
