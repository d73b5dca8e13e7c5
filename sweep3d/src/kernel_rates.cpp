#include "sweep3d/kernel_rates.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "sweep3d/phases.hpp"

namespace sweep3d {

std::vector<instrument::RankRates> kernel_rates_by_iteration(const instrument::GatheredTrace& trace, double min_seconds) {
  const std::int32_t iteration_kind = trace.kind_of(phase::kIteration);
  const std::int32_t kernel_kind = trace.kind_of(phase::kKernel);
  if (iteration_kind < 0 || kernel_kind < 0) return {};
  const std::size_t ranks = trace.per_rank.size();
  // seconds[i][r] and cell_angles[i][r]: rank r's kernel in its iteration i.
  std::vector<std::vector<double>> seconds, cell_angles;
  for (std::size_t r = 0; r < ranks; ++r) {
    std::vector<instrument::TraceEvent> iterations;
    for (const instrument::TraceEvent& e : trace.per_rank[r])
      if (e.kind == iteration_kind) iterations.push_back(e);
    std::sort(iterations.begin(), iterations.end(),
              [](const instrument::TraceEvent& a, const instrument::TraceEvent& b) { return a.t_begin < b.t_begin; });
    if (iterations.size() > seconds.size()) {
      seconds.resize(iterations.size(), std::vector<double>(ranks, 0.0));
      cell_angles.resize(iterations.size(), std::vector<double>(ranks, 0.0));
    }
    for (const instrument::TraceEvent& e : trace.per_rank[r]) {
      if (e.kind != kernel_kind || e.work <= 0) continue;
      // The iteration it begins in: the last one to begin at or before it, if it has not ended.
      const auto after = std::upper_bound(iterations.begin(), iterations.end(), e.t_begin,
                                          [](double t, const instrument::TraceEvent& it) { return t < it.t_begin; });
      if (after == iterations.begin()) continue;
      const auto in = after - 1;
      if (e.t_begin > in->t_end) continue;
      const std::size_t i = static_cast<std::size_t>(in - iterations.begin());
      seconds[i][r] += e.t_end - e.t_begin;
      cell_angles[i][r] += static_cast<double>(e.work);
    }
  }
  std::vector<instrument::RankWork> work;
  for (std::size_t i = 0; i < seconds.size(); ++i)
    if (std::any_of(cell_angles[i].begin(), cell_angles[i].end(), [](double n) { return n > 0; }))
      work.push_back({static_cast<int>(i + 1), seconds[i], cell_angles[i]});
  return instrument::rates_over_spans(work, "iteration", min_seconds);
}

}  // namespace sweep3d
