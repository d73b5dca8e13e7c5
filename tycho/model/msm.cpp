#include "tycho/model/msm.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "tycho/model/history_steps.hpp"

namespace tycho::model {

MsmPrediction mesh_specific_model(const std::vector<RankHistory>& ranks, std::int32_t iteration,
                                  double t_elem_s, const CommCost& t_comm) {
  if (ranks.empty()) throw std::invalid_argument("tycho MSM: no rank");
  if (!std::isfinite(t_elem_s) || t_elem_s < 0.0) {
    throw std::invalid_argument("tycho MSM: T_elem must be finite and >= 0, got " + std::to_string(t_elem_s));
  }
  if (!t_comm) throw std::invalid_argument("tycho MSM: no T_comm");

  std::vector<std::int64_t> max_work;  // per step, max over ranks
  std::vector<double> max_comm;        // per step, max over ranks of the sum over its messages
  for (std::size_t p = 0; p < ranks.size(); ++p) {
    const int rank = static_cast<int>(p);
    const std::vector<std::int64_t> work = work_by_step(ranks[p], rank, iteration);
    if (work.size() > max_work.size()) max_work.resize(work.size(), 0);
    for (std::size_t s = 0; s < work.size(); ++s) max_work[s] = std::max(max_work[s], work[s]);

    const auto sends = sends_by_step(ranks[p], rank, iteration);
    if (sends.size() > max_comm.size()) max_comm.resize(sends.size(), 0.0);
    for (std::size_t s = 0; s < sends.size(); ++s) {
      double sum = 0.0;
      for (const MessageRecord& m : sends[s]) {
        const double t = t_comm(m.bytes);
        if (!std::isfinite(t) || t < 0.0) {
          throw std::invalid_argument("tycho MSM: T_comm(" + std::to_string(m.bytes) +
                                      " B) must be finite and >= 0, got " + std::to_string(t));
        }
        sum += t;
      }
      max_comm[s] = std::max(max_comm[s], sum);
    }
  }

  MsmPrediction r;
  r.steps = static_cast<std::int64_t>(std::max(max_work.size(), max_comm.size()));
  for (std::int64_t w : max_work) r.sum_max_work += w;
  r.compute_s = static_cast<double>(r.sum_max_work) * t_elem_s;
  for (double c : max_comm) r.comm_s += c;
  r.total_s = r.compute_s + r.comm_s;
  return r;
}

}  // namespace tycho::model
