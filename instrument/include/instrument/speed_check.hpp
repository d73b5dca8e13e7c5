// Whether a run's CPU computed at the speed its calibration's did: a fixed piece of the app's
// own kernel, on a fixed built-in problem, timed on every rank right before the measured work
// and right after it. A model priced by a calibration run assumes the CPU is as fast as it was
// then; a host that slows a vCPU for a while breaks that silently, and no other check sees it
// in a one-rank run (uneven_cpus.hpp compares ranks within a run; the guest shows no steal).
//
// Why: on the 2-vCPU AMD EPYC (Zen 5) Firecracker/PVM guest, 2026-12-07, tycho's pinned
// one-rank sweeps of cube-10717 alternated between ~0.13 and ~0.19-0.21 s with the host's
// load, second by second, while tycho_cell_solve_bench on cube-208 on the same CPU read 29-31
// against 38-42 ns (40 triples, bench / sweep / bench: every slow sweep had a slow bench on at
// least one side). In a Table 3 campaign two predicted one-rank runs made 10 s after their
// calibrations swept 1.6x slower and read -38 and -40%, unmarked.
//
// Why 1.15: tycho's check (a 3^3 cube's cell solves, tycho/speed_check.hpp) read 23.3-26.0 ns
// calm (11% apart at most) and 32.6-36.3 ns slow (1.4x) in 30 runs that day.
//
// A run is compared with each calibration whatever their rank counts: on these guests a vCPU
// computes alike with the other busy or idle (the quiet Table 3 campaign that day, 2-rank runs
// against 1-rank calibrations, marked none). Where two ranks share a core's SMT siblings, or
// turbo depends on how many cores are busy, a 2-rank run's check reads slower than a 1-rank
// calibration's and such runs would be marked: the line's figures say so.
#pragma once
#include <mpi.h>

#include <string>
#include <vector>

namespace instrument {

class Comparison;
struct ResultsDocument;

inline constexpr double kSpeedCheckRatio = 1.15;

// Each rank's check before and after the measured work (ns per unit of the check's work), by
// rank (rank 0 after gather_speed_check; empty where the app made none).
struct SpeedCheck {
  std::vector<double> before_ns, after_ns;
  // The run's figure: the median over ranks of each rank's mean of the two; 0 with none.
  double run_ns() const;
};

// Collective: every rank's two figures to rank 0 (others get an empty SpeedCheck).
SpeedCheck gather_speed_check(double before_ns, double after_ns, MPI_Comm comm);

// The lines that mark a comparison unreliable, "" where the figures agree within
// kSpeedCheckRatio (either way) or one is missing (0). `what` names the check's work.
//   changed   a rank's check after the work against its check before: the CPU's speed
//             changed during the run;
//   differs   this run's figure against a calibration run's (the same check, as that run's
//             results file keeps it; 0: a file from before the check): the constants came
//             from a CPU at another speed.
std::string speed_changed_line(const SpeedCheck& check, const std::string& what);
std::string speed_differs_line(double run_ns, double calibration_ns, const std::string& file, const std::string& what);

// Mark `comparison` with those lines (after any other line), where they are not "".
void mark_if_speed_changed(Comparison& comparison, const SpeedCheck& check, const std::string& what);
void mark_if_speed_differs(Comparison& comparison, double run_ns, double calibration_ns, const std::string& file,
                           const std::string& what);

// A calibration run's figure as its results file keeps it (`app_group`'s speed_check_ns), 0
// where the file is from before the check (no such attribute or group). A value that is not a
// number of ns in [1e-3, 1e9] is refused: InputError(path, "<app_group>/speed_check_ns", ...),
// as calibration_reader.hpp words it, in one line. `app` is the app the file must come from.
double calibration_speed_check_ns(const ResultsDocument& doc, const std::string& app, const std::string& app_group,
                                  const std::string& path);

}  // namespace instrument
