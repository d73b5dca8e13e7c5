#!/usr/bin/python3
"""Writes the small results files that seed fuzz_results_bytes (corpus/results_bytes/):
the layout of instrument/README.md with a few values each, as the suite's writer lays it out
(HDF5 1.8's file format, fixed-length NUL-padded UTF-8 strings, int64 and double, links in
creation order), sealed as the writer seals them (instrument/src/results_seal.hpp). Files of
real runs, as the programs wrote them, sit beside them (see fuzz/README.md):
sweep3d_tiny_np1.h5 and tycho_cube12_np1.h5.

    /usr/bin/python3 fuzz/corpus/make_h5_seeds.py fuzz/corpus/results_bytes   # Debian's h5py
"""
import sys
import zlib

import h5py
import numpy as np


def text(value):
    """A fixed-length UTF-8 string as wide as its value (at least 1 byte), as the writer's."""
    raw = value.encode("utf-8")
    return np.array(raw, dtype=h5py.string_dtype("utf-8", max(1, len(raw))))


def texts(values):
    raw = [v.encode("utf-8") for v in values]
    return np.array(raw, dtype=h5py.string_dtype("utf-8", max([1] + [len(r) for r in raw])))


def fixed(width):
    return h5py.string_dtype("utf-8", width)



def root(f, app, nranks):
    for k, v in [("format", "suite-results-1"), ("app", app), ("version", "0.1.0"),
                 ("git_describe", "seed"), ("date", "2024-01-01T00:00:00Z"), ("host", "seed"),
                 ("mpi_library", "MPICH 4.0")]:
        f.attrs.create(k, text(v))
    f.attrs.create("nranks", nranks, dtype=np.int64)
    f.attrs.create("threads", 1, dtype=np.int64)
    f.attrs.create("clock", text("tsc"))
    f.attrs.create("clock_frequency_hz", 2.0e9, dtype=np.float64)


def common(f, nranks):
    inp = group(f, "input")
    inp.attrs.create("deck_file", text("input"))
    inp.attrs.create("deck_text", text("1 1 1 1 1\n4 4 4 6 0\n.1 .1 .1 -1.0\n0 0 0\n0 0 0\n"))
    m = group(f, "machine")
    m.attrs.create("source_file", text("test.machine"))
    m.attrs.create("loggp.L", 2.0e-6, dtype=np.float64)
    m.attrs.create("loggp.bands", 1, dtype=np.int64)
    ph = group(group(f, "phases"), "sweep")
    ph.create_dataset("inclusive", data=np.full(nranks, 0.5))
    ph.create_dataset("exclusive", data=np.full(nranks, 0.25))
    ph.create_dataset("calls", data=np.full(nranks, 2, dtype=np.int64))
    c = group(f, "counters")
    c.create_dataset("messages_sent", data=np.arange(nranks, dtype=np.int64))
    t = group(group(f, "model"), "loggp")
    d = t.create_dataset("T_total", data=0.4)
    d.attrs.create("equation", text("T = 2(P-1)L + ..."))
    rows = np.array([(b"loggp", b"T_total", 0.5, 0.4, b"measured", b"total")],
                    dtype=[("model", fixed(5)), ("term", fixed(7)), ("measured", "<f8"), ("modelled", "<f8"),
                           ("source", fixed(8)), ("kind", fixed(5))])
    f.create_dataset("compare", data=rows)


def calibration(f):
    g = group(group(f, "sweep3d"), "calibration")
    for k, v in [("wg_s", 1.0e-9), ("wg_fixup_s", 1.2e-9), ("w_before_s_per_cell", 1e-8),
                 ("w_after_s_per_cell", 2e-9)]:
        g.attrs.create(k, v, dtype=np.float64)
    for k, v in [("mmi", 3), ("mk", 2), ("threads", 1)]:
        g.attrs.create(k, v, dtype=np.int64)
    g.attrs.create("kernel", text("avx512"))


def trace(f, nranks):
    t = group(f, "trace")
    t.create_dataset("kinds", data=texts(["send", "recv"]))
    t.create_dataset("dropped", data=np.zeros(nranks, dtype=np.int64))
    t.create_dataset("clock_offset", data=np.zeros(nranks))
    ev = [("t_begin", "<f8"), ("t_end", "<f8"), ("kind", "<i8"), ("peer", "<i8"), ("bytes", "<i8"),
          ("work", "<i8"), ("tag", "<i8"), ("request", "<i8")]
    for r in range(nranks):
        t.create_dataset(f"rank_{r}", data=np.array([(0.1, 0.2, 0, 1 - r, 64, 0, 7, -1),
                                                     (0.3, 0.4, 1, 1 - r, 64, 0, 7, -1)], dtype=ev))


def extras(f):
    g = group(f, "solution")
    g.attrs.create("iterations", 3, dtype=np.int64)
    a = g.create_dataset("flux", data=np.arange(6.0).reshape(2, 3))
    a.attrs.create("units", text("1/cm^2/s"))
    a.attrs.create("dims", texts(["j", "i"]))
    g.create_dataset("cells", data=np.arange(3, dtype=np.int64))
    tab = np.array([(1, 0.5, b"a")], dtype=[("n", "<i8"), ("x", "<f8"), ("name", fixed(1))])
    g.create_dataset("table", data=tab)


USER_BLOCK = 512


def seal(path):
    """Writes the results seal into the file's 512-byte user block."""
    with open(path, "r+b") as f:
        body = f.read()[USER_BLOCK:]
        text = f"suite-results-seal-1 crc32 {zlib.crc32(body):08x} bytes {len(body)}\n".encode()
        f.seek(0)
        f.write(text.ljust(USER_BLOCK, b"\0"))


def compact(plist):
    """Attributes and links in the object header, however many, as the writer keeps them
    (h5py sets no link phase change on a file's list: the seeds' roots hold few links)."""
    plist.set_attr_phase_change(65535, 0)
    if hasattr(plist, "set_link_phase_change"):
        plist.set_link_phase_change(65535, 0)
    plist.set_link_creation_order(h5py.h5p.CRT_ORDER_TRACKED | h5py.h5p.CRT_ORDER_INDEXED)
    return plist


def group(parent, name):
    gcpl = compact(h5py.h5p.create(h5py.h5p.GROUP_CREATE))
    h5py.h5g.create(parent.id, name.encode(), gcpl=gcpl)
    return parent[name]


def create(path):
    # libver v108 both ways: the writer's file format (superblock 2, checksummed metadata).
    fcpl = compact(h5py.h5p.create(h5py.h5p.FILE_CREATE))
    fcpl.set_userblock(USER_BLOCK)
    fapl = h5py.h5p.create(h5py.h5p.FILE_ACCESS)
    fapl.set_libver_bounds(h5py.h5f.LIBVER_V18, h5py.h5f.LIBVER_V18)
    return h5py.File(h5py.h5f.create(path.encode(), h5py.h5f.ACC_TRUNC, fcpl=fcpl, fapl=fapl))


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
