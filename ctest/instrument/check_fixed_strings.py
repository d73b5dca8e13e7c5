#!/usr/bin/python3
"""Checks that results files written by the suite hold no variable-length data (strings,
sequences, nor compounds or arrays holding one) and have the HDF5 1.8 file format
(superblock version 2), which is what the results reader accepts.

  check_fixed_strings.py FILE.h5 [FILE.h5 ...]

Prints one line per file; exits 1 naming every object or attribute of a variable-length
type, 0 when there is none. Run by /usr/bin/python3 (Debian's python3-h5py).
"""
import sys

import h5py


def variable(dtype):
    """True when an element of this numpy dtype (as h5py maps HDF5 types) holds vlen data."""
    if dtype.names:
        return any(variable(dtype.fields[n][0]) for n in dtype.names)
    if dtype.subdtype is not None:
        return variable(dtype.subdtype[0])
    info = h5py.check_string_dtype(dtype)
    if info is not None:
        return info.length is None
    return h5py.check_vlen_dtype(dtype) is not None or dtype.kind == "O"


def check(path):
    bad = []
    with h5py.File(path, "r") as f:
        superblock = f.id.get_create_plist().get_version()[0]
        if superblock != 2:
            bad.append(f"superblock version {superblock}, expected 2")

        def visit(name, obj):
            where = "/" + name if name else "/"
            for a in obj.attrs:
                if variable(obj.attrs.get_id(a).dtype):
                    bad.append(f"{where}@{a}")
            if isinstance(obj, h5py.Dataset) and variable(obj.dtype):
                bad.append(where)

        visit("", f)
        f.visititems(visit)
    return bad


def main(paths):
    failed = False
    for path in paths:
        bad = check(path)
        if bad:
            failed = True
            print(f"{path}: variable-length data or wrong format at: {', '.join(bad)}")
        else:
            print(f"{path}: fixed-length strings only, superblock 2")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
