// The cost of a superstep that follows computation over a working set, beside its cost back
// to back.
//
// Why: after_gap.hpp prices the gap's length with every process spinning on the clock, which
// leaves the caches as they were. A program that streams its arrays between syncs also
// evicts the sync's code and data and the headers' lines from the caches, and the last
// process to enter pays for fetching them again. Measured on an AMD EPYC Zen 5 guest (p = 2,
// 32 MiB L3, 2026-12-02, scratch programs): an empty superstep after 1 ms of spinning 0.73
// us, after 1 ms of streaming a 128 MiB buffer 1.50 us (back to back 0.19); after one pass
// over 64 MiB an empty superstep took 1.5 us, after 2 MiB 0.30, after 256 KiB as back to
// back. multigrid's finest-grid supersteps (a working set of ~15 MB a process, 1.2-2.4 ms of
// work) measured 1.85-3.9 us against 0.85-1.0 from the curves and the gap term
// (multigrid/BENCHMARKS.md).
//
// So bspprobe also measures an empty superstep and one put of 64 B and of 2 KiB one way,
// each after every process made one read-and-write pass over the first N bytes of a buffer,
// for N = 0 and working sets up to beyond the last-level cache (AfterStreamCosts,
// machine_params.hpp). The pass is over the same N bytes every time, as a program's
// kernel goes over its arrays again at every superstep: a working set that fits in the cache
// stays there. A program that knows its working set W (bytes a process goes over between
// syncs) prices a superstep
//     curve(h) + max(after_gap(w) - after_gap(0), after_stream(W) - after_stream(0))
// (the larger of what the gap's length and what the working set explain: both are the same
// cold sync, seen by two causes), after_stream(N) being the mean of the three measured
// supersteps at N: linear in N from 0 to the first N above 0, linear in log N between
// measured ones, held beyond the last. A file without after-stream figures, or W = 0,
// charges the gap term alone.
#pragma once
#include "bsplib/model/machine_params.hpp"
#include "bsplib/model/profile_table.hpp"

namespace bspmodel {

// after_stream(N) as above, seconds; `a` must not be none().
double after_stream_cost(const AfterStreamCosts& a, double working_set_bytes);
// after_stream(N) - after_stream(0), never below 0 (as after_gap_extra, for the same
// reason: where the figures are flat the difference is noise); 0 when `a` is none().
double after_stream_extra(const AfterStreamCosts& a, double working_set_bytes);
// The larger of the gap term and the working-set term of a superstep whose last process to
// enter had `gap_seconds` since its previous sync and went over `working_set_bytes`.
double cold_sync_extra(const BspMachine& m, double gap_seconds, double working_set_bytes);

// The two priced models with the cold term: l + h g(h) (eq. 3) and the curve of the
// superstep's pattern (the machine must have curves), for a superstep after computation
// over `working_set_bytes` (0: the gap term alone, as after_gap.hpp's).
double comm_sync_eq3_cold(const BspMachine& m, const SuperstepSummary& step, double working_set_bytes);
double comm_sync_by_pattern_cold(const BspMachine& m, const SuperstepSummary& step, double working_set_bytes);

}  // namespace bspmodel
