"""The input rules of the suite's Python scripts: the C++ readers' (instrument/src/input_file.cpp,
strict_number.hpp) for plots and helpers written in Python.

- An input is a regular file, opened without blocking (a FIFO with no writer cannot hang the
  script) and refused when larger than a stated size before a byte is read; /dev/zero, a
  directory or a socket is refused by kind. A file that grows past the size while it is read
  is refused too.
- Text is UTF-8; a number is the whole token as the C++ readers take it (no "nan", "inf",
  "0x10", "1_000" or spaces inside), finite and in its stated range.
- Every refusal is ONE line on stderr, "<script>: <file>: <place>: expected ..., found ...",
  and exit status 1 (2 for a usage error): never a traceback. run() turns the exceptions
  below into that line; an exception of any other kind is a bug of the script, still
  reported on one line ("internal error").
- Outputs are written whole or not at all: to "<path>.tmp.<pid>" beside the path, renamed
  over it when complete. A path that is a symbolic link, a directory, a device or a FIFO is
  refused (never written through).

Scripts import it by path, from the checkout's tools/ folder:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
"""
import argparse
import math
import os
import re
import stat
import sys


class Refusal(Exception):
    """A bad input or output: the message names the file, the place and what was expected."""

    def __init__(self, path, place, expected, found=None):
        where = f"{shown(path)}: {place}: " if place else f"{shown(path)}: "
        super().__init__(f"{where}expected {expected}" + (f", found {found}" if found is not None else ""))


class UsageError(Exception):
    """A bad command line (exit status 2)."""


class NotInstalled(Exception):
    """A Python package the script needs is missing."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse whose errors are one line (argparse's own prints the usage block first)."""

    def error(self, message):
        raise UsageError(f"command line: {shown(message)} (see --help)")


def run(program, main):
    """Runs main() and exits: 0 when it returns, 1 with one line on stderr on a Refusal."""
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(errors="backslashreplace")
    try:
        main()
        sys.stdout.flush()
    except Refusal as e:
        fail(program, str(e), 1)
    except UsageError as e:
        fail(program, str(e), 2)
    except NotInstalled as e:
        fail(program, str(e), 1)
    except KeyboardInterrupt:
        fail(program, "interrupted", 130)
    except BrokenPipeError:  # the reader of stdout went away (script | head)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except MemoryError:
        fail(program, "out of memory (an input larger than this machine can plot?)", 1)
    except Exception as e:  # noqa: B902 -- last resort: a bug of ours, still one line
        fail(program, f"internal error: {type(e).__name__}: {shown(str(e))[:300]}", 1)
    sys.exit(0)


def fail(program, message, status):
    print(f"{program}: {message}", file=sys.stderr)
    sys.exit(status)


def import_pyplot():
    """matplotlib.pyplot on the Agg backend (headless), or NotInstalled."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise NotInstalled(f"cannot import matplotlib ({e}): run under /usr/bin/python3 with Debian's "
                           "python3-matplotlib") from None
    return plt


def import_module(name, package):
    """The module `name` (numpy, scipy.sparse, h5py), or NotInstalled naming the Debian package."""
    import importlib
    try:
        return importlib.import_module(name)
    except ImportError as e:
        raise NotInstalled(f"cannot import {name} ({e}): run under /usr/bin/python3 with Debian's "
                           f"{package}") from None


# ---------------------------------------------------------------- how text is shown

def shown(text):
    """A path or a name on one line: control characters and undecodable bytes as \\xNN."""
    out = []
    for ch in str(text):
        c = ord(ch)
        if c < 0x20 or c == 0x7F or 0x80 <= c < 0xA0:
            out.append(f"\\x{c:02x}")
        elif 0xDC80 <= c <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
            out.append(f"\\x{c - 0xDC00:02x}")
        else:
            out.append(ch)
    return "".join(out)


def quote(token, limit=24):
    """A token from a file as an error message quotes it: at most `limit` characters, then
    "...", printable, in double quotes (as instrument::quote_token)."""
    text = token.decode("utf-8", "surrogateescape") if isinstance(token, bytes) else str(token)
    return f"\"{shown(text[:limit])}{'...' if len(text) > limit else ''}\""


# ---------------------------------------------------------------- files

def kind_of(mode):
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link")):
        if test(mode):
            return name
    return "not a regular file"


def read_input_bytes(path, what, max_bytes):
    """The whole of `path`, a regular file of at most max_bytes; `what` names the kind of
    file in a refusal ("CSV file", "mesh")."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except OSError as e:
        raise Refusal(path, "", f"a readable {what}", f"cannot open it ({e.strerror or e})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refusal(path, "", f"a regular file (a {what})", kind_of(st.st_mode))
        if st.st_size > max_bytes:
            raise Refusal(path, "", f"a {what} of at most {max_bytes} bytes", f"{st.st_size} bytes")
        chunks, total = [], 0
        while True:
            try:
                chunk = os.read(fd, 1 << 20)
            except OSError as e:
                raise Refusal(path, "", f"a readable {what}", f"cannot read it ({e.strerror or e})") from None
            if not chunk:
                return b"".join(chunks)
            total += len(chunk)
            if total > max_bytes:
                raise Refusal(path, "", f"a {what} of at most {max_bytes} bytes that does not change "
                                        "while it is read", "it grew past that")
            chunks.append(chunk)
    finally:
        os.close(fd)


def read_input_text(path, what, max_bytes):
    """read_input_bytes as UTF-8 text, without NUL bytes."""
    data = read_input_bytes(path, what, max_bytes)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise Refusal(path, f"line {line}", f"UTF-8 text (a {what})",
                      f"the byte 0x{data[e.start]:02x}") from None
    nul = text.find("\0")
    if nul >= 0:
        raise Refusal(path, f"line {text.count(chr(10), 0, nul) + 1}", f"text (a {what})", "a NUL byte")
    return text


def text_lines(text):
    """(line number, line) of a text, a final newline ending the last line, "\\r\\n" as "\\n"."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [(i + 1, ln[:-1] if ln.endswith("\r") else ln) for i, ln in enumerate(lines)]


# ---------------------------------------------------------------- numbers

_REAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_WHOLE = re.compile(r"[+-]?[0-9]+")


def in_range_text(low, high, unit):
    hi = "" if high == math.inf else f"{high:g}"
    text = f"in [{low:g}, {hi}]" if hi else f">= {low:g}"
    return f"{text} {unit}".rstrip()


def real(token, path, place, name, low=0.0, high=math.inf, unit=""):
    """The whole token as a finite number in [low, high]; `name` says what it is ("bsp.l_seconds")."""
    expected = f"a finite number {in_range_text(low, high, unit)} as {name}"
    if not _REAL.fullmatch(token):
        raise Refusal(path, place, expected, quote(token) if token else "nothing")
    value = float(token)
    if not (math.isfinite(value) and low <= value <= high):
        raise Refusal(path, place, expected, token)
    return value


def whole(token, path, place, name, low=0, high=2**63 - 1):
    """The whole token as an integer in [low, high]."""
    expected = f"a whole number in [{low}, {high}] as {name}"
    if not _WHOLE.fullmatch(token):
        raise Refusal(path, place, expected, quote(token) if token else "nothing")
    value = int(token)
    if not low <= value <= high:
        raise Refusal(path, place, expected, token)
    return value


def finite_values(values, path, place, name, low=0.0, high=math.inf):
    """Refuses the first of `values` (numbers already read) that is not finite in [low, high];
    `place(i)` names the i-th one's place."""
    for i, v in enumerate(values):
        if not (math.isfinite(v) and low <= v <= high):
            raise Refusal(path, place(i), f"a finite number {in_range_text(low, high, '')} as {name}", repr(float(v)))


# ---------------------------------------------------------------- CSV

def read_csv_rows(path, what, headers, max_rows, max_bytes=64 << 20):
    """The rows of a CSV file the suite wrote (no quoting, no commas inside fields), each a
    dict column -> text with its line number under "line"; the first line must be one of
    `headers` (column tuples) exactly, every row must have its number of fields, and there
    must be 1..max_rows rows."""
    lines = text_lines(read_input_text(path, what, max_bytes))
    if not lines:
        raise Refusal(path, "line 1", f"the header '{','.join(headers[0])}'", "an empty file")
    lineno, head = lines[0]
    columns = next((h for h in headers if ",".join(h) == head), None)
    if columns is None:
        expected = " or ".join(f"'{','.join(h)}'" for h in headers)
        raise Refusal(path, "line 1", f"the header {expected} (a {what})", quote(head, 60))
    if len(lines) == 1:
        raise Refusal(path, "", f"1 to {max_rows} rows after the header", "none")
    if len(lines) - 1 > max_rows:
        raise Refusal(path, "", f"1 to {max_rows} rows after the header", f"{len(lines) - 1}")
    rows = []
    for lineno, ln in lines[1:]:
        fields = ln.split(",")
        if len(fields) != len(columns):
            raise Refusal(path, f"line {lineno}", f"{len(columns)} comma-separated fields ({','.join(columns)})",
                          f"{len(fields)}")
        row = dict(zip(columns, fields))
        row["line"] = lineno
        rows.append(row)
    return rows


def csv_reals(rows, path, column, low=0.0, high=math.inf, unit="", empty_ok=False):
    """Column `column` of read_csv_rows' rows as finite numbers in [low, high] (None for an
    empty field when empty_ok)."""
    out = []
    for r in rows:
        token = r[column]
        out.append(None if empty_ok and token == "" else
                   real(token, path, f"line {r['line']} column {column}", column, low, high, unit))
    return out


def csv_wholes(rows, path, column, low=0, high=2**63 - 1):
    return [whole(r[column], path, f"line {r['line']} column {column}", column, low, high) for r in rows]


# ---------------------------------------------------------------- outputs

def check_output(path, what, inputs=()):
    """Refuses, before any work, an output path the script could not or must not write: an
    empty one, one in no directory, one that is not a regular file (or that is a symbolic
    link), one that is an input."""
    if not path:
        raise Refusal("(empty path)", "", f"a file name for the {what}", "an empty path")
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as e:
        raise Refusal(path, "", f"a writable path for the {what}", e.strerror or str(e)) from None
    if mode is not None and not stat.S_ISREG(mode):
        raise Refusal(path, "", f"a regular file or a new name for the {what} (never written through)",
                      kind_of(mode))
    directory = os.path.dirname(path) or "."
    if not os.path.isdir(directory):
        raise Refusal(path, "", f"a path in an existing directory for the {what}", f"no directory {quote(directory, 60)}")
    for f in inputs:
        try:
            same = mode is not None and os.path.samefile(f, path)
        except OSError:
            same = False
        if same:
            raise Refusal(path, "", f"a file other than the input for the {what}", "the input file itself")


def write_output(path, what, fill):
    """Writes the output whole: fill(binary file) fills "<path>.tmp.<pid>", renamed over path
    when complete; on any failure the temporary is removed and the path left as it was."""
    check_output(path, what)
    temp = f"{path}.tmp.{os.getpid()}"
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
    except OSError as e:
        raise Refusal(path, "", f"a writable path for the {what}", f"cannot create {quote(temp, 60)}: "
                                                                   f"{e.strerror or e}") from None
    try:
        with os.fdopen(fd, "wb") as out:
            fill(out)
        os.replace(temp, path)
    except OSError as e:
        raise Refusal(path, "", f"a writable path for the {what}", f"cannot write: {e.strerror or e}") from None
    finally:
        if os.path.lexists(temp):
            os.unlink(temp)


def plot_format(path):
    """The matplotlib format path's extension names ("png"), or a Refusal."""
    import_pyplot()
    from matplotlib.backend_bases import FigureCanvasBase
    formats = FigureCanvasBase.get_supported_filetypes()
    ext = os.path.splitext(path)[1][1:].lower()
    if ext not in formats:
        raise Refusal(path, "", f"a plot name ending in one of .{', .'.join(sorted(formats))}",
                      quote(os.path.basename(path), 60))
    return ext


def check_plot_output(path, inputs=()):
    """check_output for a plot, its extension a format matplotlib writes: called before the
    inputs are read, so a bad output costs no work."""
    check_output(path, "plot", inputs)
    plot_format(path)


def csv_to_plot_arguments(argv, usage):
    """The two arguments CSV PLOT of a plotting script, the plot's path checked up front."""
    if len(argv) != 3:
        raise UsageError(usage)
    csv_path, plot_path = argv[1], argv[2]
    check_plot_output(plot_path, [csv_path])
    return csv_path, plot_path


def save_figure(fig, path, dpi):
    """A matplotlib figure to path by write_output, in the format its extension names."""
    ext = plot_format(path)
    write_output(path, "plot", lambda out: fig.savefig(out, format=ext, dpi=dpi))
