"""Writes a Tycho2 serial mesh with every node coordinate multiplied by a factor.

Usage: scaled_mesh.py IN.smesh FACTOR OUT.smesh  (the node records are the file's last
24*N bytes: N little-endian triples of doubles, N the header's third count).
"""
import struct
import sys

source, factor, target = sys.argv[1], float(sys.argv[2]), sys.argv[3]
data = open(source, "rb").read()
nodes = struct.unpack_from("<Q", data, 56)[0]
start = len(data) - 24 * nodes
coords = struct.unpack_from("<%dd" % (3 * nodes), data, start)
with open(target, "wb") as out:
    out.write(data[:start] + struct.pack("<%dd" % (3 * nodes), *[x * factor for x in coords]))
