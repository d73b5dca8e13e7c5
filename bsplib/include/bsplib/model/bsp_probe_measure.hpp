// bspprobe's timed loops (BSPlib and raw MPI), apart from its fits (bsp_probe_fit.hpp), as
// loggps-probe keeps probe_measure.cpp apart from probe_fit.hpp. Called between bsp_begin
// and bsp_end on every process; the results are the same on every process.
#pragma once
#include <vector>

#include "bsplib/model/machine_params.hpp"

namespace bspmodel {

struct BspMeasurements {
  double s = 0;                 // flop/s of an in-cache DAXPY, the slowest process's median
  std::vector<double> h, t;     // h-relations: bytes per process; median comm+sync, seconds
  // g(x): the bytes h_x[i] exchanged as messages of x[i] bytes; the median time of one such
  // exchange as bsp_put records (combined) and as separate MPI messages, seconds.
  std::vector<double> x, h_x, t_combined, t_separate;
  int h_granular = 0;           // the h the g(x) exchanges aim at (h_x[i] <= it)
  // Supersteps by pattern (superstep_model.hpp), at p >= 2: at each curve_h, the median
  // comm+sync (as h above) of one bsp_put of h bytes from each process of the lower half
  // into its partner in the upper half (one way), from every process into the next
  // (exchange), and one bsp_get of h bytes by each process of the lower half from its
  // partner (gets). Empty at p = 1.
  std::vector<double> curve_h, curve_one_way, curve_exchange, curve_gets;
  // Supersteps after a compute gap (after_gap.hpp): at each gap (seconds of every process
  // spinning on the clock before the superstep's put and sync), the median comm+sync (as
  // h above) of an empty superstep and of one put of 64 B and of 2 KiB from each process of
  // the lower half into its partner (one way; at p = 1 into itself).
  std::vector<double> gap, after_gap_empty, after_gap_64, after_gap_2048;
  // Supersteps after a pass over a working set (after_stream.hpp): at each working set
  // (bytes every process read and wrote, the first N bytes of one buffer, before the
  // superstep's put and sync; 0 first, rising), the median comm+sync (as h above) of the same
  // three supersteps.
  std::vector<double> working_set, after_stream_empty, after_stream_64, after_stream_2048;
  // The round trip of one cache line between the processes' CPUs (core_round_trip.hpp),
  // sampled before every repetition of T(h), the curves, the gaps and the working sets (200 round trips each),
  // seconds; empty at p = 1 or when the processes do not share a node. `placement` is their
  // median: T(h), the curves, the gaps and the working sets are the medians of the repetitions taken within
  // 1.5x of it (placement_kept of them; all when fewer than a third are), so that every
  // figure is of one placement of the CPUs.
  std::vector<double> round_trip;
  double placement = 0;
  double placement_kept = 1;
};

// A fresh process's first supersteps (first_use.hpp): its first superstep (one registration),
// then its first exchange, first one-way put and first get of `h_bytes` a pair (the get made
// by the processes the one-way put went to, as the curve's getters enter last), then its first
// pop of a registration (an empty superstep), each once, as the curves' patterns (the
// comm+sync of the last process to enter). Must be the first
// supersteps of the process after bsp_begin: bspprobe calls it before anything else, and no
// caller that has synchronised before may (the apps' built-in probe does not). none() at p = 1.
FirstUseCosts measure_first_use(int h_bytes);

// reps: repetitions per point (medians); hmax: the largest h-relation, bytes per process;
// max_working_set: the largest working set of the after-stream supersteps, bytes per process
// (twice the last-level cache up to it, at least 64 MiB).
constexpr double kProbeMaxWorkingSet = 512.0 * 1048576;
BspMeasurements measure_bsp_machine(int reps, int hmax, double max_working_set = kProbeMaxWorkingSet);

// The buffer the after-stream supersteps stream over: one per process, as many doubles as the
// largest working set. A caller that measures more than once (the short probe's retries) keeps
// one across its measurements, so that it is allocated and first touched once: on a guest
// whose host takes freed memory back, each fresh buffer's first touch costs about 11 us a
// 4 KiB page (0.2 s at 64 MiB a try), and every try after the first streams over the same
// resident pages. `deadline` (instrument::now_seconds(), on process 0's clock; 0: none): past
// it every process throws instrument::probe::ProbeOutOfTime at the same point, between two
// repetitions (the apps' short probe's time limit; bspprobe has none).
using StreamBuffer = std::vector<double>;
BspMeasurements measure_bsp_machine(int reps, int hmax, double max_working_set, StreamBuffer& stream_buffer,
                                    double deadline = 0);

}  // namespace bspmodel
