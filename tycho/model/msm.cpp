#include "tycho/model/msm.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "tycho/model/history_steps.hpp"

namespace tycho::model {

double waiting_sends_in_step(std::int64_t sends, std::int64_t receives) {
  if (sends <= 0 || receives <= 0) return 0.0;
  return 1.0 - std::pow(0.5, static_cast<double>(receives));
}

MsmPrediction mesh_specific_model(const std::vector<RankHistory>& ranks, std::int32_t iteration,
                                  double t_elem_s, const CommCost& t_comm) {
  return mesh_specific_model(ranks, iteration, t_elem_s, t_comm, CommCost{});
}

MsmPrediction mesh_specific_model(const std::vector<RankHistory>& ranks, std::int32_t iteration,
                                  double t_elem_s, const CommCost& t_comm, const CommCost& t_comm_waiting,
                                  double step_overhead_s) {
  if (ranks.empty()) throw std::invalid_argument("tycho MSM: no rank");
  if (!std::isfinite(t_elem_s) || t_elem_s < 0.0) {
    throw std::invalid_argument("tycho MSM: T_elem must be finite and >= 0, got " + std::to_string(t_elem_s));
  }
  if (!std::isfinite(step_overhead_s) || step_overhead_s < 0.0) {
    throw std::invalid_argument("tycho MSM: T_step must be finite and >= 0, got " + std::to_string(step_overhead_s));
  }
  if (!t_comm) throw std::invalid_argument("tycho MSM: no T_comm");

  std::vector<std::int64_t> max_work;  // per step, max over ranks
  std::vector<double> max_comm;        // per step, max over ranks of the sum over its messages
  std::int64_t sends_made = 0;
  double waiting_sends = 0.0;
  auto checked = [](const CommCost& cost, std::int64_t bytes) {
    const double t = cost(bytes);
    if (!std::isfinite(t) || t < 0.0) {
      throw std::invalid_argument("tycho MSM: T_comm(" + std::to_string(bytes) + " B) must be finite and >= 0, got " +
                                  std::to_string(t));
    }
    return t;
  };
  for (std::size_t p = 0; p < ranks.size(); ++p) {
    const int rank = static_cast<int>(p);
    const std::vector<std::int64_t> work = work_by_step(ranks[p], rank, iteration);
    if (work.size() > max_work.size()) max_work.resize(work.size(), 0);
    for (std::size_t s = 0; s < work.size(); ++s) max_work[s] = std::max(max_work[s], work[s]);

    const auto sends = sends_by_step(ranks[p], rank, iteration);
    if (sends.size() > max_comm.size()) max_comm.resize(sends.size(), 0.0);
    std::vector<std::int64_t> receives(sends.size(), 0);  // the step's received messages
    for (const MessageRecord& m : ranks[p].messages)
      if (m.iteration == iteration && !m.sent && m.step >= 0 && static_cast<std::size_t>(m.step) < receives.size())
        ++receives[static_cast<std::size_t>(m.step)];
    for (std::size_t s = 0; s < sends.size(); ++s) {
      double sum = 0.0;
      for (const MessageRecord& m : sends[s]) sum += checked(t_comm, m.bytes);
      sends_made += static_cast<std::int64_t>(sends[s].size());
      const double w = t_comm_waiting ? waiting_sends_in_step(static_cast<std::int64_t>(sends[s].size()), receives[s]) : 0.0;
      if (w > 0.0) {  // the first send finds a message waiting w of the time
        const std::int64_t k = sends[s].front().bytes;
        sum += w * (checked(t_comm_waiting, k) - checked(t_comm, k));
        waiting_sends += w;
      }
      max_comm[s] = std::max(max_comm[s], sum);
    }
  }

  MsmPrediction r;
  r.steps = static_cast<std::int64_t>(std::max(max_work.size(), max_comm.size()));
  for (std::int64_t w : max_work) r.sum_max_work += w;
  r.compute_s = static_cast<double>(r.sum_max_work) * t_elem_s;
  for (double c : max_comm) r.comm_s += c;
  r.bookkeeping_s = static_cast<double>(r.steps) * step_overhead_s;
  r.total_s = r.compute_s + r.comm_s + r.bookkeeping_s;
  r.sends = sends_made;
  r.waiting_sends = waiting_sends;
  return r;
}

}  // namespace tycho::model
