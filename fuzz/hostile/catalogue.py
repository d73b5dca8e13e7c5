"""Every hostile case: each program and script of the suite, each of its input slots (files,
numbers, lists, output paths), given the hostile values of its kind.

Building blocks:
- file_slot: an input file given every hostile file of hostile_files.py (plus files of the
  slot's own format damaged, plus semantic ones the caller names);
- list_slot: a comma-separated list of files ("", ",", a good file and a hostile one ...);
- number_slot: a numeric option given NUMBERS (0, -1, 1e300, 1e-300, nan, inf, 2^63, abc,
  "") and no value at all;
- output_slot: an output path that is "", a directory, /dev/null, a FIFO, a missing folder,
  a symlink to a precious file (which must not change), a chain of links to it, a dangling
  symlink (whose target must not be created), a symlink loop.
Expectation per case: "fail" unless a value is in range (then "either": exit 0 or one line).
"""
import os

from case_runner import Case

NUMBERS = ("0", "-1", "1e300", "1e-300", "nan", "inf", "9223372036854775808", "abc", "")
LONG = 45.0  # timeout of the cases that need much memory or time when not refused at once


class Catalogue:
    def __init__(self, tools, good, hostile, np2=True):
        self.t = tools      # program name -> argv prefix (a path, or python3 + script)
        self.g = good       # good input name -> path
        self.h = hostile    # HostileFiles
        self.np2 = np2
        self.cases = []

    # ---------------------------------------------------------------- building blocks
    def add(self, name, argv, expect="fail", ranks=0, timeout=30.0, setup=None, env=None):
        self.cases.append(Case(name, list(argv), expect, ranks, timeout, env or {}, setup))

    def ranks_of(self, mpi, np2):
        """The rank counts a case runs at: 0 (directly) for a serial program, else 1 and, for
        the representative subset, 2."""
        if not mpi:
            return (0,)
        return (1, 2) if (np2 and self.np2) else (1,)

    @staticmethod
    def tag(name, ranks):
        return f"{name}.np{ranks}" if ranks else name

    def file_slot(self, name, make, good, ext, mpi=False, np2=False, extra=(), generic=True,
                  damaged=True, timeout=30.0, seal_checked=True, expect_of=None):
        """expect_of: {kind: expectation} for the kinds a slot may accept by its documentation."""
        for ranks in self.ranks_of(mpi, np2):
            if good:
                self.add(f"{self.tag(name, ranks)}.good", make(good, ranks), "ok", ranks, timeout)
            kinds = list(self.h.generic(ext)) if generic else []
            if damaged and good:
                for kind, path in self.h.damaged(good):
                    # a sealed file's plain damage and truncation are refused by the seal; text
                    # or mesh damage may leave a valid file (a flipped digit, a lost newline)
                    sealed = seal_checked and good.endswith(".h5") and "resealed" not in kind
                    kinds.append((kind, path, "fail" if sealed else "either"))
            kinds += list(extra)
            for entry in kinds:
                kind, path, expect = entry if len(entry) == 3 else (entry[0], entry[1], "fail")
                expect = (expect_of or {}).get(kind, expect)
                self.add(f"{self.tag(name, ranks)}.{kind}", make(path, ranks), expect, ranks, timeout)

    def list_slot(self, name, make, good, ext, mpi=False, np2=False):
        missing = dict(self.h.generic(ext))["missing"]
        fifo = dict(self.h.generic(ext))["fifo"]
        values = (("comma", ",", "fail"), ("two_commas", ",,", "fail"), ("trailing_comma", good + ",", "fail"),
                  ("leading_comma", "," + good, "fail"), ("good_then_missing", f"{good},{missing}", "fail"),
                  ("good_then_fifo", f"{good},{fifo}", "fail"), ("twice", f"{good},{good}", "either"),
                  ("many_1000", ",".join([good] * 1000), "either"))
        for ranks in self.ranks_of(mpi, np2):
            for kind, value, expect in values:
                self.add(f"{self.tag(name, ranks)}.list_{kind}", make(value, ranks), expect, ranks)

    def number_slot(self, name, base, option, real=False, ok=(), either=(), extra=(), mpi=False,
                    np2=False, timeout=30.0, values=NUMBERS, at=None):
        """option: the flag (base + [flag, value]) or a function value -> argv; at: the rank
        counts, when not those of mpi and np2."""
        for ranks in at or self.ranks_of(mpi, np2):
            make = option if callable(option) else (lambda v, r, o=option: base(r) + [o, v])
            for v in list(values) + list(extra):
                if v in ok:
                    expect = "ok"
                elif v in either or (real and v == "1e-300"):
                    expect = "either"
                else:
                    expect = "fail"
                label = {"": "empty_string", "9223372036854775808": "2^63"}.get(v, v)
                self.add(f"{self.tag(name, ranks)}={label}", make(v, ranks), expect, ranks, timeout)
            if not callable(option):
                self.add(f"{self.tag(name, ranks)}.no_value", base(ranks) + [option], "fail", ranks, timeout)

    def output_slot(self, name, make, ext, mpi=False, np2=False, written=None, timeout=30.0):
        """make(path, ranks) -> argv writing path; written(path) -> the file actually written
        when the path is a prefix (plot bsp-profile -o P writes P-communication.png): the
        hostile objects are then made at the written name, and no device is given (the
        program would write beside it, in /dev)."""
        prefix = written is not None
        written = written or (lambda p: p)
        for ranks in self.ranks_of(mpi, np2):
            t = self.tag(name, ranks)
            self.add(f"{t}.out_plain", make("plain" + ext, ranks), "ok", ranks, timeout,
                     setup=expect_written(written("plain" + ext)))
            self.add(f"{t}.out_empty_string", make("", ranks), "either" if prefix else "fail", ranks, timeout)
            self.add(f"{t}.out_directory", make("outdir", ranks), "fail", ranks, timeout,
                     setup=make_dir(written("outdir")))
            if not prefix:
                self.add(f"{t}.out_dev_null", make("/dev/null", ranks), "fail", ranks, timeout)
                self.add(f"{t}.out_dev_full", make("/dev/full", ranks), "fail", ranks, timeout)
            self.add(f"{t}.out_fifo", make("fifo" + ext, ranks), "fail", ranks, timeout,
                     setup=make_fifo(written("fifo" + ext)))
            self.add(f"{t}.out_missing_folder", make(os.path.join("no", "such", "out" + ext), ranks), "fail",
                     ranks, timeout)
            self.add(f"{t}.out_symlink_to_precious", make("out" + ext, ranks), "either", ranks, timeout,
                     setup=precious_link(written("out" + ext), chain=False))
            self.add(f"{t}.out_symlink_chain_to_precious", make("out" + ext, ranks), "either", ranks, timeout,
                     setup=precious_link(written("out" + ext), chain=True))
            self.add(f"{t}.out_dangling_symlink", make("out" + ext, ranks), "either", ranks, timeout,
                     setup=dangling_link(written("out" + ext)))
            self.add(f"{t}.out_symlink_loop", make("out" + ext, ranks), "either", ranks, timeout,
                     setup=loop_link(written("out" + ext)))
            self.add(f"{t}.out_symlink_to_dev_null", make("out" + ext, ranks), "either", ranks, timeout,
                     setup=device_link(written("out" + ext)))

    def python_env(self, name, argv):
        """A script run where its Python has no site packages (numpy, h5py, matplotlib missing)."""
        self.add(f"{name}.no_site_packages", [argv[0], "-S"] + argv[1:], "fail")

    # ---------------------------------------------------------------- the suite
    def build(self):
        for part in (self.tycho, self.tycho_tools, self.multigrid, self.sweep3d, self.instrument,
                     self.bsplib, self.benches, self.scripts):
            part()
        return self.cases

    def mesh_extras(self):
        g = self.g
        return [("nan_coordinate", g["nan_smesh"], "fail"), ("nan_coordinate_msh", g["nan_msh"], "fail"),
                ("scaled_1e-90", g["tiny_smesh"], "either"), ("scaled_1e+90", g["huge_smesh"], "either"),
                ("scaled_1e-300", g["tiniest_smesh"], "either"), ("gmsh_good", g["msh"], "either"),
                ("gmsh_binary_good", g["msh_binary"], "either")]

    def msh_slot(self, name, make, mpi=False, np2=False, versions=("msh", "msh_binary")):
        """The .msh reader's generic hostile files and damaged Gmsh files of the versions it reads."""
        for i, version in enumerate(versions):
            self.file_slot(f"{name}.{version}", make, self.g[version], ".msh", mpi, np2, generic=(i == 0))

    def tycho(self):
        t, g = self.t["tycho"], self.g
        small = ["--iterations", "1", "--sn", "2", "--groups", "1"]

        def base(r, mesh=None, results=False):
            return t + [mesh or g["smesh"]] + small + ([] if results else ["--no-results"])

        self.file_slot("tycho.mesh", lambda p, r: t + [p] + small + ["--no-results"], g["smesh"], ".smesh",
                       mpi=True, np2=True, extra=self.mesh_extras())
        self.msh_slot("tycho.mesh", lambda p, r: t + [p] + small + ["--no-results"], mpi=True)
        self.file_slot("tycho.partition", lambda p, r: base(r) + ["--partition", p], g[f"part{1}"], ".txt",
                       mpi=True, np2=False, extra=[("parts_of_2_at_1", g["part2"], "fail")])
        for ranks in ((2,) if self.np2 else ()):
            for kind, path in self.h.damaged(g["part2"]):
                self.add(f"tycho.partition.np2.{kind}", base(2) + ["--partition", path], "either", 2)
            self.add("tycho.partition.np2.parts_of_1", base(2) + ["--partition", g["part1"]], "either", 2)
            self.add("tycho.partition.np2.fifo", base(2) + ["--partition", dict(self.h.generic(".txt"))["fifo"]],
                     "fail", 2)
        self.file_slot("tycho.materials", lambda p, r: base(r) + ["--materials", p], g["materials"], ".txt",
                       mpi=True, np2=True, expect_of={"empty": "either"},
                       extra=[("downscatter_over_sigma_t", g["materials_downscatter"], "fail"),
                              ("nan_value", g["materials_nan"], "fail"),
                              ("material_not_in_mesh", g["materials_absent"], "fail")])
        self.add("tycho.materials.np1.downscatter_over_sigma_t_2groups",
                 t + [g["smesh"], "--iterations", "1", "--sn", "2", "--groups", "2", "--no-results",
                      "--materials", g["materials_downscatter"]], "fail", 1)
        machine_extras = [("nan_bsp_machine", g["nan_machine"], "fail"), ("inf_latency", g["inf_latency_machine"], "fail"),
                          ("negative_o", g["negative_o_machine"], "fail"), ("bsp_machine", g["bsp1"], "fail")]
        self.file_slot("tycho.machine", lambda p, r: base(r) + ["--machine", p], g["loggps"], ".machine",
                       mpi=True, extra=machine_extras)
        h5_extras = [("sparse_h5", g["sparse_h5"], "fail"), ("not_hdf5", g["not_hdf5"], "fail"),
                     ("sealed_not_hdf5", g["sealed_not_hdf5"], "fail")]
        self.file_slot("tycho.calibration", lambda p, r: base(r) + ["--machine", g["loggps"], "--calibration", p],
                       g["tycho_h5"], ".h5", mpi=True, np2=True,
                       extra=h5_extras + [("multigrid_results", g["mg_h5"], "fail"),
                                          ("sweep3d_results", g["s3d_cal"], "fail")])
        self.list_slot("tycho.calibration", lambda v, r: base(r) + ["--machine", g["loggps"], "--calibration", v],
                       g["tycho_h5"], ".h5", mpi=True)
        self.output_slot("tycho.results", lambda p, r: base(r, results=True) + ["--results", p], ".h5",
                         mpi=True, np2=True)
        self.output_slot("tycho.results_with_machine",
                         lambda p, r: base(r, results=True) + ["--machine", g["loggps"], "--results", p], ".h5",
                         mpi=True)
        num = lambda opt, **kw: self.number_slot(f"tycho.{opt[2:]}", base, opt, mpi=True, **kw)  # noqa: E731
        num("--sn", extra=("3", "18"))
        num("--groups", extra=("1000000",))
        num("--iterations")
        num("--threads", extra=("100000",))
        num("--mcps", extra=("auto",))
        num("--tol", real=True, ok=("0",), either=("1e300",))
        num("--stall-seconds", real=True, either=("1e300",))
        num("--scheme")
        num("--priority")
        self.number_slot("tycho.pce", lambda r: base(r) + ["--machine", g["loggps"]], "--pce", real=True, mpi=True,
                         extra=("1.5",))
        self.number_slot("tycho.product", base, "--product", mpi=True,
                         values=("0x0", "-1x4", "4x", "x4", "4x4x4", "abc", "", "1e300x2", "2x9223372036854775808",
                                 "nanx2", "2xinf"))
        # in range, or just beyond, and in need of much memory or time
        self.add("tycho.big.product_64x256_groups_64", base(1, g["smesh4128"]) + ["--product", "64x256", "--groups", "64"],
                 "fail", 1, LONG)
        self.add("tycho.big.product_64x256_groups_64.np2",
                 base(2, g["smesh4128"]) + ["--product", "64x256", "--groups", "64"], "fail", 2, LONG)
        self.add("tycho.big.sn16_groups_64_cube1374", t + [g["smesh1374"], "--iterations", "1", "--sn", "16",
                                                           "--groups", "64", "--no-results"], "either", 1, LONG)
        self.add("tycho.big.product_1000x1000", base(1) + ["--product", "1000x1000"], "either", 1, LONG)
        self.add("tycho.big.groups_100000", base(1) + ["--groups", "100000"], "either", 1, LONG)
        self.add("tycho.big.threads_1024", base(1) + ["--threads", "1024"], "either", 1, LONG)
        self.add("tycho.mcps_auto_without_machine", base(1) + ["--mcps", "auto"], "fail", 1)
        self.add("tycho.calibration_without_machine", base(1) + ["--calibration", g["tycho_h5"]], "fail", 1)
        self.add("tycho.calibration_of_other_groups",
                 t + [g["smesh"], "--iterations", "1", "--sn", "2", "--groups", "3", "--no-results",
                      "--machine", g["loggps"], "--calibration", g["tycho_h5"]], "fail", 1)
        self.add("tycho.unknown_option", base(1) + ["--bogus"], "fail", 1)
        self.add("tycho.two_meshes", base(1) + [g["smesh"]], "fail", 1)
        self.add("tycho.no_mesh", t, "fail", 1)

    def tycho_tools(self):
        g = self.g
        info = self.t["tycho-mesh-info"]
        self.file_slot("tycho-mesh-info.mesh", lambda p, r: info + [p], g["smesh"], ".smesh", extra=self.mesh_extras())
        self.msh_slot("tycho-mesh-info.mesh", lambda p, r: info + [p])
        self.add("tycho-mesh-info.no_argument", info, "fail")

        refine = self.t["tycho-refine"]
        self.file_slot("tycho-refine.mesh", lambda p, r: refine + [p, "out.smesh"], g["smesh"], ".smesh",
                       extra=self.mesh_extras())
        self.output_slot("tycho-refine.out", lambda p, r: refine + [g["smesh"], p], ".smesh")
        self.number_slot("tycho-refine.times", lambda r: refine + [g["smesh"], "out.smesh"], "--times",
                         extra=("1.5",))
        self.add("tycho-refine.big.times_7", refine + [g["smesh"], "out.smesh", "--times", "7"], "either", 0, LONG)
        self.add("tycho-refine.big.times_9", refine + [g["smesh"], "out.smesh", "--times", "9"], "fail", 0, LONG)
        self.add("tycho-refine.big.cube4128_times_4", refine + [g["smesh4128"], "out.smesh", "--times", "4"],
                 "either", 0, LONG)
        self.add("tycho-refine.out_is_input", refine + [g["smesh_copy"], g["smesh_copy"]], "either")

        part = self.t["tycho-partition"]
        self.file_slot("tycho-partition.mesh", lambda p, r: part + [p, "2"], g["smesh"], ".smesh",
                       extra=self.mesh_extras())
        self.number_slot("tycho-partition.P", None, lambda v, r: part + [g["smesh"], v], extra=("13", "1.5"))
        self.file_slot("tycho-partition.parts", lambda p, r: part + [g["smesh"], "2", "--parts", p], g["part2"], ".txt")
        self.output_slot("tycho-partition.out", lambda p, r: part + [g["smesh"], "2", "--out", p], ".txt")
        self.add("tycho-partition.big.P_4096_cube4128", part + [g["smesh4128"], "4096"], "either", 0, LONG)

        model = self.t["tycho-model"]

        def mbase(r):
            return model + [g["smesh"], "--machine", g["loggps"], "--calibration", g["tycho_h5"], "--ranks", "2,4",
                            "--sn", "2", "--groups", "1"]

        self.file_slot("tycho-model.mesh", lambda p, r: model + [p, "--machine", g["loggps"], "--calibration",
                                                                 g["tycho_h5"], "--ranks", "2,4", "--sn", "2",
                                                                 "--groups", "1"],
                       g["smesh"], ".smesh", extra=self.mesh_extras())
        self.file_slot("tycho-model.machine", lambda p, r: model + [g["smesh"], "--machine", p, "--calibration",
                                                                    g["tycho_h5"], "--ranks", "2,4", "--sn", "2",
                                                                    "--groups", "1"],
                       g["loggps"], ".machine", damaged=False,
                       extra=[("inf_latency", g["inf_latency_machine"], "fail"),
                              ("bsp_machine", g["bsp1"], "fail")])
        self.file_slot("tycho-model.calibration", lambda p, r: model + [g["smesh"], "--machine", g["loggps"],
                                                                        "--calibration", p, "--ranks", "2,4", "--sn",
                                                                        "2", "--groups", "1"],
                       g["tycho_h5"], ".h5", extra=[("sparse_h5", g["sparse_h5"], "fail"),
                                                    ("multigrid_results", g["mg_h5"], "fail")])
        self.list_slot("tycho-model.calibration", lambda v, r: model + [g["smesh"], "--machine", g["loggps"],
                                                                        "--calibration", v, "--ranks", "2,4", "--sn",
                                                                        "2", "--groups", "1"], g["tycho_h5"], ".h5")
        self.output_slot("tycho-model.csv", lambda p, r: mbase(r) + ["--csv", p], ".csv")
        self.number_slot("tycho-model.ranks", mbase, "--ranks",
                         extra=(",", "2,,4", "2,-4", "13", "4096", "4,2", "2,2", "1"), either=("4,2", "2,2", "1"))
        self.number_slot("tycho-model.refine", mbase, "--refine", ok=("0",))
        for opt in ("--sn", "--groups", "--mcps"):
            self.number_slot(f"tycho-model.{opt[2:]}", mbase, opt)
        self.number_slot("tycho-model.pce", mbase, "--pce", real=True, extra=("1.5",))
        self.add("tycho-model.big.refine_3", mbase(0) + ["--refine", "3"], "either", 0, LONG)
        self.add("tycho-model.big.refine_6", mbase(0) + ["--refine", "6"], "fail", 0, LONG)
        self.add("tycho-model.big.cube4128_refine_2_ranks_4096",
                 model + [g["smesh4128"], "--machine", g["loggps"], "--calibration", g["tycho_h5"], "--ranks", "4096",
                          "--sn", "2", "--groups", "1", "--refine", "2"], "either", 0, LONG)
        self.add("tycho-model.no_calibration", model + [g["smesh"], "--machine", g["loggps"], "--ranks", "2"], "fail")

        mms = self.t["tycho-mms"]
        self.file_slot("tycho-mms.mesh", lambda p, r: mms + [p, "--levels", "1", "--sn", "2"], g["smesh"], ".smesh",
                       extra=self.mesh_extras())
        mmsbase = lambda r: mms + [g["smesh"], "--levels", "1", "--sn", "2"]  # noqa: E731
        self.number_slot("tycho-mms.levels", mmsbase, "--levels", either=("0",))
        self.number_slot("tycho-mms.sn", mmsbase, "--sn")
        self.number_slot("tycho-mms.sigma-t", mmsbase, "--sigma-t", real=True)
        self.number_slot("tycho-mms.scheme", mmsbase, "--scheme")
        self.number_slot("tycho-mms.source", mmsbase, "--source")
        self.add("tycho-mms.big.levels_8", mms + [g["smesh"], "--levels", "8", "--sn", "2"], "either", 0, LONG)

        example = self.t["tycho-mesh-example"]
        self.output_slot("tycho-mesh-example.out", lambda p, r: example + ["kuhn-cube", p], ".smesh")
        for v in ("abc", "", "../kuhn-cube"):
            self.add(f"tycho-mesh-example.name={v or 'empty_string'}", example + [v, "out.smesh"], "fail")

    def multigrid(self):
        mg, g = self.t["multigrid"], self.g
        small = ["--grids", "2", "--cycles", "1"]

        def base(r, results=False):
            return mg + ["--cube", "2"] + small + ([] if results else ["--no-results"])

        make_mesh = lambda p, r: mg + [p] + small + ["--no-results"]  # noqa: E731
        self.file_slot("multigrid.mesh", make_mesh, g["smesh"], ".smesh", mpi=True, np2=True, extra=self.mesh_extras())
        self.msh_slot("multigrid.mesh", make_mesh, mpi=True)
        seq = lambda v, r: mg + ["--mesh-sequence", v, "--cycles", "1", "--no-results"]  # noqa: E731
        self.file_slot("multigrid.mesh_sequence_second", lambda p, r: seq(f"{g['smesh']},{p}", r), g["smesh208"],
                       ".smesh", mpi=True, extra=self.mesh_extras())
        self.list_slot("multigrid.mesh_sequence", seq, g["smesh"], ".smesh", mpi=True)
        self.add("multigrid.mesh_sequence.finer_first", seq(f"{g['smesh208']},{g['smesh']}", 1), "fail", 1)
        self.file_slot("multigrid.partition", lambda p, r: base(r) + ["--partition", p],
                       g["mg_part1"], ".txt", mpi=True)
        self.file_slot("multigrid.machine", lambda p, r: base(r) + ["--machine", p], g["bsp1"], ".machine",
                       mpi=True, extra=[("nan_l", g["nan_machine"], "fail"), ("loggp_machine", g["loggps"], "fail")])
        self.file_slot("multigrid.calibration", lambda p, r: base(r) + ["--machine", g["bsp1"], "--calibration", p],
                       g["mg_h5"], ".h5", mpi=True, np2=True,
                       extra=[("sparse_h5", g["sparse_h5"], "fail"), ("not_hdf5", g["not_hdf5"], "fail"),
                              ("sealed_not_hdf5", g["sealed_not_hdf5"], "fail"),
                              ("tycho_results", g["tycho_h5"], "fail")])
        self.list_slot("multigrid.calibration", lambda v, r: base(r) + ["--machine", g["bsp1"], "--calibration", v],
                       g["mg_h5"], ".h5", mpi=True)
        self.list_slot("multigrid.replay_on", lambda v, r: base(r) + ["--replay-on", v], g["bsp2"], ".machine",
                       mpi=True)
        self.file_slot("multigrid.replay_on", lambda p, r: base(r) + ["--replay-on", p], g["bsp2"], ".machine",
                       mpi=True, damaged=False)
        self.output_slot("multigrid.results", lambda p, r: base(r, results=True) + ["--results", p], ".h5",
                         mpi=True, np2=True)
        num = lambda opt, **kw: self.number_slot(f"multigrid.{opt[2:]}", base, opt, mpi=True, **kw)  # noqa: E731
        num("--cube", extra=("201",))
        num("--grids", extra=("9",))
        num("--cycles")
        num("--pre", ok=("0",))
        num("--post", ok=("0",))
        num("--coarse-iterations")
        num("--smoothing-lower", real=True, extra=("1", "1.5"))
        num("--cycle", values=("abc", "", "w", "X"))
        num("--smoother", values=("abc", ""))
        num("--cell-kernel", values=("abc", "", "avx1024"))
        for ranks in ((1, 2) if self.np2 else (1,)):
            self.add(self.tag("multigrid.big.cube_200", ranks), mg + ["--cube", "200", "--cycles", "1", "--no-results"],
                     "fail", ranks, LONG)
        self.add("multigrid.big.cube_100_grids_2", mg + ["--cube", "100", "--grids", "2", "--cycles", "1",
                                                         "--no-results"], "either", 1, LONG)
        self.add("multigrid.big.cube_2_grids_8", mg + ["--cube", "2", "--grids", "8", "--cycles", "1", "--no-results"],
                 "fail", 1, LONG)
        # 17M finest cells need about 1.24 GiB (run_memory.hpp): under the harness's 6 GiB
        # stand-in the run fits and takes minutes (a long run, not a hang); under 1 GiB it must
        # be refused at once.
        self.add("multigrid.big.cube4128_grids_5", mg + [g["smesh4128"], "--grids", "5", "--cycles", "1",
                                                         "--no-results"], "fail", 1, LONG,
                 env={"SUITE_MEMORY_AVAILABLE": "1GiB"})
        self.add("multigrid.unknown_option", base(1) + ["--bogus"], "fail", 1)

        model = self.t["multigrid-model"]

        def mbase(r, mesh=None):
            head = [mesh] if mesh is not None else ["--cube", "2"]
            return model + head + ["--grids", "2", "--procs", "1,2", "--calibration", g["mg_h5"], "--loggps",
                                   g["loggps"]]

        self.file_slot("multigrid-model.mesh", lambda p, r: mbase(r, p), g["smesh"], ".smesh", extra=self.mesh_extras())
        self.file_slot("multigrid-model.calibration",
                       lambda p, r: model + ["--cube", "2", "--grids", "2", "--procs", "1,2", "--calibration", p,
                                             "--loggps", g["loggps"]], g["mg_h5"], ".h5",
                       extra=[("sparse_h5", g["sparse_h5"], "fail"), ("tycho_results", g["tycho_h5"], "fail")])
        self.list_slot("multigrid-model.calibration",
                       lambda v, r: model + ["--cube", "2", "--grids", "2", "--procs", "1,2", "--calibration", v,
                                             "--loggps", g["loggps"]], g["mg_h5"], ".h5")
        self.file_slot("multigrid-model.loggps",
                       lambda p, r: model + ["--cube", "2", "--grids", "2", "--procs", "1,2", "--calibration",
                                             g["mg_h5"], "--loggps", p], g["loggps"], ".machine",
                       extra=[("bsp_machine", g["bsp1"], "fail"), ("inf_latency", g["inf_latency_machine"], "fail")])
        self.file_slot("multigrid-model.machine", lambda p, r: mbase(r) + ["--machine", p], g["bsp1"], ".machine",
                       extra=[("nan_l", g["nan_machine"], "fail")])
        self.output_slot("multigrid-model.csv", lambda p, r: mbase(r) + ["--csv", p], ".csv")
        self.number_slot("multigrid-model.procs", mbase, "--procs",
                         extra=(",", "1,,2", "2,1", "1,2,2", "1000000000", "16777217"), either=("2,1", "1,2,2"))
        for opt in ("--cube", "--grids", "--pre", "--post", "--coarse-iterations"):
            self.number_slot(f"multigrid-model.{opt[2:]}", lambda r: model + ["--procs", "1,2", "--calibration",
                                                                             g["mg_h5"], "--loggps", g["loggps"]],
                             opt, ok=("0",) if opt in ("--pre", "--post") else ())
        self.number_slot("multigrid-model.cycle", mbase, "--cycle", values=("abc", ""))
        self.add("multigrid-model.big.cube_2_grids_8", model + ["--cube", "2", "--grids", "8", "--procs", "2",
                                                                "--calibration", g["mg_h5"], "--loggps", g["loggps"]],
                 "fail", 0, LONG)
        self.add("multigrid-model.big.cube_60_grids_3_procs_4096",
                 model + ["--cube", "60", "--grids", "3", "--procs", "4096", "--calibration", g["mg_h5"], "--loggps",
                          g["loggps"]], "either", 0, LONG)

    def sweep3d(self):
        s, g = self.t["sweep3d"], self.g

        def base(r, results=False):
            return s + [g["deck"]] + grid(r) + ([] if results else ["--no-results"])

        grid = lambda r: ["--grid", "1x2"] if r == 2 else []  # noqa: E731
        self.file_slot("sweep3d.deck", lambda p, r: s + [p, "--no-results"] + grid(r), g["deck"], ".input",
                       mpi=True, np2=True,
                       extra=[("key_value_good", g["deck_kv"], "either")])
        self.file_slot("sweep3d.machine", lambda p, r: base(r) + ["--machine", p], g["loggps"], ".machine", mpi=True,
                       extra=[("inf_latency", g["inf_latency_machine"], "fail"),
                              ("negative_o", g["negative_o_machine"], "fail"), ("bsp_machine", g["bsp1"], "fail")])
        # the calibration is a 1-rank run, whose mmi is mm = 6
        self.file_slot("sweep3d.calibration", lambda p, r: base(r) + ["--mmi", "6", "--machine", g["loggps"],
                                                                      "--calibration", p],
                       g["s3d_cal"], ".h5", mpi=True, np2=True,
                       extra=[("sparse_h5", g["sparse_h5"], "fail"), ("tycho_results", g["tycho_h5"], "fail")])
        self.list_slot("sweep3d.calibration", lambda v, r: base(r) + ["--mmi", "6", "--machine", g["loggps"],
                                                                      "--calibration", v],
                       g["s3d_cal"], ".h5", mpi=True)
        self.output_slot("sweep3d.results", lambda p, r: base(r, True) + ["--results", p], ".h5", mpi=True, np2=True)
        num = lambda opt, **kw: self.number_slot(f"sweep3d.{opt[2:]}", base, opt, mpi=True, **kw)  # noqa: E731
        num("--threads", extra=("100000",))
        num("--mk", extra=("auto",))
        num("--mmi", extra=("auto",))
        num("--max-its", ok=("0",))
        num("--trace", ok=("0",), extra=("1000000000000",))
        num("--kernel", values=("abc", ""))
        num("--isa", values=("abc", "", "avx1024"))
        num("--grid", values=("0x1", "1x0", "-1x1", "2x2", "1x2x3", "abc", "", "1e300x1", "9223372036854775808x1"))
        self.add("sweep3d.grid_1x2_at_np2", base(2) + ["--grid", "1x2"], "ok", 2)
        self.add("sweep3d.grid_2x2_at_np2", base(2) + ["--grid", "2x2"], "fail", 2)
        self.add("sweep3d.no_deck_in_cwd", s + ["--no-results"], "fail", 1)

        model = self.t["sweep3d-model"]

        def mbase(r):
            return model + ["--machine", g["loggps"], "--wg", "1e-8", "--grid", "20x20x20", "--procs", "1,2"]

        self.file_slot("sweep3d-model.machine", lambda p, r: model + ["--machine", p, "--wg", "1e-8", "--grid",
                                                                      "20x20x20", "--procs", "1,2"],
                       g["loggps"], ".machine", extra=[("inf_latency", g["inf_latency_machine"], "fail")])
        # the calibration is a 1-rank run: mmi = mm = 6 there
        self.file_slot("sweep3d-model.calibration",
                       lambda p, r: model + ["--machine", g["loggps"], "--calibration", p, "--grid", "20x20x20",
                                             "--procs", "1,2", "--mmi", "6"], g["s3d_cal"], ".h5",
                       extra=[("sparse_h5", g["sparse_h5"], "fail"), ("tycho_results", g["tycho_h5"], "fail")])
        self.list_slot("sweep3d-model.calibration",
                       lambda v, r: model + ["--machine", g["loggps"], "--calibration", v, "--grid", "20x20x20",
                                             "--procs", "1,2", "--mmi", "6"], g["s3d_cal"], ".h5")
        self.output_slot("sweep3d-model.csv", lambda p, r: mbase(r) + ["--csv", p], ".csv")
        self.output_slot("sweep3d-model.plot", lambda p, r: mbase(r) + ["--plot", p], ".png")
        self.output_slot("sweep3d-model.replay_trace",
                         lambda p, r: model + ["--machine", g["loggps"], "--wg", "1e-8", "--grid", "20x20x20", "--procs",
                                               "4", "--mk", "10", "--mmi", "3", "--replay", "--replay-trace", p], ".json")
        for opt, kw in (("--wg", dict(real=True)), ("--w-before", dict(real=True, ok=("0",))),
                        ("--w-after", dict(real=True, ok=("0",))), ("--mk", {}), ("--mmi", {}),
                        ("--iterations", {}), ("--mm", dict(extra=("4",)))):
            self.number_slot(f"sweep3d-model.{opt[2:]}", mbase, opt, **kw)
        self.number_slot("sweep3d-model.procs", mbase, "--procs", extra=(",", "1,,2", "3", "1000000000000"),
                         either=("3",))
        self.number_slot("sweep3d-model.grid", mbase, "--grid",
                         values=("0x1x1", "20x20", "-1x20x20", "abc", "", "1e300x1x1", "9223372036854775808x1x1",
                                 "2000000x2000000x2000000"), either=("2000000x2000000x2000000",))
        self.number_slot("sweep3d-model.npe", lambda r: model + ["--machine", g["loggps"], "--wg", "1e-8", "--grid",
                                                                 "20x20x20"], "--npe",
                         values=("0x1", "1x0", "abc", "", ",", "1x2,", "100x100", "9223372036854775808x1"),
                         either=("100x100",))
        self.add("sweep3d-model.big.replay_per_rank_procs_65536",
                 model + ["--machine", g["loggps"], "--wg", "1e-8", "--per-rank", "5x5x400", "--procs", "65536",
                          "--mk", "10", "--mmi", "3", "--replay"], "either", 0, LONG)
        self.add("sweep3d-model.big.replay_procs_16777216",
                 model + ["--machine", g["loggps"], "--wg", "1e-8", "--per-rank", "5x5x400", "--procs", "16777216",
                          "--mk", "10", "--mmi", "3", "--replay"], "either", 0, LONG)

    def instrument(self):
        g = self.g
        rep = self.t["instrument-replay"]
        self.file_slot("instrument-replay.run", lambda p, r: rep + [p, "--self"], g["s3d_run"], ".h5",
                       extra=[("sparse_h5", g["sparse_h5"], "fail"), ("untraced_multigrid", g["mg_h5"], "fail"),
                              ("not_hdf5", g["not_hdf5"], "fail")])
        self.file_slot("instrument-replay.costs", lambda p, r: rep + [g["s3d_run"], "--costs", p], g["s3d_cal"], ".h5",
                       damaged=False, extra=[("same_as_run", g["s3d_run"], "fail"), ("tycho_results", g["tycho_h5"], "fail")])
        self.file_slot("instrument-replay.machine", lambda p, r: rep + [g["s3d_run"], "--self", "--machine", p],
                       g["loggps"], ".machine", damaged=False, extra=[("inf_latency", g["inf_latency_machine"], "fail")])
        rbase = lambda r: rep + [g["s3d_run"], "--self"]  # noqa: E731
        self.output_slot("instrument-replay.trace_out", lambda p, r: rbase(r) + ["--trace-out", p], ".json")
        self.number_slot("instrument-replay.ranks-per-node", lambda r: rbase(r) + ["--node-bandwidth", "1e9"],
                         "--ranks-per-node")
        self.number_slot("instrument-replay.node-bandwidth", lambda r: rbase(r) + ["--ranks-per-node", "1"],
                         "--node-bandwidth", real=True)
        self.number_slot("instrument-replay.epoch", rbase, "--epoch", values=("", "abc", "sweep"),
                         either=("abc", "sweep"))
        self.add("instrument-replay.self_and_costs", rbase(0) + ["--costs", g["s3d_cal"]], "fail")
        self.add("instrument-replay.no_source", rep + [g["s3d_run"]], "fail")

        export = self.t["instrument-trace-export"]  # a traced run's /trace as Chrome JSON or OTF2
        self.file_slot("instrument-trace-export.run", lambda p, r: export + [p, "--chrome", "out.json"],
                       g["s3d_run"], ".h5", extra=[("untraced_multigrid", g["mg_h5"], "fail"),
                                                   ("not_hdf5", g["not_hdf5"], "fail")])
        self.output_slot("instrument-trace-export.chrome", lambda p, r: export + [g["s3d_run"], "--chrome", p],
                         ".json")
        self.add("instrument-trace-export.no_output", export + [g["s3d_run"]], "fail")

        check = self.t["machine-check"]
        self.file_slot("machine-check.file", lambda p, r: check + [p], g["loggps"], ".machine",
                       extra=[("inf_latency", g["inf_latency_machine"], "fail"),
                              ("negative_o", g["negative_o_machine"], "fail")])
        self.add("machine-check.no_argument", check, "fail")

        probe = self.t["loggps-probe"]
        for kind, setup, expect in output_kinds(".machine"):
            self.add(f"loggps-probe.np2.{kind}", probe + ["--quick", "--out", setup[0]], expect, 2, LONG,
                     setup=setup[1])
        # the probe needs 2 ranks; its options are refused before it measures
        self.number_slot("loggps-probe.reps", lambda r: probe + ["--out", "p.machine"], "--reps", at=(2,))
        self.number_slot("loggps-probe.max-bytes", lambda r: probe + ["--out", "p.machine"], "--max-bytes",
                         extra=("1073741825",), at=(2,))
        self.add("loggps-probe.np1", probe + ["--quick"], "fail", 1)

        demo = self.t["instrument-demo"]
        dbase = lambda r: demo + ["--cells", "1000", "--steps", "2", "--warmup", "1", "--passes", "1"]  # noqa: E731
        self.file_slot("instrument-demo.machine", lambda p, r: dbase(r) + ["--machine", p], g["loggps"], ".machine",
                       mpi=True, damaged=False)
        self.output_slot("instrument-demo.out", lambda p, r: dbase(r) + ["--out", p], ".h5", mpi=True, np2=True)
        self.output_slot("instrument-demo.trace", lambda p, r: dbase(r) + ["--trace", p], ".json", mpi=True)
        for opt in ("--cells", "--steps", "--warmup", "--passes", "--bytes"):
            self.number_slot(f"instrument-demo.{opt[2:]}", dbase, opt, mpi=True)
        self.add("instrument-demo.big.cells_2^31", dbase(1) + ["--cells", "2147483648"], "either", 1, LONG)
        self.add("instrument-demo.big.bytes_2^30_np2", dbase(2) + ["--bytes", "1073741824"], "either", 2, LONG)

        hook = self.t["hook-overhead"]
        self.number_slot("hook-overhead.reps", lambda r: hook + ["--n", "1000"], "--reps")
        self.number_slot("hook-overhead.n", lambda r: hook + ["--reps", "1"], "--n")

        bench = self.t["replay-bench"]
        rb = lambda r: bench + ["--ranks", "16", "--reps", "1"]  # noqa: E731
        for opt, kw in (("--ranks", dict(extra=("15",))), ("--px", {}), ("--py", {}), ("--blocks", {}),
                        ("--bytes", dict(ok=("0",))), ("--compute", dict(real=True, ok=("0",))), ("--reps", {}),
                        ("--ranks-per-node", dict(ok=("0",))), ("--node-bandwidth", dict(real=True))):
            self.number_slot(f"replay-bench.{opt[2:]}", rb, opt, **kw)
        self.add("replay-bench.big.ranks_2^24", bench + ["--ranks", "16777216", "--reps", "1"], "either", 0, LONG)
        self.add("replay-bench.big.blocks_1e8", bench + ["--ranks", "16", "--blocks", "100000000", "--reps", "1"],
                 "either", 0, LONG)

    def bsplib(self):
        g = self.g
        probe = self.t["bspprobe"]
        pb = lambda r: probe + ["--reps", "3", "--hmax", "4096"]  # noqa: E731
        for kind, setup, expect in output_kinds(".machine"):
            self.add(f"bspprobe.np2.{kind}", pb(2) + ["--out", setup[0]], expect, 2, LONG, setup=setup[1])
        for opt, kw in (("--reps", {}), ("--hmax", dict(extra=("1073741825",))), ("--accuracy", dict(real=True)),
                        ("--name", dict(values=("", "a\nb", "x" * 300), either=()))):
            for v in kw.get("values", NUMBERS) + kw.get("extra", ()):
                expect = "either" if (kw.get("real") and v == "1e-300") else "fail"
                label = {"": "empty_string", "9223372036854775808": "2^63", "a\nb": "newline",
                         "x" * 300: "300_bytes"}.get(v, v)
                self.add(f"bspprobe.np2.{opt[2:]}={label}", pb(2) + [opt, v, "--out", "p.machine"], expect, 2)
        self.add("bspprobe.np2.bogus", pb(2) + ["--bogus"], "fail", 2)

        pred = self.t["bsp_predict"]
        self.file_slot("bsp_predict.profile", lambda p, r: pred + [p, g["bsp2"]], g["profile"], ".csv",
                       extra=[("nan_t_exit", g["nan_profile"], "fail")])
        self.file_slot("bsp_predict.machine", lambda p, r: pred + [g["profile"], p], g["bsp2"], ".machine",
                       extra=[("nan_l", g["nan_machine"], "fail"), ("loggp_machine", g["loggps"], "fail")])
        self.output_slot("bsp_predict.csv", lambda p, r: pred + [g["profile"], g["bsp2"], "--csv", p], ".csv")
        self.output_slot("bsp_predict.h5", lambda p, r: pred + [g["profile"], g["bsp2"], "--h5", p], ".h5")
        self.add("bsp_predict.no_machine", pred + [g["profile"]], "fail")

    def benches(self):
        """Benchmarks and examples: their options (or the absence of any)."""
        for name in ("five_hundred_relation", "bsp_init_example", "bench_empty_sync", "bench_first_messages",
                     "bench_mechanism", "bench_put_bandwidth", "bench_put_words", "bench_small_supersteps",
                     "bsp_put_bench"):
            self.add(f"{name}.np1.bogus_option", self.t[name] + ["--bogus"], "fail", 1)
        self.add("bench_put_bandwidth.np1.no_option", self.t["bench_put_bandwidth"], "fail", 1)
        sb = self.t["multigrid_smoother_bench"]
        for opt, kw in (("--cube", dict(extra=("201",))), ("--grids", {}), ("--reps", {}),
                        ("--stream-gbs", dict(real=True)), ("--kernel", dict(values=("abc", "")))):
            self.number_slot(f"multigrid_smoother_bench.{opt[2:]}", lambda r: sb + ["--cube", "2", "--grids", "2",
                                                                                   "--reps", "1"], opt, **kw)
        st = self.t["stream_triad"]
        for opt in ("--n", "--reps", "--threads"):
            self.number_slot(f"stream_triad.{opt[2:]}", lambda r: st + ["--n", "1000", "--reps", "1"], opt)
        self.add("stream_triad.big.n_2^34", st + ["--n", "17179869184", "--reps", "1"], "either", 0, LONG)
        s3b = self.t["sweep3d_bench"]
        for opt in ("--reps", "--its", "--threads"):
            self.number_slot(f"sweep3d_bench.{opt[2:]}", lambda r: s3b + ["--reps", "1", "--its", "1"], opt,
                             values=("0", "-1", "1e300", "nan", "abc", "", "9223372036854775808"))
        for name in ("tycho_cell_solve_bench", "tycho_mesh_bench", "tycho_sweep_dag_bench"):
            self.file_slot(f"{name}.mesh", lambda p, r, n=name: self.t[n] + [p], None, ".smesh", damaged=False)

    def scripts(self):
        g = self.g
        py = lambda name: self.t[name]  # noqa: E731
        for name, good in (("tycho_plot_projection", g["tycho_csv"]), ("multigrid_plot_projection", g["mg_csv"])):
            self.file_slot(f"{name}.csv", lambda p, r, n=name: py(n) + [p, "out.png"], good, ".csv",
                           extra=[("garbage", g["garbage_csv"], "fail"), ("nan_time", g["nan_csv"], "fail"),
                                  ("other_projection", g["mg_csv"] if good == g["tycho_csv"] else g["tycho_csv"],
                                   "fail")])
            self.output_slot(f"{name}.png", lambda p, r, n=name, gd=good: py(n) + [gd, p], ".png")
            self.python_env(name, py(name) + [good, "out.png"])

        cyc = py("plot_cycle")
        self.file_slot("plot_cycle.run", lambda p, r: cyc + [p, "out.png", g["bsp1"]], g["mg_h5"], ".h5",
                       extra=[("sparse_h5", g["sparse_h5"], "fail"), ("not_hdf5", g["not_hdf5"], "fail"),
                              ("sealed_not_hdf5", g["sealed_not_hdf5"], "fail"), ("tycho_results", g["tycho_h5"], "fail")])
        self.file_slot("plot_cycle.machine", lambda p, r: cyc + [g["mg_h5"], "out.png", p], g["bsp1"], ".machine",
                       extra=[("nan_l", g["nan_machine"], "fail"), ("loggp_machine", g["loggps"], "fail")])
        self.output_slot("plot_cycle.out", lambda p, r: cyc + [g["mg_h5"], p, g["bsp1"]], ".png")
        self.number_slot("plot_cycle.cycle", lambda r: cyc + [g["mg_h5"], "out.png", g["bsp1"]], "--cycle",
                         ok=(), extra=("3", "1"), either=("1",))
        self.python_env("plot_cycle", cyc + [g["mg_h5"], "out.png", g["bsp1"]])

        tg = py("two_grid")
        self.file_slot("two_grid.mesh", lambda p, r: tg + [p], g["smesh"], ".smesh", extra=self.mesh_extras())
        self.msh_slot("two_grid.mesh", lambda p, r: tg + [p], versions=("msh22",))
        self.add("two_grid.mesh.gmsh_4.1", tg + [g["msh"]], "fail")
        self.number_slot("two_grid.lower", lambda r: tg + [g["smesh"]], "--lower", real=True, extra=("1", "1.5"))
        self.number_slot("two_grid.iterations", lambda r: tg + [g["smesh"]], "--iterations", extra=("1000000000",))
        self.number_slot("two_grid.smoother", lambda r: tg + [g["smesh"]], "--smoother", values=("abc", ""))
        self.add("two_grid.big.cube4128", tg + [g["smesh4128"]], "either", 0, LONG)
        self.python_env("two_grid", tg + [g["smesh"]])

        pp = py("plot_profile")
        self.file_slot("plot_profile.profile", lambda p, r: pp + [p, "-o", "out"], g["profile"], ".csv",
                       extra=[("nan_t_exit", g["nan_profile"], "fail")])
        self.file_slot("plot_profile.machine", lambda p, r: pp + [g["profile"], p, "-o", "out"], g["bsp2"], ".machine",
                       extra=[("nan_l", g["nan_machine"], "fail")])
        self.output_slot("plot_profile.out", lambda p, r: pp + [g["profile"], g["bsp2"], "-o", p], "",
                         written=lambda p: p + "-communication.png")
        self.python_env("plot_profile", pp + [g["profile"], "-o", "out"])

        sk = py("superstep_kinds")
        self.file_slot("superstep_kinds.profile", lambda p, r: sk + [p], g["profile"], ".csv",
                       extra=[("nan_t_exit", g["nan_profile"], "fail")])
        self.file_slot("superstep_kinds.second_profile", lambda p, r: sk + [g["profile"], p], g["profile"], ".csv",
                       damaged=False)
        for i, v in enumerate(("0 -1", "abc 1", "1 abc", "nan 1", "1e300 1", "5 2", "9223372036854775808 1")):
            first, last = v.split()
            self.add(f"superstep_kinds.steps={first},{last}", sk + ["--steps", first, last, g["profile"]],
                     "either" if v == "5 2" else "fail")

        oct_ = py("kba_replay_octants")
        self.file_slot("kba_replay_octants.trace", lambda p, r: oct_ + [p, "2", "2"], g["kba_json"], ".json",
                       extra=[("nan_duration", g["nan_trace"], "fail")])
        self.number_slot("kba_replay_octants.npe_i", None, lambda v, r: oct_ + [g["kba_json"], v, "2"],
                         extra=("3", "1000000000"))
        self.number_slot("kba_replay_octants.npe_j", None, lambda v, r: oct_ + [g["kba_json"], "2", v],
                         extra=("3",))

        krp = py("kba_replay_plot")
        self.file_slot("kba_replay_plot.weak", lambda p, r: krp + [p, g["s3d_csv"], "out.png"], g["s3d_csv"], ".csv",
                       extra=[("tycho_projection", g["tycho_csv"], "fail")])
        self.file_slot("kba_replay_plot.strong", lambda p, r: krp + [g["s3d_csv"], p, "out.png"], g["s3d_csv"], ".csv",
                       damaged=False)
        self.output_slot("kba_replay_plot.out", lambda p, r: krp + [g["s3d_csv"], g["s3d_csv"], p], ".png")
        self.python_env("kba_replay_plot", krp + [g["s3d_csv"], g["s3d_csv"], "out.png"])

        pms = py("plot_model_scaling")
        self.file_slot("plot_model_scaling.csv", lambda p, r: pms + [p, "out.png"], g["s3d_csv"], ".csv",
                       extra=[("tycho_projection", g["tycho_csv"], "fail")])
        self.output_slot("plot_model_scaling.out", lambda p, r: pms + [g["s3d_csv"], p], ".png")
        self.python_env("plot_model_scaling", pms + [g["s3d_csv"], "out.png"])

        pr = py("perf-report")
        # perf-report reads results files through h5py, without the seal (instrument/README.md)
        self.file_slot("perf-report.file", lambda p, r: pr + [p], g["tycho_h5"], ".h5", seal_checked=False,
                       extra=[("sparse_h5", g["sparse_h5"], "fail"), ("not_hdf5", g["not_hdf5"], "fail"),
                              ("sealed_not_hdf5", g["sealed_not_hdf5"], "fail")])
        self.output_slot("perf-report.csv", lambda p, r: pr + ["--csv", p, g["tycho_h5"]], ".csv")
        self.output_slot("perf-report.plot", lambda p, r: pr + ["--plot", p, g["tycho_h5"]], ".png")
        self.number_slot("perf-report.x", lambda r: pr + ["--plot", "out.png", g["tycho_h5"]], "--x",
                         values=("abc", "", "format"))
        self.python_env("perf-report", pr + [g["tycho_h5"]])


# ---------------------------------------------------------------- output-path set-ups
PRECIOUS = b"precious: this file must not change\n" * 64


def make_dir(name):
    def setup(case_dir):
        os.mkdir(os.path.join(case_dir, name))
        return None
    return setup


def expect_written(name):
    def setup(case_dir):
        path = os.path.join(case_dir, name)
        return lambda: [] if os.path.isfile(path) else [("MULTILINE", f"a good run did not write {name}")]
    return setup


def make_fifo(name):
    def setup(case_dir):
        os.mkfifo(os.path.join(case_dir, name))
        return None
    return setup


def precious_link(name, chain):
    """name -> precious file (through a second link when chain); the check: the precious file is
    still a regular file with the same bytes."""
    def setup(case_dir):
        precious = os.path.join(case_dir, "precious.dat")
        with open(precious, "wb") as f:
            f.write(PRECIOUS)
        link = os.path.join(case_dir, name)
        if chain:
            os.symlink(precious, os.path.join(case_dir, "middle.link"))
            os.symlink(os.path.join(case_dir, "middle.link"), link)
        else:
            os.symlink(precious, link)

        def check():
            if os.path.islink(precious) or not os.path.isfile(precious):
                return [("CLOBBER", "the symlink's precious target was replaced")]
            with open(precious, "rb") as f:
                if f.read() != PRECIOUS:
                    return [("CLOBBER", "the symlink's precious target was overwritten")]
            return []
        return check
    return setup


def dangling_link(name):
    def setup(case_dir):
        target = os.path.join(case_dir, "created_through_link")
        os.symlink(target, os.path.join(case_dir, name))
        return lambda: [("CLOBBER", "a dangling symlink's target was created")] if os.path.lexists(target) else []
    return setup


def loop_link(name):
    def setup(case_dir):
        a, b = os.path.join(case_dir, name), os.path.join(case_dir, "loop.other")
        os.symlink(b, a)
        os.symlink(a, b)
        return None
    return setup


def device_link(name):
    def setup(case_dir):
        os.symlink("/dev/null", os.path.join(case_dir, name))
        return lambda: [] if (os.path.exists("/dev/null") and not os.path.isfile("/dev/null")) else \
            [("CLOBBER", "/dev/null was replaced")]
    return setup


def output_kinds(ext):
    """(kind, (path, setup), expect) of the output-path values, for programs whose cases are
    written out by hand (the probes, at 2 ranks only)."""
    return [("out_empty_string", ("", None), "fail"),
            ("out_directory", ("outdir", make_dir("outdir")), "fail"),
            ("out_dev_null", ("/dev/null", None), "fail"),
            ("out_fifo", ("fifo" + ext, make_fifo("fifo" + ext)), "fail"),
            ("out_missing_folder", (os.path.join("no", "such", "out" + ext), None), "fail"),
            ("out_symlink_to_precious", ("out" + ext, precious_link("out" + ext, False)), "either"),
            ("out_dangling_symlink", ("out" + ext, dangling_link("out" + ext)), "either"),
            ("out_symlink_loop", ("out" + ext, loop_link("out" + ext)), "either")]
