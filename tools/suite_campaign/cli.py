"""suite-campaign: one command from a campaign spec to runs, results and a report (issue 38).

  suite-campaign run SPEC.toml --out DIR [--backend local|slurm] [--resume]
                 [--build BUILD_DIR] [--mpiexec PATH] [--dry-run]
                 [--partition P] [--slurm-time T] [--sbatch-arg ARG]... [--slurm-poll S]
  suite-campaign report DIR
  suite-campaign status DIR
  suite-campaign plot KIND ARGS...
  suite-campaign superstep-kinds PROFILE.csv... [--steps FIRST LAST] [--by-step]

run       checks the spec (one line naming the key on any error, exit 2, nothing written),
          expands it into steps (prepare commands, machine probes, then the runs in the
          spec's order), creates DIR (absent or empty; a DIR holding anything needs
          --resume) and runs every step that is not done, then writes the report. A failed
          run is recorded and the others go on. --resume continues the campaign in DIR,
          made from the same spec, without rerunning any step that is done.
          Exit 0: every step done; 1: some failed; 2: bad spec or arguments; 130:
          interrupted (SIGINT/SIGTERM: the running step is pending again, resume it).
report    writes DIR/report.html, errors.csv and the exports from DIR's results.
status    prints the steps' counts (done, failed, pending, running, submitted) and each
          failed step's one-line error.
plot      draws one of the suite's figures from the file a program wrote (figures/: a
          module a KIND; `plot KIND --help` gives its arguments); a bad input is one line,
          "suite-campaign plot KIND: <file>: <place>: expected ...", exit 1, and no plot.
superstep-kinds  bsplib profiles' supersteps grouped by label, each kind's median comm+sync
          and how many lie within 25% of it (superstep_kinds.py).

--build is the build directory whose programs the spec names (default: build/ beside
tools/); --mpiexec the MPI launcher (default: $MPIEXEC, else mpiexec.mpich or mpiexec on
PATH). The spec's format and the campaign directory are described in spec.py, plan.py and
store.py (and the contract, /work/notes/campaign-design.md).
"""

import argparse
import importlib
import importlib.util
import os
import shlex
import shutil
import sys

from . import plan as plan_module
from . import spec as spec_module
from .backend_local import Interrupted, LocalBackend, Progress, describe_step
from .store import Store, StoreError, check_new

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class UsageError(Exception):
    """One line for stderr; exit 2."""


def _error(message):
    print(f"suite-campaign: error: {message}", file=sys.stderr)


def _find_mpiexec(given):
    for candidate in (given, os.environ.get("MPIEXEC"), shutil.which("mpiexec.mpich"),
                      shutil.which("mpiexec")):
        if candidate:
            return candidate
    return None


def _check_programs(spec_path, spec, steps, build):
    """SpecError-like UsageError for the first program of a step that is not there."""
    keys = {}
    for c in spec.prepare + spec.probes:
        keys[(c.name, c.key.split()[0].split("[")[0])] = c.key
    for step in steps:
        if step["kind"] == "run":
            group = spec.group(step["group"])
            programs = [(f"{group.key} program", step["program"])]
            programs += [(f"{p.key}.program", cmd[0]) for p, cmd in zip(group.post, step["post"])]
        else:
            programs = [(f"{keys[(step['name'], step['kind'])]} program", step["program"])]
        for key, program in programs:
            if not (os.path.isfile(program) and os.access(program, os.X_OK)):
                raise UsageError(f"{spec_path}: {key}: an executable program, not found: "
                                 f"{program} (build directory {build})")


def _write_report_or_counts(out_dir, store):
    if importlib.util.find_spec("suite_campaign.report") is not None:
        report = importlib.import_module("suite_campaign.report")
        report.write_report(out_dir)
    else:
        print_status(store, sys.stdout)


def run(args):
    spec_path = args.spec
    try:
        spec = spec_module.load(spec_path)
    except spec_module.SpecError as e:
        raise UsageError(f"{spec_path}: {e}") from None
    build = os.path.abspath(args.build or os.path.join(REPO, "build"))
    if not os.path.isdir(build):
        raise UsageError(f"--build {build}: not a directory (the build whose programs the spec runs)")
    mpiexec = _find_mpiexec(args.mpiexec)
    if mpiexec is None:
        raise UsageError("no mpiexec found: give --mpiexec PATH or set MPIEXEC")
    try:
        steps = plan_module.make_plan(spec, args.out, build, REPO, mpiexec)
    except spec_module.SpecError as e:
        raise UsageError(f"{spec_path}: {e}") from None
    if args.dry_run:
        print_plan(steps, sys.stdout)
        return 0
    with_companions = next((s for s in steps if s.get("companions")), None)
    if args.backend == "slurm" and with_companions is not None:
        raise UsageError(f"{spec_path}: group {with_companions['group']}: companions run with the local "
                         "backend only (a Slurm job would place them itself)")
    _check_programs(spec_path, spec, steps, build)
    try:
        if args.resume:
            store = Store.resume(args.out, spec_path)
        else:
            check_new(args.out)
            store = Store.create(args.out, spec_path, steps, spec.campaign.name, build, REPO,
                                 args.backend)
    except StoreError as e:
        raise UsageError(str(e)) from None
    if args.backend == "slurm":
        backend = importlib.import_module("suite_campaign.backend_slurm").SlurmBackend(args)
    else:
        backend = LocalBackend(args)
    try:
        backend.execute(store, store.steps, Progress(store.steps))
    except Interrupted as e:
        print(str(e), file=sys.stderr)
        return 130
    _write_report_or_counts(store.dir, store)
    return 0 if all(s["status"] == "done" for s in store.steps) else 1


def print_plan(steps, out):
    """run --dry-run: one line a step (id, kind, group or name, repetition, calibrations,
    the command as a shell would take it), nothing written and nothing run."""
    for s in steps:
        what = s["group"] or s["name"]
        rep = f" rep {s['rep']}" if s["rep"] is not None else ""
        cal = f" calibrations {','.join(s['calibrations'])}" if s["calibrations"] else ""
        env = "".join(f"{k}={shlex.quote(v)} " for k, v in s["env"].items())
        print(f"{s['id']} {s['kind']} {what}{rep}{cal}: {env}{shlex.join(s['command'])}", file=out)
        for post in s["post"]:
            print(f"{s['id']}   post: {shlex.join(post)}", file=out)


def print_status(store, out):
    counts = store.counts()
    print(f"campaign {store.manifest['name']} in {store.dir}: {len(store.steps)} steps: "
          + ", ".join(f"{n} {status}" for status, n in counts.items()), file=out)
    for step in store.steps:
        if step["status"] == "failed":
            print(f"failed: {describe_step(step)}: {step['error']}", file=out)


def status(args):
    try:
        store = Store.open(args.dir)
    except StoreError as e:
        raise UsageError(str(e)) from None
    print_status(store, sys.stdout)
    return 0


def report(args):
    try:
        Store.open(args.dir)
    except StoreError as e:
        raise UsageError(str(e)) from None
    if importlib.util.find_spec("suite_campaign.report") is None:
        raise UsageError("the report module (suite_campaign/report.py) is not installed")
    importlib.import_module("suite_campaign.report").write_report(args.dir)
    return 0


def plot(args):
    from . import figures
    figures.run(args.kind, args.args)  # exits: 0, or one line and 1 (2: a bad command line)


def superstep_kinds(args):
    from . import superstep_kinds as kinds
    kinds.run(args.args)  # exits as plot does


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def main(argv=None):
    parser = _Parser(prog="suite-campaign", description="\n\n".join(__doc__.split("\n\n")[:2]),
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = commands.add_parser("run", help="run a campaign spec")
    p.add_argument("spec")
    p.add_argument("--out", required=True, help="the campaign directory")
    p.add_argument("--backend", choices=("local", "slurm"), default="local")
    p.add_argument("--resume", action="store_true", help="continue the campaign in --out")
    p.add_argument("--build", help="the build directory (default: build/ in the repository)")
    p.add_argument("--mpiexec", help="the MPI launcher (default: $MPIEXEC, mpiexec.mpich, mpiexec)")
    p.add_argument("--dry-run", action="store_true",
                   help="check the spec, print the planned steps and their commands; run and write nothing")
    p.add_argument("--partition", help="Slurm backend: the partition to submit to")
    p.add_argument("--slurm-time", help="Slurm backend: sbatch --time of every job (default: "
                   "the spec's timeout for the command and each post command, plus a minute)")
    p.add_argument("--sbatch-arg", action="append", default=[], metavar="ARG",
                   help="Slurm backend: one more sbatch argument (repeatable), e.g. --sbatch-arg=--qos=debug")
    p.add_argument("--slurm-poll", type=float, default=2.0, metavar="S",
                   help="Slurm backend: seconds between squeue calls (default 2)")
    p.set_defaults(func=run)
    p = commands.add_parser("report", help="write DIR/report.html and the exports")
    p.add_argument("dir")
    p.set_defaults(func=report)
    p = commands.add_parser("status", help="counts of the steps and the failed ones' errors")
    p.add_argument("dir")
    p.set_defaults(func=status)
    from .figures import FIGURES, describe
    p = commands.add_parser("plot", help="draw one of the suite's figures",
                            description="Draws one figure; KIND is one of:\n" + describe(),
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("kind", choices=list(FIGURES), metavar="KIND")
    p.add_argument("args", nargs=argparse.REMAINDER, help="the figure's arguments (plot KIND --help)")
    p.set_defaults(func=plot)
    # Listed for --help; main() hands its arguments over before parsing (argparse would take
    # a leading --steps for an option of its own).
    commands.add_parser("superstep-kinds", help="bsplib profiles' supersteps grouped by label", add_help=False)
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["superstep-kinds"]:
        return superstep_kinds(argparse.Namespace(args=argv[1:]))
    try:
        args = parser.parse_args(argv)
        return args.func(args)
    except UsageError as e:
        _error(str(e))
        return 2
