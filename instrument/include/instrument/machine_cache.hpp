// The per-user cache of machine files, so that an app run without --machine still prints
// its models: loggps-probe and bspprobe write there when given no --out, and an app that
// finds no file for this host measures the few parameters its models need in a short probe
// (loggps_short_probe.hpp, bsplib/model/bsp_short_probe.hpp) and saves them there.
//
// Where (the XDG base directory convention): $XDG_CACHE_HOME/hpc-perfmodel-suite, or
// $HOME/.cache/hpc-perfmodel-suite when XDG_CACHE_HOME is unset, empty or not an absolute
// path (XDG says to ignore a relative one); no cache when HOME is not absolute either.
// The directories it creates are 0700 (the files say which host and MPI this user runs).
//
// One file per kind, keyed by host name and MPI library (the first line of
// MPI_Get_library_version), both reduced to a short token of [A-Za-z0-9._+-], and for BSP
// files by the process count p (l and g depend on p):
//   loggps-HOST-MPI.machine        loggps-probe's keys (LogGPS and LogGP), sweep3d and tycho
//   bsp-pP-HOST-MPI.machine        bspprobe's keys at P processes, multigrid
// Files are written as every machine file is (MachineFile::write, OutputFile): a temporary,
// then rename, never through a symbolic link. A cached file that does not read back as
// the models need it (damaged, truncated, a symbolic link, a LogGP/LogGPS fit off its own
// round trips by more than probe::kMaxRoundTripFitError) is not fatal: the app says in one
// line that it ignores it as unusable, and measures again. An outdated one (a LogGP file of
// an earlier probe without the costs of messages after a working set, or whose after-stream
// reductions are not the sweep's pair, loggp_cold.hpp) is measured again likewise, with a line
// saying so, or used as it is where no probe can run.
#pragma once
#include <mpi.h>

#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace instrument::machine_cache {

// The cache directory as the environment says ("" when there is none); nothing is created.
std::string directory();

// `text` with every run of other characters than [A-Za-z0-9._+] made one '-', no '-' at
// either end, at most max_length characters; "unknown" when nothing is left.
std::string safe_token(std::string_view text, std::size_t max_length);

// The file name of a kind: "<kind>[-p<p>]-<host>-<mpi>.machine" (p <= 0: no p), with the
// tokens of this host and MPI library. Needs MPI initialised.
std::string file_name(const std::string& kind, int p);

// The cache file of a kind for writing, its directory created (0700) where missing; ""
// when there is no cache directory. Throws InputError naming the directory when it cannot
// be created or is not a directory (a symbolic link is refused). For the probes' default
// output; one process calls it.
std::string path_for_writing(const std::string& kind, int p);

// What an app needs of the cache, for one kind of machine file.
struct Probe {
  std::string kind;            // "loggps" or "bsp" (file_name)
  int p = 0;                   // > 0: part of the key
  int min_ranks = 1;           // below this the short probe has nothing to measure
  std::string parameters;      // what the short probe measures, for the line: "L, o, g, G"
  std::string full_probe;      // the program that measures in full: "loggps-probe"
  // Rank 0: throws when the file at the path is not one the models can use; else why it is
  // outdated (usable, but without figures today's probe measures: measured again where a
  // probe can run), "" when current. One read of the file.
  std::function<std::string(const std::string& path)> check;
  // Collective over the app's communicator: the short probe, rank 0 writing the path, trying
  // no new fit and stopping between measurements once `time_limit` seconds have passed
  // (short_probe_time_limit; the same on every rank); it may throw on rank 0 only, after the
  // collective part.
  std::function<void(const std::string& path, double time_limit)> measure;
};

// The short probes' time limit in seconds: SUITE_PROBE_TIME_LIMIT, else 40. Idle they take
// 1-6 s; on a host other jobs load, each of their thousands of messages can cost a scheduler
// slice (two probes side by side on a 2-core CI machine each ran past 120 s). Past the limit
// a probe tries no new fit, and both stop between their measurements: the BSP probe then
// makes no fit, the LogGP probe (after its fit) leaves the messages after a working set
// unfinished (its file then says so, and the next run measures again, once). Not a hard
// bound: a measurement under way is finished (one repetition of a BSP loop, one LogGP
// measurement between two checks). Throws InputError("environment", "SUITE_PROBE_TIME_LIMIT",
// ...) for a value that is not a number of seconds above 0: machine_for_this_host reads it on
// rank 0 and then throws CollectiveError on every rank (bad input, refused whether or not a
// probe would run).
double short_probe_time_limit();
// How the probes' lines name the limit: "the time limit, 40 s (SUITE_PROBE_TIME_LIMIT; a
// loaded host?)".
std::string time_limit_text(double limit);

// Collective over `comm`: the path of this host's machine file of the probe's kind. The
// cached file when it checks; else the short probe's, saved in the cache (or, with no
// cache directory or one that cannot be written, in a temporary removed at exit), with ONE
// line on `out` (rank 0) saying what was measured, how long it took and where it is. ""
// when the models must go without: fewer ranks than min_ranks (silently: nothing to model),
// more ranks on a node than it has cores (no probe: it would time the scheduler), or a
// short probe that failed (the line says why of these two); in those two cases an outdated
// cached file (usable, measured again where a probe can run) is used as it is. The same
// result on every rank.
std::string machine_for_this_host(const std::string& program, const Probe& probe, MPI_Comm comm, std::ostream& out);

// The two kinds the apps use: LogGPS + LogGP (sweep3d, tycho; 2 ranks or more).
Probe loggps_probe(const std::string& program, MPI_Comm comm);

}  // namespace instrument::machine_cache
