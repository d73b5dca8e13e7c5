// The round trip of one cache line between the CPUs of paired processes, measured through a
// segment they share: what the host's placement of the CPUs makes a small superstep cost
// (bsplib/include/bsplib/model/core_round_trip.hpp has the figures). bspprobe samples it
// while it measures, and the profiler at bsp_begin and bsp_end of a profiled run, so that a
// run predicted from a probe can be told whether it ran at the probe's placement.
#pragma once
#include <mpi.h>

#include <cstdint>

namespace bsplib {

class LinePairs {
 public:
  // Collective over comm. Pairs process s with s + p/2 for s < p/2 (the one-way pattern's
  // pairs); off when p = 1, the processes of comm do not all share a node, or they outnumber
  // the CPUs a process may run on.
  explicit LinePairs(MPI_Comm comm);
  ~LinePairs();  // collective over comm
  LinePairs(const LinePairs&) = delete;
  LinePairs& operator=(const LinePairs&) = delete;

  // Collective over comm: the lower process of each pair stores a count into one line and
  // waits until its partner has stored it back into another; `blocks` blocks of `per_block`
  // round trips, each block timed whole (a clock read costs 20-30 ns, a round trip 60-600
  // ns), the median of the blocks' means, the largest over pairs; seconds, the same on every
  // process. 0 when off.
  double measure(int blocks, int per_block);

 private:
  MPI_Comm m_comm = MPI_COMM_NULL;  // the node's processes, when they are all of comm
  MPI_Win m_win = MPI_WIN_NULL;
  std::uint64_t* m_lines = nullptr;  // the pair's two lines, in the lower process's segment
  std::uint64_t m_count = 0;
  bool m_lower = false, m_paired = false;
};

}  // namespace bsplib
