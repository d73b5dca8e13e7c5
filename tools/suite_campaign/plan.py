"""A spec expanded into the campaign's steps: the prepare commands, the machine probes, then
every run of every group, in the order the spec asks, each with its command built and its
calibrations resolved (the contract: /work/notes/campaign-design.md).

A step is a plain dict, the manifest's record (campaign.json "steps"), so that the store
saves it as it is and a backend reads the same fields: id, kind, name, group, app, role,
rep, config, ranks, command, env, dir, results, csv, trace, extrap, calibrations, post,
status, ... . Besides the contract's fields a step has `program` and `args` (the command
without its mpiexec prefix, for a backend that launches otherwise, e.g. srun), `stdout`
and `stderr` (paths relative to DIR), `needs` (the ids of the steps it depends on: the
prepares, the probes it names, its calibrations), `cwd` (relative to DIR), `timeout` (the
spec's, seconds), `post_env` (each post command's env), and `companions` with
`companion_command` (a group's companions: the same run with --no-results for --results, to
run beside it, each pinned to a CPU of its own by the local backend; the run itself gets
`--beside N`).

Order. "alternate": repetition-major; each repetition runs its calibrations, then its
predicted runs, then its projections. "grouped": every calibrate group's runs, then the
predict groups', then the projections; within a group configuration-major, its repetitions
back to back. Groups of one role keep the spec's order.

Calibrations. Each selector of calibrated_by picks the configurations of its calibrate
group that match (axis -> "same", "other", a literal or a list of literals; axes not named
match anything); selectors are unioned in order, duplicates dropped. calibration_scope
"repetition" takes the calibrations of the predicted run's own repetition; "any" takes the
first repetition's (the earliest that exists, so every repetition can use it); "all" takes
every repetition's, a selected configuration's repetitions one after another (the grouped
order, which "all" requires, runs them all first), so that an app can calibrate from their
median: one run's speed, drawn when its process starts, then moves no prediction. A selector
that selects nothing is a SpecError. So is a predicted run equal to one of its calibrations:
same program, same ranks and the same arguments once the arguments naming {results},
{calibrations}, {dir} or {csv} are left out, each with the option before it (e.g.
"--calibration", "{calibrations}").
"""

import os

from .spec import PLACEHOLDER, SpecError, axis_pass, fill

# Placeholders that name a run's own files or its calibrations: left out when a predicted run
# is compared with its calibrations.
RUN_FILE_PLACEHOLDERS = ("results", "calibrations", "dir", "csv")
ROLE_ORDER = ("calibrate", "predict", "project")


def make_plan(spec, out_dir, build, repo, mpiexec):
    """The list of steps (dicts) of spec for the campaign directory out_dir, programs in build,
    inputs in repo, MPI runs through the mpiexec given (a path). SpecError on a selector
    selecting nothing or a predicted run equal to one of its calibrations."""
    out_dir, build, repo = (os.path.abspath(p) for p in (out_dir, build, repo))
    common = {"work": os.path.join(out_dir, "work"), "inputs": os.path.join(repo, "inputs"),
              "shared": os.path.join(os.path.dirname(repo), "shared"), "build": build,
              "repo": repo}
    for p in spec.probes:
        common["probe." + p.name] = os.path.join(out_dir, "probes", p.name + ".machine")
    bind = spec.campaign.bind_single_rank
    steps = []

    def next_id():
        return f"{len(steps) + 1:04d}"

    prepare_ids = []
    for c in spec.prepare:
        values = dict(common, dir=common["work"])
        step = _command_step(next_id(), "prepare", c, values, build, None, bind)
        step.update(dir="work", cwd="work", stdout=f"work/{c.name}.out", stderr=f"work/{c.name}.err",
                    needs=list(prepare_ids))
        prepare_ids.append(step["id"])
        steps.append(step)
    probe_ids = {}
    for c in spec.probes:
        values = dict(common, dir=os.path.join(out_dir, "probes"), ranks=str(c.ranks),
                      machine=common["probe." + c.name])
        step = _command_step(next_id(), "probe", c, values, build, mpiexec, bind)
        step.update(dir="probes", cwd="probes", stdout=f"probes/{c.name}.out",
                    stderr=f"probes/{c.name}.err", machine=f"probes/{c.name}.machine",
                    needs=list(prepare_ids))
        probe_ids[c.name] = step["id"]
        steps.append(step)

    # The runs, in order, then their ids: (group, config index, rep) -> id.
    reps = range(1, spec.campaign.repetitions + 1)
    by_role = [g for role in ROLE_ORDER for g in spec.groups if g.role == role]
    if spec.campaign.order == "alternate":
        order = [(g, ci, rep) for rep in reps for g in by_role for ci in range(len(g.configs))]
    else:
        order = [(g, ci, rep) for g in by_role for ci in range(len(g.configs)) for rep in reps]
    ids = {}
    for n, (g, ci, rep) in enumerate(order):
        ids[(g.name, ci, rep)] = f"{len(steps) + n + 1:04d}"

    run_steps = {}
    for g, ci, rep in order:
        sid = ids[(g.name, ci, rep)]
        config = dict(g.configs[ci])
        ranks = int(config.get("ranks", g.ranks))
        if g.role != "project":
            config["ranks"] = ranks
        calibrations = _calibrations(spec, g, ci, rep, ids)
        rel_dir = f"runs/{sid}"
        run_dir = os.path.join(out_dir, rel_dir)
        values = dict(common, rep=str(rep), ranks=str(ranks), dir=run_dir,
                      results=os.path.join(run_dir, "results.h5"),
                      csv=os.path.join(run_dir, "table.csv"),
                      calibrations=",".join(os.path.join(out_dir, "runs", c, "results.h5")
                                            for c in calibrations))
        values.update({k: str(v) for k, v in config.items()})
        program = _program(fill(g.program, values), build)
        args = [fill(a, values) for a in g.args]
        env = {k: fill(v, values) for k, v in g.env.items()}
        needs = list(prepare_ids)
        texts = [g.program] + g.args + list(g.env.values())
        for p in g.post:
            texts += [p.program] + p.args + list(p.env.values())
        for text in texts:
            axes = {k: str(v) for k, v in config.items()} | {"rep": str(rep), "ranks": str(ranks)}
            for m in PLACEHOLDER.finditer(axis_pass(text, axes)):
                name = m.group(1)
                if name.startswith("probe.") and probe_ids[name[6:]] not in needs:
                    needs.append(probe_ids[name[6:]])
        needs += calibrations
        mpi = g.role != "project"
        prefix = _mpi_prefix(mpiexec, ranks, bind) if mpi else []
        # Companions (backend_local.py): the same run beside it, writing no results, and the
        # run told so (--beside) that their CPUs are not a load on the machine.
        companion = []
        if g.companions:
            # Unbound: the backend starts it under taskset on its own CPU from the first
            # instruction (bound to a core, mpiexec would start it on the run's).
            companion = _mpi_prefix(mpiexec, ranks, False) + [program] + _without_results(args)
            args = args + ["--beside", str(g.companions)]
        step = {
            "id": sid, "kind": "run", "name": g.name, "group": g.name, "app": g.app,
            "role": g.role, "rep": rep, "config": config, "ranks": ranks if mpi else 0,
            "program": program, "args": args,
            "command": prefix + [program] + args,
            "companions": g.companions, "companion_command": companion,
            "env": env, "dir": rel_dir, "cwd": rel_dir,
            "stdout": f"{rel_dir}/stdout.txt", "stderr": f"{rel_dir}/stderr.txt",
            "results": f"{rel_dir}/results.h5" if mpi else None,
            "csv": f"{rel_dir}/table.csv" if g.role == "project" else None,
            "trace": g.trace, "extrap": list(g.extrap), "calibrations": calibrations,
            "post": [[_program(fill(p.program, values), build)] + [fill(a, values) for a in p.args]
                     for p in g.post],
            "post_env": [{k: fill(v, values) for k, v in p.env.items()} for p in g.post],
            "needs": needs}
        step.update(_fresh_state())
        run_steps[sid] = step
        steps.append(step)

    for step in run_steps.values():
        for cid in step["calibrations"]:
            _refuse_self_calibration(spec, step, run_steps[cid])
    for step in steps:
        step["timeout"] = spec.campaign.timeout
    return steps


def _fresh_state():
    return {"status": "pending", "exit": None, "error": None, "elapsed": None, "started": None,
            "finished": None, "job_id": None, "load": None}


def _command_step(sid, kind, c, values, build, mpiexec, bind):
    program = _program(fill(c.program, values), build)
    args = [fill(a, values) for a in c.args]
    prefix = _mpi_prefix(mpiexec, c.ranks, bind) if mpiexec else []
    step = {"id": sid, "kind": kind, "name": c.name, "group": None, "app": None, "role": None,
            "rep": None, "config": {}, "ranks": c.ranks, "program": program, "args": args,
            "command": prefix + [program] + args,
            "env": {k: fill(v, values) for k, v in c.env.items()}, "results": None, "csv": None,
            "trace": False, "extrap": [], "calibrations": [], "post": [], "post_env": [],
            "companions": 0, "companion_command": []}
    step.update(_fresh_state())
    return step


def _without_results(args):
    """args with `--results FILE` (or `--results=FILE`) as `--no-results`: a companion's run
    writes nothing."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a == "--results":
            out.append("--no-results")
            skip = True
        elif a.startswith("--results="):
            out.append("--no-results")
        else:
            out.append(a)
    return out


def _mpi_prefix(mpiexec, ranks, bind):
    return [mpiexec, "-n", str(ranks)] + (["-bind-to", "core"] if ranks == 1 and bind else [])


def _program(path, build):
    return path if os.path.isabs(path) else os.path.join(build, path)


def _matches(selector, predicted, calibration):
    for axis, (rule, literals) in selector.match.items():
        value = calibration.get(axis)
        if rule == "same" and value != predicted.get(axis):
            return False
        if rule == "other" and value == predicted.get(axis):
            return False
        if rule == "in" and value not in literals:
            return False
    return True


def _calibrations(spec, g, ci, rep, ids):
    """The ids of the calibration runs of run (g, ci, rep), selectors unioned in order."""
    predicted = dict(g.configs[ci], ranks=g.configs[ci].get("ranks", g.ranks))
    chosen = []
    for i, s in enumerate(g.calibrated_by):
        cal = spec.group(s.group)
        found = False
        for cj, c in enumerate(cal.configs):
            if _matches(s, predicted, dict(c, ranks=c.get("ranks", cal.ranks))):
                found = True
                if g.calibration_scope == "all":
                    reps = range(1, spec.campaign.repetitions + 1)
                else:
                    reps = [rep if g.calibration_scope == "repetition" else 1]
                for r in reps:
                    cid = ids[(cal.name, cj, r)]
                    if cid not in chosen:
                        chosen.append(cid)
        if not found:
            raise SpecError(f"{g.key} calibrated_by[{i}]",
                            f'a selector that selects a run of group "{s.group}" for the '
                            f"configuration {describe(predicted)} (it selects none)")
    return chosen


def _refuse_self_calibration(spec, predicted, calibration):
    if _comparable(spec, predicted) == _comparable(spec, calibration):
        g = spec.group(predicted["group"])
        raise SpecError(f"{g.key} calibrated_by",
                        f"a predicted run that is not one of its calibrations (configuration "
                        f"{describe(predicted['config'])} rep {predicted['rep']} equals run "
                        f"{calibration['id']} of group \"{calibration['group']}\")")


def _comparable(spec, step):
    """program, ranks and args of step with each argument naming a run file placeholder left
    out, with the option before it."""
    g = spec.group(step["group"])
    return step["program"], step["ranks"], _filled_kept(g.args, step["args"])


def _filled_kept(templates, filled):
    """The filled arguments whose template names no run file placeholder, nor is the option
    before such an argument."""
    kept = []
    for template, value in zip(templates, filled):
        if any("{" + p + "}" in template for p in RUN_FILE_PLACEHOLDERS):
            if kept and kept[-1][0].startswith("-"):
                kept.pop()
            continue
        kept.append((template, value))
    return tuple(v for _, v in kept)


def describe(config):
    """A configuration as `mk=10 mmi=3 ranks=2`."""
    return " ".join(f"{k}={v}" for k, v in config.items()) or "(no axes)"
