#include "instrument/phase_table.hpp"

#include <cstdio>
#include <ostream>

#include "text_table.hpp"

namespace instrument {

namespace {
std::string fmt(const char* f, double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}
std::vector<double> as_doubles(const std::vector<std::int64_t>& v) { return {v.begin(), v.end()}; }
bool never_entered(const GatheredPhase& p) {
  for (std::size_t r = 0; r < p.calls.size(); ++r)
    if (p.calls[r] != 0 || p.inclusive[r] != 0.0) return false;
  return true;
}
}  // namespace

void print_phase_table(std::ostream& out, const RunResults& run) {
  out << "Phases: seconds per rank over " << run.info.nranks
      << " ranks (inclusive of nested phases; excl = less nested; imbalance = max / mean;\n"
      << "phases no rank entered are not shown)\n";
  TextTable t({"phase", "calls(max)", "min [s]", "mean [s]", "median [s]", "max [s]",
               "excl mean [s]", "imbalance"},
              {Align::Left, Align::Right, Align::Right, Align::Right, Align::Right, Align::Right,
               Align::Right, Align::Right});
  for (const auto& p : run.phases) {
    if (never_entered(p)) continue;  // e.g. a wrapper's collective the app never called
    const RankStats s = rank_stats(p.inclusive);
    const RankStats e = rank_stats(p.exclusive);
    const RankStats c = rank_stats(as_doubles(p.calls));
    t.add_row({p.name, fmt("%.0f", c.max), fmt("%.6f", s.min), fmt("%.6f", s.mean),
               fmt("%.6f", s.median), fmt("%.6f", s.max), fmt("%.6f", e.mean),
               s.mean > 0 ? fmt("%.2f", s.max / s.mean) : "-"});
  }
  t.print(out);
}

void print_counter_table(std::ostream& out, const RunResults& run) {
  if (run.counters.empty()) return;
  out << "Counters: per rank over " << run.info.nranks << " ranks\n";
  TextTable t({"counter", "min", "mean", "median", "max", "total"},
              {Align::Left, Align::Right, Align::Right, Align::Right, Align::Right, Align::Right});
  for (const auto& c : run.counters) {
    const RankStats s = rank_stats(as_doubles(c.values));
    std::int64_t total = 0;
    for (auto v : c.values) total += v;
    t.add_row({c.name, fmt("%.0f", s.min), fmt("%.1f", s.mean), fmt("%.1f", s.median),
               fmt("%.0f", s.max), std::to_string(total)});
  }
  t.print(out);
}

}  // namespace instrument
