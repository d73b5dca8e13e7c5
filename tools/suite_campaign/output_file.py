"""The suite's writer rules for the Python tools' outputs (as instrument/output_file.hpp):
a path that is a symbolic link is refused, dangling or not; an existing path that is not a
regular file is refused; data goes to "<target>.tmp.<pid>" renamed over the target when
complete, so a reader never sees a partial file; stale temporaries of dead processes go.

  write_output(path, "CSV", fill)      fill(fd) writes the content; NotOurs on any failure
"""
import os
import stat

from .results import NotOurs, kind_of, shown


class OutputFile:
    """The suite's writer rules (instrument/output_file.hpp), for --csv and --plot: a path
    that is a symbolic link is refused, dangling or not (never written through); an existing
    path that is not a regular file is refused; data goes to "<target>.tmp.<pid>" in the target's directory,
    renamed over the target by commit(); close() without commit() removes the temporary;
    stale temporaries of processes that no longer run are removed first."""

    def __init__(self, path, what):
        self.path, self.what = path, what
        if not path:
            raise NotOurs(f"(empty path): cannot write {what}: no file name")
        self.target = path  # the path itself: a symbolic link is refused, never followed
        require_replaceable(path, self.target, what)
        directory = os.path.dirname(self.target) or "."
        if not os.path.isdir(directory):
            self.fail(f"no directory {shown(directory)}")
        self.temp = f"{self.target}.tmp.{os.getpid()}"
        self.committed = False

    def fail(self, why):
        raise NotOurs(f"{shown(self.path)}: cannot write {self.what}: {why}")

    def open_temp(self):
        """The temporary, created anew (an earlier one of ours is replaced, never followed)."""
        remove_stale_temporaries(self.target)
        try:
            os.unlink(self.temp)
        except FileNotFoundError:
            pass
        except OSError as e:
            self.fail(f"{shown(self.temp)}: {e.strerror or e}")
        try:
            fd = os.open(self.temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                         0o666)
        except OSError as e:
            self.fail(f"{shown(self.temp)}: {e.strerror or e}")
        return fd

    def commit(self):
        try:
            fd = os.open(self.temp, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
            # Checked again: a directory or device put there since the constructor stays.
            require_replaceable(self.path, self.target, self.what)
            os.replace(self.temp, self.target)
        except OSError as e:
            self.fail(e.strerror or str(e))
        self.committed = True

    def close(self):
        if not self.committed:
            try:
                os.unlink(self.temp)
            except OSError:
                pass


def require_replaceable(path, target, what):
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return
    except OSError as e:
        raise NotOurs(f"{shown(path)}: cannot write {what}: {shown(target)}: {e.strerror or e}") from None
    if stat.S_ISREG(mode):
        return
    if stat.S_ISLNK(mode):
        try:
            to = f" (to {shown(os.readlink(target))})"
        except OSError:
            to = ""
        raise NotOurs(f"{shown(path)}: cannot write {what}: it is a symbolic link{to}; refusing to "
                      "write through it; give the real path")
    who = "it" if target == path else f"its target {shown(target)}"
    raise NotOurs(f"{shown(path)}: cannot write {what}: {who} is {kind_of(mode)}, not a regular "
                  "file; refusing to replace it")


def remove_stale_temporaries(target):
    """Removes "<target>.tmp.<pid>" regular files whose process no longer runs."""
    directory = os.path.dirname(target) or "."
    prefix = os.path.basename(target) + ".tmp."
    try:
        names = os.listdir(directory)
    except OSError:
        return  # creating the temporary will report why the directory is unusable
    for name in names:
        digits = name[len(prefix):] if name.startswith(prefix) else ""
        if not (digits.isascii() and digits.isdigit() and len(digits) <= 10):
            continue
        pid = int(digits)
        if pid <= 0 or pid > 2**31 - 1 or pid == os.getpid():  # never kill(0) or kill(-1)
            continue
        try:
            os.kill(pid, 0)
            continue  # alive
        except ProcessLookupError:
            pass
        except OSError:
            continue  # alive under another user (EPERM)
        stale = os.path.join(directory, name)
        try:
            if stat.S_ISREG(os.lstat(stale).st_mode):
                os.unlink(stale)
        except OSError:
            pass


def write_output(path, what, fill):
    """Writes one output file by the rules of OutputFile: fill(fd) writes the content."""
    out = OutputFile(path, what)
    try:
        fd = out.open_temp()
        try:
            fill(fd)
        except OSError as e:
            out.fail(e.strerror or str(e))
        out.commit()
    finally:
        out.close()
