"""Reads a bsplib profile (BSP_PROFILE=profile.csv) by the rules of the C++ reader
(bsplib/model/profile_table.cpp): a regular file of at most 64 MiB; an optional
`# format = bsplib-profile-3, nprocs = P` line before the rows (format 2, without the pushes
and pops columns, read with them 0; format 1 refused), other `#` lines ignored, the header
exactly as the profiler writes it; per row 15 or more fields (13 in format 2; the label,
between the second field and the last twelve (ten), may hold commas; at most 1024 bytes, no
control characters), superstep and pid whole numbers, times in [0, 10^7] s with
t_begin <= t_enter <= t_exit (compute_s and comm_sync_s their differences within 1 us), counts whole in [0, 2^53]; every superstep 0..S-1 one row per
process 0..P-1. Shared by the figure bsp-profile (figures/bsp_profile.py) and
superstep_kinds.py; a refusal is a suite_inputs.Refusal naming the file, the line and what
was expected."""
import suite_inputs as si

FORMAT = "bsplib-profile-3"
HEADER = ("superstep,pid,label,t_begin,t_enter,t_exit,compute_s,comm_sync_s,bytes_out,bytes_in,"
          "msgs_out,msgs_in,gets_out,pushes,pops")
# Format 2: no pushes and pops columns (read with them 0).
FORMAT_BEFORE_REGISTRATIONS = "bsplib-profile-2"
HEADER_BEFORE_REGISTRATIONS = HEADER[:-len(",pushes,pops")]
MAX_BYTES = 64 << 20
MAX_INDEX = 2**31 - 1
MAX_SECONDS = 1e7
MAX_COUNT = 2**53
MAX_LABEL_BYTES = 1024
AGREEMENT_SECONDS = 1e-6  # written with 9 decimals from the same doubles as the times
SECONDS = ("t_begin", "t_enter", "t_exit", "compute_s", "comm_sync_s")
COUNTS = ("bytes_out", "bytes_in", "msgs_out", "msgs_in", "gets_out")
REGISTRATIONS = ("pushes", "pops")


def format_line(line, path, place):
    """(nprocs of the format line, 0 when it gives none; whether it is format 3)."""
    parts = [p.strip() for p in line[1:].split(",")]
    fmt = parts[0][len("format = "):] if parts[0].startswith("format = ") else parts[0]
    if fmt not in (FORMAT, FORMAT_BEFORE_REGISTRATIONS):
        raise si.Refusal(path, place, f"'# format = {FORMAT}' or {FORMAT_BEFORE_REGISTRATIONS} (format 1 has no "
                                      "gets_out column: profile the run again)", si.quote(fmt))
    for part in parts[1:]:
        if part.startswith("nprocs = "):
            return si.whole(part[len("nprocs = "):], path, place, "nprocs", 1, MAX_INDEX), fmt == FORMAT
    return 0, fmt == FORMAT


def parse_row(line, path, place, nprocs, registrations):
    f = line.split(",")
    names = SECONDS + COUNTS + (REGISTRATIONS if registrations else ())
    after = len(names)
    if len(f) < after + 3:
        raise si.Refusal(path, place, f"{after + 3} comma-separated fields "
                                      f"({HEADER if registrations else HEADER_BEFORE_REGISTRATIONS})", str(len(f)))
    row = {"step": si.whole(f[0], path, place, "superstep", 0, MAX_INDEX),
           "pid": si.whole(f[1], path, place, "pid", 0, nprocs - 1 if nprocs else MAX_INDEX - 1),
           "label": ",".join(f[2:-after]), "line": int(place.split()[1]), "pushes": 0.0, "pops": 0.0}
    if len(row["label"].encode()) > MAX_LABEL_BYTES or any(ord(c) < 0x20 or ord(c) == 0x7F for c in row["label"]):
        raise si.Refusal(path, place, "a label of at most 1024 bytes without control characters",
                         si.quote(row["label"]))
    for name, token in zip(names, f[-after:]):
        if name in SECONDS:
            row[name] = si.real(token, path, place, name, 0.0, MAX_SECONDS, "s")
        else:
            row[name] = float(si.whole(token, path, place, name, 0, MAX_COUNT))
    if not row["t_begin"] <= row["t_enter"] <= row["t_exit"]:
        raise si.Refusal(path, place, "t_begin <= t_enter <= t_exit", ", ".join(f[-after:-after + 3]))
    if abs(row["compute_s"] - (row["t_enter"] - row["t_begin"])) > AGREEMENT_SECONDS or \
            abs(row["comm_sync_s"] - (row["t_exit"] - row["t_enter"])) > AGREEMENT_SECONDS:
        raise si.Refusal(path, place, "compute_s = t_enter - t_begin and comm_sync_s = t_exit - t_enter (within 1 us)",
                         f"{f[-after + 3]} and {f[-after + 4]}")
    return row


def read_profile(path):
    """The supersteps of the profile, in order: {"index", "label", "procs": [row of each
    process, by pid]}, each row a dict of the header's fields as numbers."""
    # Format 2 unless the format line or the header says 3 (neither: 2, as before 3 existed).
    rows, nprocs, format_at, registrations = [], 0, 0, False
    for lineno, line in si.text_lines(si.read_input_text(path, "bsplib profile", MAX_BYTES)):
        place = f"line {lineno}"
        if not line:
            continue
        if line.startswith("# format"):
            if format_at or rows:
                raise si.Refusal(path, place, "one format line, before the rows",
                                 f"a second one (the first on line {format_at})" if format_at else "one after rows")
            format_at = lineno
            nprocs, registrations = format_line(line, path, place)
        elif line.startswith("#"):
            continue
        elif line.startswith("superstep,"):
            if not format_at:
                registrations = line == HEADER
            header = HEADER if registrations else HEADER_BEFORE_REGISTRATIONS
            if line != header:
                raise si.Refusal(path, place, f"the header '{header}'", si.quote(line, 60))
        else:
            rows.append(parse_row(line, path, place, nprocs, registrations))
    if not rows:
        raise si.Refusal(path, "", "one row per superstep and process (a profile written by bsplib with "
                                   "BSP_PROFILE=<file>)", "none")
    nprocs = nprocs or max(r["pid"] for r in rows) + 1
    rows.sort(key=lambda r: (r["step"], r["pid"]))
    nsteps = rows[-1]["step"] + 1
    for k, r in enumerate(rows):  # sorted: row k must be superstep k // P, process k % P
        have = r["step"] * nprocs + r["pid"]
        if have < k:
            raise si.Refusal(path, f"line {r['line']}", f"one row for superstep {r['step']}, process {r['pid']}",
                             f"a second (the first on line {rows[k - 1]['line']})")
        if have > k:
            break
    else:
        k = len(rows)
    if k < nsteps * nprocs:
        raise si.Refusal(path, f"superstep {k // nprocs}",
                         f"a row for process {k % nprocs} (every superstep 0..{nsteps - 1} needs one for each "
                         f"process 0..{nprocs - 1})", "none")
    return [{"index": s, "label": rows[s * nprocs]["label"], "procs": rows[s * nprocs:(s + 1) * nprocs]}
            for s in range(nsteps)]
