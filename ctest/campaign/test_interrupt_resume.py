"""An interrupted campaign loses no finished run (issue 38): SIGINT to the runner while a
step runs kills that step's processes, makes it pending again and ends the runner with exit
130 and one line; `run --resume` then finishes the campaign without rerunning any step that
was done (their `started` stamps and files are untouched), and refuses nothing it should
not. A campaign directory that is not empty is refused without --resume.

Usage: /usr/bin/python3 test_interrupt_resume.py BUILD_DIR
"""

import json
import os
import signal
import subprocess
import sys
import time

from campaign_testlib import RUNNER, build_dir, check, check_equal, manifest, run, scratch, write

BUILD = build_dir()
TMP = scratch()
MARK = os.path.join(TMP, "slow-started")

SPEC = f"""
[campaign]
name = "interrupt"
repetitions = 2

[[group]]
name = "sw-cal"
app = "sweep3d"
role = "calibrate"
program = "sweep3d/sweep3d"
ranks = 1
args = ["{{inputs}}/sweep3d/small.input", "--results", "{{results}}"]

[[group]]
name = "slow"
app = "sweep3d"
role = "project"
program = "/bin/sh"
args = ["-c", "echo $$ > {MARK}.{{rep}}; sleep 60; echo n,t > {{csv}}"]
"""

spec_path = write(os.path.join(TMP, "interrupt.toml"), SPEC)
out = os.path.join(TMP, "out")
runner = subprocess.Popen([sys.executable, RUNNER, "run", spec_path, "--out", out, "--build", BUILD],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
# Wait for repetition 1's slow step to be running (its shell wrote its pid), then interrupt.
deadline = time.monotonic() + 60
while not os.path.exists(MARK + ".1") and time.monotonic() < deadline and runner.poll() is None:
    time.sleep(0.05)
check(os.path.exists(MARK + ".1"), "the slow step never started")
time.sleep(0.3)
runner.send_signal(signal.SIGINT)
stdout, stderr = runner.communicate(timeout=30)
check_equal(runner.returncode, 130, f"interrupted exit status; stderr:\n{stderr}")
check_equal(stderr.splitlines()[-1], "interrupted: 1 done, resume with --resume",
            "the interruption line")
with open(MARK + ".1") as f:
    slow_pid = int(f.read())
try:
    with open(f"/proc/{slow_pid}/stat") as f:
        slow_state = f.read().rsplit(")", 1)[1].split()[0]
except OSError:
    slow_state = "gone"
check(slow_state in ("gone", "Z"), "the interrupted step's process still runs")

m = manifest(out)
check_equal([(s["name"], s["rep"], s["status"]) for s in m["steps"]],
            [("sw-cal", 1, "done"), ("slow", 1, "pending"), ("sw-cal", 2, "pending"),
             ("slow", 2, "pending")], "steps after the interruption")
interrupted = m["steps"][1]
check_equal((interrupted["started"], interrupted["error"]), (None, None), "the interrupted step reset")
check(not os.path.exists(os.path.join(out, interrupted["dir"], "stdout.txt")),
      "the interrupted step's partial files are left")
done = m["steps"][0]
results = os.path.join(out, done["results"])
results_mtime = os.stat(results).st_mtime_ns

# Without --resume the directory is refused, with the way out.
again = run("run", spec_path, "--out", out, "--build", BUILD)
check_equal((again.returncode, again.stderr),
            (2, f"suite-campaign: error: {out}: not empty; use --resume to continue the campaign in it\n"),
            "a second run without --resume")

# Resume, with the slow steps made fast: same spec bytes are required, so the shell's sleep
# is shortened by the environment instead (PATH: a `sleep` that returns at once).
fast = os.path.join(TMP, "fastbin")
os.makedirs(fast)
write(os.path.join(fast, "sleep"), "#!/bin/sh\nexit 0\n")
os.chmod(os.path.join(fast, "sleep"), 0o755)
env = dict(os.environ, PATH=fast + os.pathsep + os.environ["PATH"])
resumed = run("run", spec_path, "--out", out, "--build", BUILD, "--resume", env=env)
check_equal(resumed.returncode, 0, f"resume exit status; stderr:\n{resumed.stderr}")
m = manifest(out)
check_equal([s["status"] for s in m["steps"]], ["done"] * 4, "after the resume")
check_equal(m["steps"][0]["started"], done["started"], "the done step was run again (started)")
check_equal(os.stat(results).st_mtime_ns, results_mtime, "the done step's results file was rewritten")
progress = [l for l in resumed.stderr.splitlines() if l.startswith("[")]
check_equal(len(progress), 3, f"progress lines of the resume:\n{resumed.stderr}")
check(progress[0].startswith("[2/4 done, 0 failed, 2 left, "), f"first resumed line: {progress[0]!r}")
with open(os.path.join(out, m["steps"][1]["dir"], "status.json")) as f:
    check_equal(json.load(f)["status"], "done", "status.json of the resumed step")
print("the interruption and the resume pass")
