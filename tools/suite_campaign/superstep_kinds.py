"""The supersteps of several profiles of one program, grouped by label: each label's median
comm+sync over all of them, and how many of supersteps FIRST..LAST of each profile lie
within 25% of their label's median (what a model that knew each kind exactly would score:
the ceiling the run-to-run noise leaves). With --by-step instead: each superstep's median
comm+sync over the profiles, step by step (a first round against later ones).
Usage: suite-campaign superstep-kinds PROFILE.csv... [--steps FIRST LAST] [--by-step]
Profiles are read as the C++ reader reads them (bsp_profile_file.py): a bad one is one line
naming the file and the place."""
import statistics

import suite_inputs as si

from .bsp_profile_file import MAX_INDEX, read_profile

PROGRAM = "suite-campaign superstep-kinds"


def load(path):
    """superstep -> (label, comm+sync) as the profiler reduces it: the last process to enter
    (the smallest time)."""
    return {st["index"]: (st["label"], min(r["comm_sync_s"] for r in st["procs"])) for st in read_profile(path)}


def within(t, median, share=0.25):
    return abs(median - t) < share * t if t > 0 else median == 0


def main(argv):
    ap = si.ArgumentParser(prog=PROGRAM, description=__doc__.split("\n")[0])
    ap.add_argument("profiles", nargs="+", metavar="PROFILE")
    ap.add_argument("--steps", nargs=2, default=["2", "20"], metavar=("FIRST", "LAST"))
    ap.add_argument("--by-step", action="store_true")
    a = ap.parse_args(argv)
    # superstep numbers as the profile reader takes them (bsp_profile_file.py: [0, 2^31 - 1])
    first = si.whole(a.steps[0], "command line", "--steps", "FIRST", 0, MAX_INDEX)
    last = si.whole(a.steps[1], "command line", "--steps", "LAST", 0, MAX_INDEX)
    if last < first:
        raise si.Refusal("command line", "--steps", f"LAST >= FIRST = {first}", a.steps[1])
    for p in a.profiles:
        if not p:
            raise si.Refusal("(empty path)", "", "a bsplib profile's file name", "an empty path")
    profiles = {p: load(p) for p in a.profiles}
    if a.by_step:
        steps = sorted(set(s for st in profiles.values() for s in st))
        for s in steps:
            ts = [st[s][1] for st in profiles.values() if s in st]
            label = next(st[s][0] for st in profiles.values() if s in st)
            print(f'{s:4d} {si.shown(label):28s} median {statistics.median(ts) * 1e6:7.2f} us over {len(ts)} profiles')
        return
    by_label = {}
    for steps in profiles.values():
        for s, (label, t) in steps.items():
            if first <= s <= last:
                by_label.setdefault(label, []).append(t)
    medians = {k: statistics.median(v) for k, v in by_label.items()}
    for k in sorted(medians):
        print(f'{si.shown(k):28s} median {medians[k] * 1e6:7.2f} us over {len(by_label[k])} supersteps')
    for p, steps in profiles.items():
        sel = [(label, t) for s, (label, t) in steps.items() if first <= s <= last]
        ok = sum(within(t, medians[label]) for label, t in sel)
        print(f'{si.shown(p)}: {ok} of {len(sel)} within 25% of their kind\'s median')


def run(argv):
    """`suite-campaign superstep-kinds ARGS...`: prints the table and exits (suite_inputs.run)."""
    si.run(PROGRAM, lambda: main(argv))
