// The round trip of one cache line between the processes' CPUs (C++): what the host's
// placement of the CPUs makes a small superstep cost within a node
// (bsplib/model/core_round_trip.hpp has the figures). bspprobe samples it while measuring;
// the profiler writes it at bsp_begin and bsp_end of a profiled run.
#pragma once

namespace bsplib {

// Collective over the section's processes, between supersteps (inside bsp_begin/bsp_end):
// the median round trip of process s with s + p/2 for s < p/2, the largest over pairs,
// seconds; the same on every process. 0 at p = 1, when the processes do not share a node, or
// when they outnumber the CPUs a process may run on (they would take turns on a CPU).
// blocks x per_block round trips, each block timed whole, the median of the blocks' means;
// 1000 by default: 0.06-0.6 ms on the machines measured.
double core_round_trip_seconds(int blocks = 20, int per_block = 50);

}  // namespace bsplib
