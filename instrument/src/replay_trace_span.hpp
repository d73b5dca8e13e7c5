// The span of a recorded trace that a replay covers, per rank cut into the MPI calls and the
// compute between them (replay_trace.hpp describes the rules; this is their one
// implementation, shared by the program and the cost table).
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "instrument/replay.hpp"
#include "instrument/run_results.hpp"

namespace instrument::replay::detail {

// One traced MPI call of the span. `op` holds kind, peer, tag, bytes, request as recorded
// (a posted receive not yet resolved by its wait: program_from_trace does that).
struct Call {
  std::int64_t event = 0;  // index of the event in the rank's recorded trace
  Op op;
  double begin = 0.0, end = 0.0;
};

// A stretch of compute: a traced leaf or untimed time inside one innermost phase.
struct Piece {
  int label = 0;                // index into Span::labels
  double seconds = 0.0;         // measured
  std::int64_t work = 0;        // > 0: a leaf that carries work
  std::int64_t scope = -1;      // the rank's event index of its work scope, -1: none
  std::int64_t scope_work = 0;  // that scope's work
};

// The compute between two calls (or the span's ends), in time order.
struct Gap {
  double begin = 0.0, end = 0.0;
  std::vector<Piece> pieces;
};

struct RankSpan {
  double begin = 0.0, end = 0.0;
  std::vector<Call> calls;
  std::vector<Gap> gaps;  // calls.size() + 1: gaps[i] before calls[i], the last one after all
};

struct Span {
  std::vector<RankSpan> ranks;
  std::vector<std::string> labels;  // a phase name, or "<phase> (untimed)"
  int epochs = 0;                   // 0: the whole trace
  std::string description;
  double start = 0.0;               // the earliest rank's begin
};

// a + b for counts of work >= 0, saturating at the largest count (a sum of events each within
// kMaxEventWork overflows only from 2^13 of them on).
inline std::int64_t add_work(std::int64_t a, std::int64_t b) noexcept {
  return a > std::numeric_limits<std::int64_t>::max() - b ? std::numeric_limits<std::int64_t>::max() : a + b;
}

// InputError(file, "/trace...", ...) for a trace that cannot be replayed (replay_trace.hpp).
Span cut_span(const GatheredTrace& trace, const std::string& file, const std::string& epoch_phase);

}  // namespace instrument::replay::detail
