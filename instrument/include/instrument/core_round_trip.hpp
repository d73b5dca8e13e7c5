// The round trip of one cache line between the CPUs a run's processes ran on: where the host
// placed them, which every probe's small-message and small-superstep figures are true of.
//
// Why runs and probes record it: within one node a small message or superstep is a few cache
// lines passed between the processes' cores, and on a virtual machine the host decides which
// cores those are. On the 2-vCPU AMD EPYC (Zen 5) Firecracker guest, 2026-12-02, the round
// trip was 60-80, 130-160 or 500-580 ns by placement; one placement held for seconds to
// minutes and changed between program launches, and a small superstep's cost moved 2-3x with
// it (bsplib/include/bsplib/model/core_round_trip.hpp). A probe's L, o and curves are true of
// the placement they were measured at; a run at another placement says more of the host than
// of the model. So:
//   - the probes name theirs in the machine file: loggps-probe and the apps' short LogGP(S)
//     probe `loggp.core_round_trip_seconds`, bspprobe `bsp.core_round_trip_seconds`;
//   - sweep3d, tycho and multigrid record their own, at the start of their run
//     (start_core_round_trip_sample, called by their main, not by run_app: a probe or a
//     benchmark of a fresh process's first messages must not be warmed by it) and at
//     gather_results, in their results file's root attributes core_round_trip_start and
//     core_round_trip_end;
//   - the app's side-by-side table is marked unreliable when the two differ by more than
//     kSamePlacementRatio (mark_if_other_placement), and so is the campaign report's row.
// The measurement is placement/line_pairs.hpp's: 0 (not measured) at one process, across
// nodes, or with more processes than CPUs.
#pragma once
#include <mpi.h>

#include <string>
#include <vector>

namespace instrument {

class Comparison;
class MachineFile;

// Collective over comm: the round trip now (LinePairs, blocks x per_block round trips),
// seconds, the same on every process; 0 when off. A partner that never answers ends the run
// with one error line.
double measure_core_round_trip(MPI_Comm comm, int blocks = 10, int per_block = 20);

// A run's two samples, seconds (0: not measured): at its start and at gather_results. The
// results file's root attributes core_round_trip_start and core_round_trip_end.
struct CoreRoundTrips {
  double start = 0.0, end = 0.0;
  std::vector<double> samples() const;  // those measured (> 0), in that order
};

// The app's sample at the run's start, collective over MPI_COMM_WORLD; gather_results' pair:
// that one (when comm has MPI_COMM_WORLD's group, else 0) and one taken now over comm.
void start_core_round_trip_sample();
CoreRoundTrips end_core_round_trip_sample(MPI_Comm comm);

// The median of the samples, seconds; 0 when there are none (not measured).
double core_round_trip(const std::vector<double>& samples);

// How far a run's round trips are from the probe's: the largest of run/probe and probe/run
// over the run's samples; 0 when either is unknown. Within kSamePlacementRatio the run had
// the probe's placement (the modes measured are 2x and more apart). Not a cost term: no
// prediction uses the run's round trip.
double placement_ratio(double probe_seconds, const std::vector<double>& run_seconds);
inline constexpr double kSamePlacementRatio = 1.5;

// A LogGP(S) probe's samples (before and after its measurements) as the machine file's
// loggp.core_round_trip_seconds (their median) with a comment; when a sample is 0 (not
// measured) nothing, and when the placement moved between them (beyond kSamePlacementRatio)
// no such key but probe.core_round_trip_moved = the samples ("120 ns, 550 ns"): the
// parameters are then of no one placement.
inline constexpr const char* kLogGpRoundTripKey = "loggp.core_round_trip_seconds";
inline constexpr const char* kMovedKey = "probe.core_round_trip_moved";
void write_loggp_core_round_trip(const std::vector<double>& samples, MachineFile& machine);

// The round trip a machine file names under `key` (loggp.core_round_trip_seconds,
// bsp.core_round_trip_seconds); 0 when it has none, or a value outside (0, 1] s.
double probe_core_round_trip(const MachineFile& machine, const std::string& key);

// Marks the comparison unreliable (Comparison::mark_unreliable, after any busy line) when
// the run's samples are beyond kSamePlacementRatio from the probe's; nothing when either is
// unknown. `machine` names the machine file in the line.
void mark_if_other_placement(Comparison& comparison, double probe_seconds, const std::vector<double>& run_seconds,
                             const std::string& machine);
// The same with the probe's round trip read from the machine file at `machine_path` under
// `key`; nothing when the path is empty or the file cannot be read (the models read it
// first: their error is the one to report). A LogGP(S) probe times its two ranks' pair: a run
// of `run_ranks` other than 2 times other pairs (the largest of s with s + P/2), which on a
// node of many cores need not match, so it is not compared (unknown, never "other").
void mark_if_other_placement(Comparison& comparison, const std::string& machine_path, const std::string& key,
                             const CoreRoundTrips& run, int run_ranks);

}  // namespace instrument
