#!/usr/bin/python3
"""Writes the inputs of the Python scripts' tests (ctest/tycho/scripts.cmake,
ctest/multigrid/scripts.cmake) into DIR: good ones whose plotted values are known, and one
bad input per class of refusal (tools/suite_inputs.py).

    make_script_inputs.py DIR CUBE_208_SMESH

Good: tycho.csv, multigrid.csv (two rows each), run.h5 (a sealed multigrid results file with
two cycles; cycle 2: w 1 and 2 ms, h 0 and 100 bytes, comm+sync 0.1 and 0.2 ms, so 3.3 ms
measured; on good.machine, l 0.1 ms, g 2 us/byte, N_1/2 0: 3.4 ms).
Bad: garbage.csv; nan.csv (a time "nan"); not_hdf5.h5 (text, no seal); sealed_not_hdf5.h5
(text under a valid seal); sparse.h5 (a sealed results file whose supersteps table has 10^9
rows, none stored: 40 GB if read); nan_profile.csv (a bsplib profile with t_exit "nan");
trace.json (a --replay-trace of one rank, 4 blocks an octant, each 2 us every 3 us),
short_trace.json (the same with 2 blocks an octant: the period from pairs within octants) and
nan_trace.json (one of its durations NaN); nan.machine (bsp.l_seconds = nan); nan.smesh (the mesh
given, any .smesh of 6 nodes or more, with a NaN coordinate); nan.msh (a Gmsh 2.2 mesh with a coordinate "nan"); fifo (a FIFO with
no writer; fifo.smesh the same for the .smesh reader).
"""
import json
import os
import shutil
import struct
import sys
import zlib

import h5py
import numpy as np

SEAL_BLOCK = 512
# The layout multigrid writes (multigrid/src/results_output.cpp).
STEP = np.dtype([("superstep", "<i8"), ("label", "S16"), ("grid", "<i8"), ("w", "<f8"), ("h", "<f8"), ("comm_sync", "<f8")])


def seal(path):
    """The suite's seal (instrument/src/results_seal.cpp) over the bytes after the user block."""
    with open(path, "r+b") as f:
        data = f.read()
        body = data[SEAL_BLOCK:]
        head = f"suite-results-seal-1 crc32 {zlib.crc32(body):08x} bytes {len(body)}\n".encode()
        f.seek(0)
        f.write(head.ljust(SEAL_BLOCK, b"\0"))


def results_file(path, fill):
    with h5py.File(path, "w", userblock_size=SEAL_BLOCK) as f:
        f.attrs["format"] = "suite-results-1"
        f.attrs["app"] = "multigrid"
        fill(f.create_group("multigrid"))
    seal(path)


def good_steps(group):
    # monitor, cycle 1 (2 steps), monitor, cycle 2 (2 steps), monitor
    rows = [(0, b"monitor", 0, 0.0, 0, 1e-5), (1, b"grid 1", 1, 5e-3, 8, 1e-3), (2, b"grid 2", 2, 5e-3, 0, 1e-3),
            (3, b"monitor", 0, 0.0, 0, 1e-5), (4, b"grid 1", 1, 1e-3, 0, 1e-4), (5, b"grid 2", 2, 2e-3, 100, 2e-4),
            (6, b"monitor", 0, 0.0, 0, 1e-5)]
    group.create_dataset("supersteps", data=np.array(rows, dtype=STEP))


def sparse_steps(group):
    group.create_dataset("supersteps", shape=(10**9,), dtype=STEP, chunks=(1024,))


def text(path, content):
    with open(path, "w") as f:
        f.write(content)


def main(out, smesh):
    os.makedirs(out, exist_ok=True)
    p = lambda name: os.path.join(out, name)  # noqa: E731
    text(p("garbage.csv"), "this,is\nnot,a projection\n")
    text(p("tycho.csv"), "ranks,cells_per_rank,steps,rounds,pce,gm_seconds,gm_compute,gm_comm,tm_seconds,"
                         "tm_compute,tm_send,tm_receive,t_elem_seconds,records\n"
                         "1,1374,10,1,1,0.01,0.01,0,0.011,0.011,0,0,1e-07,5\n"
                         "16,85.875,40,3,0.5,0.002,0.001,0.001,0.0025,0.001,0.0005,0.0008,1e-07,80\n")
    text(p("nan.csv"), "ranks,cells_per_rank,steps,rounds,pce,gm_seconds,gm_compute,gm_comm,tm_seconds,"
                       "tm_compute,tm_send,tm_receive,t_elem_seconds,records\n"
                       "1,1374,10,1,1,0.01,0.01,0,nan,0.011,0,0,1e-07,5\n")
    text(p("multigrid.csv"), "procs,cells_per_proc,imbalance,h_grid1_bytes,replay_seconds,replay_work,"
                             "replay_comm_sync,eq5_seconds,eq5_work,eq5_comm_sync\n"
                             "1,10368,1,0,0.01,0.01,0,0.012,0.012,0\n"
                             "2,5184,1.01,1720,0.006,0.005,0.001,0.007,0.006,0.001\n")
    text(p("not_hdf5.h5"), "this is not an HDF5 file\n")
    text(p("sealed_not_hdf5.h5"), "x" * 2000)
    seal(p("sealed_not_hdf5.h5"))
    results_file(p("run.h5"), good_steps)
    results_file(p("sparse.h5"), sparse_steps)
    machine = "format = suite-machine-1\nname = test machine\nbsp.l_seconds = {}\nbsp.g_seconds_per_byte = 2e-6\n" \
              "bsp.n_half_bytes = 0\n"
    text(p("good.machine"), machine.format("1e-4"))
    text(p("nan.machine"), machine.format("nan"))
    mesh = bytearray(open(smesh, "rb").read())
    cells, faces, _ = struct.unpack_from("<3Q", mesh, 40)
    struct.pack_into("<d", mesh, 64 + 72 * cells + 40 * faces + 24 * 5 + 8, float("nan"))  # node 5's y
    with open(p("nan.smesh"), "wb") as f:
        f.write(mesh)
    text(p("nan.msh"), "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n5\n1 0 0 0\n2 1 0 0\n3 0 nan 0\n4 0 0 1\n"
                       "5 1 1 1\n$EndNodes\n$Elements\n1\n1 4 2 0 1 1 2 3 4\n$EndElements\n")
    text(p("nan_profile.csv"), "# format = bsplib-profile-2, nprocs = 1, times in seconds since bsp_begin\n"
                               "superstep,pid,label,t_begin,t_enter,t_exit,compute_s,comm_sync_s,bytes_out,bytes_in,"
                               "msgs_out,msgs_in,gets_out\n0,0,step,0,0.001,nan,0.001,0.001,0,0,0,0,0\n")
    # Format 3 (the pushes and pops columns): a row of format 2's 13 fields, and a negative pops.
    head3 = ("# format = bsplib-profile-3, nprocs = 1, times in seconds since bsp_begin\n"
             "superstep,pid,label,t_begin,t_enter,t_exit,compute_s,comm_sync_s,bytes_out,bytes_in,"
             "msgs_out,msgs_in,gets_out,pushes,pops\n")
    text(p("short_row_3.csv"), head3 + "0,0,step,0,0.001,0.002,0.001,0.001,0,0,0,0,0\n")
    text(p("negative_pops.csv"), head3 + "0,0,step,0,0.001,0.002,0.001,0.001,0,0,0,0,0,0,-1\n")
    # One rank, 2 + 8 x 4 computes of 2 us every 3 us: 4 blocks an octant, octant 1 from 3 to
    # 14 us, 1 us between octants, block compute 2 us, period 3 us.
    events = [{"ph": "X", "name": "compute", "pid": 0, "tid": 0, "ts": 3.0 * k, "dur": 2.0} for k in range(34)]
    with open(p("trace.json"), "w") as f:
        json.dump({"traceEvents": events}, f)
    short = [{"ph": "X", "name": "compute", "pid": 0, "tid": 0, "ts": 3.0 * k, "dur": 2.0} for k in range(18)]
    with open(p("short_trace.json"), "w") as f:  # 2 blocks an octant: the period within each octant
        json.dump({"traceEvents": short}, f)
    events[7]["dur"] = float("nan")  # json writes NaN, which Python's json reads back
    with open(p("nan_trace.json"), "w") as f:
        json.dump({"traceEvents": events}, f)
    for fifo in ("fifo", "fifo.smesh"):
        if os.path.lexists(p(fifo)):
            os.unlink(p(fifo))
        os.mkfifo(p(fifo))
    shutil.rmtree(p("out"), ignore_errors=True)
    os.makedirs(p("out"))  # the tests' plots: a refused run must leave it empty


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: make_script_inputs.py DIR SMESH")
    main(sys.argv[1], sys.argv[2])
