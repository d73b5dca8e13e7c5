#!/usr/bin/env python3
"""The docs check on pages made to fail: it must name the program that is not built, the
option the program's --help does not list, the file that does not exist, a program written
at a build path where it is not, and README.md's limits, one line each, and exit 1; the
same pages put right must pass with exit 0.

    check_docs_selftest.py CHECK_DOCS.py SCRATCH_DIR
"""
import os
import shutil
import subprocess
import sys

HELP_SCRIPT = """#!/bin/sh
if [ "$1" = "--help" ]; then
  echo "usage: demo-run [options] MESH"
  echo "  --grids N      grids (default 3)"
  echo "  --results FILE results file"
  exit 0
fi
exit 1
"""

GOOD = """# demo

Run `demo-run MESH --grids 3` or, in a block:

```sh
mpiexec -n 2 build/demo/demo-run --results out.h5 inputs/demo.geo   # OUT.smesh is a placeholder
```

The option `--results FILE`; the sources `src/demo.cpp` and `demo.cpp`; `results/x/y.h5` is made
by a run, `../shared/meshes/a.smesh` lies outside, `OUT_DIR/plot.png` is a placeholder.
"""

BAD_LINES = {
    "program": "Run `mpiexec -n 2 demo-walk MESH` to walk.",
    "option": "Then `demo-run MESH --grid 3` (one grid).",
    "bare_option": "Or give `--colour red` to it.",
    "file": "The source is `src/missing.cpp`.",
    "hyphen_program": "And `tycho-nope MESH` prints nothing.",
    "misplaced": "Also `build/elsewhere/demo-run MESH`.",
}
EXPECT = {
    "program": "program demo-walk is not built",
    "option": "demo-run: option --grid is not in `demo-run --help`",
    "bare_option": "option --colour is in the `--help` of no program this page names",
    "file": "file src/missing.cpp does not exist in the repository",
    "hyphen_program": "program tycho-nope is not built",
    "misplaced": "program demo-run is built as <build>/demo/demo-run, not where the page says",
}


def make_tree(root, readme):
    if os.path.exists(root):
        shutil.rmtree(root)
    src = os.path.join(root, "src")
    build = os.path.join(root, "build", "demo")
    for d in (src + "/src", src + "/inputs", build):
        os.makedirs(d)
    open(os.path.join(src, "src", "demo.cpp"), "w").close()
    open(os.path.join(src, "inputs", "demo.geo"), "w").close()
    with open(os.path.join(src, "README.md"), "w") as f:
        f.write(readme)
    prog = os.path.join(build, "demo-run")
    with open(prog, "w") as f:
        f.write(HELP_SCRIPT)
    os.chmod(prog, 0o755)
    return src, os.path.join(root, "build")


def run(check, src, build):
    done = subprocess.run([sys.executable, check, build, "--source", src],
                          capture_output=True, text=True)
    return done.returncode, done.stdout.splitlines()


def main():
    check, scratch = sys.argv[1], sys.argv[2]
    failures = []

    src, build = make_tree(os.path.join(scratch, "good"), GOOD)
    rc, lines = run(check, src, build)
    if rc != 0 or lines:
        failures.append("good page: exit %d, expected 0 and no problems; got %r" % (rc, lines))

    bad = GOOD + "\n".join(BAD_LINES.values()) + "\n"
    src, build = make_tree(os.path.join(scratch, "bad"), bad)
    rc, lines = run(check, src, build)
    if rc != 1:
        failures.append("bad page: exit %d, expected 1" % rc)
    first_bad = GOOD.count("\n") + 1
    for i, key in enumerate(BAD_LINES):
        want = "README.md:%d: %s" % (first_bad + i, EXPECT[key])
        if not any(line.startswith(want) for line in lines):
            failures.append("bad page: no line starting %r in %r" % (want, lines))
    if len(lines) != len(BAD_LINES):
        failures.append("bad page: %d problems, expected %d: %r" % (len(lines), len(BAD_LINES), lines))

    long_readme = GOOD + ("x" * 201) + "\n" + "line\n" * 120
    src, build = make_tree(os.path.join(scratch, "long"), long_readme)
    rc, lines = run(check, src, build)
    for want in ("lines, at most 120", "line of 201 characters, at most 200"):
        if rc != 1 or not any(want in line for line in lines):
            failures.append("long README: expected a problem %r, got exit %d %r" % (want, rc, lines))
    src, build = make_tree(os.path.join(scratch, "wide"), GOOD + ("y" * 150 + "\n") * 60)
    rc, lines = run(check, src, build)
    if rc != 1 or not any("characters, at most 9000" in line for line in lines):
        failures.append("wide README: expected the 9000-character problem, got exit %d %r" % (rc, lines))

    for f in failures:
        print("check_docs_selftest: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
