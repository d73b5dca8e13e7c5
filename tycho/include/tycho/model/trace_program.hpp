// The trace model (TM) of Kerbyson, Hoisie & Pautz (section 4.2): the sweep's recorded events,
// without their times, replayed on a machine model. Their Trace Model Evaluator is our replay
// engine (instrument/replay.hpp: LogGOPS, dependencies resolved message by message); the
// trace is the per-step records (step_history.hpp); the costs are T_elem (a calibration, not
// the run's own timing) and the probe's machine file.
//
// The program, per rank, per chosen iteration in the order given, per step in step order:
//   compute(work x T_elem + step overhead)     skipped when 0
//   isend to each downwind peer, in the order the rank sent them, each with a fresh request
//   recv (blocking) from each upwind peer, in the order the rank received them
// and at the end of each iteration an allreduce of 8 bytes (the convergence test). Sends are
// posted and never waited, as MPI_Bsend / an MPI_Isend completed later would be: the sweep's
// sender does not wait for its receiver (the engine allows a request never waited). Tag 0
// everywhere: the messages of one pair are matched in order (MPI's non-overtaking rule), which
// is the order the sweep sent and received them in.
//
// The step overhead (seconds per step, default 0 = the paper, which charges cell-angle tasks
// only) is T_step (tycho/results_calibration.hpp): a one-rank calibration sweep's critical path
// outside the solves and message calls over its steps, i.e. the step loop's bookkeeping (the
// sweep's reset of its ready queue is the first step's compute, in T_elem).
// Work outside the sweep (the source, the flux update) is not in the trace.
//
// Units: T_elem seconds per cell-angle task; step overhead seconds; results seconds.
#pragma once
#include <cstdint>
#include <vector>

#include "instrument/replay.hpp"
#include "tycho/step_history.hpp"

namespace tycho::model {

// std::invalid_argument on no rank, no iteration, a T_elem or overhead not finite and >= 0, a
// record that breaks the contract (history_steps.hpp), a message's peer not another rank, or
// more than 2^31 - 1 sends on one rank.
instrument::replay::StoredProgram trace_program(const std::vector<RankHistory>& ranks,
                                                const std::vector<std::int32_t>& iterations,
                                                double t_elem_s, double step_overhead_s = 0.0);

struct TraceModelTime {
  double seconds_per_iteration = 0.0;  // total / iterations
  double total_s = 0.0;                // the replayed run: the latest rank's end
  std::size_t iterations = 0;
  instrument::replay::Result replay;   // per-rank totals (compute, send, receive, collective)
};

// Replays trace_program(...) with instrument::replay::simulate. Histories whose messages do
// not match (a receive no rank sent) make the engine throw instrument::replay::ReplayError
// naming the rank and the operation.
TraceModelTime trace_model_time(const std::vector<RankHistory>& ranks,
                                const std::vector<std::int32_t>& iterations, double t_elem_s,
                                const instrument::replay::Machine& machine,
                                double step_overhead_s = 0.0);

}  // namespace tycho::model
