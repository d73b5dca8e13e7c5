#include "tycho/model/pce.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "tycho/model/history_steps.hpp"

namespace tycho::model {

PceOfIteration parallel_computational_efficiency(const std::vector<RankHistory>& ranks,
                                                 std::int32_t iteration) {
  if (ranks.empty()) throw std::invalid_argument("tycho model: PCE of no rank");
  PceOfIteration r;
  r.iteration = iteration;
  r.ranks = static_cast<int>(ranks.size());
  std::vector<std::int64_t> max_work;  // max over ranks, per step
  for (std::size_t p = 0; p < ranks.size(); ++p) {
    const std::vector<std::int64_t> work = work_by_step(ranks[p], static_cast<int>(p), iteration);
    if (work.size() > max_work.size()) max_work.resize(work.size(), 0);
    for (std::size_t s = 0; s < work.size(); ++s) {
      max_work[s] = std::max(max_work[s], work[s]);
      r.total_work += work[s];
    }
  }
  r.steps = static_cast<std::int64_t>(max_work.size());
  for (std::int64_t w : max_work) r.sum_max_work += w;
  r.w_p = static_cast<double>(r.total_work) / static_cast<double>(r.ranks);
  r.pce = r.sum_max_work > 0 ? r.w_p / static_cast<double>(r.sum_max_work)
                             : std::numeric_limits<double>::quiet_NaN();
  return r;
}

}  // namespace tycho::model
