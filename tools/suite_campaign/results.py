"""Reads suite results files (format suite-results-1) for perf-report and the campaign report.

Every object is checked for kind, shape, type and size before its data is read, and the
reading runs in a child process: the HDF5 library (1.10) can crash or hang on a damaged file,
and that must become one line naming the file, never the end of a report over many runs.
Anything that is not a readable suite results file raises NotOurs with one line
`FILE:OBJECT: expected ...`.

  read_run(path, xname)   what perf-report needs: root attributes, x, the /compare rows
  read_results(path)      what the campaign report needs: the same plus /phases, /input
                          and whether the file holds a /trace
"""
import math
import os
import pickle
import select
import signal
import stat
import sys
import time

# One wording for paths and file kinds with the suite's other Python tools (tools/ is on
# sys.path: tools/suite-campaign and tools/perf-report put it there).
from suite_inputs import kind_of, shown  # noqa: F401 (output_file and perf_report import them from here)

FORMAT = "suite-results-1"

# Limits checked before reading (a results file's /compare holds tens of rows; a file that
# claims more is corrupt or not ours, and reading it whole could exhaust memory).
MAX_COMPARE_ROWS = 100_000
MAX_COMPARE_BYTES = 64 << 20   # rows x the row size of the stored type
MAX_TEXT_BYTES = 4096          # one string: an attribute or a /compare cell
# The ranks of a run: an MPI rank count is a positive C int.
MAX_NRANKS = 2**31 - 1
# /phases: an app records tens of phases; each holds one number per rank.
MAX_PHASES = 10_000
MAX_INPUT_ATTRIBUTES = 10_000

COLUMNS_TEXT = ("term", "source", "kind")
COLUMNS_NUMBER = ("measured", "modelled", "relative_error")


class NotOurs(Exception):
    """An input or output refused: the message names the file and the object."""


# ---------------------------------------------------------------- how text is shown

def quote(value, limit=24):
    """A value from a file as quoted in an error message: at most `limit` bytes, then "...";
    control and non-ASCII bytes as \\xNN; in double quotes (as instrument::quote_token)."""
    raw = value.encode("utf-8", "surrogateescape") if isinstance(value, str) else bytes(value)
    cut = raw[:limit]
    body = "".join(chr(b) if 0x20 <= b < 0x7F else f"\\x{b:02x}" for b in cut)
    return f"\"{body}{'...' if len(raw) > limit else ''}\""


def hdf5_reason(err):
    """h5py's message for a failed HDF5 call, on one line and short."""
    msg = " ".join(str(err).split())
    return msg[:200] + ("..." if len(msg) > 200 else "") if msg else type(err).__name__


def model_of(model, term):
    if model:
        return model
    return term.split("/", 1)[0] if "/" in term else term


# ---------------------------------------------------------------- inputs

def require_regular_input(path):
    """Refuses, without blocking, a missing or unreadable path and anything that is not a
    regular file (a FIFO with no writer would block open(); HDF5 opens without O_NONBLOCK)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except FileNotFoundError:
        raise NotOurs(f"{shown(path)}: no such file") from None
    except OSError as e:
        raise NotOurs(f"{shown(path)}: cannot open: {e.strerror or e}") from None
    try:
        mode = os.fstat(fd).st_mode
    finally:
        os.close(fd)
    if not stat.S_ISREG(mode):
        raise NotOurs(f"{shown(path)}: is {kind_of(mode)}, expected a regular file "
                      "(a suite results file)")


class Reader:
    """Reads the objects perf-report and the campaign report need from one open results file, each checked for
    kind, shape, type and size before its data is read. Every failure is NotOurs naming
    the file and the object."""

    # What h5py raises when the HDF5 library fails on a damaged file or an object it cannot
    # map (caught only around h5py calls, turned into one line naming the object).
    HDF5_ERRORS = (OSError, KeyError, RuntimeError, ValueError, TypeError)

    def __init__(self, h5py, f, path):
        self.h5py = h5py
        self.f = f
        self.path = shown(path)

    def fail(self, where, what):
        raise NotOurs(f"{self.path}:{where}: {what}")

    def child(self, name, expected_class, required):
        """The object /name: a hard or soft link to an object of expected_class (never an
        external link: it would open another file, possibly a FIFO). None if absent and not
        required."""
        where = "/" + name
        h5py = self.h5py
        try:
            link = self.f.get(name, getlink=True)
        except self.HDF5_ERRORS as e:
            self.fail(where, f"cannot read the link: {hdf5_reason(e)}")
        if link is None:
            if required:
                self.fail(where, f"missing {describe_class(expected_class)}")
            return None
        if isinstance(link, h5py.ExternalLink):
            self.fail(where, f"expected a {describe_class(expected_class)}, found an external link "
                             "(to another file; refused)")
        try:
            cls = self.f.get(name, getclass=True)
            obj = self.f[name] if cls is not None else None
        except self.HDF5_ERRORS as e:
            self.fail(where, f"cannot open: {hdf5_reason(e)}")
        if obj is None:
            self.fail(where, f"expected a {describe_class(expected_class)}, found a dangling link")
        if not isinstance(obj, expected_class):
            self.fail(where, f"expected a {describe_class(expected_class)}, found "
                             f"{describe_class(type(obj))}")
        return obj

    def attribute(self, obj, objpath, name, kind, required):
        """A scalar attribute of kind "string" (str) or "integer" (int) or "value" (a string
        or a real number). None if absent and not required."""
        where = f"{objpath} attribute '{shown(name)}'"
        try:
            present = name in obj.attrs
        except self.HDF5_ERRORS as e:
            self.fail(where, f"cannot read: {hdf5_reason(e)}")
        if not present:
            if required:
                self.fail(where, "missing")
            return None
        try:
            aid = obj.attrs.get_id(name)
            space = aid.get_space().get_simple_extent_type()
            shape = aid.shape
            dtype = aid.dtype
        except self.HDF5_ERRORS as e:
            self.fail(where, f"cannot read its type: {hdf5_reason(e)}")
        expected = {"string": "a scalar string", "integer": "a scalar integer",
                    "value": "a scalar string or number"}[kind]
        if space != self.h5py.h5s.SCALAR or shape != ():
            found = "an empty (null) attribute" if space == self.h5py.h5s.NULL else \
                f"an array of shape {shape}"
            self.fail(where, f"expected {expected}, found {found}")
        strinfo = self.h5py.check_string_dtype(dtype)
        if strinfo is None and dtype.kind not in "iuf":
            self.fail(where, f"expected {expected}, found {describe_dtype(self.h5py, dtype)}")
        if kind == "string" and strinfo is None:
            self.fail(where, f"expected {expected}, found {describe_dtype(self.h5py, dtype)}")
        if kind == "integer" and dtype.kind not in "iu":
            self.fail(where, f"expected {expected}, found {describe_dtype(self.h5py, dtype)}")
        if strinfo is not None and strinfo.length is not None and strinfo.length > MAX_TEXT_BYTES:
            self.fail(where, f"expected a string of at most {MAX_TEXT_BYTES} bytes, found a "
                             f"fixed-length string type of {strinfo.length} bytes")
        try:
            value = obj.attrs[name]
        except self.HDF5_ERRORS as e:
            self.fail(where, f"cannot read: {hdf5_reason(e)}")
        if strinfo is not None:
            return self.text(value, where)
        if dtype.kind in "iu":
            return int(value)
        return float(value)

    def text(self, value, where):
        """UTF-8 text of at most MAX_TEXT_BYTES from h5py's bytes or (surrogate-escaped) str."""
        raw = value.encode("utf-8", "surrogateescape") if isinstance(value, str) else bytes(value)
        if len(raw) > MAX_TEXT_BYTES:
            self.fail(where, f"expected a string of at most {MAX_TEXT_BYTES} bytes, found "
                             f"{len(raw)} bytes: {quote(raw)}")
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            self.fail(where, f"expected UTF-8 text, found {quote(raw)}")

    def compare_table(self):
        """/compare as a list of row dicts, after checking it is a 1-D compound dataset with
        the layout's columns, stored in this file, of a size below the caps."""
        h5py = self.h5py
        ds = self.child("compare", h5py.Dataset, required=True)
        where = "/compare"
        try:
            space = ds.id.get_space().get_simple_extent_type()
            shape = ds.shape
            dtype = ds.dtype
            external = ds.id.get_create_plist().get_external_count()
            virtual = ds.is_virtual
        except self.HDF5_ERRORS as e:
            self.fail(where, f"cannot read its type: {hdf5_reason(e)}")
        if space != h5py.h5s.SIMPLE or shape is None or len(shape) != 1:
            found = "a scalar" if space == h5py.h5s.SCALAR else \
                "an empty (null) dataset" if space == h5py.h5s.NULL else f"shape {shape}"
            self.fail(where, f"expected a 1-D table of rows, found {found}")
        if dtype.names is None:
            self.fail(where, f"expected a table of rows (a compound type), found "
                             f"{describe_dtype(h5py, dtype)}")
        if external or virtual:
            self.fail(where, "expected a table stored in this file, found one whose data is in "
                             "other files (external storage or a virtual dataset; refused)")
        rows = shape[0]
        if rows > MAX_COMPARE_ROWS or rows * dtype.itemsize > MAX_COMPARE_BYTES:
            self.fail(where, f"expected at most {MAX_COMPARE_ROWS} rows of at most "
                             f"{MAX_COMPARE_BYTES >> 20} MiB, found {rows} rows of "
                             f"{dtype.itemsize} bytes; not read")
        for col in COLUMNS_TEXT + COLUMNS_NUMBER:
            if col not in dtype.names:
                self.fail(where, f"missing column '{col}'")
        columns = list(COLUMNS_TEXT + COLUMNS_NUMBER) + (["model"] if "model" in dtype.names else [])
        for col in columns:
            cdt = dtype.fields[col][0]
            if col in COLUMNS_NUMBER:
                ok = cdt.shape == () and cdt.kind in "iuf"
                expected = "a number"
            else:
                info = h5py.check_string_dtype(cdt)
                ok = cdt.shape == () and info is not None
                expected = "a string"
                if ok and info.length is not None and info.length > MAX_TEXT_BYTES:
                    self.fail(f"{where} column '{shown(col)}'",
                              f"expected strings of at most {MAX_TEXT_BYTES} bytes, found a "
                              f"fixed-length string type of {info.length} bytes")
            if not ok:
                self.fail(f"{where} column '{shown(col)}'",
                          f"expected {expected} per row, found {describe_dtype(h5py, cdt)}")
        try:
            table = ds.fields(columns)[()] if rows else []
        except self.HDF5_ERRORS as e:
            self.fail(where, f"cannot read: {hdf5_reason(e)}")
        out = []
        for i, r in enumerate(table):
            cell = lambda col: f"{where} row {i} column '{col}'"  # noqa: E731
            term = self.text(r["term"], cell("term"))
            model = self.text(r["model"], cell("model")) if "model" in columns else ""
            kind = self.text(r["kind"], cell("kind"))
            if kind not in ("total", "part"):
                self.fail(cell("kind"), f"expected \"total\" or \"part\", found {quote(kind)}")
            row = {"model": model_of(model, term), "kind": kind, "term": term,
                   "source": self.text(r["source"], cell("source"))}
            for col in COLUMNS_NUMBER:
                row[col] = float(r[col])
            bad = [f"{col} = {row[col]!r}" for col in ("measured", "modelled")
                   if not (math.isfinite(row[col]) and row[col] >= 0)]
            row["problem"] = ", ".join(bad)
            out.append(row)
        return out


def describe_class(cls):
    name = getattr(cls, "__name__", str(cls))
    return {"Dataset": "dataset", "Group": "group", "Datatype": "named datatype",
            "File": "group"}.get(name, name)


def describe_dtype(h5py, dtype):
    if dtype.shape:
        return f"an array of {dtype.shape} per element"
    if dtype.names:
        return "a compound type"
    if h5py.check_string_dtype(dtype) is not None:
        return "a string type"
    if h5py.check_vlen_dtype(dtype) is not None:
        return "a variable-length sequence"
    return {"i": "an integer type", "u": "an unsigned integer type", "f": "a floating-point type",
            "b": "a boolean type", "c": "a complex type", "O": "an object reference type",
            "V": "an opaque type", "S": "a string type"}.get(dtype.kind, f"type {dtype}")


def import_h5py():
    try:
        import h5py  # imported here so --help works without it
    except ImportError as e:
        raise NotOurs(f"cannot import h5py ({e}): run under /usr/bin/python3 with Debian's "
                      "python3-h5py") from None
    return h5py


class LibraryCrash(NotOurs):
    """The HDF5 library crashed (or hung) on a damaged file, in the child reading it."""


class ReaderBug(Exception):
    """An exception of our own reading code (not a refusal): a bug to fix."""


READ_TIMEOUT_S = 60  # the few objects read here take well under a second


def read_run(path, xname="nranks"):
    """One results file as a dict: attrs (app, nranks, date), x (the value of xname), the
    compare rows. Raises NotOurs for any content of the file, ReaderBug for a bug of ours."""
    return read_in_child(path, read_run_here, xname)


def read_results(path):
    """One results file as the campaign report reads it: attrs (app, nranks, date, host,
    threads), rows (/compare), phases ({name: {"inclusive": [s per rank], "exclusive": [...]}},
    {} when the file has no /phases), input ({name: text}) and has_trace. Raises NotOurs or
    ReaderBug as read_run."""
    return read_in_child(path, read_results_here)


def read_in_child(path, reader, *args):
    """reader(path, *args) run in a child process.

    The HDF5 library (1.10 here) can crash on a damaged file (h5dump too: e.g. a corrupt
    global heap under a variable-length string): the reading runs in a child process, so a
    crash or a hang in the library becomes one line naming the file."""
    import_h5py()  # once, in the parent: each child starts with it loaded
    require_regular_input(path)
    readable, writable = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns, never runs the parent's exit handlers
        status = 0
        try:
            os.close(readable)
            # Nothing of the child's reaches the terminal: glibc's "free(): invalid pointer"
            # before a library abort would be a second line under our one.
            quiet = os.open(os.devnull, os.O_WRONLY)
            os.dup2(quiet, 1)
            os.dup2(quiet, 2)
            try:
                result = ("ok", reader(path, *args))
            except NotOurs as e:
                result = ("refused", str(e))
            except MemoryError:
                result = ("refused", f"{shown(path)}: reading it needs more memory than this "
                                     "process can have (a damaged file?)")
            except BaseException:  # noqa: B902 -- reported to the parent as a bug of ours
                import traceback
                result = ("bug", traceback.format_exc())
            with os.fdopen(writable, "wb") as out:
                pickle.dump(result, out)
        except BaseException:  # noqa: B902
            status = 3
        finally:
            os._exit(status)
    os.close(writable)
    data, timed_out = read_all(readable, READ_TIMEOUT_S)
    if timed_out:
        os.kill(pid, signal.SIGKILL)
    _, wstatus = os.waitpid(pid, 0)
    if timed_out:
        raise LibraryCrash(f"{shown(path)}: reading it took more than {READ_TIMEOUT_S} s; stopped "
                           "(the HDF5 library hung on a damaged file?)")
    if os.WIFSIGNALED(wstatus):
        sig = os.WTERMSIG(wstatus)
        name = signal.Signals(sig).name if sig in signal.valid_signals() else str(sig)
        raise LibraryCrash(f"{shown(path)}: the HDF5 library crashed reading it ({name}): the file "
                           "is damaged")
    if os.WEXITSTATUS(wstatus) != 0 or not data:
        raise ReaderBug(f"the child reading {shown(path)} exited with status "
                        f"{os.WEXITSTATUS(wstatus)} without a result")
    kind, value = pickle.loads(data)
    if kind == "refused":
        raise NotOurs(value)
    if kind == "bug":
        raise ReaderBug(value)
    return value


def read_all(fd, timeout_s):
    """Everything from fd until EOF, and whether the deadline passed first."""
    deadline = time.monotonic() + timeout_s
    chunks = []
    with os.fdopen(fd, "rb", buffering=0) as f:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([f], [], [], left)[0]:
                return b"".join(chunks), True
            chunk = f.read(1 << 16)
            if not chunk:
                return b"".join(chunks), False
            chunks.append(chunk)


def read_run_here(path, xname="nranks"):
    """read_run in this process (a crash of the HDF5 library ends it)."""
    h5py, f = open_results(path)
    with f:
        rd = Reader(h5py, f, path)
        attrs = root_attributes(rd)
        inputs = rd.child("input", h5py.Group, required=False)
        x = x_value(rd, inputs, attrs, xname)
        rows = rd.compare_table()
    return {"path": path, "attrs": attrs, "x": x, "rows": rows}


def read_results_here(path):
    """read_results in this process (a crash of the HDF5 library ends it)."""
    h5py, f = open_results(path)
    with f:
        rd = Reader(h5py, f, path)
        attrs = root_attributes(rd)
        attrs["host"] = rd.attribute(f, "/", "host", "string", required=False)
        attrs["threads"] = rd.attribute(f, "/", "threads", "integer", required=False)
        rows = rd.compare_table()
        marked = compare_marked(rd, h5py)
        phases = read_phases(rd, attrs["nranks"])
        inputs = read_inputs(rd)
        has_trace = rd.child("trace", h5py.Group, required=False) is not None
    return {"path": path, "attrs": attrs, "rows": rows, "phases": phases, "input": inputs,
            "has_trace": has_trace, "marked": marked}


def compare_marked(rd, h5py):
    """Why the run marked its own comparison unreliable (/compare's reliable = 0 and its
    unreliable_because: a busy machine, another placement of its CPUs than its probe's, a CPU
    slower than the others; instrument/machine_load.hpp, core_round_trip.hpp, uneven_cpus.hpp),
    "" when it did not."""
    ds = rd.child("compare", h5py.Dataset, required=False)
    if ds is None:
        return ""
    reliable = rd.attribute(ds, "/compare", "reliable", "integer", required=False)
    if reliable is None or reliable != 0:
        return ""
    return rd.attribute(ds, "/compare", "unreliable_because", "string", required=False) or "unreliable (no reason)"


def open_results(path):
    """(h5py, the open file) after checking it is a regular HDF5 file of our format."""
    h5py = import_h5py()
    require_regular_input(path)
    try:
        is_hdf5 = h5py.is_hdf5(path)
    except Reader.HDF5_ERRORS as e:
        raise NotOurs(f"{shown(path)}: cannot read: {hdf5_reason(e)}") from None
    if not is_hdf5:
        raise NotOurs(f"{shown(path)}: not an HDF5 file (expected a suite results file)")
    try:
        f = h5py.File(path, "r")
    except Reader.HDF5_ERRORS as e:
        raise NotOurs(f"{shown(path)}: cannot open as HDF5 (damaged or truncated?): "
                      f"{hdf5_reason(e)}") from None
    try:
        rd = Reader(h5py, f, path)
        fmt = rd.attribute(f, "/", "format", "string", required=False)
        if fmt is None:
            raise NotOurs(f"{shown(path)}: not a suite results file (no 'format' attribute; "
                          f"expected format = \"{FORMAT}\")")
        if fmt != FORMAT:
            raise NotOurs(f"{shown(path)}: not a suite results file of this version "
                          f"(format = {quote(fmt)}, expected \"{FORMAT}\")")
    except BaseException:
        f.close()
        raise
    return h5py, f


def root_attributes(rd):
    f = rd.f
    attrs = {"app": rd.attribute(f, "/", "app", "string", required=False),
             "date": rd.attribute(f, "/", "date", "string", required=False),
             "nranks": rd.attribute(f, "/", "nranks", "integer", required=False)}
    if attrs["nranks"] is not None and not 1 <= attrs["nranks"] <= MAX_NRANKS:
        rd.fail("/ attribute 'nranks'", f"expected an integer in [1, {MAX_NRANKS}], "
                                        f"found {attrs['nranks']}")
    return attrs


def read_phases(rd, nranks):
    """/phases/<name>/{inclusive,exclusive}: one finite number >= 0 per rank each."""
    h5py = rd.h5py
    group = rd.child("phases", h5py.Group, required=False)
    if group is None:
        return {}
    try:
        names = list(group.keys())
    except Reader.HDF5_ERRORS as e:
        rd.fail("/phases", f"cannot list: {hdf5_reason(e)}")
    if len(names) > MAX_PHASES:
        rd.fail("/phases", f"expected at most {MAX_PHASES} phases, found {len(names)}")
    phases = {}
    for name in names:
        where = f"/phases/{shown(name)}"
        rd.child(f"phases/{name}", h5py.Group, required=True)
        one = {}
        for series in ("inclusive", "exclusive"):
            d = rd.child(f"phases/{name}/{series}", h5py.Dataset, required=True)
            try:
                shape, dtype = d.shape, d.dtype
            except Reader.HDF5_ERRORS as e:
                rd.fail(f"{where}/{series}", f"cannot read its type: {hdf5_reason(e)}")
            if shape is None or len(shape) != 1 or dtype.kind not in "iuf" or \
                    (nranks is not None and shape[0] != nranks) or shape[0] > MAX_NRANKS or \
                    shape[0] > MAX_COMPARE_ROWS:
                rd.fail(f"{where}/{series}", f"expected one number per rank ({nranks} ranks), "
                                             f"found shape {shape} of {describe_dtype(h5py, dtype)}")
            try:
                values = [float(v) for v in d[()]]
            except Reader.HDF5_ERRORS as e:
                rd.fail(f"{where}/{series}", f"cannot read: {hdf5_reason(e)}")
            bad = [v for v in values if not (math.isfinite(v) and v >= 0)]
            if bad:
                rd.fail(f"{where}/{series}", f"expected seconds >= 0, found {bad[0]!r}")
            one[series] = values
        phases[rd.text(name.encode("utf-8", "surrogateescape"), where)] = one
    return phases


def read_inputs(rd):
    """/input's attributes as text (numbers as written by repr)."""
    h5py = rd.h5py
    group = rd.child("input", h5py.Group, required=False)
    if group is None:
        return {}
    try:
        names = list(group.attrs.keys())
    except Reader.HDF5_ERRORS as e:
        rd.fail("/input", f"cannot list its attributes: {hdf5_reason(e)}")
    if len(names) > MAX_INPUT_ATTRIBUTES:
        rd.fail("/input", f"expected at most {MAX_INPUT_ATTRIBUTES} attributes, found {len(names)}")
    out = {}
    for name in names:
        if name == "deck_text":  # the whole deck: not a parameter
            continue
        value = rd.attribute(group, "/input", name, "value", required=False)
        out[name] = value if isinstance(value, str) else repr(value)
    return out


def x_value(rd, inputs, attrs, name):
    """The file's x for plots and CSV: the /input attribute `name` (a string as given, or a
    number), else the root attribute of that name; it must be a finite number."""
    where, raw = "/input", None
    if inputs is not None:
        raw = rd.attribute(inputs, "/input", name, "value", required=False)
    if raw is None:
        where = "/"
        raw = rd.attribute(rd.f, "/", name, "value", required=False)
    if raw is None:
        rd.fail("/input", f"no input or root attribute '{shown(name)}' for --x")
    try:
        x = float(raw)
    except ValueError:
        x = None
    if x is None or not math.isfinite(x):
        rd.fail(f"{where} attribute '{shown(name)}'",
                f"expected a finite number (for --x), found {quote(str(raw))}")
    return x


