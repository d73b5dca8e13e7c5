#!/usr/bin/python3
"""Where the replayed KBA iteration spends its time, from `sweep3d-model --replay
--replay-trace FILE.json` (one process grid): per octant, when its first block starts on any
rank and its last block ends, the idle start (fill) and drain between octants, and the
pipeline's period (time between consecutive blocks of a rank inside the grid).

usage: kba_replay_octants.py TRACE.json NPE_I NPE_J
The block computes of a rank are its compute events but the first (W_before) and the last
(W_after); there are 8 x mmo x kb of them, octant by octant (kba_program.hpp).

The trace is checked before use: a regular file of at most 256 MiB of JSON, an object whose
traceEvents is a list; every complete ("X") compute event with a whole tid in
[0, NPE_I x NPE_J) and ts, dur finite numbers >= 0; NPE_I x NPE_J ranks, each with the same
number of computes, 2 + 8 k (k >= 1). Anything else: one line naming the file and the place."""
import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import suite_inputs as si  # noqa: E402

PROGRAM = "kba_replay_octants.py"
MAX_TRACE_BYTES = 256 << 20


def number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value >= 0


def read_blocks(path, ranks):
    """rank -> its block computes [(start, end)] in time order, every event checked."""
    try:
        trace = json.loads(si.read_input_text(path, "replay trace (JSON)", MAX_TRACE_BYTES))
    except (ValueError, RecursionError) as e:
        raise si.Refusal(path, "", "JSON text (a --replay-trace file)", si.shown(str(e))[:120]) from None
    events = trace.get("traceEvents") if isinstance(trace, dict) else None
    if not isinstance(events, list):
        raise si.Refusal(path, "traceEvents", "a list of events (a --replay-trace file)", "none")
    computes = {}
    for i, e in enumerate(events):
        if not (isinstance(e, dict) and e.get("ph") == "X" and e.get("name") == "compute"):
            continue
        tid, ts, dur = e.get("tid"), e.get("ts"), e.get("dur")
        if not (isinstance(tid, int) and not isinstance(tid, bool) and 0 <= tid < ranks):
            raise si.Refusal(path, f"traceEvents[{i}] tid", f"a rank in [0, {ranks}) (NPE_I x NPE_J)", repr(tid)[:40])
        if not (number(ts) and number(dur)):
            raise si.Refusal(path, f"traceEvents[{i}]", "ts and dur finite numbers >= 0",
                             f"{repr(ts)[:30]}, {repr(dur)[:30]}")
        computes.setdefault(tid, []).append((ts, ts + dur))
    counts = {len(c) for c in computes.values()}
    if len(computes) != ranks or len(counts) != 1 or (next(iter(counts)) - 2) % 8 or next(iter(counts)) < 10:
        raise si.Refusal(path, "traceEvents", f"compute events of {ranks} ranks, 2 + 8 k (k >= 1) each, the same "
                                              "number on every rank",
                         f"{len(computes)} ranks with {sorted(counts)[:4]} computes")
    return {r: sorted(c)[1:-1] for r, c in computes.items()}


def main():
    if len(sys.argv) != 4:
        raise si.UsageError("usage: kba_replay_octants.py TRACE.json NPE_I NPE_J")
    path = sys.argv[1]
    npe_i = si.whole(sys.argv[2], "command line", "NPE_I", "NPE_I", 1, 2**31 - 1)
    npe_j = si.whole(sys.argv[3], "command line", "NPE_J", "NPE_J", 1, (2**31 - 1) // npe_i)
    blocks = read_blocks(path, npe_i * npe_j)
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
    # within an octant's steady state (the pairs from its first quarter to its last; the whole
    # octant when it has fewer than 4 blocks, never a pair across two octants).
    interior = [r for r in blocks if 0 < r % npe_i < npe_i - 1 and 0 < r // npe_i < npe_j - 1] or list(blocks)
    steps = []
    edge = per_octant // 4
    for r in interior:
        b = blocks[r]
        for q in range(8):
            lo, hi = q * per_octant, (q + 1) * per_octant
            pairs = range(lo + edge, hi - edge) if edge else range(lo, hi - 1)
            steps += [b[i + 1][0] - b[i][0] for i in pairs]
    block = statistics.median(e - s for b in blocks.values() for s, e in b)
    period = f"{statistics.median(steps):.3f} us" if steps else "n/a (one block per octant)"
    print(f"block compute {block:.3f} us; period inside the grid (median) {period}")


if __name__ == "__main__":
    si.run(PROGRAM, main)
