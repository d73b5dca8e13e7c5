#!/usr/bin/env python3
"""Checks that the READMEs and docs/ name only programs, options and files that exist.

    python3 tools/check_docs.py BUILD_DIR [--source REPO]

What a page names is read from its `code` spans and fenced code blocks only (prose is free):
- a program: the command after `mpiexec -n N` / `mpirun -np N`, anything written as a path
  into a build folder (`build/sweep3d/sweep3d`, `<build>/bsplib/bin/bspcc`), and a span
  that starts with a hyphenated name (`sweep3d-model ...`) must be an executable of BUILD_DIR
  (or of the repository's tools/ folder, where perf-report lives);
- an option: `--x` after such a program must appear in that program's `--help` output; a
  span that is an option alone (`--machine FILE`) must appear in the `--help` of some program
  the same page names (so an option no program has is caught, wherever it is written);
- a file: a token with a slash and an extension (`multigrid/scripts/predict.sh`), or a bare
  name of a repository file kind (`BENCHMARKS.md`, `bsp.h`), must exist: relative to the
  page's folder, to the repository, or as the tail of a repository path (`#include` style,
  `instrument/replay.hpp`). Not files: paths under results/, build folders, ../shared,
  /tmp, absolute paths, URLs, and placeholders written in capitals (MESH, OUT.smesh, RUN.h5).
And README.md's limits: at most 120 lines and 9000 characters, no line over 200.

Every problem is one line `file:line: what`; exit status 1 if there is any, 0 otherwise.
Python 3 standard library only (it runs in ctest, `docs.check`).
"""
import argparse
import os
import re
import stat
import subprocess
import sys

README_MAX_LINES = 120
README_MAX_CHARS = 9000
README_MAX_LINE = 200

# Kinds of repository file a bare name (no slash) is checked for; other bare names with a dot
# are usually outputs a command writes (cal.h5, proj.csv, input50.kv is checked by its path).
BARE_FILE_KINDS = {"md", "hpp", "cpp", "h", "c", "py", "sh", "cmake", "geo", "in"}
PATH_KINDS = BARE_FILE_KINDS | {"txt", "smesh", "msh", "machine", "kv", "input", "json", "csv",
                                "h5", "png", "cfg", "yml", "yaml", "toml", "dict", "options"}
# Top-level folders whose files are made by runs, not kept in the repository.
NOT_REPO_PREFIXES = ("results/", "build/", "build-", "../shared", "/", "~", "$", "<",
                     "http:", "https:", "file:", "some/", "path/to/")
LAUNCHERS = {"mpiexec", "mpirun"}
# The launchers' options that take values (MPICH's hydra and Open MPI), by how many.
LAUNCHER_VALUES = {"-n": 1, "-np": 1, "-N": 1, "-bind-to": 1, "--bind-to": 1, "-map-by": 1,
                   "--map-by": 1, "-ppn": 1, "-hosts": 1, "-host": 1, "--host": 1, "-f": 1,
                   "-hostfile": 1, "--hostfile": 1, "-machinefile": 1, "-wdir": 1,
                   "-configfile": 1, "-env": 2, "-genv": 2, "-x": 1}
# A hyphenated name that starts with a part's name is taken for one of the suite's programs.
# (Not a format name such as suite-machine-1.)
SUITE_PROGRAM = re.compile(r"(?:sweep3d|tycho|multigrid|instrument|bsp|loggps|replay|machine|perf|"
                           r"hook|mesh)[a-z0-9]*(?:-[a-z0-9]*[a-z][a-z0-9]*)+")
SKIP_DIRS = {".git", "__pycache__", "node_modules", "results"}


def is_placeholder(token):
    """MESH, OUT.smesh, RUN.h5, OUT_DIR/x.csv, A,B,...: a word in capitals stands for a name
    (but not in a page's name: STATUS.md, BENCHMARKS.md are files)."""
    token = re.sub(r"[A-Z]+\.md$", "page.md", token)
    for part in re.split(r"[/.,=:]", token):
        if len(part) >= 2 and re.fullmatch(r"[A-Z][A-Z0-9_]*", part):
            return True
    return "..." in token or "*" in token or "{" in token


class Repository:
    def __init__(self, root, build):
        self.root = os.path.abspath(root)
        self.build = os.path.abspath(build)
        self.files = set()        # repository-relative paths
        self.dirs = set()
        self.basenames = set()
        for dirpath, dirnames, filenames in os.walk(self.root):
            rel_dir = os.path.relpath(dirpath, self.root)
            keep = []
            for d in dirnames:
                full = os.path.join(dirpath, d)
                if d in SKIP_DIRS or d.startswith(".") and d != ".ci":
                    continue
                if os.path.exists(os.path.join(full, "CMakeCache.txt")) or \
                        os.path.abspath(full) == self.build:
                    continue  # a build folder
                keep.append(d)
            dirnames[:] = keep
            for d in keep:
                self.dirs.add(os.path.normpath(os.path.join(rel_dir, d)))
            for f in filenames:
                rel = os.path.normpath(os.path.join(rel_dir, f))
                self.files.add(rel)
                self.basenames.add(f)
        self.programs = self._programs()
        self._help = {}

    def _programs(self):
        """Executables of the build folder (and of tools/): name -> path."""
        found = {}
        self.build_dirs = set()
        for dirpath, dirnames, filenames in os.walk(self.build):
            dirnames[:] = [d for d in dirnames if d not in ("CMakeFiles", "Testing")]
            self.build_dirs.update(dirnames)
            for f in filenames:
                full = os.path.join(dirpath, f)
                try:
                    st = os.stat(full)
                except OSError:
                    continue
                if stat.S_ISREG(st.st_mode) and st.st_mode & 0o111 and \
                        not f.endswith((".so", ".a", ".o")) and f not in found:
                    found[f] = full
        # The fuzz targets are built apart (scripts/fuzz.sh, clang): fuzz_X from fuzz/X_fuzzer.cpp.
        for f in self.files:
            m = re.fullmatch(r"fuzz/(\w+)_fuzzer\.cpp", f)
            if m:
                found.setdefault("fuzz_" + m.group(1), None)
        tools = os.path.join(self.root, "tools")
        if os.path.isdir(tools):
            for f in os.listdir(tools):
                full = os.path.join(tools, f)
                if os.path.isfile(full) and os.access(full, os.X_OK) and "." not in f:
                    found.setdefault(f, full)
        return found

    def misplaced(self, token, name):
        """Where a program written as build/<dir>/<name> really is, if not there (else None)."""
        rel = re.sub(r"^\./", "", token).split("/", 1)[1]
        if os.path.isfile(os.path.join(self.build, rel)) or self.programs[name] is None:
            return None
        return os.path.relpath(self.programs[name], self.build)

    def help_text(self, program):
        """The program's `--help` output, or None with the reason when it does not give one."""
        if program not in self._help and self.programs[program] is None:
            self._help[program] = (None, "is not run here (a fuzz target)")
        if program not in self._help:
            try:
                done = subprocess.run([self.programs[program], "--help"], stdin=subprocess.DEVNULL,
                                      capture_output=True, text=True, errors="replace",
                                      timeout=30)
                if done.returncode != 0:
                    self._help[program] = (None, "exits %d" % done.returncode)
                else:
                    self._help[program] = (done.stdout + done.stderr, None)
            except (OSError, subprocess.TimeoutExpired) as e:
                self._help[program] = (None, "cannot be run (%s)" % e.__class__.__name__)
        return self._help[program]

    def path_exists(self, token, page_dir):
        token = token.rstrip("/")
        for base in (page_dir, ""):
            rel = os.path.normpath(os.path.join(base, token))
            if rel in self.files or rel in self.dirs:
                return True
        tail = "/" + token.lstrip("./")
        return any(f.endswith(tail) for f in self.files) or any(d.endswith(tail) for d in self.dirs)


def code_pieces(text):
    """(line number, text, fenced) for every code span and every line of a fenced block."""
    pieces = []
    in_fence = False
    for number, line in enumerate(text.split("\n"), start=1):
        if re.match(r"\s*(```|~~~)", line):
            in_fence = not in_fence
            continue
        if in_fence:
            pieces.append((number, line, True))
            continue
        # An indented block (4 spaces) after a blank line is code too; spans are enough here.
        for span in re.findall(r"`([^`]+)`", line):
            pieces.append((number, span, False))
    return pieces


OPTION = re.compile(r"(?<![\w-])--[a-zA-Z][\w-]*")
BUILD_PATH = re.compile(r"^(?:\.?/?build[\w.-]*|<build>|\$\{?BUILD(?:_DIR)?\}?|BUILD(?:_DIR)?)/(?:[\w.+-]+/)*([\w.+-]+)$")


def tokens_of(text):
    return [t.strip("'\"(),;[]") for t in text.split()]


def strip_comment(line):
    return re.split(r"(?:^|\s)#(?!include)", line, maxsplit=1)[0]


def split_commands(text):
    return re.split(r"\s(?:\|\||&&|\||;)\s|\s[12]?>\s?\S+", text)


class Checker:
    def __init__(self, repo):
        self.repo = repo
        self.problems = []
        self.misplaced = None

    def problem(self, page, line, what):
        self.problems.append("%s:%d: %s" % (page, line, what))

    def program_in(self, command):
        """(name, index) of the suite program a command runs, or (name, -1) if it names one not
        built, or (None, -1)."""
        toks = tokens_of(command)
        i = 0
        while i < len(toks) and re.fullmatch(r"[A-Z_]+=\S*", toks[i]):
            i += 1  # VAR=value before a command
        if i < len(toks) and toks[i] in LAUNCHERS:
            i += 1
            while i < len(toks) and toks[i].startswith("-"):
                i += 1 + LAUNCHER_VALUES.get(toks[i], 0)
            if i < len(toks):
                name = os.path.basename(toks[i])
                if name in self.repo.programs:
                    return name, i
                if toks[i].startswith((".", "/")) or is_placeholder(toks[i]) or "." in name:
                    return None, -1  # the user's own program, or a script
                return name, -1
            return None, -1
        for j, tok in enumerate(toks):
            m = BUILD_PATH.match(tok)
            if m and not is_placeholder(m.group(1)) and "." not in m.group(1) and \
                    m.group(1) not in self.repo.build_dirs:
                name = m.group(1)
                if name not in self.repo.programs:
                    return name, -1
                self.misplaced = self.repo.misplaced(tok, name)
                return name, j
        if i < len(toks):
            name = toks[i]
            if "/" in name and not BUILD_PATH.match(name) and \
                    os.path.basename(name) in self.repo.programs and \
                    os.path.normpath(name) in self.repo.files:
                return os.path.basename(name), i  # a program kept in the repository (tools/perf-report)
            if name in self.repo.programs:
                return name, i
            if SUITE_PROGRAM.fullmatch(name):
                return name, -1
        return None, -1

    def check_options(self, page, number, program, options):
        text, why = self.repo.help_text(program)
        for opt in options:
            if opt in ("--help", "-h"):
                continue
            if text is None:
                self.problem(page, number, "%s: `%s --help` %s, so its option %s cannot be checked"
                             % (program, program, why, opt))
            elif not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(opt), text):
                self.problem(page, number, "%s: option %s is not in `%s --help`"
                             % (program, opt, program))

    def check_page(self, page):
        path = os.path.join(self.repo.root, page)
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        page_dir = os.path.dirname(page)
        if page == "README.md":
            self.check_readme_limits(page, text)
        named = set()
        bare_options = []
        for number, piece, fenced in code_pieces(text):
            code = strip_comment(piece) if fenced else piece
            # Programs and their options, command by command.
            for command in split_commands(code):
                name, at = self.program_in(command)
                if name is None:
                    continue
                if at < 0:
                    self.problem(page, number, "program %s is not built (not in the build folder)"
                                 % name)
                    continue
                if self.misplaced:
                    self.problem(page, number, "program %s is built as <build>/%s, not where the "
                                 "page says" % (name, self.misplaced))
                    self.misplaced = None
                named.add(name)
                rest = " ".join(tokens_of(command)[at + 1:])
                self.check_options(page, number, name, OPTION.findall(rest))
            stripped = piece.strip()
            if not fenced and stripped.startswith("--"):
                bare_options += [(number, o) for o in OPTION.findall(stripped)]
            elif not fenced:
                for tok in tokens_of(stripped):
                    if os.path.basename(tok) in self.repo.programs:
                        named.add(os.path.basename(tok))
            # Files.
            for tok in re.split(r"[\s,=|]+", piece):
                self.check_file_token(page, number, tok, page_dir, fenced)
        self.check_bare_options(page, named, bare_options)

    def check_bare_options(self, page, named, bare_options):
        helps = []
        for program in sorted(named):
            text, _ = self.repo.help_text(program)
            if text is not None:
                helps.append(text)
        for number, opt in bare_options:
            if opt == "--help":
                continue
            if not helps:
                self.problem(page, number, "option %s: the page names no built program whose "
                             "`--help` could list it" % opt)
            elif not any(re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(opt), h) for h in helps):
                self.problem(page, number, "option %s is in the `--help` of no program this page "
                             "names (%s)" % (opt, ", ".join(sorted(named))))

    def check_file_token(self, page, number, tok, page_dir, fenced):
        tok = tok.strip("'\"()[];:`<>")
        tok = re.sub(r"^#include", "", tok).strip("\"<>")
        if not tok or tok.startswith(NOT_REPO_PREFIXES) or "://" in tok or tok.startswith("-"):
            return
        m = re.fullmatch(r"((?:[\w.+-]+/)*[\w+-][\w.+-]*)\.([A-Za-z][\w]*)", tok)
        if not m:
            return
        kind = m.group(2)
        has_slash = "/" in tok
        if has_slash and kind not in PATH_KINDS:
            return
        if not has_slash and (kind not in BARE_FILE_KINDS or fenced):
            return  # a bare name in a command is often the user's own file (prog.c)
        if re.fullmatch(r"\d+(\.\d+)*", tok) or re.match(r"^\w+\.\w+\(", tok):
            return
        if fenced and has_slash and not tok.startswith(".") and \
                tok.split("/")[0] not in self.repo.dirs and tok.split("/")[0] not in self.repo.files:
            return  # in a command, a path into a folder the repository has not: one the user makes
        if not has_slash:
            # A bare name: a top-level file, a file beside the page, or one of the repository's.
            if tok in self.repo.basenames or self.repo.path_exists(tok, page_dir):
                return
        elif self.repo.path_exists(tok, page_dir):
            return
        if is_placeholder(tok):
            return
        self.problem(page, number, "file %s does not exist in the repository" % tok)

    def check_readme_limits(self, page, text):
        lines = text.split("\n")
        if text.endswith("\n"):
            lines = lines[:-1]
        if len(lines) > README_MAX_LINES:
            self.problem(page, len(lines), "%d lines, at most %d" % (len(lines), README_MAX_LINES))
        if len(text) > README_MAX_CHARS:
            self.problem(page, 1, "%d characters, at most %d" % (len(text), README_MAX_CHARS))
        for number, line in enumerate(lines, start=1):
            if len(line) > README_MAX_LINE:
                self.problem(page, number, "line of %d characters, at most %d"
                             % (len(line), README_MAX_LINE))


def pages_of(repo):
    pages = [f for f in repo.files
             if os.path.basename(f) == "README.md" or f.startswith("docs" + os.sep) and f.endswith(".md")]
    return sorted(pages)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build", help="the build folder whose programs the docs may name")
    parser.add_argument("--source", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."),
                        help="the repository (default: this script's ..)")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.build):
        print("check_docs: %s: not a folder (the build folder)" % args.build, file=sys.stderr)
        return 2
    repo = Repository(args.source, args.build)
    checker = Checker(repo)
    pages = pages_of(repo)
    if "README.md" not in pages:
        checker.problem("README.md", 1, "missing")
    for page in pages:
        checker.check_page(page)
    for p in checker.problems:
        print(p)
    print("check_docs: %d pages, %d programs built, %d problems"
          % (len(pages), len(repo.programs), len(checker.problems)), file=sys.stderr)
    return 1 if checker.problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
