#!/usr/bin/python3
"""A fuzz loop for perf-report's reader: mutates the bytes of a valid results file, reads each
mutant with perf-report's read_run in this process, and then runs the report on what it read
(tables, summary, CSV rows) into memory. The one outcome it accepts besides success is
perf-report's own refusal (NotOurs); any other exception is a bug: its input is kept.

  fuzz_perf_report.py [--base REAL.h5] [--runs N] [--seconds S] [--seed S] [--keep DIR]

Without --base the valid file is built with h5py (make_bad_results.write_valid). A crash or
hang of the HDF5 library itself happens in read_run's child process and comes back as a
refusal (LibraryCrash); those inputs are kept too (as lib-*.h5: findings for the C++ readers,
which use the same library in-process) and counted apart. --no-fork reads in this process
(faster; the first library crash ends the loop, faulthandler names where, and the input is
left in --keep as current.h5). Exit status 1 if a bug was found. Run by /usr/bin/python3.
"""
import argparse
import contextlib
import faulthandler
import importlib.machinery
import importlib.util
import io
import os
import random
import re
import shutil
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_bad_results  # noqa: E402  (beside this file)


def load_perf_report():
    path = os.path.join(HERE, "..", "..", "tools", "perf-report")
    loader = importlib.machinery.SourceFileLoader("perf_report", path)
    spec = importlib.util.spec_from_loader("perf_report", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def exercise(pr, path, read):
    """read_run, then everything the report does with a file's content, into memory."""
    run = read(path, "nranks")
    with contextlib.redirect_stdout(io.StringIO()):
        pr.print_run(run, "nranks")
        pr.print_summary(pr.campaign_summary([run]), 1)
    pr.csv_fill([run], "nranks")(os.open(os.devnull, os.O_WRONLY))
    pr.plot_series([run])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", help="a valid results file (default: one built with h5py)")
    ap.add_argument("--runs", type=int, default=10000, help="mutants to read (default 10000)")
    ap.add_argument("--seconds", type=float, default=0, help="stop after this long (0: no limit)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", default="perf_report_fuzz", help="where inputs worth keeping go")
    ap.add_argument("--no-fork", action="store_true", help="read in this process")
    ap.add_argument("--read-timeout", type=float, default=10,
                    help="seconds before a read counts as a library hang (perf-report: 60)")
    args = ap.parse_args()

    pr = load_perf_report()
    pr.results.READ_TIMEOUT_S = args.read_timeout  # the reader lives in suite_campaign.results
    read = pr.read_run_here if args.no_fork else pr.read_run
    os.makedirs(args.keep, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="perf_report_fuzz.",
                               dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    base = args.base
    if not base:
        base = os.path.join(scratch, "valid.h5")
        make_bad_results.write_valid(base)
    with open(base, "rb") as f:
        seed_bytes = f.read()
    exercise(pr, base, read)  # the base itself must read cleanly

    rng = random.Random(args.seed)
    current = os.path.join(args.keep, "current.h5") if args.no_fork else os.path.join(scratch, "current.h5")
    if args.no_fork:  # (inherited by read_run's child, it would print each library crash)
        faulthandler.enable()
    counts = {"read": 0, "refused": 0, "library crash": 0, "bug": 0}
    messages = set()
    start = last_print = time.monotonic()
    n = 0
    while n < args.runs and not (args.seconds and time.monotonic() - start > args.seconds):
        data = seed_bytes
        for _ in range(rng.choice((1, 1, 2, 3, 4))):
            data = make_bad_results.mutate(data, rng)
        with open(current, "wb") as f:
            f.write(data)
        faulthandler.dump_traceback_later(300, exit=True)  # a hang in this process
        try:
            exercise(pr, current, read)
            counts["read"] += 1
        except pr.LibraryCrash as e:
            counts["library crash"] += 1
            keep = os.path.join(args.keep, f"lib-{args.seed}-{n}.h5")
            shutil.copyfile(current, keep)
            print(f"library crash: {keep}: {e}", flush=True)
        except pr.NotOurs as e:
            counts["refused"] += 1
            # The kind of refusal, without the file name and the numbers in it.
            messages.add(re.sub(r"[0-9]+", "N", str(e).replace(current, "FILE")))
        except Exception:  # noqa: B902 -- what this loop looks for
            counts["bug"] += 1
            keep = os.path.join(args.keep, f"bug-{args.seed}-{n}.h5")
            shutil.copyfile(current, keep)
            print(f"BUG: {keep}:\n{traceback.format_exc()}", flush=True)
        finally:
            faulthandler.cancel_dump_traceback_later()
        n += 1
        now = time.monotonic()
        if now - last_print > 30:
            print(f"... {n} executions, {n / (now - start):.0f}/s, {counts}", flush=True)
            last_print = now
    elapsed = time.monotonic() - start
    for name in os.listdir(scratch):
        os.remove(os.path.join(scratch, name))
    os.rmdir(scratch)
    print(f"perf-report fuzz: {n} executions in {elapsed:.1f} s ({n / max(elapsed, 1e-9):.1f}/s), "
          f"seed {args.seed}, base {args.base or 'built with h5py'} ({len(seed_bytes)} bytes), "
          f"{'in process' if args.no_fork else 'child process per read'}")
    print("outcomes: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print(f"distinct refusals: {len(messages)}")
    for m in sorted(messages)[:40]:
        print(f"  {m}")
    return 1 if counts["bug"] else 0


if __name__ == "__main__":
    sys.exit(main())
