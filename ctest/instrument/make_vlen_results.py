#!/usr/bin/python3
"""Writes a sealed results file that holds a variable-length string, for the tests that every
program reading results files refuses it before libhdf5 reads it (variable_length.cmake).

  make_vlen_results.py OUT.h5

The file has the writer's format (HDF5 1.8's, superblock 2; a 512-byte user block holding
the seal of instrument/src/results_seal.hpp) and a fixed-length `format` attribute, so the
reader gets as far as the root attributes; `app` there is a variable-length UTF-8 string, as
the suite wrote every string until 2026-12-01. Run by /usr/bin/python3 (Debian's python3-h5py).
"""
import sys
import zlib

import h5py
import numpy as np

USER_BLOCK = 512


def fixed(value):
    raw = value.encode("utf-8")
    return np.array(raw, dtype=h5py.string_dtype("utf-8", max(1, len(raw))))


def main(out):
    with h5py.File(out, "w", track_order=True, userblock_size=USER_BLOCK,
                   libver=("v108", "v108")) as f:
        f.attrs.create("format", fixed("suite-results-1"))
        f.attrs.create("app", "tycho", dtype=h5py.string_dtype("utf-8"))  # variable-length
        f.attrs.create("nranks", 1, dtype=np.int64)
    with open(out, "r+b") as f:
        body = f.read()[USER_BLOCK:]
        seal = f"suite-results-seal-1 crc32 {zlib.crc32(body):08x} bytes {len(body)}\n".encode()
        f.seek(0)
        f.write(seal.ljust(USER_BLOCK, b"\0"))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
