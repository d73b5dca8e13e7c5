"""The hostile values of an input-file slot, made once per run under the harness's temp dir.

A slot is a place on a command line that takes a file (a mesh, a deck, a machine file, a
results file, a CSV ...). Its hostile values are the kinds a careless or malicious user can
hand it: missing, a directory, a device, a FIFO with no writer, empty, a 5 GB sparse file of
zeros, random bytes, a huge number without a newline, symlink loops and dangling links, and
a good file of the slot's own format truncated or with bytes flipped (for a sealed results
file also flipped and sealed again, so the damage gets past the CRC into libhdf5). Each file
keeps the slot's extension, so a reader that dispatches on it (.smesh / .msh) reads it.
"""
import os
import random
import struct
import zlib

SPARSE_BYTES = 5_000_000_000
SEAL_BLOCK = 512  # instrument/src/results_seal.cpp: the HDF5 user block holding the seal


def write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)


def reseal(data):
    """The suite's results seal over data[SEAL_BLOCK:], written into its user block."""
    body = data[SEAL_BLOCK:]
    head = f"suite-results-seal-1 crc32 {zlib.crc32(body):08x} bytes {len(body)}\n".encode()
    return head.ljust(SEAL_BLOCK, b"\0") + body


def flipped(data, seed, count):
    """data with count bytes XORed by a random non-zero mask (past the seal block for .h5)."""
    rng = random.Random(seed)
    out = bytearray(data)
    start = SEAL_BLOCK if len(out) > 2 * SEAL_BLOCK else 0
    for _ in range(count):
        i = rng.randrange(start, len(out))
        out[i] ^= rng.randrange(1, 256)
    return bytes(out)


class HostileFiles:
    """Makes and remembers the hostile files of each slot under root/hostile/."""

    def __init__(self, root, seed):
        self.dir = os.path.join(root, "hostile")
        os.makedirs(self.dir)
        self.seed = seed
        self.made = {}
        # shared by every extension: made once
        self.nowhere = os.path.join(self.dir, "nowhere", "target")

    def path(self, name):
        return os.path.join(self.dir, name)

    def generic(self, ext):
        """(kind, path) of the hostile files that do not depend on a good file, for ext."""
        key = ("generic", ext)
        if key in self.made:
            return self.made[key]
        tag = ext.replace(".", "_") or "_noext"
        p = lambda kind: self.path(f"{kind}{tag}{ext}")  # noqa: E731
        os.mkdir(p("dir"))
        write_bytes(p("empty"), b"")
        with open(p("zeros5g"), "wb") as f:
            f.truncate(SPARSE_BYTES)
        write_bytes(p("random"), random.Random(self.seed).randbytes(65536))
        write_bytes(p("digits16m"), b"9" * (16 << 20))
        os.mkfifo(p("fifo"))
        os.symlink("/dev/zero", p("devzero"))
        os.symlink(p("loopb"), p("loopa"))
        os.symlink(p("loopa"), p("loopb"))
        os.symlink(self.nowhere, p("dangling"))
        made = [("missing", p("missing")), ("directory", p("dir")), ("dev_zero", "/dev/zero"),
                ("dev_null", "/dev/null"), ("dev_zero_link", p("devzero")), ("fifo", p("fifo")),
                ("empty", p("empty")), ("sparse_5GB", p("zeros5g")), ("random", p("random")),
                ("digits_16MiB", p("digits16m")), ("symlink_loop", p("loopa")),
                ("dangling_symlink", p("dangling")), ("empty_string", "")]
        self.made[key] = made
        return made

    def damaged(self, good, flips=(1, 4, 32)):
        """(kind, path) of good truncated and with bytes flipped; a sealed results file also
        flipped and resealed (the seal would refuse the plain flips before libhdf5 reads)."""
        key = ("damaged", good)
        if key in self.made:
            return self.made[key]
        with open(good, "rb") as f:
            data = f.read()
        base = os.path.basename(good)
        stem, ext = os.path.splitext(base)
        made = []
        for name, frac in (("truncated_half", 0.5), ("truncated_last_byte", None)):
            path = self.path(f"{stem}.{name}{ext}")
            cut = len(data) - 1 if frac is None else int(len(data) * frac)
            write_bytes(path, data[:cut])
            made.append((name, path))
        sealed = data.startswith(b"suite-results-seal-1")
        for i, count in enumerate(flips):
            path = self.path(f"{stem}.flip{count}{ext}")
            write_bytes(path, flipped(data, self.seed * 1000 + i, count))
            made.append((f"flipped_{count}B", path))
        if sealed:
            for i in range(8):
                path = self.path(f"{stem}.flip_resealed{i}{ext}")
                write_bytes(path, reseal(flipped(data, self.seed * 7919 + i, 1 + i % 3)))
                made.append((f"flipped_resealed_{i}", path))
        self.made[key] = made
        return made


def scaled_smesh(source, factor, target):
    """A Tycho2 serial mesh with every node coordinate times factor (its node records are the
    file's last 24 N bytes, N the header's third count at byte 56)."""
    with open(source, "rb") as f:
        data = f.read()
    nodes = struct.unpack_from("<Q", data, 56)[0]
    start = len(data) - 24 * nodes
    coords = struct.unpack_from("<%dd" % (3 * nodes), data, start)
    write_bytes(target, data[:start] + struct.pack("<%dd" % (3 * nodes), *[x * factor for x in coords]))
