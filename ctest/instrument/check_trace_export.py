#!/usr/bin/python3
"""instrument-trace-export on a traced run, checked against the run's own /trace.

    check_trace_export.py EXPORTER OTF2_PRINT RUN.h5 WORK_DIR [PHASE...]

Exports RUN.h5 as OTF2 (WORK_DIR/otf2) and Chrome JSON (WORK_DIR/trace.json), then:
  - otf2-print reads the archive: exit 0, nothing on stderr;
  - one location per rank of the run;
  - each PHASE named is entered; every phase that has events in /trace is entered and left, as often as it has events
    (the Comm phases under their MPI names), on each location Enter/Leave nest (each Leave
    closes the innermost open region) and the timestamps never decrease;
  - MPI_SEND + MPI_ISEND records == MPI_RECV + MPI_IRECV records == the trace's send events
    (send + isend), and the same per (sender, receiver, tag, bytes);
  - the Chrome JSON parses, with one "X" event per trace event;
  - a second export over the first replaces it, leaving no temporary.
Exit 1 with the first difference.
"""
import collections
import json
import os
import re
import subprocess
import sys

import h5py

MPI_NAMES = {"send": "MPI_Send", "recv": "MPI_Recv", "isend": "MPI_Isend", "irecv": "MPI_Irecv",
             "wait": "MPI_Wait", "allreduce": "MPI_Allreduce", "barrier": "MPI_Barrier", "bcast": "MPI_Bcast"}


def fail(msg):
    print("check_trace_export: " + msg, file=sys.stderr)
    sys.exit(1)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        fail("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    return p


def read_trace(path):
    with h5py.File(path, "r") as f:
        t = f["trace"]
        kinds = [k.decode() if isinstance(k, bytes) else str(k) for k in t["kinds"][()]]
        nranks = int(f.attrs["nranks"])
        ranks = [t["rank_%d" % r][()] for r in range(nranks)]
    return kinds, ranks


def main():
    if len(sys.argv) < 5:
        fail("usage: check_trace_export.py EXPORTER OTF2_PRINT RUN.h5 WORK_DIR [PHASE...]")
    exporter, otf2_print, results, work = sys.argv[1:5]
    required_phases = sys.argv[5:]
    if not os.access(otf2_print, os.X_OK):
        fail("otf2-print not found (%s): install otf2-tools (scripts/install-deps.sh)" % otf2_print)
    os.makedirs(work, exist_ok=True)
    out = os.path.join(work, "otf2")
    chrome = os.path.join(work, "trace.json")
    anchor = os.path.join(out, "traces.otf2")
    kinds, ranks = read_trace(results)
    nranks = len(ranks)

    for attempt in (1, 2):  # the second replaces the first
        run([exporter, results, "--otf2", out, "--chrome", chrome])
        left = [n for n in os.listdir(work) if ".tmp." in n]
        if left:
            fail("export %d left temporaries: %s" % (attempt, left))
    if sorted(os.listdir(out)) != ["traces", "traces.def", "traces.otf2"]:
        fail("%s holds %s, expected traces, traces.def, traces.otf2" % (out, sorted(os.listdir(out))))

    p = run([otf2_print, "-A", anchor])
    if p.stderr.strip():
        fail("otf2-print wrote to stderr: " + p.stderr.strip().splitlines()[0])
    locations = [l for l in p.stdout.splitlines() if re.match(r"^LOCATION\s+\d+\s", l)]
    if len(locations) != nranks:
        fail("%d LOCATION definitions, expected one per rank (%d)" % (len(locations), nranks))

    events = collections.defaultdict(list)  # location -> (record, timestamp, rest)
    line_re = re.compile(r"^([A-Z_]+)\s+(\d+)\s+(\d+)\s*(.*)$")
    in_events = False
    for line in p.stdout.splitlines():
        if line.startswith("=== Events"):
            in_events = True
            continue
        if line.startswith("==="):
            in_events = False
        m = line_re.match(line) if in_events else None
        if m:
            events[int(m.group(2))].append((m.group(1), int(m.group(3)), m.group(4)))
    if sorted(events) != list(range(nranks)):
        fail("events on locations %s, expected 0..%d" % (sorted(events), nranks - 1))

    region_re = re.compile(r'Region: "([^"]*)"')
    entered = collections.Counter()
    sends, receives = collections.Counter(), collections.Counter()
    for loc, recs in events.items():
        stack, last = [], 0
        for rec, ts, rest in recs:
            if ts < last:
                fail("location %d: timestamp %d after %d (decreasing)" % (loc, ts, last))
            last = ts
            if rec in ("ENTER", "LEAVE"):
                region = region_re.search(rest).group(1)
                if rec == "ENTER":
                    stack.append(region)
                    entered[region] += 1
                elif not stack or stack.pop() != region:
                    fail("location %d at %d: LEAVE of %s does not close the innermost open region" % (loc, ts, region))
            elif rec in ("MPI_SEND", "MPI_ISEND"):
                m = re.search(r"Receiver: (\d+).*Tag: (\d+), Length: (\d+)", rest)
                sends[(loc, int(m.group(1)), int(m.group(2)), int(m.group(3)))] += 1
            elif rec in ("MPI_RECV", "MPI_IRECV"):
                m = re.search(r"Sender: (\d+).*Tag: (\d+), Length: (\d+)", rest)
                receives[(int(m.group(1)), loc, int(m.group(2)), int(m.group(3)))] += 1
        if stack:
            fail("location %d: regions left open at the end: %s" % (loc, stack))

    per_kind = collections.Counter()
    for events_of_rank in ranks:
        for k in events_of_rank["kind"]:
            per_kind[kinds[k]] += 1
    for kind, n in per_kind.items():
        name = MPI_NAMES.get(kind, kind)
        if entered[name] != n:
            fail("region %s entered %d times, the trace has %d %s events" % (name, entered[name], n, kind))
    for must in required_phases:
        if entered[must] == 0:
            fail("no ENTER of the phase %s" % must)
    trace_sends = per_kind["send"] + per_kind["isend"]
    if trace_sends == 0:
        fail("the run's trace has no send events: nothing checked")
    if sum(sends.values()) != trace_sends or sum(receives.values()) != trace_sends:
        fail("%d send and %d receive records, the trace has %d send events" %
             (sum(sends.values()), sum(receives.values()), trace_sends))
    if sends != receives:
        fail("sends and receives differ per (sender, receiver, tag, bytes): %s" % ((sends - receives) or (receives - sends)))

    with open(chrome) as f:
        doc = json.load(f)
    complete = [e for e in doc["traceEvents"] if e.get("ph") == "X"]
    if len(complete) != sum(per_kind.values()):
        fail("%d Chrome X events, the trace has %d events" % (len(complete), sum(per_kind.values())))
    print("trace export: %d locations, %d sends = %d receives (%d non-blocking), %d regions entered, "
          "%d Chrome events" % (nranks, sum(sends.values()), sum(receives.values()), per_kind["isend"],
                                sum(entered.values()), len(complete)))


if __name__ == "__main__":
    main()
