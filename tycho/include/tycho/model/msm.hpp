// The mesh-specific model (MSM) of one iteration, Kerbyson, Hoisie & Pautz eq. 6:
//
//   T_iter = sum_{S=1..#steps} max_P Work(P, S) * T_elem
//          + sum_{S=1..#steps} max_P sum_{C=1..|N_c(S,P)|} T_comm(N_s(S, P, C))
//          + #steps T_step                                                  (ours: gm.hpp)
//
// from the sweep's own per-step records (step_history.hpp): Work(P, S) = StepRecord::work of
// rank P's step S (cell-angle tasks), N_c(S, P) the messages rank P sent in step S and N_s their
// bytes (MessageRecord, sent = true). Received messages are not charged: each message is
// charged once, at its sender, as the paper does. The two maxima are taken apart, step by step,
// and the steps' three stages are assumed not to overlap (section 4.1), so the MSM tends to
// over-predict where computation hides communication.
//
// Units: T_elem seconds per cell-angle task (the caller evaluates TelemCurve at E_p = N/P);
// T_comm(bytes) seconds for one message (machine_comm.hpp); results in seconds.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "tycho/step_history.hpp"

namespace tycho::model {

// Seconds to send one message of this many bytes (eq. 7's T_comm, the destination ignored).
using CommCost = std::function<double(std::int64_t bytes)>;

// How many of a step's sends find a peer's message waiting (arrived, not yet received), from
// the step's own counts: the step computes, sends, then receives `receives` messages. Each of
// those was sent by a peer computing the same step alongside, so it arrived before this rank's
// sends about half the time (whichever rank sent first); the first send's progress poll takes
// in all that arrived, so at most one send a step finds any: 1 - 2^-receives (0 without a
// receive or a send). The send (MPI_Bsend's poll copies the message in) and the receive that
// follows are then priced by machine_comm.hpp's waiting figures (issue 39).
double waiting_sends_in_step(std::int64_t sends, std::int64_t receives);

struct MsmPrediction {
  double compute_s = 0.0;          // first term
  double comm_s = 0.0;             // second term
  double bookkeeping_s = 0.0;      // #steps T_step (0 without T_step)
  double total_s = 0.0;            // their sum: the iteration
  std::int64_t steps = 0;          // #steps, max over ranks
  std::int64_t sum_max_work = 0;   // sum_S max_P Work(P, S), cell-angle tasks
  std::int64_t sends = 0;          // messages sent, all ranks
  double waiting_sends = 0.0;      // of them, expected to find a message waiting (waiting_sends_in_step)
};

// std::invalid_argument on no rank, a T_elem that is not finite and >= 0, an empty t_comm, a
// T_comm that is not finite and >= 0, or a record that breaks the contract (history_steps.hpp).
MsmPrediction mesh_specific_model(const std::vector<RankHistory>& ranks, std::int32_t iteration,
                                  double t_elem_s, const CommCost& t_comm);
// The same, with each step's first send priced t_comm_waiting instead of t_comm for the share
// waiting_sends_in_step of it (the step's received messages counted from its records). An
// empty t_comm_waiting prices every send t_comm. step_overhead_s is T_step (gm.hpp), charged
// once a step; 0 is the paper's model.
MsmPrediction mesh_specific_model(const std::vector<RankHistory>& ranks, std::int32_t iteration,
                                  double t_elem_s, const CommCost& t_comm, const CommCost& t_comm_waiting,
                                  double step_overhead_s = 0.0);

}  // namespace tycho::model
