"""Reads a BSP machine file (bspprobe's, or the paper's in inputs/bsp/) by the rules of the C++
reader (instrument/src/machine_file.cpp, bsplib/model/machine_params.cpp): a regular file of at
most 1 MiB; `#` comment and blank lines; the first other line `format = suite-machine-1`, then
`key = value` lines, each key once; bsp.l_seconds and bsp.g_seconds_per_byte required,
bsp.n_half_bytes optional (0), each the whole token, finite and in the C++ reader's range.
Shared by the figures bsp-profile and multigrid-cycle (figures/); a refusal is a
suite_inputs.Refusal naming the file, the line and what was expected."""
import re

import suite_inputs as si

FORMAT = "suite-machine-1"
MAX_BYTES = 1 << 20  # instrument::MachineFile::kMaxBytes
_KEY = re.compile(r"[A-Za-z0-9_.-]+")
# (key, name in read_machine's dict, range low, high, unit, required): machine_params.cpp's
# ranges (a sign error, a unit slip by 10^6, nan or inf refused).
BSP_KEYS = (("bsp.l_seconds", "l", 0.0, 100.0, "s", True),
            ("bsp.g_seconds_per_byte", "g", 0.0, 1.0, "s/byte", True),
            ("bsp.n_half_bytes", "n_half", 0.0, 1e12, "bytes", False))


def read_entries(path):
    """key -> (value text, line number) of a machine file, its format line checked."""
    entries, seen_format = {}, False
    for lineno, raw in si.text_lines(si.read_input_text(path, "machine file", MAX_BYTES)):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        place = f"line {lineno}"
        key, eq, value = (s.strip() for s in line.partition("="))
        if not eq:
            raise si.Refusal(path, place, "'key = value'", si.quote(line))
        if not _KEY.fullmatch(key):
            raise si.Refusal(path, place, "a key of letters, digits, '_', '.', '-'", si.quote(key))
        if not value:
            raise si.Refusal(path, place, f"a value after '{key} ='", "nothing")
        if not seen_format:
            if key != "format" or value != FORMAT:
                raise si.Refusal(path, place, f"the first line 'format = {FORMAT}' (a machine file of this suite)",
                                 si.quote(line))
            seen_format = True
            continue
        if key in entries:
            raise si.Refusal(path, place, f"each key once, '{key}' first on line {entries[key][1]}", "it again")
        entries[key] = (value, lineno)
    if not seen_format:
        raise si.Refusal(path, "", f"'format = {FORMAT}' and key = value lines (a machine file)", "none")
    return entries


def read_machine(path):
    """{"name", "l", "g", "n_half"} of the machine file at path (seconds, seconds per byte,
    bytes), each checked; raises suite_inputs.Refusal."""
    entries = read_entries(path)
    out = {"name": entries.get("name", (path, 0))[0]}
    for key, name, low, high, unit, required in BSP_KEYS:
        if key in entries:
            text, lineno = entries[key]
            out[name] = si.real(text, path, f"line {lineno}", key, low, high, unit)
        elif required:
            raise si.Refusal(path, "", f"the key '{key}' (a BSP machine file, from bspprobe)", "none")
        else:
            out[name] = 0.0
    return out
