// The run summary (run_report.hpp).
#include "tycho/run_report.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <ostream>

#include "tycho/speed_check.hpp"

namespace tycho {

std::optional<model::PceOfIteration> last_sweep_pce(const RunResult& r) {
  if (r.histories.empty() || r.transport.iterations.empty()) return std::nullopt;
  return model::parallel_computational_efficiency(r.histories, static_cast<std::int32_t>(r.transport.iterations.size() - 1));
}

std::optional<model::PceOfIteration> scored_sweeps_pce(const RunResult& r) {
  const std::size_t n = r.transport.iterations.size();
  if (r.histories.empty() || n == 0) return std::nullopt;
  model::PceOfIteration all;
  double w_p = 0;
  std::int64_t steps = 0, sweeps = 0;
  for (std::size_t k = first_scored_iteration(n); k < n; ++k, ++sweeps) {
    const model::PceOfIteration e = model::parallel_computational_efficiency(r.histories, static_cast<std::int32_t>(k));
    all.iteration = e.iteration;
    all.ranks = e.ranks;
    all.total_work += e.total_work;
    all.sum_max_work += e.sum_max_work;
    w_p += e.w_p;
    steps += e.steps;
  }
  all.w_p = w_p;
  all.steps = (steps + sweeps / 2) / sweeps;
  all.pce = all.sum_max_work > 0 ? w_p / static_cast<double>(all.sum_max_work) : std::numeric_limits<double>::quiet_NaN();
  return all;
}

double median_sweep_seconds(const TransportResult& t) {
  std::vector<double> s;
  for (std::size_t k = first_scored_iteration(t.iterations.size()); k < t.iterations.size(); ++k)
    s.push_back(t.iterations[k].sweep_s);
  if (s.empty()) return 0;
  std::sort(s.begin(), s.end());
  const std::size_t m = s.size() / 2;
  return s.size() % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

namespace {

// Every rank's seconds (rank_seconds[p], over the scored iterations) / every rank's tasks in
// those iterations: seconds per cell-angle task, 0 with no task.
double per_scored_task(const RunResult& r, const std::vector<double>& rank_seconds) {
  const std::size_t n = r.transport.iterations.size();
  const auto scored = static_cast<double>(n - first_scored_iteration(n));
  double seconds = 0, tasks = 0;
  for (std::size_t p = 0; p < rank_seconds.size() && p < r.tasks.size(); ++p) {
    seconds += rank_seconds[p];
    tasks += static_cast<double>(r.tasks[p]) * scored;
  }
  return tasks > 0 ? seconds / tasks : 0.0;
}

}  // namespace

double measured_t_elem(const RunResult& r) { return per_scored_task(r, r.compute_s); }

double measured_t_gather_solve(const RunResult& r) { return per_scored_task(r, r.gather_solve_s); }

double grind_ns(const RunResult& r) {
  const double cell_angle_groups = static_cast<double>(r.mesh_cells) *
                                   static_cast<double>(r.problem.quadrature.size()) * r.problem.groups;
  return 1e9 * median_sweep_seconds(r.transport) * r.ranks / cell_angle_groups;
}

void print_run_summary(std::ostream& out, const RunOptions& o, const RunResult& r) {
  const TransportResult& t = r.transport;
  const IterationRecord& last = t.iterations.back();
  char line[256];
  out << "\n Solution\n";
  std::snprintf(line, sizeof line, "  iterations %zu, last change %.3e%s\n", t.iterations.size(), last.change,
                o.tolerance > 0 ? (t.converged ? " (converged)" : " (NOT converged)") : "");
  out << line;
  std::snprintf(line, sizeof line, "  sweep balance residual %.2e (emission = collision + leakage; lagged faces: %zu)\n",
                last.residual, r.lagged_faces);
  out << line;
  double leak = 0;
  for (double x : last.leakage) leak += x;
  std::snprintf(line, sizeof line, "  particles: source %.6e, absorption %.6e, leakage %.6e, (source - absorbed - leaked)/source %.2e\n",
                t.source_rate, t.absorption_rate, leak,
                t.source_rate != 0 ? (t.source_rate - t.absorption_rate - leak) / t.source_rate : 0.0);
  out << line;
  std::snprintf(line, sizeof line, "  scalar flux digest %016llx\n", static_cast<unsigned long long>(r.digest));
  out << line;
  if (const std::optional<model::PceOfIteration> pce = last_sweep_pce(r)) {
    std::snprintf(line, sizeof line,
                  "  last sweep: %lld steps (max over ranks) of at most %lld tasks; PCE (eq. 4) %.4f\n",
                  static_cast<long long>(pce->steps), static_cast<long long>(r.mcps), pce->pce);
    out << line;
  }
  if (!r.speed_check.before_ns.empty()) {
    std::snprintf(line, sizeof line,
                  "  speed check (%s): %.1f ns before the sweeps, %.1f after (rank 0; the run's %.1f)\n", kSpeedCheckWhat, r.speed_check.before_ns[0], r.speed_check.after_ns[0], r.speed_check.run_ns());
    out << line;
  }
  if (const std::optional<model::PceOfIteration> pce = scored_sweeps_pce(r); pce && t.iterations.size() > 1) {
    std::snprintf(line, sizeof line,
                  "  scored sweeps (%zu-%zu): %lld steps a sweep (mean); PCE (eq. 4) %.4f (their W_p over their "
                  "steps' fullest ranks)\n",
                  first_scored_iteration(t.iterations.size()) + 1, t.iterations.size(),
                  static_cast<long long>(pce->steps), pce->pce);
    out << line;
  }

  const double groups = r.problem.groups;
  const double sweep = median_sweep_seconds(t);
  const double t_elem = measured_t_elem(r);
  out << "\n Timing (set-up apart)\n";
  std::snprintf(line, sizeof line, "  set-up %.3f s; sweep per iteration %.4f s (median, max over ranks)\n", r.setup_s, sweep);
  out << line;
  std::snprintf(line, sizeof line,
                "  grind: %.1f ns per cell-angle-group (P x sweep / (cells x directions x groups)); T_elem %.1f ns per "
                "cell-angle task in the solves (%.1f ns per group)\n",
                grind_ns(r), 1e9 * t_elem, 1e9 * t_elem / groups);
  out << line;
  const double t_solve = measured_t_gather_solve(r);
  std::snprintf(line, sizeof line,
                "  T_elem's parts: the inflow gathers and cell solves %.1f ns a task (%.1f ns per group), choosing "
                "the batches, releasing downwind tasks, packing outflow and resetting the ready queue %.1f ns (the "
                "solve alone: "
                "tycho_cell_solve_bench)\n",
                1e9 * t_solve, 1e9 * t_solve / groups, 1e9 * (t_elem - t_solve));
  out << line;
}

}  // namespace tycho
