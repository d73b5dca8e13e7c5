"""Bad campaign specs each give one line naming the key, exit 2 and write nothing; the plan
resolves calibrations and orders the runs as the spec asks; a campaign directory is not
reused by accident (issue 38).

Usage: /usr/bin/python3 test_spec.py BUILD_DIR
"""

import os

from campaign_testlib import build_dir, check, check_equal, run, scratch, write

from suite_campaign import plan, spec

BUILD = build_dir()
TMP = scratch()

BASE = """
[campaign]
name = "t"

[[probe]]
name = "bsp"
program = "bsplib/bspprobe"
ranks = 2
args = ["--reps", "3", "--hmax", "1024", "--out", "{machine}"]

[[group]]
name = "cal"
app = "sweep3d"
role = "calibrate"
program = "sweep3d/sweep3d"
ranks = 1
axes = { mk = [2, 4] }
args = ["{inputs}/sweep3d/small.input", "--mk", "{mk}", "--results", "{results}"]

[[group]]
name = "pred"
app = "sweep3d"
role = "predict"
program = "sweep3d/sweep3d"
ranks = 2
axes = { mk = [2, 4] }
args = ["{inputs}/sweep3d/small.input", "--grid", "1x2", "--mk", "{mk}",
        "--calibration", "{calibrations}", "--results", "{results}"]
calibrated_by = [{ group = "cal", match = { mk = "same" } }]
"""

GROUP_KEYS = ("app, args, axes, calibrated_by, calibration_scope, companions, env, extrap, name, post, "
              "program, rank, role, trace").replace("rank, ", "ranks, ")

# (what is wrong, (old text, new text) replaced once in BASE or text appended, the line after
# "SPEC: ").
BAD_SPECS = [
    ("unknown top-level table", ("", '\n[campaing]\nname = "x"\n'),
     "campaing: unknown key (expected one of campaign, group, prepare, probe)"),
    ("typo in a group key", ("ranks = 1\n", "rank = 1\n"),
     f'group "cal" rank: unknown key (expected one of {GROUP_KEYS})'),
    ("typo in a post key", ("", '[[group.post]]\nprogramm = "bsplib/bsp_predict"\n'),
     'group "pred" post[0].programm: unknown key (expected one of args, env, program)'),
    ("repetitions out of range", ('name = "t"\n', 'name = "t"\nrepetitions = 0\n'),
     "campaign.repetitions: an integer in [1, 1000]"),
    ("repetitions of the wrong type", ('name = "t"\n', 'name = "t"\nrepetitions = "3"\n'),
     "campaign.repetitions: an integer in [1, 1000]"),
    ("unknown order", ('name = "t"\n', 'name = "t"\norder = "random"\n'),
     'campaign.order: one of "alternate", "grouped"'),
    ("bad timeout", ('name = "t"\n', 'name = "t"\ntimeout = -1\n'),
     "campaign.timeout: seconds, a number in (0, 604800]"),
    ("bad campaign name", ('name = "t"\n', 'name = "a b"\n'),
     "campaign.name: a name of [A-Za-z0-9_.-]+"),
    ("unknown role", ('role = "calibrate"', 'role = "calibrated"'),
     'group "cal" role: one of "calibrate", "predict", "project"'),
    ("ranks out of range", ("ranks = 1\n", "ranks = 0\n"),
     'group "cal" ranks: an integer in [1, 100000]'),
    ("empty axis", ("axes = { mk = [2, 4] }\nargs = [\"{inputs}/sweep3d/small.input\", \"--mk\"",
                    "axes = { mk = [] }\nargs = [\"{inputs}/sweep3d/small.input\", \"--mk\""),
     'group "cal" axes.mk: a non-empty array of values or of tables'),
    ("two groups of one name", ('name = "pred"', 'name = "cal"'),
     'group "cal" name: "cal" is used by another [[group]]'),
    ("unknown placeholder", ('"--mk", "{mk}", "--results"', '"--mk", "{mkk}", "--results"'),
     'group "cal" args[2]: unknown placeholder {mkk}'),
    ("calibrations without calibrated_by", ('"{mk}", "--results"', '"{mk}", "{calibrations}", "--results"'),
     'group "cal" args[3]: unknown placeholder {calibrations}'),
    ("a probe that is not there", ('"--grid", "1x2"', '"--grid", "{probe.loggps}"'),
     'group "pred" args[2]: unknown placeholder {probe.loggps}'),
    ("calibrated_by naming a predict group", ('group = "cal"', 'group = "pred"'),
     'group "pred" calibrated_by[0].group: a group of role calibrate ("pred" is predict)'),
    ("calibrated_by naming no group", ('group = "cal"', 'group = "cla"'),
     'group "pred" calibrated_by[0].group: the name of a group, not "cla"'),
    ("a match on an axis the calibrate group lacks", ('match = { mk = "same" }', 'match = { mmi = 3 }'),
     'group "pred" calibrated_by[0].match.mmi: an axis of group "cal"'),
    ("a selector selecting nothing", ('match = { mk = "same" }', 'match = { mk = [7] }'),
     'group "pred" calibrated_by[0]: a selector that selects a run of group "cal" for the '
     'configuration mk=2 ranks=2 (it selects none)'),
    ("a predicted run equal to its calibration",
     ('ranks = 2\naxes = { mk = [2, 4] }\nargs = ["{inputs}/sweep3d/small.input", "--grid", "1x2",',
      'ranks = 1\naxes = { mk = [2, 4] }\nargs = ["{inputs}/sweep3d/small.input",'),
     'group "pred" calibrated_by: a predicted run that is not one of its calibrations '
     '(configuration mk=2 ranks=1 rep 1 equals run 0002 of group "cal")'),
    ("companions beside a run of two ranks",
     ('calibrated_by = [{ group = "cal", match = { mk = "same" } }]',
      'calibrated_by = [{ group = "cal", match = { mk = "same" } }]\ncompanions = 1'),
     'group "pred" companions: 0 or absent unless ranks = 1 (copies beside a one-rank run)'),
    ("companions out of range", ("ranks = 1\n", "ranks = 1\ncompanions = -1\n"),
     'group "cal" companions: an integer in [0, 4096]'),
    ("companions beside a run that writes {dir}",
     ('args = ["{inputs}/sweep3d/small.input", "--mk", "{mk}", "--results", "{results}"]',
      'args = ["{inputs}/sweep3d/small.input", "--mk", "{mk}", "--results", "{results}", "--trace-out", "{dir}/t"]\ncompanions = 1'),
     'group "cal" args[6]: no {dir} or {csv} beside companions (their copies would write it too)'),
    ("a program not in the build", ('program = "sweep3d/sweep3d"', 'program = "sweep3d/sweep4d"'),
     f'group "cal" program: an executable program, not found: {BUILD}/sweep3d/sweep4d '
     f"(build directory {BUILD})"),
    ("a probe program not in the build", ('"bsplib/bspprobe"', '"bsplib/bspprobes"'),
     f'probe "bsp" program: an executable program, not found: {BUILD}/bsplib/bspprobes '
     f"(build directory {BUILD})"),
]


def bad_spec_cases():
    for n, (what, (old, new), expected) in enumerate(BAD_SPECS):
        if old:
            check(BASE.count(old) >= 1, f"{what}: the test's text to replace is not in BASE")
            text = BASE.replace(old, new, 1)
        else:
            text = BASE + new
        path = write(os.path.join(TMP, f"bad{n}.toml"), text)
        out = os.path.join(TMP, f"out{n}")
        result = run("run", path, "--out", out, "--build", BUILD)
        check_equal(result.returncode, 2, f"{what}: exit status")
        check_equal(result.stderr, f"suite-campaign: error: {path}: {expected}\n", f"{what}: stderr")
        check_equal(result.stdout, "", f"{what}: stdout")
        check(not os.path.exists(out), f"{what}: {out} was written")
    path = write(os.path.join(TMP, "broken.toml"), BASE + "\n[campaign\n")
    result = run("run", path, "--out", os.path.join(TMP, "broken"), "--build", BUILD)
    check_equal(result.returncode, 2, "not TOML: exit status")
    check(result.stderr.startswith(f"suite-campaign: error: {path}: toml: not valid TOML (")
          and result.stderr.count("\n") == 1, f"not TOML: stderr {result.stderr!r}")
    check(not os.path.exists(os.path.join(TMP, "broken")), "not TOML: output written")


def directory_cases():
    """A non-empty DIR needs --resume; --resume needs the spec DIR was made from."""
    good = write(os.path.join(TMP, "good.toml"), BASE)
    busy = os.path.join(TMP, "busy")
    os.makedirs(busy)
    write(os.path.join(busy, "notes.txt"), "mine\n")
    result = run("run", good, "--out", busy, "--build", BUILD)
    check_equal((result.returncode, result.stderr),
                (2, f"suite-campaign: error: {busy}: not empty; use --resume to continue the "
                    "campaign in it\n"), "non-empty DIR")
    check_equal(sorted(os.listdir(busy)), ["notes.txt"], "non-empty DIR: contents")
    result = run("run", good, "--out", busy, "--build", BUILD, "--resume")
    check_equal((result.returncode, result.stderr),
                (2, f"suite-campaign: error: {busy}: no campaign here (campaign.json missing)\n"),
                "resume without a campaign")
    # A campaign made from one spec, resumed with another (the manifest written by hand: no run).
    from suite_campaign.store import Store
    steps = plan.make_plan(spec.load(good), busy + "2", BUILD, "/repo", "mpiexec")
    Store.create(busy + "2", good, steps, "t", BUILD, "/repo", "local")
    other = write(os.path.join(TMP, "other.toml"), BASE.replace("mk = [2, 4]", "mk = [2, 5]"))
    result = run("run", other, "--out", busy + "2", "--build", BUILD, "--resume")
    check_equal((result.returncode, result.stderr),
                (2, f"suite-campaign: error: {busy}2: made from another spec than {other} "
                    "(sha256 differs); give the spec it was made from, or a new --out\n"),
                "resume with another spec")


def plan_of(text, out="/c"):
    return plan.make_plan(spec.parse(__import__("tomllib").loads(text)), out, "/b", "/r", "mpx")


def plan_cases():
    text = BASE.replace('name = "t"\n', 'name = "t"\nrepetitions = 2\n')
    steps = plan_of(text)
    order = [(s["id"], s["kind"], s["name"], s["rep"], s["config"].get("mk"), s["calibrations"])
             for s in steps]
    check_equal(order, [
        ("0001", "probe", "bsp", None, None, []),
        ("0002", "run", "cal", 1, 2, []), ("0003", "run", "cal", 1, 4, []),
        ("0004", "run", "pred", 1, 2, ["0002"]), ("0005", "run", "pred", 1, 4, ["0003"]),
        ("0006", "run", "cal", 2, 2, []), ("0007", "run", "cal", 2, 4, []),
        ("0008", "run", "pred", 2, 2, ["0006"]), ("0009", "run", "pred", 2, 4, ["0007"])],
        "alternate order and calibrations of the same repetition")
    check_equal(steps[0]["command"], ["mpx", "-n", "2", "/b/bsplib/bspprobe", "--reps", "3",
                                      "--hmax", "1024", "--out", "/c/probes/bsp.machine"],
                "probe command")
    check_equal(steps[1]["command"], ["mpx", "-n", "1", "-bind-to", "core", "/b/sweep3d/sweep3d",
                                      "/r/inputs/sweep3d/small.input", "--mk", "2", "--results",
                                      "/c/runs/0002/results.h5"], "1-rank command, bound")
    check_equal(steps[3]["command"][:3] + steps[3]["command"][-4:],
                ["mpx", "-n", "2", "--calibration", "/c/runs/0002/results.h5", "--results",
                 "/c/runs/0004/results.h5"], "predicted command")
    check_equal(steps[3]["needs"], ["0002"], "needs of a predicted run")
    unbound = plan_of(text.replace('name = "t"\n', 'name = "t"\nbind_single_rank = false\n'))
    check_equal(unbound[1]["command"][:4], ["mpx", "-n", "1", "/b/sweep3d/sweep3d"], "unbound")

    grouped = plan_of(text.replace('name = "t"\n', 'name = "t"\norder = "grouped"\n'))
    check_equal([(s["name"], s["config"].get("mk"), s["rep"], s["calibrations"]) for s in grouped[1:]],
                [("cal", 2, 1, []), ("cal", 2, 2, []), ("cal", 4, 1, []), ("cal", 4, 2, []),
                 ("pred", 2, 1, ["0002"]), ("pred", 2, 2, ["0003"]),
                 ("pred", 4, 1, ["0004"]), ("pred", 4, 2, ["0005"])], "grouped order")

    # scope "any": the first repetition's; selectors unioned in order, duplicates dropped;
    # "other" and a list of literals.
    anyscope = text.replace('calibrated_by = [{ group = "cal", match = { mk = "same" } }]',
                            'calibrated_by = [{ group = "cal", match = { mk = "other" } },\n'
                            '                 { group = "cal", match = { mk = [2, 4] } }]\n'
                            'calibration_scope = "any"')
    steps = plan_of(anyscope)
    check_equal([(s["rep"], s["config"]["mk"], s["calibrations"]) for s in steps if s["name"] == "pred"],
                [(1, 2, ["0003", "0002"]), (1, 4, ["0002", "0003"]),
                 (2, 2, ["0003", "0002"]), (2, 4, ["0002", "0003"])], "scope any, union")

    # scope "all": every repetition's, a configuration's repetitions together, selectors in order.
    allscope = anyscope.replace('calibration_scope = "any"', 'calibration_scope = "all"').replace(
        'name = "t"\n', 'name = "t"\norder = "grouped"\n')
    steps = plan_of(allscope)
    check_equal([(s["rep"], s["config"]["mk"], s["calibrations"]) for s in steps if s["name"] == "pred"],
                [(1, 2, ["0004", "0005", "0002", "0003"]), (2, 2, ["0004", "0005", "0002", "0003"]),
                 (1, 4, ["0002", "0003", "0004", "0005"]), (2, 4, ["0002", "0003", "0004", "0005"])],
                "scope all, union")
    try:
        plan_of(anyscope.replace('calibration_scope = "any"', 'calibration_scope = "all"'))
        check(False, 'scope "all" in the alternate order was accepted')
    except spec.SpecError as e:
        check_equal(str(e), 'group "pred" calibration_scope: "all" needs campaign.order = "grouped" '
                    "(every repetition's calibrations before the first predicted run)", "scope all, alternate")

    # {probe.bsp-p{ranks}}: the axis pass first; zipped axes; project runs are serial.
    nested = BASE.replace('name = "bsp"', 'name = "bsp-p2"').replace(
        '"--grid", "1x2"', '"--machine", "{probe.bsp-p{ranks}}"').replace(
        "ranks = 2\naxes = { mk = [2, 4] }",
        'axes = { layout = [{ranks = 2, grid = "1x2"}, {ranks = 2, grid = "2x1"}], mk = [2, 4] }')
    nested += ('\n[[group]]\nname = "tab"\napp = "sweep3d"\nrole = "project"\n'
               'program = "sweep3d/model/sweep3d-model"\nargs = ["--csv", "{csv}"]\n')
    steps = plan_of(nested)
    pred = [s for s in steps if s["name"] == "pred"]
    check_equal([(s["config"], s["args"][2]) for s in pred[:4]],
                [({"ranks": 2, "grid": "1x2", "mk": 2}, "/c/probes/bsp-p2.machine"),
                 ({"ranks": 2, "grid": "1x2", "mk": 4}, "/c/probes/bsp-p2.machine"),
                 ({"ranks": 2, "grid": "2x1", "mk": 2}, "/c/probes/bsp-p2.machine"),
                 ({"ranks": 2, "grid": "2x1", "mk": 4}, "/c/probes/bsp-p2.machine")],
                "zipped axes and a nested placeholder")
    check_equal(pred[0]["needs"], ["0001", "0002"], "a run needs the probe it names")
    tab = [s for s in steps if s["name"] == "tab"][0]
    check_equal((tab["command"], tab["csv"], tab["results"], tab["ranks"]),
                (["/b/sweep3d/model/sweep3d-model", "--csv", f"/c/{tab['dir']}/table.csv"],
                 f"{tab['dir']}/table.csv", None, 0), "a project run")
    # Companions: the run told --beside N, its copy without --results.
    steps = plan_of(BASE.replace("ranks = 1\n", "ranks = 1\ncompanions = 1\n", 1))
    cal = [s for s in steps if s["name"] == "cal"][0]
    check_equal((cal["companions"], cal["command"][-2:]), (1, ["--beside", "1"]), "a calibration with a companion")
    check_equal(cal["companion_command"][:3] + cal["companion_command"][-1:], [cal["command"][0], "-n", "1", "--no-results"],
                "its companion: unbound, --no-results for --results")
    check("-bind-to" not in cal["companion_command"] and "--beside" not in cal["companion_command"],
          f"the companion's command {cal['companion_command']}")
    try:
        plan_of(BASE.replace("{probe.bsp}", "x").replace('"--grid", "1x2"', '"--machine", "{probe.bsp-p{ranks}}"'))
        check(False, "a nested placeholder naming no probe was accepted")
    except spec.SpecError as e:
        check_equal(str(e), 'group "pred" args[2]: unknown placeholder {probe.bsp-p2}', "nested, no probe")


bad_spec_cases()
directory_cases()
plan_cases()
print(f"{len(BAD_SPECS) + 1} bad specs, the directory checks and the plan cases pass")
