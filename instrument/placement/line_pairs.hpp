// The round trip of one cache line between the CPUs of paired processes, measured through a
// segment they share: where the host placed the processes' CPUs, which a small message or
// superstep within a node follows (instrument/core_round_trip.hpp has the figures). The
// probes sample it while they measure and the runs at their start and end, so that a run
// predicted from a probe can be told whether it ran at the probe's placement.
//
// A library of its own (MPI only, below instrument and the BSPlib): the BSPlib's profiler and
// bspprobe use it inside an SPMD section, instrument's run_app and gather_results around
// every other run.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>

namespace instrument {

// Collective over `node` (processes of one node): how many CPUs they may run on, the union of
// their affinity masks. Not the node's online CPUs: a job confined to some of them (a cpuset,
// a container) has only those, and processes outnumbering them take turns on them.
int usable_cpus_on_node(MPI_Comm node);

class LinePairs {
 public:
  // Called with the error's one line when a partner never answers (store_wait.hpp); it must
  // end the run (it does not return).
  using MissedStore = std::function<void(const std::string& text)>;

  // Collective over comm. Pairs process s with s + p/2 for s < p/2 (the one-way pattern's
  // pairs); off when p = 1, the processes of comm do not all share a node, or they outnumber
  // the CPUs a process may run on.
  LinePairs(MPI_Comm comm, MissedStore missed);
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
  MissedStore m_missed;
};

}  // namespace instrument
