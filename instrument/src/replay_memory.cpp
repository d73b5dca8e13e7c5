// The replay engine's peak memory from a program's counts (replay_memory.hpp), modelled on
// the containers of replay_engine.cpp: what each holds, and how it grows.
//
// Checked against the peak RSS of real runs (/usr/bin/time, Release build, 2026-12-01,
// sweep3d-model on ctest/sweep3d/replay_this_vm.machine); measured / estimated, with the
// messages in flight as each program's source estimates them (KbaProgram::counts,
// replay-bench's wavefront_counts):
//   replay-bench --px 4 --py 4 --blocks 1000000: 771 MiB measured, 784 estimated (0.98);
//     8 x 8: 1539 and 1552 (0.99); 2048 x 2048 --blocks 1: 1460 and about 1840 (0.79);
//     1024 x 1024 --blocks 10: 368 and 480 (0.77); 256 x 256 (600 blocks): 41 and 63 (0.66);
//   sweep3d-model --per-rank 5x5x400 --mmi 3 --replay at 65536 processes: --mk 10 132 and
//     133 MiB (0.99), --mk 400 110 and 121 (0.91), --mk 1 200 and 301 (0.66); at 16384
//     processes --mk 10 44 and 51 (0.86), --mk 1 78 and 135 (0.58).
// An upper bound: the pools grow by doubling, so a count just past a power of two is
// estimated at twice what it uses; the channel index's old and new tables are both counted,
// alive together only while it grows. What the estimate rests on is counted, not fitted: the
// structs' sizes, and libstdc++'s vector (its capacity doubles; while it grows, the old
// buffer and the moved half of the new one are both resident).
#include "instrument/replay_memory.hpp"

#include <algorithm>

#include "replay_engine_index.hpp"
#include "replay_engine_state.hpp"

namespace instrument::replay {

namespace {

constexpr std::uint64_t kMostCounted = std::uint64_t{1} << 40;

// The resident peak of a vector grown by push_back to n elements from `first` reserved: its
// capacity then (the doubling that reached it touched the old buffer and as much of the new).
std::uint64_t grown_vector_bytes(std::uint64_t n, std::uint64_t element, std::uint64_t first = 1) {
  std::uint64_t capacity = std::max<std::uint64_t>(first, 1);
  while (capacity < n) capacity *= 2;
  return std::max(capacity, n) * element;
}

}  // namespace

std::uint64_t peak_bytes(const ProgramCounts& given, const Machine& machine, const Options& options) {
  ProgramCounts c = given;
  for (std::uint64_t* n : {&c.ranks, &c.operations, &c.channels, &c.messages, &c.requests})
    *n = std::min(*n, kMostCounted);
  std::uint64_t bytes = kProcessBytes;
  // Per rank: its state and totals, its place in the ready list and in the collective's.
  bytes += c.ranks * (sizeof(detail::RankState) + sizeof(RankTotals) + 2 * sizeof(int));
  // Per channel: its queue's ends and its entry in the channel index.
  bytes += grown_vector_bytes(c.channels, sizeof(detail::Channel));
  bytes += detail::FlatIndex::peak_bytes(c.channels);
  // The message records: a pool that never shrinks, reserved at 1024 (its peak is its size).
  bytes += grown_vector_bytes(c.messages, sizeof(detail::Message), 1024);
  bytes += detail::FlatIndex::peak_bytes(c.requests);
  const bool contention = machine.ranks_per_node > 0;
  if (contention) {
    const std::uint64_t per_node = static_cast<std::uint64_t>(machine.ranks_per_node);
    bytes += (c.ranks + per_node - 1) / per_node * sizeof(double);  // each node's link
  }
  // The queue: every rank (time order) and every message waiting for its link (contention).
  if (contention || options.time_ordered)
    bytes += grown_vector_bytes((options.time_ordered ? c.ranks : 0) + (contention ? c.messages : 0),
                                sizeof(detail::Event));
  // The timeline: an interval an operation, each rank's grown on its own (at most twice).
  if (options.keep_timeline)
    bytes += 2 * c.operations * sizeof(TraceEvent) + c.ranks * (sizeof(std::vector<TraceEvent>) + sizeof(std::int64_t));
  return bytes;
}

}  // namespace instrument::replay
