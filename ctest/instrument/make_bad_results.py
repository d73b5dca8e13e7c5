#!/usr/bin/python3
"""Builds the malformed inputs perf-report must refuse with one line (and a few odd but valid
ones it must report), and writes the table the test runs them from.

  make_bad_results.py OUTDIR [--base REAL.h5] [--mutations N] [--seed S]

OUTDIR gets valid.h5 (a results file built here with h5py in the layout of
instrument/README.md), one file per hand-made case, N byte mutations of REAL.h5 (a file
written by a real run; valid.h5 without --base) and cases.cmake, which
ctest/instrument/run_perf_report_bad.cmake includes:
  list(APPEND cases <name>), and per case
  case_<name>_status  the exit status: 0, 1, 2, or "0|1" (a mutation may still be valid)
  case_<name>_expect  text the one stderr line (or, at status 0, stdout) must contain
  case_<name>_args    perf-report's arguments

Run by /usr/bin/python3 (Debian's python3-h5py).
"""
import argparse
import os
import random
import shutil
import sys

import h5py
import numpy as np

STR = h5py.string_dtype("utf-8")
COMPARE_DTYPE = np.dtype([("model", STR), ("term", STR), ("measured", "<f8"), ("modelled", "<f8"),
                          ("relative_error", "<f8"), ("source", STR), ("kind", STR)])
ROWS = [("toy", "T_compute", 2.0e-3, 2.2e-3, 0.1, "rate 1e9 cells/s", "total"),
        ("loggp", "loggp/T_total", 4.0e-3, 3.0e-3, -0.25, "machine file toy.machine", "total"),
        ("loggp", "loggp/T_comm", 1.0e-3, 1.0e-3, 0.0, "machine file toy.machine", "part")]


def write_valid(path, rows=ROWS, nranks=2, compare=True):
    """A results file as the suite writes it (the parts perf-report reads, and a few more)."""
    with h5py.File(path, "w", track_order=True) as f:
        f.attrs["format"] = "suite-results-1"
        f.attrs["app"] = "instrument-demo"
        f.attrs["date"] = "2025-01-01T00:00:00Z"
        f.attrs["nranks"] = np.int64(nranks)
        f.attrs["threads"] = np.int64(1)
        inp = f.create_group("input")
        inp.attrs["cells"] = "20000"
        inp.attrs["bytes"] = "4096"
        inp.attrs["deck_file"] = ""
        ph = f.create_group("phases/compute")
        ph.create_dataset("inclusive", data=np.full(nranks, 1e-3))
        ph.attrs["max"] = 1e-3
        if compare:
            f.create_dataset("compare", data=np.array(rows, dtype=COMPARE_DTYPE))
            f["compare"].attrs["column_units"] = ["", "", "s", "s", "", "", ""]


class Cases:
    """The case table: files are built into outdir, and cases.cmake lists what to expect."""

    def __init__(self, outdir):
        self.outdir = outdir
        self.lines = []

    def path(self, name):
        return os.path.join(self.outdir, name)

    def add(self, name, status, expect, args):
        assert name.isidentifier(), name
        self.lines.append(f"list(APPEND cases {name})\n"
                          f"set(case_{name}_status \"{status}\")\n"
                          f"set(case_{name}_expect {bracket(expect)})\n"
                          f"set(case_{name}_args {' '.join(bracket(a) for a in args)})\n")

    def refuse(self, name, expect, build, extra_args=(), status=1):
        """A file perf-report must refuse: built by build(path) into <name>.h5."""
        p = self.path(name + ".h5")
        build(p)
        self.add(name, status, expect, [*extra_args, p])

    def write(self):
        with open(self.path("cases.cmake"), "w") as out:
            out.write("# Written by make_bad_results.py: the cases run_perf_report_bad.cmake runs.\n")
            out.writelines(self.lines)


def bracket(text):
    assert "]==]" not in text
    return f"[==[{text}]==]"


def with_valid(edit, **kw):
    """A builder: the valid file, then edit(f) on it opened for writing."""
    def build(path):
        write_valid(path, **kw)
        with h5py.File(path, "r+") as f:
            edit(f)
    return build


def replace_compare(make):
    def edit(f):
        del f["compare"]
        make(f)
    return with_valid(edit)


def compare_with(dtype_fields, rows):
    return replace_compare(lambda f: f.create_dataset("compare", data=np.array(rows, dtype=np.dtype(dtype_fields))))


def set_root_attr(name, value, dtype=None):
    def edit(f):
        if name in f.attrs:
            del f.attrs[name]
        if dtype is None:
            f.attrs[name] = value
        else:
            f.attrs.create(name, value, dtype=dtype)
    return with_valid(edit)


def add_hand_made(c):
    fields = COMPARE_DTYPE
    text_measured = [(n, STR if n == "measured" else t) for n, t in
                     [(k, COMPARE_DTYPE.fields[k][0]) for k in COMPARE_DTYPE.names]]
    array_measured = [(n, ("<f8", (3,)) if n == "measured" else COMPARE_DTYPE.fields[n][0])
                      for n in COMPARE_DTYPE.names]
    no_source = [(n, COMPARE_DTYPE.fields[n][0]) for n in COMPARE_DTYPE.names if n != "source"]

    # The three tracebacks.
    c.refuse("compare_group", ":/compare: expected a dataset, found group",
             replace_compare(lambda f: f.create_group("compare")))
    c.refuse("compare_2d", ":/compare: expected a 1-D table of rows, found shape (2, 3)",
             replace_compare(lambda f: f.create_dataset("compare", data=np.array(
                 [ROWS * 1] * 2, dtype=COMPARE_DTYPE))))
    c.refuse("measured_text", ":/compare column 'measured': expected a number per row, found a string type",
             compare_with(text_measured, [(r[0], r[1], "2e-3", r[3], r[4], r[5], r[6]) for r in ROWS]))
    c.refuse("format_array", ":/ attribute 'format': expected a scalar string, found an array of shape (1000,)",
             set_root_attr("format", ["suite-results-1"] * 1000, dtype=STR))
    # Other kinds, shapes and types where the layout has something else.
    c.refuse("compare_scalar", ":/compare: expected a 1-D table of rows, found a scalar",
             replace_compare(lambda f: f.create_dataset("compare", data=np.array(ROWS[0], dtype=COMPARE_DTYPE))))
    c.refuse("compare_null", ":/compare: expected a 1-D table of rows, found an empty (null) dataset",
             replace_compare(lambda f: f.create_dataset("compare", data=h5py.Empty(COMPARE_DTYPE))))
    c.refuse("compare_floats", ":/compare: expected a table of rows (a compound type), found a floating-point type",
             replace_compare(lambda f: f.create_dataset("compare", data=np.zeros(3))))
    c.refuse("measured_array", ":/compare column 'measured': expected a number per row, found an array of (3,)",
             compare_with(array_measured, [(r[0], r[1], (r[2],) * 3, *r[3:]) for r in ROWS]))
    c.refuse("missing_column", ":/compare: missing column 'source'",
             compare_with(no_source, [r[:5] + r[6:] for r in ROWS]))
    c.refuse("kind_other", ":/compare row 1 column 'kind': expected \"total\" or \"part\", found \"whole\\x0a\"",
             compare_with(fields, [ROWS[0], ROWS[1][:6] + ("whole\n",)]))
    c.refuse("no_compare", ":/compare: missing dataset", lambda p: write_valid(p, compare=False))
    c.refuse("compare_soft_loop", ":/compare: cannot open",
             replace_compare(lambda f: f.__setitem__("compare", h5py.SoftLink("/compare"))))
    c.refuse("compare_dangling", ":/compare: ",
             replace_compare(lambda f: f.__setitem__("compare", h5py.SoftLink("/nowhere"))))
    c.refuse("input_dataset", ":/input: expected a group, found dataset",
             with_valid(lambda f: (f.__delitem__("input"), f.create_dataset("input", data=[1]))))
    c.refuse("format_int", ":/ attribute 'format': expected a scalar string, found an integer type",
             set_root_attr("format", np.int64(1)))
    c.refuse("format_other", "not a suite results file of this version (format = \"suite-results-0\"",
             set_root_attr("format", "suite-results-0"))
    c.refuse("format_missing", "not a suite results file (no 'format' attribute",
             with_valid(lambda f: f.attrs.__delitem__("format")))
    c.refuse("format_not_utf8", ":/ attribute 'format': expected UTF-8 text, found \"suite\\xff\\xfe\"",
             set_root_attr("format", b"suite\xff\xfe", dtype=STR))
    c.refuse("nranks_array", ":/ attribute 'nranks': expected a scalar integer, found an array of shape (2,)",
             set_root_attr("nranks", np.array([1, 2], dtype=np.int64)))
    c.refuse("nranks_text", ":/ attribute 'nranks': expected a scalar integer, found a string type",
             set_root_attr("nranks", "2"))
    c.refuse("nranks_zero", ":/ attribute 'nranks': expected an integer in [1, 2147483647], found 0",
             set_root_attr("nranks", np.int64(0)))
    c.refuse("term_not_utf8", ":/compare row 0 column 'term': expected UTF-8 text, found \"T_\\xff\\xfe\"",
             compare_with(fields, [(ROWS[0][0], b"T_\xff\xfe", *ROWS[0][2:])]))
    c.refuse("term_huge", ":/compare row 0 column 'term': expected a string of at most 4096 bytes, found 100000",
             compare_with(fields, [(ROWS[0][0], "T" * 100000, *ROWS[0][2:])]))

    def huge(f):  # 10^9 rows claimed, none stored: a small file
        f.create_dataset("compare", shape=(10**9,), chunks=(1024,), dtype=COMPARE_DTYPE)
    c.refuse("compare_huge", ":/compare: expected at most 100000 rows of at most 64 MiB, found 1000000000 rows",
             replace_compare(huge))
    fifo = c.path("a_fifo")
    if os.path.exists(fifo):
        os.remove(fifo)
    os.mkfifo(fifo)
    c.refuse("compare_external_link", ":/compare: expected a dataset, found an external link",
             replace_compare(lambda f: f.__setitem__("compare", h5py.ExternalLink(fifo, "/compare"))))

    def external(f):  # raw data in another file (here a FIFO: reading it would block)
        f.create_dataset("compare", shape=(3,), dtype="<f8", external=[(fifo, 0, 24)])
    c.refuse("compare_external_storage", ":/compare: expected a table of rows (a compound type)",
             replace_compare(external))

    def external_compound(f):
        dt = np.dtype([(n, "S16" if COMPARE_DTYPE.fields[n][0].kind == "O" else "<f8")
                       for n in COMPARE_DTYPE.names])
        f.create_dataset("compare", shape=(3,), dtype=dt, external=[(fifo, 0, 3 * dt.itemsize)])
    c.refuse("compare_external_rows", ":/compare: expected a table stored in this file",
             replace_compare(external_compound))
    c.refuse("x_text", ":/input attribute 'cells': expected a finite number (for --x), found \"many\"",
             with_valid(lambda f: f["input"].attrs.__setitem__("cells", "many")), ["--x", "cells"])
    c.refuse("x_nan", ":/input attribute 'cells': expected a finite number (for --x), found \"nan\"",
             with_valid(lambda f: f["input"].attrs.__setitem__("cells", "nan")), ["--x", "cells"])
    c.refuse("x_missing", ":/input: no input or root attribute 'steps' for --x", write_valid, ["--x", "steps"])

    # Not HDF5, not a file.
    def text_file(p):
        with open(p, "w") as out:
            out.write("plain text\n")
    c.refuse("not_hdf5", ": not an HDF5 file", text_file)
    c.refuse("empty", ": not an HDF5 file", lambda p: open(p, "w").close())

    def truncated(p):
        write_valid(p)
        os.truncate(p, os.path.getsize(p) // 2)
    c.refuse("truncated", ": cannot open as HDF5 (damaged or truncated?)", truncated)
    c.add("missing_file", 1, ": no such file", [c.path("no_such.h5")])
    os.makedirs(c.path("a_directory"), exist_ok=True)
    c.add("directory", 1, "a_directory: is a directory, expected a regular file", [c.path("a_directory")])
    c.add("fifo", 1, "a_fifo: is a FIFO, expected a regular file", [fifo])
    c.add("device", 1, ": is a character device, expected a regular file", ["/dev/zero"])

    # Outputs that are not regular files, or are an input.
    valid = c.path("valid.h5")
    c.add("csv_dev_null", 1, "/dev/null: cannot write CSV: it is a character device, not a regular "
          "file; refusing to replace it", ["--csv", "/dev/null", valid])
    c.add("csv_fifo", 1, "cannot write CSV: it is a FIFO, not a regular file", ["--csv", fifo, valid])
    c.add("plot_directory", 1, "cannot write plot: it is a directory, not a regular file",
          ["--plot", c.path("a_directory"), valid])
    c.add("csv_is_input", 1, "cannot write CSV: it is the input file", ["--csv", valid, valid])
    # Usage.
    c.add("usage_no_file", 2, "perf-report: error: the following arguments are required: FILE", [])
    c.add("usage_unknown", 2, "perf-report: error: unrecognized arguments: --bogus", ["--bogus", valid])

    # Odd but valid: reported, exit 0.
    c.add("valid", 0, "loggp  totals      1     1         0", [valid])
    p = c.path("nan_inf.h5")
    write_valid(p, rows=[ROWS[0][:2] + (float("nan"), 1.0, float("nan")) + ROWS[0][5:],
                         ROWS[1][:2] + (1.0, float("inf"), float("inf")) + ROWS[1][5:],
                         ROWS[2][:2] + (1.0, -1.0, -2.0) + ROWS[2][5:]])
    c.add("nan_inf", 0, "note: /compare row 1 (loggp/T_total): modelled = inf: not a time >= 0", [p])
    p = c.path("control_chars.h5")
    write_valid(p, rows=[("to\x1by", "T\nx$y$", *ROWS[0][2:])])
    c.add("control_chars", 0, "to\\x1by  total  T\\x0ax$y$", ["--plot", c.path("control_chars.png"), p])

    def self_links(f):  # perf-report walks no groups: loops elsewhere do not matter
        f["phases/compute/again"] = f["phases/compute"]
        f["phases/loop"] = h5py.SoftLink("/phases/loop")
        f["/input/self"] = h5py.SoftLink("/input")
    p = c.path("self_links.h5")
    with_valid(self_links)(p)
    c.add("self_links", 0, "Campaign error summary over 1 file(s)", [p])


def mutate(data, rng):
    """One random mutation of the bytes of a file, of a kind chosen at random."""
    data = bytearray(data)
    how = rng.randrange(5)
    if how == 0:    # flip a few bits
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif how == 1:  # random bytes over a short run
        at = rng.randrange(len(data))
        for i in range(at, min(len(data), at + rng.randint(1, 16))):
            data[i] = rng.randrange(256)
    elif how == 2:  # an interesting value over 1, 2, 4 or 8 bytes (sizes, counts, addresses)
        width = rng.choice((1, 2, 4, 8))
        at = rng.randrange(max(1, len(data) - width))
        value = rng.choice((0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0xFFFF, 0x7FFFFFFF, 0xFFFFFFFF,
                            2**63 - 1, 2**64 - 1, len(data), len(data) * 1000))
        data[at:at + width] = (value & (2**(8 * width) - 1)).to_bytes(width, "little")
    elif how == 3:  # cut the end off
        del data[rng.randrange(1, len(data)):]
    else:           # a run copied from elsewhere in the file (plausible structures misplaced)
        src, dst, n = rng.randrange(len(data)), rng.randrange(len(data)), rng.randint(4, 64)
        chunk = data[src:src + n]
        data[dst:dst + len(chunk)] = chunk
    return bytes(data)


def add_mutations(c, base, n, seed):
    rng = random.Random(seed)
    with open(base, "rb") as f:
        data = f.read()
    for i in range(n):
        p = c.path(f"mutation_{i:02d}.h5")
        with open(p, "wb") as out:
            out.write(mutate(data, rng))
        c.add(f"mutation_{i:02d}", "0|1", "", [p])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("--base", help="a results file written by a real run, the mutations' base")
    ap.add_argument("--mutations", type=int, default=20)
    ap.add_argument("--seed", type=int, default=9)
    args = ap.parse_args()
    if os.path.isdir(args.outdir):
        shutil.rmtree(args.outdir)
    os.makedirs(args.outdir)
    c = Cases(args.outdir)
    write_valid(c.path("valid.h5"))
    add_hand_made(c)
    add_mutations(c, args.base or c.path("valid.h5"), args.mutations, args.seed)
    c.write()
    print(f"{len(c.lines)} cases in {args.outdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
