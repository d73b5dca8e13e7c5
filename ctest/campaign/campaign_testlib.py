"""What the campaign tests share: the build and repository they run against, a scratch
directory per test, and running suite-campaign as a user would (a subprocess).

Usage of a test script: /usr/bin/python3 test_x.py BUILD_DIR
"""

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNNER = os.path.join(REPO, "tools", "suite-campaign")
sys.path.insert(0, os.path.join(REPO, "tools"))


def build_dir():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit(f"usage: {sys.argv[0]} BUILD_DIR")
    return os.path.abspath(sys.argv[1])


def scratch():
    """A fresh directory for this test, also its XDG_CACHE_HOME (no per-user cache shared)."""
    path = tempfile.mkdtemp(prefix="campaign-test-")
    atexit.register(shutil.rmtree, path, True)
    os.environ["XDG_CACHE_HOME"] = os.path.join(path, "cache")
    return path


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def run(*args, **kwargs):
    """suite-campaign ARGS: CompletedProcess with text stdout/stderr."""
    return subprocess.run([sys.executable, RUNNER, *args], capture_output=True, text=True,
                          timeout=kwargs.pop("timeout", 300), **kwargs)


def manifest(out_dir):
    with open(os.path.join(out_dir, "campaign.json")) as f:
        return json.load(f)


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def check_equal(got, expected, what):
    if got != expected:
        raise AssertionError(f"{what}:\n  got      {got!r}\n  expected {expected!r}")
