// The first-use term of a short run's comm+sync (first_use.hpp).
#include "bsplib/model/first_use.hpp"

#include <algorithm>

namespace bspmodel {

double first_use_excess(const BspMachine& m, StepPattern pattern) {
  const FirstUseCosts& u = m.first_use;
  if (u.none() || m.curves.empty()) return 0;
  double first = 0;
  switch (pattern) {
    case StepPattern::none: return std::max(0.0, u.first_superstep - m.curves.empty_seconds);
    case StepPattern::exchange: first = u.exchange; break;
    case StepPattern::one_way: first = u.one_way; break;
    case StepPattern::gets: first = u.gets; break;
  }
  return std::max(0.0, first - comm_sync_by_pattern(m.curves, pattern, u.h_bytes));
}

std::vector<double> first_use_extras(const BspMachine& m, const Profile& prof) {
  std::vector<double> extra(prof.steps.size(), 0.0);
  if (m.first_use.none() || m.curves.empty() || prof.steps.empty()) return extra;
  // The program's first superstep pays the fresh process's first-superstep excess, whatever
  // its pattern, and its pattern counts as used.
  bool used[4] = {false, false, false, false};
  extra[0] = first_use_excess(m, StepPattern::none);
  used[static_cast<int>(pattern_of(prof.steps[0]))] = true;
  for (std::size_t i = 1; i < prof.steps.size(); ++i) {
    const StepPattern pattern = pattern_of(prof.steps[i]);
    if (pattern == StepPattern::none || used[static_cast<int>(pattern)]) continue;
    used[static_cast<int>(pattern)] = true;
    extra[i] = first_use_excess(m, pattern);
  }
  return extra;
}

}  // namespace bspmodel
