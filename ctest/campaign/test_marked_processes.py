"""marked_processes.stop (the local backend's way of ending a step and its companions): every
process that carries the command's mark ends before stop returns, also one that its launcher
left behind in a session of its own (the orphaned proxy and rank of an mpiexec killed while it
started up, CI 2026-12-07); SIGTERM reaches such an orphan before SIGKILL; a rank under a real
mpiexec ends by the SIGTERM mpiexec passes on; a process with another mark, or with a mark
whose value only begins like this one's, is left alone.

Usage: /usr/bin/python3 test_marked_processes.py BUILD_DIR
"""

import os
import signal
import subprocess
import time

from campaign_testlib import build_dir, check, check_equal, scratch
from suite_campaign import marked_processes

build_dir()
TMP = scratch()
GRACE = 10.0


def start(script, mark):
    """sh -c script in a session of its own with the mark in its environment."""
    env = dict(os.environ)
    if mark is not None:
        env[marked_processes.MARK_NAME] = mark
    return subprocess.Popen(["sh", "-c", script], env=env, start_new_session=True, cwd=TMP)


def wait_for_file(path, seconds=30.0):
    deadline = time.monotonic() + seconds
    while not os.path.exists(path):
        check(time.monotonic() < deadline, f"{path} not written in {seconds:g} s")
        time.sleep(0.02)
    with open(path) as f:
        return int(f.read().split()[0])


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


# 1. An orphan in a session of its own that ignores SIGTERM: the leader's group is gone at
#    once, and a stop that waited for the group alone would return with the orphan running.
mark = marked_processes.new_mark()
leader = start("setsid sh -c 'trap \"\" TERM; echo $$ > deaf.pid; while :; do sleep 0.05; done' "
               "< /dev/null > /dev/null 2>&1 & exit 0", mark)
deaf = wait_for_file(os.path.join(TMP, "deaf.pid"))
check(deaf in marked_processes.marked(mark), "the orphan carries the mark")
started = time.monotonic()
marked_processes.stop([leader], [mark], GRACE)
check(not alive(deaf), "an orphan deaf to SIGTERM outlived stop")
check(time.monotonic() - started >= GRACE, "SIGKILL came before the grace had passed")
check_equal(marked_processes.marked(mark), [], "marked processes after stop")

# 2. An orphan that ends on SIGTERM gets it once the leader's group is gone, and so ends
#    without waiting for the grace.
mark = marked_processes.new_mark()
leader = start("setsid sh -c 'trap \"echo term > heard; exit 0\" TERM; echo $$ > hearing.pid; "
               "while :; do sleep 0.05; done' < /dev/null > /dev/null 2>&1 & exit 0", mark)
hearing = wait_for_file(os.path.join(TMP, "hearing.pid"))
started = time.monotonic()
marked_processes.stop([leader], [mark], GRACE)
check(not alive(hearing), "the orphan that hears SIGTERM outlived stop")
check(os.path.exists(os.path.join(TMP, "heard")), "the orphan was killed without its SIGTERM")
check(time.monotonic() - started < GRACE / 2, "stop waited for the grace with an orphan that ends on SIGTERM")

# 3. A rank under mpiexec (its proxy and the rank each in a session of their own) ends by the
#    SIGTERM mpiexec passes on; a process with another mark, and one whose mark's value only
#    begins with this one's, run on.
mark = marked_processes.new_mark()
others = [start("echo $$ > other.pid; exec sleep 600", marked_processes.new_mark()),
          start("echo $$ > longer.pid; exec sleep 600", mark + "0")]
other_pids = [wait_for_file(os.path.join(TMP, name)) for name in ("other.pid", "longer.pid")]
rank = start("exec mpiexec -n 1 sh -c 'trap \"echo term > rank.heard; exit 0\" TERM; echo $$ > rank.pid; "
             "while :; do sleep 0.05; done'", mark)
rank_pid = wait_for_file(os.path.join(TMP, "rank.pid"))
check(rank_pid in marked_processes.marked(mark), "the rank carries mpiexec's mark")
check(len(marked_processes.marked(mark)) >= 3, "mpiexec, its proxy and the rank carry the mark")
marked_processes.stop([rank], [mark], GRACE)
check(not alive(rank_pid), "the rank outlived stop")
check(os.path.exists(os.path.join(TMP, "rank.heard")), "the rank did not get mpiexec's SIGTERM")
check_equal(marked_processes.marked(mark), [], "marked processes after stop")
check(all(alive(pid) for pid in other_pids), "a process with another mark was stopped")
for p in others:
    os.killpg(p.pid, signal.SIGKILL)
    p.wait()
print("marked processes: orphans, mpiexec's rank and the other marks pass")
