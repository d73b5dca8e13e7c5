// The run's report and its models (model_report.hpp).
#include "multigrid/model_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <numeric>
#include <ostream>
#include <sstream>

#include "instrument/statistics.hpp"
#include "multigrid/model/replay.hpp"
#include "multigrid/p1_operator.hpp"
#include "multigrid/speed_check.hpp"

namespace mg {

namespace {

double mean(const std::vector<double>& v) { return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / v.size(); }

std::string grid_term(int i) { return "grid " + std::to_string(i); }

}  // namespace

namespace {

// Values of one kind of superstep in run order, summed per cycle (they come in equal groups,
// one a cycle), and the median over the cycles. The median, not the mean: the first cycle of
// a fresh process touches its pages for the first time and a host can preempt a process for
// a cycle; in a 4-cycle calibration run one such cycle put C1 15% above its other cycles
// (2026-12-03, AMD EPYC: 3.19 against 1.82-1.91 ns a cell at 1.1M cells a process), where eq.
// 5 prices the steady cycle that repeats. Groups that do not divide evenly (no run makes
// them; a hand-built profile could): the mean over the cycles. 0 with no value.
double median_cycle_sum(const std::vector<double>& v, std::size_t cycles) {
  if (v.empty()) return 0;
  cycles = std::max<std::size_t>(cycles, 1);
  if (v.size() % cycles != 0) return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(cycles);
  const std::size_t per_cycle = v.size() / cycles;
  std::vector<double> sums(cycles, 0.0);
  for (std::size_t k = 0; k < v.size(); ++k) sums[k / per_cycle] += v[k];
  return instrument::median(std::move(sums));
}

// The work w of the supersteps `counts` picks, per superstep and `cells` a process holds, in
// the median cycle (median_cycle_sum). 0 if the run had none.
template <class Counts>
double median_cycle_seconds_per_cell(const RunResult& r, double cells, Counts counts) {
  std::vector<double> w;
  for (std::size_t k = 0; k < r.profile.steps.size(); ++k)
    if (counts(r.superstep_tags.at(k))) w.push_back(r.profile.steps[k].w_max);
  if (w.empty() || cells <= 0) return 0;
  const std::size_t cycles = std::max<std::size_t>(r.cycle_seconds.size(), 1);
  return median_cycle_sum(w, cycles) * static_cast<double>(cycles) / static_cast<double>(w.size()) / cells;
}

// Grid i's supersteps as profiled (w + comm+sync) in the median cycle, [i - 1]: what eq. 5's
// grid i prices, measured as its C1 is (median_cycle_sum).
std::vector<double> median_cycle_by_grid(const RunResult& r, int grids) {
  std::vector<std::vector<double>> per_grid(static_cast<std::size_t>(grids));
  for (std::size_t k = 0; k < r.profile.steps.size(); ++k) {
    const int g = r.superstep_tags.at(k).grid;
    if (g >= 1 && g <= grids)
      per_grid[static_cast<std::size_t>(g) - 1].push_back(r.profile.steps[k].w_max + r.profile.steps[k].comm_sync);
  }
  std::vector<double> out;
  for (const std::vector<double>& v : per_grid) out.push_back(median_cycle_sum(v, r.cycle_seconds.size()));
  return out;
}

// The supersteps C1 is of: the finest grid's smoothing (with one grid, its coarse-grid smoothing).
bool finest_smoothing(const SuperstepTag& t) {
  return t.grid == 1 && (t.phase == kPreSmooth || t.phase == kPostSmooth || t.phase == kCoarse);
}

}  // namespace

double measured_c1(const RunResult& r) {
  const double per_process = static_cast<double>(r.grids.front().cells) / r.p;
  return median_cycle_seconds_per_cell(r, per_process, finest_smoothing);
}

double measured_c1_loose(const RunResult& r) {
  const int coarsest = static_cast<int>(r.grids.size());
  const double per_process = static_cast<double>(r.grids.back().cells) / r.p;
  return median_cycle_seconds_per_cell(r, per_process, [coarsest](const SuperstepTag& t) {
    return t.grid == coarsest && t.phase == kCoarse;
  });
}

std::vector<instrument::RankRates> cell_rates_by_cycle(const RunResult& r, double min_seconds) {
  if (r.grids.empty()) return {};
  // Some cells loose, some in families: a process's share of the dearer loose cells is not
  // recorded, so its time per cell says nothing of its CPU.
  if (r.grids.front().loose_cells > 0 && r.grids.front().loose_cells < static_cast<double>(r.grids.front().cells))
    return {};
  const std::vector<std::int64_t>& cells = r.grids.front().process_cells;
  std::vector<std::size_t> finest;  // the supersteps, in run order
  for (std::size_t k = 0; k < r.profile.steps.size(); ++k)
    if (finest_smoothing(r.superstep_tags.at(k))) finest.push_back(k);
  const std::size_t cycles = r.cycle_seconds.size();
  if (cycles == 0 || finest.size() % cycles != 0 || finest.size() / cycles < 2) return {};
  const std::size_t per_cycle = finest.size() / cycles;
  std::vector<instrument::RankWork> work(cycles);
  for (std::size_t c = 0; c < cycles; ++c) {
    instrument::RankWork& in = work[c];
    in.number = static_cast<int>(c + 1);
    in.seconds.assign(cells.size(), 0.0);  // by process, summed over the cycle's supersteps
    for (std::size_t k = c * per_cycle + 1; k < (c + 1) * per_cycle; ++k) {  // the cycle's first left out
      const std::vector<bspmodel::ProcessStep>& rows = r.profile.steps[finest[k]].per_process;
      if (rows.size() != cells.size()) return {};
      for (std::size_t q = 0; q < rows.size(); ++q) in.seconds[q] += rows[q].t_enter - rows[q].t_begin;
    }
    in.units.assign(cells.size(), 0.0);  // cells x applications
    for (std::size_t q = 0; q < cells.size(); ++q)
      in.units[q] = static_cast<double>(cells[q]) * static_cast<double>(per_cycle - 1);
  }
  return instrument::rates_over_spans(work, "cycle", min_seconds);
}

Eq5Inputs eq5_inputs(const RunResult& r, const C1Curve& c1, const bspmodel::BspMachine& machine) {
  std::vector<Eq5GridCount> counts;
  for (const GridReport& g : r.grids)
    counts.push_back({static_cast<double>(g.cells), g.applications, g.supersteps, g.h_bytes, g.loose_cells});
  return eq5_inputs_from_counts(r.p, [&c1](double n) { return c1(n); }, c1.loose_seconds(), machine.l_seconds,
                                machine.g_seconds_per_byte, counts);
}

instrument::Comparison model_comparison(const RunResult& r, const C1Curve& c1, const std::string& c1_from,
                                        const bspmodel::BspMachine& machine,
                                        const std::vector<bspmodel::BspMachine>& others) {
  instrument::Comparison cmp;
  const double cycles = static_cast<double>(r.cycle_seconds.size());
  const double measured_cycle = mean(r.cycle_seconds);
  // eq. 5 prices the steady cycle from a C1 measured in a median cycle: its rows are scored
  // against the median cycle, its grid rows against each grid's median cycle. The replays
  // reuse every superstep's own w, a slow cycle's too, so theirs are the means.
  const double median_cycle = instrument::median(r.cycle_seconds);
  const int grids = static_cast<int>(r.grids.size());
  // The measured part of grid i: its supersteps as profiled (w + comm+sync), per cycle.
  std::vector<double> working_sets;
  for (const GridReport& g : r.grids) working_sets.push_back(g.working_set_bytes);
  const std::vector<ReplaySum> eq3 = replay_cycles(r.profile, r.superstep_tags, machine, grids, false, working_sets);

  const Eq5Inputs in = eq5_inputs(r, c1, machine);
  const std::vector<Eq5Terms> t5 = eq5_w_cycle(in);
  std::ostringstream src;
  src << c1_from << "; n_i, C3, C2 = " << std::setprecision(3) << in.c2_bytes << " B, gamma = " << in.gamma
      << " counted in this run; l, g: " << machine.file;
  src << "; measured: the median of " << r.cycle_seconds.size() << " cycles";
  cmp.add({.model = "eq5", .term = "T_cycle", .measured = median_cycle, .modelled = t5.back().total(), .source = src.str()});
  const std::vector<double> grid_medians = median_cycle_by_grid(r, grids);
  for (int i = 1; i <= grids; ++i) {
    const std::size_t k = static_cast<std::size_t>(i) - 1;
    std::ostringstream at;
    at << "the grid's supersteps in their median cycle (the grids' medians need not add to T_cycle's), C1(" << std::setprecision(6) << in.grids[k].cells / r.p << ") = " << std::setprecision(3)
       << in.grids[k].c1_seconds << " s";
    if (in.grids[k].loose_fraction > 0)
      at << " (" << std::setprecision(3) << 100 * in.grids[k].loose_fraction << "% of its cells in no family)";
    cmp.add({.model = "eq5", .term = grid_term(i), .measured = grid_medians[k], .modelled = t5[k].total(),
             .source = at.str(), .kind = instrument::RowKind::part});
  }
  cmp.add_model_term({"eq5", "compute", t5.back().compute, "Hill, Crumpton & Burgess eq. 5: sum n_i C1(N_i/p) N_i/p"});
  cmp.add_model_term({"eq5", "communicate", t5.back().communicate, "eq. 5: sum n_i C2 (N_i/p)^gamma g"});
  cmp.add_model_term({"eq5", "synchronise", t5.back().synchronise, "eq. 5: sum n_i C3 l"});

  const auto add_replay = [&](const std::string& model, const std::vector<ReplaySum>& rs, const std::string& how) {
    const std::string source = "w of every superstep from this run's profile; comm+sync " + how + " of " + machine.file;
    cmp.add({.model = model, .term = "T_cycle", .measured = measured_cycle, .modelled = rs.back().predicted / cycles, .source = source});
    for (int i = 1; i <= grids; ++i)
      cmp.add({.model = model, .term = grid_term(i), .measured = rs[static_cast<std::size_t>(i) - 1].measured / cycles,
               .modelled = rs[static_cast<std::size_t>(i) - 1].predicted / cycles, .source = "as T_cycle",
               .kind = instrument::RowKind::part});
  };
  // The replay's comm+sync includes the probe's cold term where the file has it
  // (bsplib/include/bsplib/model/after_stream.hpp): a cycle's syncs follow sweeps.
  const bool gaps = !machine.after_gap.none(), streams = !machine.after_stream.none();
  const std::string gap_note = gaps && streams ? " + max(after_gap(w) - after_gap(0), after_stream(W_i) - after_stream(0))"
                               : gaps          ? " + after_gap(w) - after_gap(0) (no after-stream figures)"
                               : streams       ? " + after_stream(W_i) - after_stream(0) (no after-gap figures)"
                                               : " (no after-gap or after-stream figures)";
  add_replay("replay-eq3", eq3, "l + h g(h) (eq. 3)" + gap_note);
  // The part the replay models: the rest of each superstep is the run's own w, so the totals
  // above agree by construction as far as w dominates; this row scores the model itself.
  cmp.add({.model = "replay-eq3", .term = "comm+sync", .measured = (eq3.back().measured - eq3.back().w) / cycles,
           .modelled = (eq3.back().predicted - eq3.back().w) / cycles,
           .source = "the cycles' supersteps: measured comm+sync against l + h g(h)" + gap_note, .kind = instrument::RowKind::part});
  if (!machine.curves.empty()) {
    const std::vector<ReplaySum> rs = replay_cycles(r.profile, r.superstep_tags, machine, grids, true, working_sets);
    add_replay("replay-pattern", rs, "by pattern (bspprobe curves)" + gap_note);
    cmp.add({.model = "replay-pattern", .term = "comm+sync", .measured = (rs.back().measured - rs.back().w) / cycles,
             .modelled = (rs.back().predicted - rs.back().w) / cycles,
             .source = "the cycles' supersteps: measured comm+sync against the probe's curves" + gap_note, .kind = instrument::RowKind::part});
  }
  for (const bspmodel::BspMachine& m : others) {
    const std::vector<ReplaySum> rs = replay_cycles(r.profile, r.superstep_tags, m, grids, false, working_sets);
    cmp.add_model_term({"replay-on-" + m.name, "T_cycle", rs.back().predicted / cycles,
                        "this run's w, l + h g(h) of " + m.file});
  }
  return cmp;
}

void print_run_summary(std::ostream& out, const RunOptions& o, const RunResult& r) {
  out << " multigrid: P1 Poisson, u = sin(pi x) sin(pi y) sin(pi z), on " << r.mesh << "\n"
      << " " << (o.cycle.gamma == 2 ? "W" : "V") << "-cycles: " << o.cycle.pre << " pre, " << o.cycle.post
      << " post, " << o.cycle.coarse_iterations << " coarsest-grid smoothing iterations; "
      << (o.cycle.smoother == Smoother::jacobi ? "damped Jacobi" : "Chebyshev (Jacobi-preconditioned)") << " over ["
      << o.cycle.smoothing_lower << ", 1] lambda_max; "
      << r.p << " process" << (r.p > 1 ? "es" : "") << ", " << r.threads << " OpenMP thread"
      << (r.threads > 1 ? "s" : "") << " a process in the cell loop\n\n";
  out << "  grid      cells      nodes  imbalance   h (B)   n_i  steps   lambda   s/cycle (slowest process)\n";
  for (const GridReport& g : r.grids) {
    double s = 0;
    for (double v : g.seconds) s += v;
    out << std::setw(6) << g.grid << std::setw(11) << g.cells << std::setw(11) << g.nodes << std::setw(11)
        << std::fixed << std::setprecision(3) << g.imbalance << std::setw(8) << std::setprecision(0) << g.h_bytes
        << std::setw(6) << g.applications << std::setw(7) << g.supersteps << std::setw(8) << std::setprecision(3)
        << g.lambda_max << "   " << std::scientific << std::setprecision(3) << s << "\n";
  }
  out << std::defaultfloat << std::setprecision(6);
  out << "\n Convergence factor per cycle: ";
  if (r.free_nodes)
    out << std::fixed << std::setprecision(4) << r.convergence_factor << " (the last cycle's; geometric mean "
        << r.mean_factor << ")";
  else
    out << "none (every node is on the boundary: nothing to solve)";
  out << "\n L2 error against the exact solution: " << std::scientific << std::setprecision(4) << r.l2_error
      << "\n Flops per cell and smoothing iteration (C1, counted): " << std::defaultfloat << kFlopsPerCell
      << " a cell alone, " << kFlopsPerFamily / 8.0 << " a cell in a family of 8 (cell kernel "
      << cell_kernel_name(o.cycle.cell_kernel) << ")"
      << "\n W-cycle: mean " << std::setprecision(4) << 1e3 * mean(r.cycle_seconds) << " ms over "
      << r.cycle_seconds.size() << " cycles; setup " << r.setup_seconds << " s (process 0: "
      << std::setprecision(2) << r.setup_usage.kernel_seconds << " s of CPU time in the kernel, "
      << r.setup_usage.minor_faults + r.setup_usage.major_faults << " page faults)\n";
  out << std::defaultfloat << std::setprecision(6);
  if (!r.speed_check.before_ns.empty()) {
    char line[256];
    std::snprintf(line, sizeof line, " speed check (%s): %.1f ns before the cycles, %.1f after (rank 0; the run's %.1f)\n",
                  kSpeedCheckWhat, r.speed_check.before_ns[0], r.speed_check.after_ns[0], r.speed_check.run_ns());
    out << line;
  }
}

}  // namespace mg
