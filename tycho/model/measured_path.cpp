// The sweeps' measured critical path in the models' categories (measured_path.hpp).
#include "tycho/model/measured_path.hpp"

#include <algorithm>

#include "instrument/run_results.hpp"
#include "tycho/sweep_phases.hpp"

namespace tycho::model {

SweepPathParts in_model_categories(const instrument::critical_path::Result& walked) {
  SweepPathParts p;
  p.compute = walked.total(category::kCompute);
  p.comm = walked.total(category::kComm);
  p.other = walked.total(category::kOther);
  return p;
}

MeasuredSweepPath walk_sweeps(const instrument::critical_path::Trace& trace,
                              const std::vector<std::int32_t>& iterations) {
  using instrument::critical_path::Event;
  MeasuredSweepPath out;
  for (const auto& events : trace.ranks) out.traced = out.traced || !events.empty();
  const auto sweep_it = std::find(trace.phases.begin(), trace.phases.end(), std::string(phase::kSweep));
  if (!out.traced || sweep_it == trace.phases.end()) return out;
  const int sweep = static_cast<int>(sweep_it - trace.phases.begin());

  // Per rank: its events by begin, and its sweeps in order (the k-th is iteration k's). The
  // sort is stable: of two equal intervals the walk takes the one recorded later (a phase is
  // recorded when it ends) as the enclosing one.
  std::vector<std::vector<Event>> by_begin(trace.ranks.size());
  std::vector<std::vector<Event>> sweeps(trace.ranks.size());
  std::size_t complete = trace.ranks.empty() ? 0 : static_cast<std::size_t>(-1);
  for (std::size_t r = 0; r < trace.ranks.size(); ++r) {
    by_begin[r] = trace.ranks[r];
    std::stable_sort(by_begin[r].begin(), by_begin[r].end(), [](const Event& a, const Event& b) { return a.begin < b.begin; });
    for (const Event& e : by_begin[r])
      if (e.phase == sweep) sweeps[r].push_back(e);
    complete = std::min(complete, sweeps[r].size());
  }

  const instrument::critical_path::Rules rules = critical_path_rules();
  for (const std::int32_t it : iterations) {
    if (it < 0 || static_cast<std::size_t>(it) >= complete) continue;
    instrument::critical_path::Trace one;
    one.phases = trace.phases;
    for (std::size_t r = 0; r < trace.ranks.size(); ++r) {
      const Event& s = sweeps[r][static_cast<std::size_t>(it)];
      auto& kept = one.ranks.emplace_back();
      auto e = std::lower_bound(by_begin[r].begin(), by_begin[r].end(), s.begin,
                                [](const Event& a, double t) { return a.begin < t; });
      for (; e != by_begin[r].end() && e->begin <= s.end; ++e)
        if (e->end <= s.end) kept.push_back(*e);
    }
    const instrument::critical_path::Result walked = instrument::critical_path::walk(one, rules);
    if (walked.epochs() != 1 || walked.path.empty()) continue;
    out.iterations.push_back(it);
    out.per_sweep.push_back(in_model_categories(walked));
    out.walked_s.push_back(walked.path.front().end - walked.path.back().begin);
    out.unmatched += walked.unmatched;
  }
  for (const SweepPathParts& p : out.per_sweep) {
    out.mean.compute += p.compute;
    out.mean.comm += p.comm;
    out.mean.other += p.other;
  }
  if (!out.per_sweep.empty()) {
    const double n = static_cast<double>(out.per_sweep.size());
    out.mean.compute /= n;
    out.mean.comm /= n;
    out.mean.other /= n;
  }
  return out;
}

MeasuredSweepPath walk_sweeps(const instrument::GatheredTrace& trace, const std::vector<std::int32_t>& iterations) {
  MeasuredSweepPath out = walk_sweeps(instrument::critical_path::from_gathered(trace), iterations);
  for (const std::int64_t d : trace.dropped) out.dropped_events += d;
  return out;
}

}  // namespace tycho::model
