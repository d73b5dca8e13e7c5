#!/usr/bin/env python3
"""The supersteps of several profiles of one program, grouped by label: each label's median
comm+sync over all of them, and how many of supersteps FIRST..LAST of each profile lie
within 25% of their label's median (what a model that knew each kind exactly would score:
the ceiling the run-to-run noise leaves). With --by-step instead: each superstep's median
comm+sync over the profiles, step by step (a first round against later ones).
Usage: superstep_kinds.py PROFILE.csv... [--steps FIRST LAST] [--by-step]"""
import csv
import statistics
import sys


def load(path):
    lines = [l for l in open(path) if not l.startswith('#')]
    rows = list(csv.DictReader(lines))
    steps = {}
    for r in rows:
        steps.setdefault(int(r['superstep']), []).append(r)
    # comm+sync as the profiler reduces it: the last process to enter (the smallest time)
    return {s: (rs[0]['label'], min(float(r['comm_sync_s']) for r in rs)) for s, rs in steps.items()}


def main(argv):
    first, last = 2, 20
    by_step = '--by-step' in argv
    argv = [a for a in argv if a != '--by-step']
    if '--steps' in argv:
        i = argv.index('--steps')
        first, last = int(argv[i + 1]), int(argv[i + 2])
        argv = argv[:i] + argv[i + 3:]
    if not argv:
        sys.exit(__doc__)
    profiles = {p: load(p) for p in argv}
    if by_step:
        steps = sorted(set(s for st in profiles.values() for s in st))
        for s in steps:
            ts = [st[s][1] for st in profiles.values() if s in st]
            label = next(st[s][0] for st in profiles.values() if s in st)
            print(f'{s:4d} {label:28s} median {statistics.median(ts) * 1e6:7.2f} us over {len(ts)} profiles')
        return
    by_label = {}
    for steps in profiles.values():
        for s, (label, t) in steps.items():
            if first <= s <= last:
                by_label.setdefault(label, []).append(t)
    medians = {k: statistics.median(v) for k, v in by_label.items()}
    for k in sorted(medians):
        print(f'{k:28s} median {medians[k] * 1e6:7.2f} us over {len(by_label[k])} supersteps')
    for p, steps in profiles.items():
        sel = [(label, t) for s, (label, t) in steps.items() if first <= s <= last]
        ok = sum(abs(medians[label] - t) / t < 0.25 for label, t in sel)
        print(f'{p}: {ok} of {len(sel)} within 25% of their kind\'s median')


if __name__ == '__main__':
    main(sys.argv[1:])
