"""Runs one hostile case and classifies what happened.

The harness makes itself a child subreaper (prctl), so a rank whose launcher died, or a
process that left its session (MPICH's proxies and ranks call setsid), is still its
descendant: every descendant is found through /proc's parent links, its resident memory
summed while the case runs, and killed when the case ends. A case's processes are killed
when they take more than BIGMEM_BYTES together (the machine is protected, the case is
BIGMEM) or outlive the timeout (HANG).
"""
import ctypes
import os
import re
import signal
import stat
import subprocess
import time
from dataclasses import dataclass, field

GIB = 1 << 30
BIGMEM_BYTES = 8 * GIB
# The free memory every case is told it has (SUITE_MEMORY_AVAILABLE, instrument's
# memory_budget.hpp), below BIGMEM_BYTES: a program with an up-front memory check refuses
# what needs more than 6 GiB, so a case still going over 8 GiB is a program without one,
# whatever this machine's own free memory.
MEMORY_STAND_IN = "6GiB"
PR_SET_CHILD_SUBREAPER = 36

# The classes, in the order a case is given the first that applies.
CLASSES = ("CRASH", "HANG", "BIGMEM", "CLOBBER", "LEFTOVER", "TRACEBACK", "EXIT0", "MULTILINE", "OK")

SANITIZER = re.compile(r"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:")
# One line that is still no clear error: a bare exception text or a launcher's banner.
UNCLEAR = re.compile(r"^(std::\w+|terminate called|.*what\(\):|.*filesystem error|Abort\(|BSP error:|=+$)")
TMP_NAME = re.compile(r"\.tmp\.")
NONSENSE = re.compile(r"(?<![\w.])[-+]?(nan|inf)(?!\w)", re.IGNORECASE)


def become_subreaper():
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def process_table():
    """{pid: (ppid, rss bytes)} of every process visible in /proc."""
    table = {}
    page = os.sysconf("SC_PAGE_SIZE")
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # the command name is in parentheses and may hold spaces: split after the last ')'
        rest = stat[stat.rfind(b")") + 2:].split()
        table[int(name)] = (int(rest[1]), int(rest[21]) * page)
    return table


def descendants(root, table):
    children = {}
    for pid, (ppid, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    out, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def kill_descendants(sig=signal.SIGKILL):
    """Kills every descendant of the harness and reaps them (they are ours: subreaper)."""
    for _ in range(50):
        pids = descendants(os.getpid(), process_table())
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        reap_orphans()
        time.sleep(0.02)
    reap_orphans()


def reap_orphans():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


@dataclass
class Case:
    """One command line and what is expected of it.

    expect: "fail" (hostile: one error line, non-zero exit), "ok" (must succeed) or
    "either" (in range or a documented choice: exit 0, or one error line).
    setup(case_dir) prepares outputs (symlinks, precious files) and returns the checks.
    """
    name: str
    argv: list
    expect: str = "fail"
    ranks: int = 0          # 0: run directly; n: under mpiexec -n n
    timeout: float = 30.0
    env: dict = field(default_factory=dict)
    setup: object = None


@dataclass
class Outcome:
    cls: str
    flags: list
    status: str
    seconds: float
    max_rss: int
    stderr: str


def rank_wrapped(argv, ranks, rc_dir, mpiexec):
    """argv under mpiexec, each rank's exit status written to rc_dir/rank.<PMI_RANK>."""
    script = '"$@"; rc=$?; echo $rc > "%s/rank.$PMI_RANK"; exit $rc' % rc_dir
    return [mpiexec, "-n", str(ranks), "/bin/sh", "-c", script, "sh"] + argv


def run_process(argv, cwd, timeout, env, stdout_path, stderr_path):
    """Runs argv; returns (wait status or None on timeout, seconds, max RSS of one process
    (wait4), peak of the tree's summed RSS, killed for memory)."""
    start = time.monotonic()
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err, open(os.devnull, "rb") as nul:
        proc = subprocess.Popen(argv, cwd=cwd, stdin=nul, stdout=out, stderr=err, env=env,
                                start_new_session=True)
    peak_tree, over_memory, status, rusage = 0, False, None, None
    nap = 0.002
    while True:
        pid, wstatus, ru = os.wait4(proc.pid, os.WNOHANG)
        if pid == proc.pid:
            status, rusage = wstatus, ru
            break
        table = process_table()
        tree = sum(table[p][1] for p in descendants(os.getpid(), table) if p in table)
        peak_tree = max(peak_tree, tree)
        if tree > BIGMEM_BYTES:
            over_memory = True
            break
        if time.monotonic() - start > timeout:
            break
        time.sleep(nap)
        nap = min(0.05, nap * 2)
    seconds = time.monotonic() - start
    if status is None:
        kill_descendants()
        try:
            os.wait4(proc.pid, 0)
        except ChildProcessError:
            pass
    else:
        # what the launcher left behind (a rank orphaned by MPI_Abort) dies with the case
        kill_descendants()
    proc.returncode = 0  # reaped by wait4 above; keeps Popen from waiting again
    max_rss = rusage.ru_maxrss * 1024 if rusage else 0
    return status, seconds, max(max_rss, 0), peak_tree, over_memory


def describe_status(status):
    if status is None:
        return "killed by the harness"
    if os.WIFSIGNALED(status):
        return f"signal {signal.Signals(os.WTERMSIG(status)).name}"
    return f"exit {os.WEXITSTATUS(status)}"


def leftovers(*dirs):
    found = []
    for top in dirs:
        for folder, _, files in os.walk(top):
            found += [os.path.join(folder, f) for f in files if TMP_NAME.search(f)]
    return found


def classify(case, status, seconds, max_rss, peak_tree, over_memory, stderr, rank_codes, checks, left, stdout=""):
    """The flags that apply, the first of them in CLASSES order being the case's class."""
    flags = []
    exit_code = os.WEXITSTATUS(status) if status is not None and os.WIFEXITED(status) else None
    if status is not None and os.WIFSIGNALED(status):
        flags.append(("CRASH", describe_status(status)))
    elif exit_code is not None and exit_code >= 126:
        flags.append(("CRASH", f"exit {exit_code}"))
    for r, code in sorted(rank_codes.items()):
        if code >= 126:
            flags.append(("CRASH", f"rank {r} exit {code}"))
    if SANITIZER.search(stderr):
        flags.append(("CRASH", "sanitizer report"))
    if over_memory:
        flags.append(("BIGMEM", f"killed at {peak_tree / GIB:.1f} GiB (all processes)"))
    elif status is None:
        flags.append(("HANG", f"still running after {case.timeout:.0f} s"))
    if max_rss > BIGMEM_BYTES and not over_memory:
        flags.append(("BIGMEM", f"max RSS {max_rss / GIB:.1f} GiB"))
    flags += list(checks)
    if left:
        flags.append(("LEFTOVER", ", ".join(os.path.basename(p) for p in left)))
    if "Traceback (most recent call last)" in stderr:
        flags.append(("TRACEBACK", stderr.strip().splitlines()[-1][:160]))
    lines = [l for l in stderr.splitlines() if l.strip()]
    if exit_code == 0:
        if case.expect == "fail":
            flags.append(("EXIT0", "exit 0" + (f"; stderr: {lines[0][:120]}" if lines else "")))
        nonsense = [l.strip() for l in stdout.splitlines() if NONSENSE.search(l)]
        if nonsense:
            flags.append(("EXIT0", f"exit 0 printing nan/inf: {nonsense[0][:140]}"))
    elif exit_code is not None and exit_code < 126:
        if case.expect == "ok":
            flags.append(("MULTILINE", f"expected success, got exit {exit_code}: "
                                       + (lines[0][:160] if lines else "(no stderr)")))
        elif len(lines) != 1:
            shown = " | ".join(l[:100] for l in lines[:3])
            flags.append(("MULTILINE", f"exit {exit_code}, {len(lines)} stderr lines: {shown}"))
        elif UNCLEAR.search(lines[0]):
            flags.append(("MULTILINE", f"exit {exit_code}, unclear line: {lines[0][:160]}"))
        zero_ranks = sorted(r for r, c in rank_codes.items() if c == 0)
        if zero_ranks:
            flags.append(("EXIT0", f"rank(s) {zero_ranks} exited 0, the run {exit_code}"))
    order = {c: i for i, c in enumerate(CLASSES)}
    flags.sort(key=lambda f: order[f[0]])
    return flags[0][0] if flags else "OK", flags


def run_case(case, case_dir, tree_dirs, mpiexec, base_env):
    """Runs case in case_dir (made empty by the caller); returns its Outcome."""
    checks = case.setup(case_dir) if case.setup else None
    rc_dir = os.path.join(case_dir, ".ranks")
    os.mkdir(rc_dir)
    argv = [str(a) for a in case.argv]
    if case.ranks:
        argv = rank_wrapped(argv, case.ranks, rc_dir, mpiexec)
    env = dict(base_env)
    env.update(case.env)
    out_path = os.path.join(rc_dir, "stdout")
    err_path = os.path.join(rc_dir, "stderr")
    status, seconds, max_rss, peak_tree, over_memory = run_process(
        argv, case_dir, case.timeout, env, out_path, err_path)
    with open(err_path, "rb") as f:
        stderr = f.read(1 << 20).decode("utf-8", "replace")
    with open(out_path, "rb") as f:
        stdout = f.read(4 << 20).decode("utf-8", "replace")
    rank_codes = {}
    for name in os.listdir(rc_dir):
        if name.startswith("rank."):
            with open(os.path.join(rc_dir, name)) as f:
                text = f.read().strip()
            if text.isdigit():
                rank_codes[int(name[5:])] = int(text)
    problems = checks() if checks else []
    for device in ("/dev/null", "/dev/full", "/dev/zero"):  # as root, a bad writer can replace one
        if not stat.S_ISCHR(os.stat(device).st_mode):
            problems.append(("CLOBBER", f"{device} is no longer a character device"))
    left = leftovers(case_dir, *tree_dirs)
    cls, flags = classify(case, status, seconds, max_rss, peak_tree, over_memory, stderr, rank_codes,
                          problems, left, stdout)
    for path in left:  # one case's leftover must not be blamed on the next
        try:
            os.unlink(path)
        except OSError:
            pass
    return Outcome(cls, flags, describe_status(status), seconds, max(max_rss, peak_tree), stderr)
