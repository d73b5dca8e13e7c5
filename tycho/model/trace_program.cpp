#include "tycho/model/trace_program.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "tycho/model/history_steps.hpp"

namespace tycho::model {

namespace {

namespace rp = instrument::replay;

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument("tycho TM: " + what); }

// Rank `rank`'s messages of `iteration` by step, sent and received apart, in recorded order.
struct StepMessages {
  std::vector<std::vector<MessageRecord>> sent, received;
};

StepMessages messages_by_step(const RankHistory& h, int rank, int ranks, std::int32_t iteration) {
  StepMessages m;
  for (const MessageRecord& r : h.messages) {
    if (r.iteration != iteration) continue;
    if (r.step < 0 || r.bytes < 0) {
      bad("rank " + std::to_string(rank) + ", iteration " + std::to_string(iteration) +
          ": a message with a negative step or size");
    }
    if (r.peer < 0 || r.peer >= ranks || r.peer == rank) {
      bad("rank " + std::to_string(rank) + ", iteration " + std::to_string(iteration) + ", step " +
          std::to_string(r.step) + ": a message with peer " + std::to_string(r.peer) +
          ", not another of the " + std::to_string(ranks) + " ranks");
    }
    auto& by_step = r.sent ? m.sent : m.received;
    const auto s = static_cast<std::size_t>(r.step);
    if (s >= by_step.size()) by_step.resize(s + 1);
    by_step[s].push_back(r);
  }
  return m;
}

}  // namespace

rp::StoredProgram trace_program(const std::vector<RankHistory>& ranks,
                                const std::vector<std::int32_t>& iterations, double t_elem_s,
                                double step_overhead_s) {
  if (ranks.empty()) bad("no rank");
  if (iterations.empty()) bad("no iteration chosen");
  if (!std::isfinite(t_elem_s) || t_elem_s < 0.0) bad("T_elem must be finite and >= 0");
  if (!std::isfinite(step_overhead_s) || step_overhead_s < 0.0) bad("the step overhead must be finite and >= 0");

  const int nranks = static_cast<int>(ranks.size());
  rp::StoredProgram program;
  program.per_rank.resize(ranks.size());
  for (int rank = 0; rank < nranks; ++rank) {
    const RankHistory& h = ranks[static_cast<std::size_t>(rank)];
    std::vector<rp::Op>& ops = program.per_rank[static_cast<std::size_t>(rank)];
    std::int64_t next_request = 0;
    for (std::int32_t iteration : iterations) {
      const std::vector<std::int64_t> work = work_by_step(h, rank, iteration);
      const StepMessages m = messages_by_step(h, rank, nranks, iteration);
      const std::size_t steps = std::max({work.size(), m.sent.size(), m.received.size()});
      for (std::size_t s = 0; s < steps; ++s) {
        const std::int64_t w = s < work.size() ? work[s] : 0;
        const double seconds = static_cast<double>(w) * t_elem_s + (s < work.size() ? step_overhead_s : 0.0);
        if (seconds > 0.0) ops.push_back(rp::compute_op(seconds, w));
        if (s < m.sent.size()) {
          for (const MessageRecord& r : m.sent[s]) {
            if (next_request > std::numeric_limits<std::int32_t>::max()) bad("more than 2^31 - 1 sends on rank " + std::to_string(rank));
            ops.push_back(rp::message_op(rp::OpKind::isend, r.peer, 0, r.bytes,
                                         static_cast<std::int32_t>(next_request++)));
          }
        }
        if (s < m.received.size()) {
          for (const MessageRecord& r : m.received[s]) {
            ops.push_back(rp::message_op(rp::OpKind::recv, r.peer, 0, r.bytes));
          }
        }
      }
      ops.push_back(rp::collective_op(rp::Collective::allreduce, 8));
    }
  }
  return program;
}

TraceModelTime trace_model_time(const std::vector<RankHistory>& ranks,
                                const std::vector<std::int32_t>& iterations, double t_elem_s,
                                const rp::Machine& machine, double step_overhead_s) {
  const rp::StoredProgram program = trace_program(ranks, iterations, t_elem_s, step_overhead_s);
  TraceModelTime t;
  t.replay = rp::simulate(program, machine);
  t.total_s = t.replay.total;
  t.iterations = iterations.size();
  t.seconds_per_iteration = t.total_s / static_cast<double>(t.iterations);
  return t;
}

}  // namespace tycho::model
