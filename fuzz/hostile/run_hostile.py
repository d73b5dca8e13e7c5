#!/usr/bin/python3
"""A hostile user's run over every program and script of the suite (issue 36).

    fuzz/hostile/run_hostile.py [--build DIR] [--only REGEX] [--list] [--no-np2] [--log FILE]

Makes good inputs by running the programs (a tycho, multigrid and sweep3d results file,
partitions, projections, a replay trace), then feeds every input slot of every program its
hostile values (catalogue.py, hostile_files.py) one case at a time, and last kills tycho,
multigrid and sweep3d under `mpiexec -n 2` while they write their results file. Each case is
classified (case_runner.py):

  OK         the expected outcome: a non-zero exit of every rank with exactly one clear line
             on stderr, or, where the value is in range, exit 0
  CRASH      a signal, an exit status >= 126, a sanitizer report
  HANG       still running at the case's timeout (30 s; 45 s for cases needing much memory)
  BIGMEM     more than 8 GiB resident (its processes together; killed there). Every case
             runs with SUITE_MEMORY_AVAILABLE=6GiB: a program that checks its memory up front
             refuses what needs more, so BIGMEM is a program without that check
  TRACEBACK  a Python traceback
  EXIT0      exit 0 on hostile input (nonsense accepted), or a rank exiting 0 while the run
             fails, or nan/inf printed by a run that exits 0
  MULTILINE  a non-zero exit without one clear line (none, several, a bare exception text)
  CLOBBER    an output symlink's target changed, or a dangling symlink's target was created
  LEFTOVER   a *.tmp.* file left behind

Prints the classes with their counts and every case that is not OK with its command line;
exits 1 if any case is not OK, 2 if the good inputs cannot be made. Standard library only;
the scripts under test run under /usr/bin/python3 (Debian's numpy, h5py, matplotlib).
Every file it makes lives in one temp dir, removed at the end (--keep keeps it).
"""
import argparse
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the checkout (the scripts run with the same)
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import case_runner as cr  # noqa: E402
import hostile_files as hf  # noqa: E402
from catalogue import Catalogue  # noqa: E402

REPO = os.path.normpath(os.path.join(here, "..", ".."))
MESHES = os.path.normpath(os.path.join(REPO, "..", "shared", "meshes", "tycho2"))
PYTHON = "/usr/bin/python3"

PROGRAMS = {
    "tycho": "tycho/tycho", "tycho-mesh-info": "tycho/tycho-mesh-info", "tycho-refine": "tycho/tycho-refine",
    "tycho-partition": "tycho/tycho-partition", "tycho-model": "tycho/tycho-model", "tycho-mms": "tycho/tycho-mms",
    "tycho-mesh-example": "tycho/tycho-mesh-example", "multigrid": "multigrid/multigrid",
    "multigrid-model": "multigrid/multigrid-model", "instrument-replay": "instrument/instrument-replay",
    "instrument-trace-export": "instrument/instrument-trace-export",
    "loggps-probe": "instrument/loggps-probe", "machine-check": "instrument/machine-check",
    "instrument-demo": "instrument/instrument-demo", "hook-overhead": "instrument/hook-overhead",
    "replay-bench": "instrument/replay-bench", "sweep3d": "sweep3d/sweep3d",
    "sweep3d-model": "sweep3d/model/sweep3d-model", "sweep3d_bench": "sweep3d/sweep3d_bench",
    "bspprobe": "bsplib/bspprobe", "bsp_predict": "bsplib/bsp_predict",
    "five_hundred_relation": "bsplib/five_hundred_relation", "bsp_init_example": "bsplib/bsp_init_example",
    "bench_empty_sync": "bsplib/bench_empty_sync", "bench_first_messages": "bsplib/bench_first_messages",
    "bench_mechanism": "bsplib/bench_mechanism", "bench_put_bandwidth": "bsplib/bench_put_bandwidth",
    "bench_put_words": "bsplib/bench_put_words", "bench_small_supersteps": "bsplib/bench_small_supersteps",
    "bsp_put_bench": "bsplib/bsp_put_bench", "multigrid_smoother_bench": "multigrid/multigrid_smoother_bench",
    "stream_triad": "multigrid/stream_triad", "tycho_cell_solve_bench": "tycho/tycho_cell_solve_bench",
    "tycho_mesh_bench": "mesh/tycho_mesh_bench", "tycho_sweep_dag_bench": "tycho/tycho_sweep_dag_bench",
}
SCRIPTS = {
    "two_grid": "multigrid/scripts/two_grid.py", "kba_replay_octants": "sweep3d/model/kba_replay_octants.py",
    "perf-report": "tools/perf-report",
}
# The figures and tools of tools/suite-campaign: name -> its subcommand's words.
SUITE_CAMPAIGN = {
    "tycho_plot_projection": ["plot", "tycho-projection"],
    "multigrid_plot_projection": ["plot", "multigrid-projection"],
    "plot_cycle": ["plot", "multigrid-cycle"], "plot_profile": ["plot", "bsp-profile"],
    "superstep_kinds": ["superstep-kinds"], "kba_replay_plot": ["plot", "kba-replay-scaling"],
    "plot_model_scaling": ["plot", "sweep3d-model-scaling"],
}


class SetupError(Exception):
    pass


def tools_of(build):
    tools = {}
    for name, rel in PROGRAMS.items():
        path = os.path.join(build, rel)
        if not os.access(path, os.X_OK):
            raise SetupError(f"{path}: not built (cmake --build {build})")
        tools[name] = [path]
    for name, rel in SCRIPTS.items():
        tools[name] = [PYTHON, os.path.join(REPO, rel)]
    for name, words in SUITE_CAMPAIGN.items():
        tools[name] = [PYTHON, os.path.join(REPO, "tools", "suite-campaign")] + words
    return tools


def run_good(argv, cwd, env, mpiexec, ranks=0, timeout=120):
    """Runs a command that makes a good input; it must succeed."""
    os.makedirs(cwd, exist_ok=True)
    rc_dir = os.path.join(cwd, ".ranks")
    shutil.rmtree(rc_dir, ignore_errors=True)
    os.mkdir(rc_dir)
    run = cr.rank_wrapped(argv, ranks, rc_dir, mpiexec) if ranks else argv
    status, *_ = cr.run_process(run, cwd, timeout, env, os.path.join(rc_dir, "out"), os.path.join(rc_dir, "err"))
    if status is None or not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        with open(os.path.join(rc_dir, "err"), errors="replace") as f:
            err = f.read()[-2000:]
        raise SetupError(f"making a good input failed ({cr.describe_status(status)}): {shlex.join(argv)}\n{err}")


def make_good_inputs(root, tools, env, mpiexec):
    """The good input of every slot, by name, under root/good."""
    d = os.path.join(root, "good")
    os.makedirs(os.path.join(d, "copy"))
    g = {}
    p = lambda name: os.path.join(d, name)  # noqa: E731

    def copy(name, source):
        shutil.copyfile(source, p(name))
        g[name.split(".")[0]] = p(name)
        return p(name)

    for size in (12, 208, 1374, 4128):
        if not os.path.isfile(os.path.join(MESHES, f"cube-{size}.smesh")):
            raise SetupError(f"{MESHES}/cube-{size}.smesh: missing (the shared Tycho2 meshes)")
    g["smesh"] = copy("cube-12.smesh", os.path.join(MESHES, "cube-12.smesh"))
    g["smesh_copy"] = os.path.join(d, "copy", "cube-12.smesh")
    shutil.copyfile(g["smesh"], g["smesh_copy"])
    for size in (208, 1374, 4128):
        g[f"smesh{size}"] = os.path.join(MESHES, f"cube-{size}.smesh")
    g["msh"] = copy("cube-4.1-ascii.msh", os.path.join(REPO, "ctest/mesh/gmsh_data/cube-4.1-ascii.msh"))
    g["msh_binary"] = copy("cube-4.1-binary.msh", os.path.join(REPO, "ctest/mesh/gmsh_data/cube-4.1-binary.msh"))
    g["msh22"] = copy("cube-2.2-ascii.msh", os.path.join(REPO, "ctest/mesh/gmsh_data/cube-2.2-ascii.msh"))
    for name, factor in (("tiny_smesh", 1e-90), ("huge_smesh", 1e90), ("tiniest_smesh", 1e-300)):
        g[name] = p(f"{name}.smesh")
        hf.scaled_smesh(g["smesh"], factor, g[name])
    g["loggps"] = copy("loggps.machine", os.path.join(REPO, "ctest/sweep3d/replay_this_vm.machine"))
    g["inf_latency_machine"] = copy("inf_latency.machine", os.path.join(REPO, "ctest/instrument/inf_latency.machine"))
    g["negative_o_machine"] = copy("negative_o.machine",
                                   os.path.join(REPO, "ctest/instrument/refused_negative_o.machine"))
    g["bsp1"] = copy("bsp1.machine", os.path.join(REPO, "inputs/bsp/sgi-powerchallenge-p1.machine"))
    g["bsp2"] = copy("bsp2.machine", os.path.join(REPO, "inputs/bsp/ibm-sp2-switch-p2.machine"))
    g["profile"] = copy("profile.csv", os.path.join(REPO, "ctest/bsplib/fixed_profile.csv"))
    g["deck"] = copy("deck.input", os.path.join(REPO, "inputs/sweep3d/small.input"))
    g["deck_kv"] = copy("deck_kv.input", os.path.join(REPO, "inputs/sweep3d/input50.kv"))

    # the bad inputs the scripts' tests use (ctest/make_script_inputs.py, needs h5py)
    si = os.path.join(root, "script_inputs")
    run_good([PYTHON, os.path.join(REPO, "ctest/make_script_inputs.py"), si, g["smesh208"]], root, env, mpiexec)
    for name, file in (("nan_smesh", "nan.smesh"), ("nan_msh", "nan.msh"), ("nan_machine", "nan.machine"),
                       ("sparse_h5", "sparse.h5"), ("not_hdf5", "not_hdf5.h5"),
                       ("sealed_not_hdf5", "sealed_not_hdf5.h5"), ("garbage_csv", "garbage.csv"),
                       ("nan_csv", "nan.csv"), ("nan_profile", "nan_profile.csv"), ("nan_trace", "nan_trace.json")):
        g[name] = os.path.join(si, file)
        if not os.path.isfile(g[name]):
            raise SetupError(f"{g[name]}: not made by ctest/make_script_inputs.py")

    with open(p("materials.txt"), "w") as f:
        f.write("material 1 sigma_t 0.1\nmaterial 1 scatter 0.05\nmaterial 1 downscatter 0\nmaterial 1 source 1\n")
    g["materials"] = p("materials.txt")
    with open(p("materials_downscatter.txt"), "w") as f:  # 5 scattered from group 0 whose sigma_t is 0.1
        f.write("material 1 sigma_t 0.1 0.2\nmaterial 1 scatter 0.05 0.1\nmaterial 1 downscatter 0 5\n"
                "material 1 source 1 0\n")
    g["materials_downscatter"] = p("materials_downscatter.txt")
    with open(p("materials_nan.txt"), "w") as f:
        f.write("material 1 sigma_t nan\nmaterial 1 scatter 0.05\nmaterial 1 downscatter 0\nmaterial 1 source 1\n")
    g["materials_nan"] = p("materials_nan.txt")
    with open(p("materials_absent.txt"), "w") as f:
        f.write("material 7 sigma_t 0.1\nmaterial 7 scatter 0.05\nmaterial 7 downscatter 0\nmaterial 7 source 1\n")
    g["materials_absent"] = p("materials_absent.txt")
    with open(p("mg_part1.txt"), "w") as f:  # --cube 2 --grids 2: 48 cells refined once, 384
        f.write("0\n" * 384)
    g["mg_part1"] = p("mg_part1.txt")

    t = tools
    for parts in (1, 2):
        g[f"part{parts}"] = p(f"part{parts}.txt")
        run_good(t["tycho-partition"] + [g["smesh"], str(parts), "--out", g[f"part{parts}"]], d, env, mpiexec)
    g["tycho_h5"] = p("tycho.h5")
    run_good(t["tycho"] + [g["smesh"], "--iterations", "1", "--sn", "2", "--groups", "1", "--machine", g["loggps"],
                           "--results", g["tycho_h5"]], d, env, mpiexec, ranks=1)
    g["mg_h5"] = p("multigrid.h5")
    run_good(t["multigrid"] + ["--cube", "2", "--grids", "2", "--cycles", "2", "--machine", g["bsp1"],
                               "--results", g["mg_h5"]], d, env, mpiexec, ranks=1)
    run_good(t["multigrid"] + ["--cube", "2", "--grids", "2", "--cycles", "1", "--partition", g["mg_part1"],
                               "--no-results"], d, env, mpiexec, ranks=1)
    for name in ("s3d_cal", "s3d_run"):
        g[name] = p(f"{name}.h5")
        run_good(t["sweep3d"] + [g["deck"], "--trace", "100000", "--machine", g["loggps"], "--results", g[name]],
                 d, env, mpiexec, ranks=1)
    g["tycho_csv"] = p("tycho_projection.csv")
    run_good(t["tycho-model"] + [g["smesh"], "--machine", g["loggps"], "--calibration", g["tycho_h5"], "--ranks",
                                 "2,4", "--sn", "2", "--groups", "1", "--csv", g["tycho_csv"]], d, env, mpiexec)
    g["mg_csv"] = p("multigrid_projection.csv")
    run_good(t["multigrid-model"] + ["--cube", "2", "--grids", "2", "--procs", "1,2", "--calibration", g["mg_h5"],
                                     "--loggps", g["loggps"], "--machine", g["bsp1"], "--csv", g["mg_csv"]],
             d, env, mpiexec)
    g["s3d_csv"], g["kba_json"] = p("sweep3d_model.csv"), p("kba_trace.json")
    run_good(t["sweep3d-model"] + ["--machine", g["loggps"], "--wg", "1e-8", "--grid", "20x20x20", "--procs", "4",
                                   "--mk", "10", "--mmi", "3", "--replay", "--replay-trace", g["kba_json"], "--csv",
                                   g["s3d_csv"]], d, env, mpiexec)
    return g


# ---------------------------------------------------------------- kill cases
KILLS = (
    # name, argv builder, when to signal: "write" (as soon as a *.tmp.* appears) or seconds
    ("tycho.kill_sigterm_while_writing_results.np2",
     lambda t, g: t["tycho"] + [g["smesh1374"], "--iterations", "1", "--results", "run.h5"], signal.SIGTERM, "write"),
    ("tycho.kill_sigterm_mid_sweep.np2",
     lambda t, g: t["tycho"] + [g["smesh4128"], "--iterations", "20", "--results", "run.h5"], signal.SIGTERM, 0.8),
    ("tycho.kill_sigint_while_writing_results.np2",
     lambda t, g: t["tycho"] + [g["smesh1374"], "--iterations", "1", "--results", "run.h5"], signal.SIGINT, "write"),
    ("multigrid.kill_sigterm_while_writing_results.np2",
     lambda t, g: t["multigrid"] + ["--cube", "8", "--grids", "3", "--cycles", "2", "--results", "run.h5"],
     signal.SIGTERM, "write"),
    ("sweep3d.kill_sigterm_while_writing_results.np2",
     lambda t, g: t["sweep3d"] + [g["deck_kv"], "--grid", "1x2", "--trace", "1000000", "--results", "run.h5"],
     signal.SIGTERM, "write"),
)


def run_kill(name, argv, sig, when, case_dir, env, mpiexec, signalled_runs=5, tries=10):
    """Starts argv under mpiexec -n 2 and signals mpiexec at `when`, signalled_runs times (the
    write is a short window: one run may miss it). No *.tmp.* may remain once every process
    has ended; mpiexec must end within 30 s of the signal, and its ranks within 10 s after."""
    notes, flags, statuses, runs = [], [], [], 0
    for attempt in range(tries):
        if runs == signalled_runs:
            break
        shutil.rmtree(case_dir, ignore_errors=True)
        os.makedirs(case_dir)
        with open(os.path.join(case_dir, "stdout"), "wb") as out, open(os.path.join(case_dir, "stderr"), "wb") as err:
            proc = subprocess.Popen([mpiexec, "-n", "2"] + argv, cwd=case_dir, stdout=out, stderr=err, env=env,
                                    stdin=subprocess.DEVNULL, start_new_session=True)
        start, signalled, status = time.monotonic(), None, None
        while time.monotonic() - start < 120:
            pid, wstatus, _ = os.wait4(proc.pid, os.WNOHANG)
            if pid == proc.pid:
                status = wstatus
                break
            due = (cr.leftovers(case_dir) if when == "write" else time.monotonic() - start >= when)
            if due and signalled is None:
                os.kill(proc.pid, sig)
                signalled = time.monotonic()
            if signalled is not None and time.monotonic() - signalled > 30:
                break
            time.sleep(0.0005 if when == "write" else 0.01)
        ended = status is not None
        if not ended:
            cr.kill_descendants()
            os.wait4(proc.pid, 0)
        else:
            # ranks the launcher did not wait for finish their exit paths before we look
            waited = time.monotonic()
            while cr.descendants(os.getpid(), cr.process_table()) and time.monotonic() - waited < 10:
                cr.reap_orphans()
                time.sleep(0.05)
            if cr.descendants(os.getpid(), cr.process_table()):
                flags.append(("HANG", f"run {runs + 1}: processes still running 10 s after mpiexec ended"))
            cr.kill_descendants()
        proc.returncode = 0
        if signalled is None:
            notes.append(f"attempt {attempt + 1}: the run ended ({cr.describe_status(status)}) before the signal")
            continue
        runs += 1
        statuses.append(cr.describe_status(status))
        left = cr.leftovers(case_dir)
        if not ended:
            flags.append(("HANG", f"run {runs}: mpiexec still running 30 s after {sig.name}"))
        if left:
            flags.append(("LEFTOVER", f"run {runs}: " + ", ".join(os.path.basename(f) for f in left)))
    if runs == 0:
        notes.append("never signalled: not tested")
    order = {c: i for i, c in enumerate(cr.CLASSES)}
    flags.sort(key=lambda f: order[f[0]])
    cls = flags[0][0] if flags else "OK"
    return cls, flags + [("note", n) for n in notes], f"{runs} signalled runs: " + ", ".join(statuses)


# ---------------------------------------------------------------- report
def shown(argv, root):
    return shlex.join(str(a) for a in argv).replace(root, "$T").replace(REPO, "$REPO")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(REPO, "build"), help="the build folder (default: REPO/build)")
    ap.add_argument("--only", help="run only the cases whose name matches this regular expression")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--no-np2", action="store_true", help="skip the 2-rank cases")
    ap.add_argument("--no-kill", action="store_true", help="skip the kill cases")
    ap.add_argument("--log", help="write every case's outcome, a line each (tab-separated), to this file")
    ap.add_argument("--keep", action="store_true", help="keep the temp dir")
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("-v", "--verbose", action="store_true", help="print every case as it ends")
    args = ap.parse_args()

    mpiexec = shutil.which("mpiexec")
    if not mpiexec:
        print("run_hostile.py: error: mpiexec not found", file=sys.stderr)
        return 2
    cr.become_subreaper()
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "BSP_PROFILE")}
    env.update(MPLBACKEND="Agg", OMP_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1",
               SUITE_MEMORY_AVAILABLE=cr.MEMORY_STAND_IN)
    root = tempfile.mkdtemp(prefix="hostile-")
    started = time.monotonic()
    try:
        try:
            tools = tools_of(os.path.abspath(args.build))
            hostile = hf.HostileFiles(root, args.seed)
            good = make_good_inputs(root, tools, env, mpiexec)
        except SetupError as e:
            print(f"run_hostile.py: error: {e}", file=sys.stderr)
            return 2
        cases = Catalogue(tools, good, hostile, np2=not args.no_np2).build()
        names = [c.name for c in cases]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            print(f"run_hostile.py: error: duplicate case names: {sorted(dup)[:5]}", file=sys.stderr)
            return 2
        if args.only:
            rx = re.compile(args.only)
            cases = [c for c in cases if rx.search(c.name)]
        if args.list:
            for c in cases:
                print(f"{c.name}\t{c.expect}\t{shown(c.argv, root)}")
            return 0
        print(f"hostile run: {len(cases)} cases, inputs under {root}", flush=True)
        results = []
        work = os.path.join(root, "case")
        log = open(args.log, "w") if args.log else None
        for i, case in enumerate(cases):
            shutil.rmtree(work, ignore_errors=True)
            os.mkdir(work)
            outcome = cr.run_case(case, work, [root], mpiexec, env)
            results.append((case, outcome))
            if log:
                log.write("\t".join([outcome.cls, case.name, case.expect, outcome.status, f"{outcome.seconds:.2f}",
                                     f"{outcome.max_rss >> 20}", "; ".join(f"{c}: {m}" for c, m in outcome.flags),
                                     shown(case.argv, root)]) + "\n")
                log.flush()
            if args.verbose or outcome.cls != "OK":
                print(f"[{i + 1}/{len(cases)}] {outcome.cls:9} {case.name} ({outcome.status}, "
                      f"{outcome.seconds:.1f} s)", flush=True)
            elif (i + 1) % 100 == 0:
                print(f"[{i + 1}/{len(cases)}] {time.monotonic() - started:.0f} s", flush=True)
        if not args.no_kill and not args.no_np2 and (not args.only or any(re.search(args.only, k[0]) for k in KILLS)):
            for name, make, sig, when in KILLS:
                if args.only and not re.search(args.only, name):
                    continue
                argv = make(tools, good)
                cls, flags, status = run_kill(name, argv, sig, when, work, env, mpiexec)
                case = cr.Case(name, [mpiexec, "-n", "2"] + argv + [f"# {sig.name} at {when}"], "kill", 2)
                results.append((case, cr.Outcome(cls, flags, status, 0.0, 0, "")))
                print(f"[kill] {cls:9} {name} ({status}; "
                      + "; ".join(m for c, m in flags) + ")", flush=True)
                if log:
                    log.write("\t".join([cls, name, "kill", status, "", "", "; ".join(f"{c}: {m}" for c, m in flags),
                                         shown(case.argv, root)]) + "\n")
        if log:
            log.close()
        return report(results, root, time.monotonic() - started)
    finally:
        cr.kill_descendants()
        if args.keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


def report(results, root, seconds):
    counts = {c: 0 for c in cr.CLASSES}
    for _, o in results:
        counts[o.cls] += 1
    print(f"\n{len(results)} cases in {seconds:.0f} s")
    print(f"{'class':10} {'cases':>6}")
    for c in cr.CLASSES:
        print(f"{c:10} {counts[c]:6d}")
    bad = [(c, o) for c, o in results if o.cls != "OK"]
    if bad:
        print(f"\nnot OK ({len(bad)}):")
        for case, o in sorted(bad, key=lambda r: (cr.CLASSES.index(r[1].cls), r[0].name)):
            print(f"{o.cls:9} {case.name}  [{o.status}, {o.seconds:.1f} s, {o.max_rss / cr.GIB:.2f} GiB]")
            print(f"          $ {shown(case.argv, root)}")
            for cls, msg in o.flags:
                print(f"          {cls}: {msg}")
    heavy = [(c, o) for c, o in results if o.cls == "OK" and o.max_rss > cr.GIB]
    if heavy:
        print(f"\nOK but over 1 GiB resident ({len(heavy)}):")
        for case, o in heavy:
            print(f"          {case.name}: {o.max_rss / cr.GIB:.2f} GiB, {o.seconds:.1f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
