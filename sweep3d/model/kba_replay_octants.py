#!/usr/bin/python3
"""Where the replayed KBA iteration spends its time, from `sweep3d-model --replay
--replay-trace FILE.json` (one process grid): per octant, when its first block starts on any
rank and its last block ends, the idle start (fill) and drain between octants, and the
pipeline's period (time between consecutive blocks of a rank inside the grid).

usage: kba_replay_octants.py TRACE.json NPE_I NPE_J
The block computes of a rank are its compute events but the first (W_before) and the last
(W_after); there are 8 x mmo x kb of them, octant by octant (kba_program.hpp)."""
import json
import statistics
import sys


def main(path, npe_i, npe_j):
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    computes = {}
    for e in events:
        if e.get("ph") == "X" and e["name"] == "compute":
            computes.setdefault(e["tid"], []).append((e["ts"], e["ts"] + e["dur"]))
    blocks = {r: sorted(c)[1:-1] for r, c in computes.items()}
    per_octant = len(next(iter(blocks.values()))) // 8
    print(f"{len(blocks)} ranks, {per_octant} blocks per octant (us from the iteration's start)")
    print(f"{'octant':>6} {'first start':>12} {'last end':>10} {'length':>10} {'after prev':>11}")
    prev_end = None
    for q in range(8):
        lo, hi = q * per_octant, (q + 1) * per_octant
        start = min(b[lo][0] for b in blocks.values())
        end = max(b[hi - 1][1] for b in blocks.values())
        gap = "" if prev_end is None else f"{start - prev_end:+11.1f}"
        print(f"{q + 1:>6} {start:12.1f} {end:10.1f} {end - start:10.1f} {gap}")
        prev_end = end
    # The period inside the grid: an interior rank (or any when the grid has no interior),
    # within an octant's steady state.
    interior = [r for r in blocks if 0 < r % npe_i < npe_i - 1 and 0 < r // npe_i < npe_j - 1] or list(blocks)
    steps = []
    for r in interior:
        b = blocks[r]
        for q in range(8):
            lo, hi = q * per_octant, (q + 1) * per_octant
            steps += [b[i + 1][0] - b[i][0] for i in range(lo + per_octant // 4, hi - per_octant // 4)]
    block = statistics.median(e - s for b in blocks.values() for s, e in b)
    print(f"block compute {block:.3f} us; period inside the grid (median) {statistics.median(steps):.3f} us")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: kba_replay_octants.py TRACE.json NPE_I NPE_J")
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
