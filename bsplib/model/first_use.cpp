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

double first_pop_excess(const BspMachine& m) {
  const FirstUseCosts& u = m.first_use;
  if (u.none() || u.pop == 0 || m.curves.empty()) return 0;
  return std::max(0.0, u.pop - m.curves.empty_seconds);
}

const char* disturbed_first_use(const FirstUseCosts& u, const SuperstepCurves& curves) {
  if (u.none() || curves.empty()) return "";
  const auto over = [](double first, double back_to_back) {
    return back_to_back > 0 && first > kFirstUseDisturbed * back_to_back;
  };
  if (over(u.first_superstep, curves.empty_seconds)) return "first_superstep";
  if (over(u.exchange, comm_sync_by_pattern(curves, StepPattern::exchange, u.h_bytes))) return "exchange";
  if (over(u.one_way, comm_sync_by_pattern(curves, StepPattern::one_way, u.h_bytes))) return "one_way";
  if (over(u.gets, comm_sync_by_pattern(curves, StepPattern::gets, u.h_bytes))) return "gets";
  if (over(u.pop, curves.empty_seconds)) return "pop";
  return "";
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
  // The first superstep that pops a registration, on top of its pattern's terms (superstep 0
  // included: its first-superstep figure has a push, not a pop).
  for (std::size_t i = 0; i < prof.steps.size(); ++i)
    if (prof.steps[i].pops > 0) {
      extra[i] += first_pop_excess(m);
      break;
    }
  return extra;
}

}  // namespace bspmodel
