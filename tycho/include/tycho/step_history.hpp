// What the parallel sweep records of every step on every rank: the inputs of the
// mesh-specific model (eq. 6: Work(P,S), N_c(S,P), N_s(S,P,C)), of PCE (eq. 4) and of the
// trace model's replay, and the measured times they are compared with.
//
// A step (section 5 of Kerbyson, Hoisie & Pautz): do at most MCPS cell-angle tasks from the
// top of the priority queue, send one message to each downwind part that the step produced
// boundary data for, then receive from upwind parts. Steps are numbered per rank and per
// iteration from 0; eq. 6 takes the max over ranks of step S.
#pragma once
#include <cstdint>
#include <vector>

namespace tycho {

struct StepRecord {
  std::int32_t iteration = 0;   // source iteration, from 0
  std::int32_t step = 0;        // within the iteration's sweep, from 0
  std::int64_t work = 0;        // cell-angle tasks done (each all groups)
  std::int32_t sends = 0;       // messages sent at the end of the step
  std::int64_t send_bytes = 0;
  std::int32_t receives = 0;    // messages received after the sends
  std::int64_t receive_bytes = 0;
  double compute_s = 0.0;       // in the tasks (the cell solves and their bookkeeping)
  double send_s = 0.0;          // packing and the send calls
  double receive_s = 0.0;       // receive calls, waiting included, and unpacking
};

// One message, sent or received, in the order the rank made the calls.
struct MessageRecord {
  std::int32_t iteration = 0;
  std::int32_t step = 0;
  std::int32_t peer = 0;        // the other rank
  std::int64_t bytes = 0;
  bool sent = true;             // false: received
};

struct RankHistory {
  std::vector<StepRecord> steps;
  std::vector<MessageRecord> messages;
};

}  // namespace tycho
