#!/usr/bin/python3
"""Writes the small results files that seed fuzz_results_bytes (corpus/results_bytes/):
the layout of instrument/README.md with a few values each, as the suite's writer lays it out
(variable-length UTF-8 strings, int64 and double, links in creation order), sealed as the
writer seals them (instrument/src/results_seal.hpp). A real run's file (sweep3d_tiny_np1.h5,
from `sweep3d` on a 4^3 deck, repacked, given a user block with h5jam, then sealed with
`make_h5_seeds.py --seal FILE`) sits beside them.

    /usr/bin/python3 fuzz/corpus/make_h5_seeds.py fuzz/corpus/results_bytes   # Debian's h5py
"""
import sys
import zlib

import h5py
import numpy as np

STR = h5py.string_dtype("utf-8")


def root(f, app, nranks):
    for k, v in [("format", "suite-results-1"), ("app", app), ("version", "0.1.0"),
                 ("git_describe", "seed"), ("date", "2024-01-01T00:00:00Z"), ("host", "seed"),
                 ("mpi_library", "MPICH 4.0")]:
        f.attrs.create(k, v, dtype=STR)
    f.attrs.create("nranks", nranks, dtype=np.int64)
    f.attrs.create("threads", 1, dtype=np.int64)
    f.attrs.create("clock", "tsc", dtype=STR)
    f.attrs.create("clock_frequency_hz", 2.0e9, dtype=np.float64)


def common(f, nranks):
    inp = f.create_group("input", track_order=True)
    inp.attrs.create("deck_file", "input", dtype=STR)
    inp.attrs.create("deck_text", "1 1 1 1 1\n4 4 4 6 0\n.1 .1 .1 -1.0\n0 0 0\n0 0 0\n", dtype=STR)
    m = f.create_group("machine", track_order=True)
    m.attrs.create("source_file", "test.machine", dtype=STR)
    m.attrs.create("loggp.L", 2.0e-6, dtype=np.float64)
    m.attrs.create("loggp.bands", 1, dtype=np.int64)
    ph = f.create_group("phases", track_order=True).create_group("sweep", track_order=True)
    ph.create_dataset("inclusive", data=np.full(nranks, 0.5))
    ph.create_dataset("exclusive", data=np.full(nranks, 0.25))
    ph.create_dataset("calls", data=np.full(nranks, 2, dtype=np.int64))
    c = f.create_group("counters", track_order=True)
    c.create_dataset("messages_sent", data=np.arange(nranks, dtype=np.int64))
    t = f.create_group("model", track_order=True).create_group("loggp", track_order=True)
    d = t.create_dataset("T_total", data=0.4)
    d.attrs.create("equation", "T = 2(P-1)L + ...", dtype=STR)
    rows = np.array([("loggp", "T_total", 0.5, 0.4, "measured", "total")],
                    dtype=[("model", STR), ("term", STR), ("measured", "<f8"), ("modelled", "<f8"),
                           ("source", STR), ("kind", STR)])
    f.create_dataset("compare", data=rows)


def calibration(f):
    g = f.create_group("sweep3d", track_order=True).create_group("calibration", track_order=True)
    for k, v in [("wg_s", 1.0e-9), ("wg_fixup_s", 1.2e-9), ("w_before_s_per_cell", 1e-8),
                 ("w_after_s_per_cell", 2e-9)]:
        g.attrs.create(k, v, dtype=np.float64)
    for k, v in [("mmi", 3), ("mk", 2), ("threads", 1)]:
        g.attrs.create(k, v, dtype=np.int64)
    g.attrs.create("kernel", "avx512", dtype=STR)


def trace(f, nranks):
    t = f.create_group("trace", track_order=True)
    t.create_dataset("kinds", data=np.array(["send", "recv"], dtype=object), dtype=STR)
    t.create_dataset("dropped", data=np.zeros(nranks, dtype=np.int64))
    t.create_dataset("clock_offset", data=np.zeros(nranks))
    ev = [("t_begin", "<f8"), ("t_end", "<f8"), ("kind", "<i8"), ("peer", "<i8"), ("bytes", "<i8"),
          ("work", "<i8"), ("tag", "<i8"), ("request", "<i8")]
    for r in range(nranks):
        t.create_dataset(f"rank_{r}", data=np.array([(0.1, 0.2, 0, 1 - r, 64, 0, 7, -1),
                                                     (0.3, 0.4, 1, 1 - r, 64, 0, 7, -1)], dtype=ev))


def extras(f):
    g = f.create_group("solution", track_order=True)
    g.attrs.create("iterations", 3, dtype=np.int64)
    a = g.create_dataset("flux", data=np.arange(6.0).reshape(2, 3))
    a.attrs.create("units", "1/cm^2/s", dtype=STR)
    a.attrs.create("dims", np.array(["j", "i"], dtype=object), dtype=STR)
    g.create_dataset("cells", data=np.arange(3, dtype=np.int64))
    tab = np.array([(1, 0.5, "a")], dtype=[("n", "<i8"), ("x", "<f8"), ("name", STR)])
    g.create_dataset("table", data=tab)


USER_BLOCK = 512


def seal(path):
    """Writes the results seal into the file's 512-byte user block."""
    with open(path, "r+b") as f:
        body = f.read()[USER_BLOCK:]
        text = f"suite-results-seal-1 crc32 {zlib.crc32(body):08x} bytes {len(body)}\n".encode()
        f.seek(0)
        f.write(text.ljust(USER_BLOCK, b"\0"))


def create(path):
    return h5py.File(path, "w", track_order=True, userblock_size=USER_BLOCK)


def main(out):
    with create(f"{out}/calibration_np1.h5") as f:
        root(f, "sweep3d", 1)
        common(f, 1)
        calibration(f)
    with create(f"{out}/traced_np2.h5") as f:
        root(f, "sweep3d", 2)
        common(f, 2)
        trace(f, 2)
    with create(f"{out}/extras_np1.h5") as f:
        root(f, "demo", 1)
        common(f, 1)
        extras(f)
    for name in ("calibration_np1", "traced_np2", "extras_np1"):
        seal(f"{out}/{name}.h5")


if __name__ == "__main__":
    if sys.argv[1] == "--seal":
        seal(sys.argv[2])
    else:
        main(sys.argv[1])
