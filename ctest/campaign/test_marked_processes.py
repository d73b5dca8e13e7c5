"""marked_processes.stop (the local backend's way of ending a step and its companions): every
process that carries the command's mark ends before stop returns, also one that its launcher
left behind in a session of its own (the orphaned proxy and rank of an mpiexec killed while it
started up, CI 2026-12-07); SIGTERM reaches such an orphan before SIGKILL; a rank under a real
mpiexec ends by SIGTERM; a process with another mark, or with a mark whose value only begins
like this one's, is left alone. Then through the runner: a step that leaves a process deaf to
SIGTERM behind, in a session of its own, is done and nothing of it runs once the runner
returned.

Usage: /usr/bin/python3 test_marked_processes.py BUILD_DIR
"""

import os
import signal
import subprocess
import time

from campaign_testlib import build_dir, check, check_equal, manifest, run, scratch, write
from suite_campaign import marked_processes

BUILD = build_dir()
TMP = scratch()
GRACE = 10.0
marks = []  # every mark this test gave, for the clean-up


def start(script, mark):
    """sh -c script in a session of its own with the mark in its environment."""
    env = dict(os.environ)
    env[marked_processes.MARK_NAME] = mark
    marks.append(mark)
    return subprocess.Popen(["sh", "-c", script], env=env, start_new_session=True, cwd=TMP,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def pid_file(name):
    """Shell that writes its pid to `name` whole (a reader never sees it half written)."""
    return f"echo $$ > {name}.tmp; mv {name}.tmp {name}"


def wait_for_pid(name, seconds=60.0):
    path = os.path.join(TMP, name)
    deadline = time.monotonic() + seconds
    while not os.path.exists(path):
        check(time.monotonic() < deadline, f"{path} not written in {seconds:g} s")
        time.sleep(0.02)
    with open(path) as f:
        return int(f.read())


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def clean_up():
    """Whatever a failed check left running, so that ctest does not wait for it."""
    for mark in marks:
        for pid in marked_processes.marked(mark):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


try:
    # 1. An orphan in a session of its own that ignores SIGTERM: the leader's group is gone at
    #    once, and a stop that waited for the group alone would return with the orphan running.
    mark = marked_processes.new_mark()
    leader = start(f"setsid sh -c 'trap \"\" TERM; {pid_file('deaf.pid')}; while :; do sleep 0.05; done' & exit 0",
                   mark)
    deaf = wait_for_pid("deaf.pid")
    check(deaf in marked_processes.marked(mark), "the orphan carries the mark")
    started = time.monotonic()
    left = marked_processes.stop([leader], [mark], GRACE)
    check_equal(left, [], "processes left by stop")
    check(not alive(deaf), "an orphan deaf to SIGTERM outlived stop")
    check(time.monotonic() - started >= GRACE, "SIGKILL came before the grace had passed")
    check_equal(marked_processes.marked(mark), [], "marked processes after stop")

    # 2. An orphan that ends on SIGTERM gets it once the leader's group is gone, and so ends
    #    without waiting for the grace.
    mark = marked_processes.new_mark()
    leader = start(f"setsid sh -c 'trap \"echo term > heard; exit 0\" TERM; {pid_file('hearing.pid')}; "
                   "while :; do sleep 0.05; done' & exit 0", mark)
    hearing = wait_for_pid("hearing.pid")
    started = time.monotonic()
    check_equal(marked_processes.stop([leader], [mark], GRACE), [], "processes left by stop")
    check(not alive(hearing), "the orphan that hears SIGTERM outlived stop")
    check(os.path.exists(os.path.join(TMP, "heard")), "the orphan was killed without its SIGTERM")
    check(time.monotonic() - started < GRACE / 2, "stop waited for the grace with an orphan that ends on SIGTERM")

    # 3. A rank under mpiexec (its proxy and the rank each in a session of their own) ends by
    #    SIGTERM; a process with another mark, and one whose mark's value only begins with this
    #    one's, run on.
    mark = marked_processes.new_mark()
    others = [start(f"{pid_file('other.pid')}; exec sleep 600", marked_processes.new_mark()),
              start(f"{pid_file('longer.pid')}; exec sleep 600", mark + "0")]
    other_pids = [wait_for_pid(name) for name in ("other.pid", "longer.pid")]
    rank = start("exec mpiexec -n 1 sh -c 'trap \"echo term > rank.heard; exit 0\" TERM; "
                 f"{pid_file('rank.pid')}; while :; do sleep 0.05; done'", mark)
    rank_pid = wait_for_pid("rank.pid")
    check(rank_pid in marked_processes.marked(mark), "the rank carries mpiexec's mark")
    check(len(marked_processes.marked(mark)) >= 3, "mpiexec, its proxy and the rank carry the mark")
    check_equal(marked_processes.stop([rank], [mark], GRACE), [], "processes left by stop")
    check(not alive(rank_pid), "the rank outlived stop")
    check(os.path.exists(os.path.join(TMP, "rank.heard")), "the rank was killed without a SIGTERM")
    check_equal(marked_processes.marked(mark), [], "marked processes after stop")
    check(all(alive(pid) for pid in other_pids), "a process with another mark was stopped")
    for p in others:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()

    # 4. Through the runner: a step that leaves a process deaf to SIGTERM behind in a session
    #    of its own (as an orphaned rank is) is done, and that process ends before the runner
    #    returns (the step's mark, backend_local.py).
    spec = write(os.path.join(TMP, "leaves.toml"), """
[campaign]
name = "leaves"
timeout = 60

[[group]]
name = "leaver"
app = "sweep3d"
role = "project"
program = "/bin/sh"
args = ["-c", "setsid sh -c 'trap \\"\\" TERM; echo $$ > LEFT.tmp; mv LEFT.tmp LEFT; exec sleep 600' < /dev/null > /dev/null 2>&1 & while [ ! -e LEFT ]; do sleep 0.02; done; echo n,t > {csv}"]
""".replace("LEFT", os.path.join(TMP, "left.pid")))
    out = os.path.join(TMP, "leaves")
    result = run("run", spec, "--out", out, "--build", BUILD)
    check_equal(result.returncode, 0, f"runner: exit status; stderr:\n{result.stderr}")
    check_equal([(s["status"], s["error"]) for s in manifest(out)["steps"]], [("done", None)], "runner: the step")
    left_pid = wait_for_pid("left.pid")
    check(not alive(left_pid), "the process the step left behind outlived the runner")
finally:
    clean_up()
print("marked processes: orphans, mpiexec's rank, the other marks and the runner's step pass")
