// The replay engine's peak memory for a program, from counts the program's source knows, so
// a replay too big for the machine is refused before it starts (require_memory), not after
// minutes of simulating into a bad_alloc or the OOM killer (issue 36: sweep3d-model --replay
// at 2^24 processes, replay-bench --blocks 1e8).
#pragma once
#include <cstdint>

#include "instrument/replay.hpp"

namespace instrument::replay {

// What a program makes the engine hold (replay.hpp's simulate). Only its source knows these:
// a generated program from its shape, a recorded one from its trace.
struct ProgramCounts {
  std::uint64_t ranks = 0;
  std::uint64_t operations = 0;  // over all ranks (the timeline keeps one interval each)
  std::uint64_t channels = 0;    // distinct (sender, receiver, tag) of its messages
  // The most message records alive at once: sends the engine has simulated whose receive it
  // has not reached, and the reverse. It depends on the order the engine runs the ranks in
  // (causal: a rank runs until it needs a partner not yet simulated), so a generated
  // program's source states it as measured on its shapes.
  std::uint64_t messages = 0;
  std::uint64_t requests = 0;    // the most posted requests (isend/irecv) not yet waited for
};

// The bytes simulate(program, machine, options) holds at its peak: per rank its state and
// totals, per channel its queue and index entry, per message its record, the requests'
// index, with contention or time order the event queue, with keep_timeline every interval;
// growing vectors and indexes counted at their largest (the old and the new buffer alive
// while one grows); plus kProcessBytes for the program itself. Counts beyond 2^40 saturate.
std::uint64_t peak_bytes(const ProgramCounts& counts, const Machine& machine, const Options& options);

// What a replaying process holds besides the engine (the program, its libraries, its
// inputs): 16 MiB, above the 3 MB (replay-bench) and 13 MB (sweep3d-model, libhdf5 and MPI
// loaded) measured at one rank.
inline constexpr std::uint64_t kProcessBytes = std::uint64_t{16} << 20;

}  // namespace instrument::replay
