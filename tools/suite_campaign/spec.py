"""The campaign spec (TOML): parse it and check every key, so that a bad spec ends the run
before anything is written, with one line naming the key (the contract:
/work/notes/campaign-design.md, "The spec").

Every error is a SpecError(key, expected); cli.py prints it as
`suite-campaign: error: SPEC: <key path>: <expected>` and exits 2. Key paths read like the
spec: `campaign.repetitions`, `group "sweep3d-pred" args[3]`, `probe[1] ranks`,
`group "x" calibrated_by[0].match.mk`.

Unknown keys are errors (a typo must not be silently ignored), and so are unknown
placeholders: each string of a command is checked against the placeholders its step can
give. The checks that need the expanded runs (a selector selecting nothing, a predicted run
equal to one of its calibrations) are in plan.py and raise the same SpecError.
"""

import dataclasses
import itertools
import re
import tomllib

ROLES = ("calibrate", "predict", "project")
APPS = ("sweep3d", "tycho", "multigrid", "bsplib")
ORDERS = ("alternate", "grouped")
SCOPES = ("repetition", "any", "all")
NAME_PATTERN = re.compile(r"[A-Za-z0-9_.-]+\Z")
AXIS_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# A placeholder is the innermost {...}: {probe.bsp-p{ranks}} is {ranks} first, then the rest.
PLACEHOLDER = re.compile(r"\{([^{}]*)\}")

# Placeholders every step can use, and those of each kind of step besides.
COMMON_PLACEHOLDERS = ("work", "inputs", "shared", "build", "repo")
RUN_PLACEHOLDERS = ("rep", "ranks", "results", "dir", "csv")


class SpecError(Exception):
    """A spec error: the key path and what was expected there."""

    def __init__(self, key, expected):
        super().__init__(f"{key}: {expected}")
        self.key = key
        self.expected = expected


@dataclasses.dataclass
class Campaign:
    name: str
    description: str
    repetitions: int
    order: str
    bind_single_rank: bool
    timeout: float


@dataclasses.dataclass
class Command:
    """A [[prepare]] or [[probe]] entry, or one [[group.post]] command."""
    key: str            # its key path, for errors found later (program not found)
    name: str
    program: str
    args: list
    env: dict
    ranks: int          # 0: serial (prepare, post)


@dataclasses.dataclass
class Selector:
    group: str
    match: dict         # axis -> ("same" | "other" | "in", [literals])


@dataclasses.dataclass
class Group:
    key: str
    name: str
    app: str
    role: str
    program: str
    ranks: int | None   # None: the configurations' "ranks" axis gives it (or role project)
    configs: list       # list of dicts axis -> value, the cartesian product in spec order
    axis_names: list
    args: list
    env: dict
    trace: bool
    extrap: list
    calibrated_by: list
    calibration_scope: str
    post: list          # of Command
    companions: int = 0  # copies of a one-rank run beside it, a CPU each (backend_local.py)


@dataclasses.dataclass
class Spec:
    campaign: Campaign
    prepare: list
    probes: list
    groups: list

    def group(self, name):
        return next(g for g in self.groups if g.name == name)


def load(path):
    """The Spec of the TOML file at path; SpecError on any error."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as e:
        raise SpecError("file", f"cannot read ({e.strerror})") from None
    except tomllib.TOMLDecodeError as e:
        raise SpecError("toml", f"not valid TOML ({e})") from None
    return parse(data)


def parse(data):
    """The Spec of a parsed TOML document (a dict); SpecError on any error."""
    _only_keys(data, "", {"campaign", "prepare", "probe", "group"})
    if "campaign" not in data:
        raise SpecError("campaign", "a [campaign] table is required")
    campaign = _campaign(_table(data["campaign"], "campaign"))
    prepare = [_command(t, f"prepare[{i}]", "prepare")
               for i, t in enumerate(_tables(data.get("prepare", []), "prepare"))]
    probes = [_command(t, f"probe[{i}]", "probe")
              for i, t in enumerate(_tables(data.get("probe", []), "probe"))]
    groups = [_group(t, i) for i, t in enumerate(_tables(data.get("group", []), "group"))]
    if not groups:
        raise SpecError("group", "at least one [[group]] is required")
    for kind, items in (("prepare", prepare), ("probe", probes), ("group", groups)):
        seen = set()
        for item in items:
            if item.name in seen:
                raise SpecError(f"{item.key} name", f'"{item.name}" is used by another [[{kind}]]')
            seen.add(item.name)
    for g in groups:
        # Every repetition's calibrations feed each predicted run: they must all have run
        # before the first predicted run does, which only the grouped order gives.
        if g.calibration_scope == "all" and campaign.order != "grouped":
            raise SpecError(_sub(g.key, "calibration_scope"),
                            '"all" needs campaign.order = "grouped" (every repetition\'s '
                            "calibrations before the first predicted run)")
    spec = Spec(campaign, prepare, probes, groups)
    _check_references(spec)
    return spec


# --- tables and values ---------------------------------------------------------------------

def _only_keys(table, key, allowed):
    for k in table:
        if k not in allowed:
            raise SpecError(_sub(key, k) if key else k, "unknown key (expected one of " + ", ".join(sorted(allowed)) + ")")


def _table(value, key):
    if not isinstance(value, dict):
        raise SpecError(key, "a table")
    return value


def _tables(value, key):
    if not isinstance(value, list) or not all(isinstance(t, dict) for t in value):
        raise SpecError(key, f"an array of tables ([[{key}]])")
    return value


def _string(value, key, pattern=None, what="a string"):
    if not isinstance(value, str) or (pattern is not None and not pattern.match(value)):
        raise SpecError(key, what)
    return value


def _integer(value, key, low, high):
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SpecError(key, f"an integer in [{low}, {high}]")
    return value


def _choice(value, key, choices):
    if value not in choices:
        raise SpecError(key, "one of " + ", ".join(f'"{c}"' for c in choices))
    return value


def _bool(value, key):
    if not isinstance(value, bool):
        raise SpecError(key, "true or false")
    return value


def _strings(value, key):
    if not isinstance(value, list):
        raise SpecError(key, "an array of strings")
    for i, s in enumerate(value):
        if not isinstance(s, str):
            raise SpecError(f"{key}[{i}]", "a string")
    return list(value)


def _env(value, key):
    if not isinstance(value, dict):
        raise SpecError(key, "a table of strings")
    for k, v in value.items():
        if not isinstance(v, str):
            raise SpecError(f"{key}.{k}", "a string")
    return dict(value)


def _sub(key, k):
    """The key path of k inside key: `group "x" args` or `campaign.name`."""
    top = key.endswith('"') or (key.endswith("]") and " " not in key)
    return f"{key} {k}" if top else f"{key}.{k}"


def _named_key(kind, index, table):
    name = table.get("name")
    return f'{kind} "{name}"' if isinstance(name, str) and NAME_PATTERN.match(name) else f"{kind}[{index}]"


# --- the sections ---------------------------------------------------------------------------

def _campaign(t):
    _only_keys(t, "campaign", {"name", "description", "repetitions", "order",
                               "bind_single_rank", "timeout"})
    if "name" not in t:
        raise SpecError("campaign.name", "required ([A-Za-z0-9_.-]+)")
    timeout = t.get("timeout", 600)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= 7 * 86400:
        raise SpecError("campaign.timeout", "seconds, a number in (0, 604800]")
    return Campaign(
        name=_string(t["name"], "campaign.name", NAME_PATTERN, "a name of [A-Za-z0-9_.-]+"),
        description=_string(t.get("description", ""), "campaign.description"),
        repetitions=_integer(t.get("repetitions", 1), "campaign.repetitions", 1, 1000),
        order=_choice(t.get("order", "alternate"), "campaign.order", ORDERS),
        bind_single_rank=_bool(t.get("bind_single_rank", True), "campaign.bind_single_rank"),
        timeout=float(timeout))


def _command(t, index_key, kind):
    index = int(index_key[index_key.index("[") + 1:-1])
    key = _named_key(kind, index, t)
    allowed = {"name", "program", "args", "env"} | ({"ranks"} if kind == "probe" else set())
    _only_keys(t, key, allowed)
    for required in ("name", "program"):
        if required not in t:
            raise SpecError(_sub(key, required), "required")
    name = _string(t["name"], _sub(key, "name"), NAME_PATTERN, "a name of [A-Za-z0-9_.-]+")
    ranks = _integer(t.get("ranks", 1), _sub(key, "ranks"), 1, 100000) if kind == "probe" else 0
    command = Command(key=key, name=name,
                      program=_string(t["program"], _sub(key, "program")),
                      args=_strings(t.get("args", []), _sub(key, "args")),
                      env=_env(t.get("env", {}), _sub(key, "env")), ranks=ranks)
    if not command.program:
        raise SpecError(_sub(key, "program"), "a program path relative to the build directory")
    return command


def _axis_value(value, key):
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise SpecError(key, "a number or a string")
    return value


def _axes(value, key):
    """(names, configurations) of an axes table: scalar lists multiply, a list of tables
    gives its keys together (zipped)."""
    if not isinstance(value, dict):
        raise SpecError(key, "a table of axis -> array of values")
    names, factors = [], []
    for axis, values in value.items():
        akey = f"{key}.{axis}"
        if not AXIS_PATTERN.match(axis):
            raise SpecError(akey, "an axis name of [A-Za-z_][A-Za-z0-9_]*")
        if not isinstance(values, list) or not values:
            raise SpecError(akey, "a non-empty array of values or of tables")
        if all(isinstance(v, dict) for v in values):
            keys = list(values[0])
            if not keys:
                raise SpecError(f"{akey}[0]", "a table of at least one axis value")
            entries = []
            for i, v in enumerate(values):
                if list(v) != keys:
                    raise SpecError(f"{akey}[{i}]", "the same keys as " + f"{akey}[0] (" + ", ".join(keys) + ")")
                for k, x in v.items():
                    if not AXIS_PATTERN.match(k):
                        raise SpecError(f"{akey}[{i}].{k}", "an axis name of [A-Za-z_][A-Za-z0-9_]*")
                    _axis_value(x, f"{akey}[{i}].{k}")
                entries.append(dict(v))
            new = keys
        elif any(isinstance(v, dict) for v in values):
            raise SpecError(akey, "an array of values or an array of tables, not both")
        else:
            entries = [{axis: _axis_value(v, f"{akey}[{i}]")} for i, v in enumerate(values)]
            new = [axis]
        for n in new:
            if n in names:
                raise SpecError(akey, f'axis "{n}" given twice')
        names += new
        factors.append(entries)
    configs = []
    for combination in itertools.product(*factors):
        config = {}
        for part in combination:
            config.update(part)
        configs.append(config)
    if len({tuple(sorted((k, repr(v)) for k, v in c.items())) for c in configs}) != len(configs):
        raise SpecError(key, "each configuration once (a value repeats in an axis)")
    return names, configs


def _group(t, index):
    key = _named_key("group", index, t)
    _only_keys(t, key, {"name", "app", "role", "program", "ranks", "axes", "args", "env",
                        "trace", "extrap", "calibrated_by", "calibration_scope", "post", "companions"})
    for required in ("name", "app", "role", "program"):
        if required not in t:
            raise SpecError(_sub(key, required), "required")
    name = _string(t["name"], _sub(key, "name"), NAME_PATTERN, "a name of [A-Za-z0-9_.-]+")
    role = _choice(t["role"], _sub(key, "role"), ROLES)
    names, configs = _axes(t.get("axes", {}), _sub(key, "axes"))
    ranks = None
    if "ranks" in t:
        if "ranks" in names:
            raise SpecError(_sub(key, "ranks"), 'either ranks or an axis "ranks", not both')
        low = 0 if role == "project" else 1
        ranks = _integer(t["ranks"], _sub(key, "ranks"), low, 100000)
        if role == "project" and ranks != 0:
            raise SpecError(_sub(key, "ranks"), "0 or absent (project runs are serial)")
    if role == "project":
        if "ranks" in names:
            raise SpecError(_sub(key, "axes.ranks"), "no ranks axis (project runs are serial)")
        ranks = 0
    elif "ranks" in names:
        for i, c in enumerate(configs):
            _integer(c["ranks"], _sub(key, "axes.ranks"), 1, 100000)
    elif ranks is None:
        raise SpecError(_sub(key, "ranks"), 'required (an integer >= 1, or an axis "ranks")')
    extrap = _strings(t.get("extrap", []), _sub(key, "extrap"))
    for i, axis in enumerate(extrap):
        if axis not in names:
            raise SpecError(f"{_sub(key, 'extrap')}[{i}]", f'an axis of the group, not "{axis}"')
    calibrated_by = []
    if "calibrated_by" in t:
        ckey = _sub(key, "calibrated_by")
        if role == "calibrate":  # a projection reads calibrations too (sweep3d-model, tycho-model)
            raise SpecError(ckey, "only for role predict or project")
        value = t["calibrated_by"]
        if not isinstance(value, list) or not value or not all(isinstance(s, dict) for s in value):
            raise SpecError(ckey, "a non-empty array of tables {group = ..., match = {...}}")
        calibrated_by = [_selector(s, f"{ckey}[{i}]", names) for i, s in enumerate(value)]
    scope = _choice(t.get("calibration_scope", "repetition"), _sub(key, "calibration_scope"), SCOPES)
    companions = _integer(t.get("companions", 0), _sub(key, "companions"), 0, 4096)
    if companions and ranks != 1:
        raise SpecError(_sub(key, "companions"), "0 or absent unless ranks = 1 (copies beside a one-rank run)")
    if companions:
        _refuse_shared_outputs(t, key)
    posts = _tables(t.get("post", []), _sub(key, "post"))
    post = []
    for i, p in enumerate(posts):
        pkey = f"{_sub(key, 'post')}[{i}]"
        _only_keys(p, pkey, {"program", "args", "env"})
        if "program" not in p:
            raise SpecError(f"{pkey}.program", "required")
        post.append(Command(key=pkey, name=f"post{i}",
                            program=_string(p["program"], f"{pkey}.program"),
                            args=_strings(p.get("args", []), f"{pkey}.args"),
                            env=_env(p.get("env", {}), f"{pkey}.env"), ranks=0))
    return Group(key=key, name=name, app=_choice(t["app"], _sub(key, "app"), APPS), role=role,
                 program=_string(t["program"], _sub(key, "program")), ranks=ranks,
                 configs=configs, axis_names=names,
                 args=_strings(t.get("args", []), _sub(key, "args")),
                 env=_env(t.get("env", {}), _sub(key, "env")),
                 trace=_bool(t.get("trace", False), _sub(key, "trace")),
                 extrap=extrap, calibrated_by=calibrated_by, calibration_scope=scope, post=post,
                 companions=companions)


def _refuse_shared_outputs(t, key):
    """A group with companions writes nothing its copies would write too: {results} only as
    the value of --results (a copy gets --no-results instead), no {dir} or {csv}."""
    args = t.get("args", [])
    for i, a in enumerate(args):
        where = f"{_sub(key, 'args')}[{i}]"
        if isinstance(a, str) and ("{dir}" in a or "{csv}" in a):
            raise SpecError(where, "no {dir} or {csv} beside companions (their copies would write it too)")
        if isinstance(a, str) and "{results}" in a and not (a == "{results}" and i > 0 and args[i - 1] == "--results"):
            raise SpecError(where, "{results} only as the value of --results beside companions "
                                   "(a copy runs with --no-results)")
    for name, v in (t.get("env") or {}).items():
        if isinstance(v, str) and any(p in v for p in ("{dir}", "{csv}", "{results}")):
            raise SpecError(f"{_sub(key, 'env')}.{name}", "no {dir}, {csv} or {results} beside companions "
                                                        "(their copies would write it too)")


def _selector(s, key, predicted_axes):
    _only_keys(s, key, {"group", "match"})
    if "group" not in s:
        raise SpecError(f"{key}.group", "required (the name of a calibrate group)")
    group = _string(s["group"], f"{key}.group")
    match = s.get("match", {})
    if not isinstance(match, dict):
        raise SpecError(f"{key}.match", 'a table of axis -> "same", "other", a value or an array of values')
    rules = {}
    for axis, rule in match.items():
        mkey = f"{key}.match.{axis}"
        if rule in ("same", "other"):
            if axis not in predicted_axes and axis != "ranks":
                raise SpecError(mkey, f'"{rule}" needs an axis "{axis}" in this group')
            rules[axis] = (rule, [])
        elif isinstance(rule, list):
            if not rule:
                raise SpecError(mkey, "a non-empty array of values")
            rules[axis] = ("in", [_axis_value(v, f"{mkey}[{i}]") for i, v in enumerate(rule)])
        else:
            rules[axis] = ("in", [_axis_value(rule, mkey)])
    return Selector(group=group, match=rules)


# --- references between sections ------------------------------------------------------------

def _check_references(spec):
    groups = {g.name: g for g in spec.groups}
    probes = {p.name for p in spec.probes}
    for g in spec.groups:
        for i, s in enumerate(g.calibrated_by):
            skey = f"{g.key} calibrated_by[{i}]"
            if s.group not in groups:
                raise SpecError(f"{skey}.group", f'the name of a group, not "{s.group}"')
            cal = groups[s.group]
            if cal.role != "calibrate":
                raise SpecError(f"{skey}.group", f'a group of role calibrate ("{s.group}" is {cal.role})')
            for axis in s.match:
                if axis not in cal.axis_names and axis != "ranks":
                    raise SpecError(f"{skey}.match.{axis}", f'an axis of group "{s.group}"')
    common = set(COMMON_PLACEHOLDERS)
    for c in spec.prepare:
        _check_placeholders(c, common | {"dir"}, set(), probes=set())
    for c in spec.probes:
        _check_placeholders(c, common | {"dir", "machine"}, set(), set(), ({"ranks": c.ranks},))
    for g in spec.groups:
        known = common | set(RUN_PLACEHOLDERS)
        if g.calibrated_by:
            known.add("calibrations")
        configs = [dict(c, ranks=c.get("ranks", g.ranks)) for c in g.configs]
        for item in [g] + g.post:
            _check_placeholders(item, known, set(g.axis_names), probes, configs)


def _check_placeholders(item, known, axes, probes, configs=({},)):
    """Every placeholder of item's program, args and env is one its step can give: the axis
    pass is done with each configuration's values, so {probe.bsp-p{ranks}} names a probe."""
    sep = "." if "post[" in item.key else " "
    fields = [(f"{item.key}{sep}program", item.program)]
    fields += [(f"{item.key}{sep}args[{i}]", s) for i, s in enumerate(item.args)]
    fields += [(f"{item.key}{sep}env.{k}", s) for k, s in item.env.items()]
    for config in configs:
        values = {k: str(v) for k, v in config.items()}
        values.setdefault("rep", "1")
        for key, text in fields:
            first = axis_pass(text, values)
            for m in PLACEHOLDER.finditer(first):
                name = m.group(1)
                if name in known or name in axes:
                    continue
                if name.startswith("probe.") and name[6:] in probes:
                    continue
                raise SpecError(key, f"unknown placeholder {{{name}}}")
            if "{" in PLACEHOLDER.sub("", first) or "}" in PLACEHOLDER.sub("", first):
                raise SpecError(key, "balanced braces around placeholders")


def axis_pass(text, values):
    """text with the placeholders named in values (axes, ranks, rep) replaced."""
    return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


def fill(text, values):
    """text with every placeholder replaced: the axis pass, then the rest (values holds all)."""
    return axis_pass(axis_pass(text, values), values)
