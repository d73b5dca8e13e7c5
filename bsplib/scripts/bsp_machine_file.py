"""Reads a BSP machine file (bspprobe's, or the paper's in inputs/bsp/): `key = value` lines,
`#` comments. Shared by plot_profile.py and multigrid/scripts/plot_cycle.py."""
import sys


def read_machine(path, program):
    """{"name", "l", "g", "n_half"} of the file; a missing key ends `program` with one line."""
    kv = {}
    try:
        with open(path) as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if "=" in line:
                    k, v = line.split("=", 1)
                    kv[k.strip()] = v.strip()
    except OSError as e:
        sys.exit(f"{program}: {path}: cannot open machine file: {e.strerror}")
    try:
        return {"name": kv.get("name", path), "l": float(kv["bsp.l_seconds"]),
                "g": float(kv["bsp.g_seconds_per_byte"]),
                "n_half": float(kv.get("bsp.n_half_bytes", 0))}
    except KeyError as e:
        sys.exit(f"{program}: {path}: no {e.args[0]} (expected a BSP machine file)")
    except ValueError as e:
        sys.exit(f"{program}: {path}: expected a number: {e}")
