"""The paper's Figures 8-10 for our code: one W-cycle of a multigrid run, superstep by
superstep, as measured and as the BSP cost model replays it on machine files.

  suite-campaign plot multigrid-cycle RUN.h5 OUT.png MACHINE [MACHINE ...] [--cycle K]

Reads /multigrid/supersteps (w, h, comm+sync of every superstep) and draws, for cycle K
(default 2: the first is warm-up), the cumulative time through the cycle: measured
(w + comm+sync as profiled) and, per machine file, w + l + (h + N_1/2) g_inf (eq. 3). A
machine the run did not run on (the paper's IBM SP2 switch or ethernet, inputs/bsp/) gives
the prediction of Figure 9. Text output: the cycle's totals, so the figure can be checked.

Inputs are checked as the C++ readers check them, before their data is read: RUN.h5 a
regular file of at most 256 MiB, sealed by the suite (its CRC-32 seal matches), an HDF5 file
whose /multigrid/supersteps is a 1-D table stored whole in the file (contiguous: no external,
virtual, chunked or filtered data) of at most 10^6 rows whose grid, w, h and comm_sync columns
are numbers; every value finite and in range (grid a whole number >= 0, times in [0, 10^6] s,
h in [0, 10^15] bytes). Only those four columns are read: no text, so no variable-length data
(libhdf5 can crash reading a damaged file's). Machine files as bsp_machine_file.py reads
them. Anything else: one line naming the file and the place.
"""
import io
import zlib

import suite_inputs as si

from ..bsp_machine_file import read_machine

MAX_FILE_BYTES = 256 << 20
MAX_STEPS = 10**6          # supersteps of one run: 10^6 rows of 4 numbers is 32 MB
MAX_SECONDS = 1e6          # one superstep's w or comm+sync
MAX_H_BYTES = 1e15
SEAL_MAGIC = b"suite-results-seal-1"   # instrument/src/results_seal.cpp
SEAL_BLOCK = 512
DATASET = "multigrid/supersteps"
COLUMNS = ("grid", "w", "h", "comm_sync")


def verify_seal(data, path):
    """The suite's seal (the user block's first line): the CRC-32 and length of the rest."""
    if len(data) < SEAL_BLOCK or not data.startswith(SEAL_MAGIC):
        raise si.Refusal(path, "seal", "a sealed suite results file (written by one of the suite's programs)",
                         "no seal in its first 512 bytes")
    body = memoryview(data)[SEAL_BLOCK:]
    expected = f"suite-results-seal-1 crc32 {zlib.crc32(body):08x} bytes {len(body)}\n".encode()
    if not data.startswith(expected):
        size_ok = f" bytes {len(body)}\n".encode() in data[:SEAL_BLOCK]
        raise si.Refusal(path, "seal", "the file as the suite wrote it",
                         "bytes that differ from those it was sealed with (damaged or edited)" if size_ok else
                         "a length that differs from the one it was sealed with (truncated or extended)")


def superstep_table(h5py, f, path):
    """The dataset /multigrid/supersteps, its link, kind, shape, type, size and storage checked."""
    where = "/" + DATASET
    group = f.get("multigrid", getlink=True)
    group = f["multigrid"] if isinstance(group, h5py.HardLink) else None
    link = group.get("supersteps", getlink=True) if isinstance(group, h5py.Group) else None
    if not isinstance(link, h5py.HardLink):
        raise si.Refusal(path, where, "a table of supersteps (a multigrid results file)",
                         "none" if link is None else "a link to elsewhere")
    ds = group["supersteps"]
    if not isinstance(ds, h5py.Dataset):
        raise si.Refusal(path, where, "a dataset", type(ds).__name__)
    shape, dtype = ds.shape, ds.dtype
    if shape is None or len(shape) != 1 or dtype.names is None:
        raise si.Refusal(path, where, "a 1-D table (compound rows)", f"shape {shape}, type {dtype}")
    if shape[0] > MAX_STEPS:
        raise si.Refusal(path, where, f"at most {MAX_STEPS} supersteps", f"{shape[0]} rows (not read)")
    plist = ds.id.get_create_plist()
    if ds.is_virtual or plist.get_external_count() or plist.get_layout() != h5py.h5d.CONTIGUOUS \
            or plist.get_nfilters():
        raise si.Refusal(path, where, "a table stored whole in this file, as the suite writes it",
                         "external, virtual, chunked or filtered storage")
    for col in COLUMNS:
        kind = dtype.fields[col][0] if col in dtype.names else None
        if kind is None or kind.shape != () or kind.kind not in "iuf":
            raise si.Refusal(path, f"{where} column {col}", "a number per row",
                             "no such column" if kind is None else f"type {kind}")
    return ds


def read_supersteps(path):
    """grid, w, h, comm_sync of every superstep of the multigrid results file at path."""
    h5py = si.import_module("h5py", "python3-h5py")
    data = si.read_input_bytes(path, "results file", MAX_FILE_BYTES)
    verify_seal(data, path)
    try:
        f = h5py.File(io.BytesIO(data), "r")
    except (OSError, ValueError) as e:
        raise si.Refusal(path, "", "an HDF5 file (a suite results file)", f"bytes HDF5 cannot open ({e})") from None
    # What h5py raises when libhdf5 fails on bytes it cannot map (a sealed but damaged file).
    try:
        with f:
            rows = superstep_table(h5py, f, path).fields(list(COLUMNS))[()]
    except (OSError, KeyError, RuntimeError, ValueError, TypeError) as e:
        raise si.Refusal(path, "/" + DATASET, "a table HDF5 can read", f"an HDF5 error ({si.shown(e)[:200]})") from None
    where = "/" + DATASET
    steps = {col: [float(v) for v in rows[col]] for col in COLUMNS}
    for col, high in (("grid", 2**31 - 1), ("w", MAX_SECONDS), ("h", MAX_H_BYTES), ("comm_sync", MAX_SECONDS)):
        si.finite_values(steps[col], path, lambda i, c=col: f"{where} row {i} column {c}", col, 0.0, high)
    for i, g in enumerate(steps["grid"]):
        if g != int(g):
            raise si.Refusal(path, f"{where} row {i} column grid", "a whole number", repr(g))
    return steps


def cycles_of(grid):
    """The supersteps of each cycle: a run of "grid" supersteps between two monitor ones."""
    cycles, current = [], []
    for i, g in enumerate(grid):
        if g > 0:
            current.append(i)
        elif current:
            cycles.append(current)
            current = []
    if current:
        cycles.append(current)
    return cycles


def cumulative(values):
    out, t = [], 0.0
    for v in values:
        t += v
        out.append(t)
    return out


def main(argv, prog):
    ap = si.ArgumentParser(prog=prog, description=__doc__.split("\n")[0])
    ap.add_argument("run", help="a multigrid results file (.h5)")
    ap.add_argument("out", help="the plot (.png, .pdf, .svg ...)")
    ap.add_argument("machines", nargs="+", metavar="MACHINE", help="BSP machine files")
    ap.add_argument("--cycle", type=int, default=2, help="the cycle to draw (default 2)")
    a = ap.parse_args(argv)
    if a.cycle < 1:
        raise si.UsageError(f"command line: --cycle: expected a cycle number >= 1, found {a.cycle}")
    si.check_plot_output(a.out, [a.run] + a.machines)
    machines = [read_machine(m) for m in a.machines]
    s = read_supersteps(a.run)
    cycles = cycles_of(s["grid"])
    if not 1 <= a.cycle <= len(cycles):
        raise si.Refusal(a.run, "/" + DATASET, f"a cycle {a.cycle} (--cycle)", f"{len(cycles)} cycles")
    idx = cycles[a.cycle - 1]
    w, h, comm, grids = ([s[c][i] for i in idx] for c in ("w", "h", "comm_sync", "grid"))

    series = [("measured", [wi + ci for wi, ci in zip(w, comm)])]
    for m in machines:
        series.append((m["name"], [wi + m["l"] + ((hi + m["n_half"]) * m["g"] if hi > 0 else 0.0)
                                   for wi, hi in zip(w, h)]))
    plt = si.import_pyplot()
    fig, ax = plt.subplots(figsize=(9, 4.5))
    totals = []
    for name, per_step in series:
        t = cumulative(per_step)
        label = si.shown(name).replace("$", r"\$")  # not mathtext
        ax.step(range(1, len(t) + 1), [1e3 * v for v in t], where="post", label=f"{label}: {1e3 * t[-1]:.3f} ms")
        totals.append(f"{si.shown(name)}: {1e3 * t[-1]:.4f} ms over {len(t)} supersteps")
    for k in range(1, len(idx)):
        if grids[k] != grids[k - 1]:
            ax.axvline(k + 0.5, color="0.85", lw=0.5, zorder=0)
    ax.set_xlabel(f"superstep of W-cycle {a.cycle} (grey lines: the grid changes)")
    ax.set_ylabel("time through the cycle [ms]")
    if all(per_step[0] > 0 for _, per_step in series):
        ax.set_yscale("log")
    ax.set_title("W-cycle: measured and replayed (w + l + h g(h)) per superstep")
    ax.legend(fontsize=8)
    fig.tight_layout()
    si.save_figure(fig, a.out, dpi=120)
    print("\n".join(totals))
    print(f"wrote {a.out}")
