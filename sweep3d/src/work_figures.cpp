#include "sweep3d/work_figures.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "sweep3d/phases.hpp"
#include "sweep3d/speed_check.hpp"

namespace sweep3d {

namespace {

const std::vector<double>* inclusive(const instrument::RunResults& g, std::string_view name) {
  const auto* p = g.find_phase(std::string(name));
  return p ? &p->inclusive : nullptr;
}

// Per-rank seconds / per-rank count, in ns, over the ranks whose count is positive.
instrument::RankStats per_unit_ns(const std::vector<double>* seconds, const instrument::GatheredCounter* units,
                                  int& ranks) {
  std::vector<double> v;
  if (seconds && units)
    for (std::size_t r = 0; r < units->values.size() && r < seconds->size(); ++r)
      if (units->values[r] > 0) v.push_back(1e9 * (*seconds)[r] / static_cast<double>(units->values[r]));
  ranks = static_cast<int>(v.size());
  return v.empty() ? instrument::RankStats{} : instrument::rank_stats(v);
}

double max_of(const std::vector<double>* v) { return v ? instrument::summarise(*v).max : 0.0; }

// Per rank: the sweep phase's exclusive seconds (its untimed local work) plus its kernel's.
std::vector<double> local_work(const instrument::RunResults& g, std::string_view sweep, std::string_view kernel) {
  const auto* s = g.find_phase(std::string(sweep));
  const auto* k = g.find_phase(std::string(kernel));
  std::vector<double> v(static_cast<std::size_t>(g.info.nranks), 0.0);
  for (std::size_t r = 0; r < v.size(); ++r) {
    if (s && r < s->exclusive.size()) v[r] += s->exclusive[r];
    if (k && r < k->inclusive.size()) v[r] += k->inclusive[r];
  }
  return v;
}

std::vector<double> sum_of(const std::vector<double>* a, const std::vector<double>* b) {
  std::vector<double> v = a ? *a : std::vector<double>{};
  if (b) {
    v.resize(std::max(v.size(), b->size()), 0.0);
    for (std::size_t r = 0; r < b->size(); ++r) v[r] += (*b)[r];
  }
  return v;
}

}  // namespace

WorkFigures work_figures(const RunResult& r, const instrument::RunResults& g) {
  WorkFigures w;
  const Deck& d = r.deck;
  const double its = static_cast<double>(std::max<std::size_t>(r.iterations.size(), 1));
  const double cell_angle_its = its * d.it_g * static_cast<double>(d.jt_g) * d.kt * d.mm * 8.0;
  const std::vector<double> sweeps = sum_of(inclusive(g, phase::kSweep), inclusive(g, phase::kSweepFixup));
  w.sweep_grind_ns = 1e9 * max_of(&sweeps) / cell_angle_its;
  const auto* ca = g.find_counter(std::string(counter::kCellAngles));
  const auto* ca_fix = g.find_counter(std::string(counter::kCellAnglesFixup));
  const std::vector<double> work = local_work(g, phase::kSweep, phase::kKernel),
                            work_fix = local_work(g, phase::kSweepFixup, phase::kKernelFixup);
  w.wg_nofix_ns = per_unit_ns(&work, ca, w.wg_nofix_ranks);
  w.wg_fix_ns = per_unit_ns(&work_fix, ca_fix, w.wg_fix_ranks);
  int ranks = 0;
  w.kernel_nofix_ns = per_unit_ns(inclusive(g, phase::kKernel), ca, ranks);
  w.kernel_fix_ns = per_unit_ns(inclusive(g, phase::kKernelFixup), ca_fix, ranks);
  const double cells = static_cast<double>(std::max<long long>(r.rank0.local_cells(), 1));
  w.w_before_s_per_cell = max_of(inclusive(g, phase::kSource)) / its / cells;
  w.w_after_s_per_cell = max_of(inclusive(g, phase::kFluxError)) / its / cells;
  w.measured = w.wg_nofix_ranks + w.wg_fix_ranks > 0 && (w.wg_nofix_ns.mean > 0.0 || w.wg_fix_ns.mean > 0.0);
  return w;
}

model::WorkCalibration calibration_of(const RunResult& r, const WorkFigures& w) {
  model::WorkCalibration c;
  c.mmi = r.rank0.mmi;
  c.mk = r.rank0.mk;
  c.threads = r.threads;
  c.kernel = r.kernel;
  // A run whose every iteration had fixups has no fixup-free W_g: it calibrates both with
  // the fixup one (an over-estimate of the fixup-free cost, said in the file's description).
  c.wg_s = (w.wg_nofix_ranks > 0 ? w.wg_nofix_ns.mean : w.wg_fix_ns.mean) * 1e-9;
  c.wg_fixup_s = w.wg_fix_ranks > 0 ? w.wg_fix_ns.mean * 1e-9 : c.wg_s;
  c.w_before_s_per_cell = w.w_before_s_per_cell;
  c.w_after_s_per_cell = w.w_after_s_per_cell;
  c.nranks = r.decomposition.npe_i * r.decomposition.npe_j;
  // The faces priced apart (model/face_work.hpp) where W_g's are the vacuum edge's alone.
  if (!r.face_loops)
    c.faces_why = "the faces' probe did not run";
  else if (c.nranks != 1)
    c.faces_why = "calibrated on " + std::to_string(c.nranks) + " ranks (its W_g holds neighbours' faces)";
  else if (r.deck.ibc != 0 || r.deck.jbc != 0)
    c.faces_why = "a reflective I or J face (its W_g holds the reflection's loops)";
  else {
    c.faces = *r.face_loops;
    // Per cell-angle of a block of it x jt cells a plane: its I-face (jt cells) and J-face (it).
    const double it = r.rank0.it, jt = r.rank0.jt;
    c.faces.edge_share_s = (c.faces.fill_s[0] + c.faces.leak_s[0]) / it + (c.faces.fill_s[1] + c.faces.leak_s[1]) / jt;
    if (c.faces.edge_share_s < 0.999 * c.wg_s)
      c.faces.priced = true;
    else
      c.faces_why = "its faces' probe read more than its W_g";
  }
  return c;
}

void print_our_timing(std::ostream& out, const RunResult& r, const WorkFigures& w) {
  char line[512];
  const Deck& d = r.deck;
  if (!w.measured) {
    out << " Sweep grind time and W_g: not measured (the hooks are compiled out: SUITE_INSTRUMENT=OFF)\n";
  } else {
    std::snprintf(line, sizeof line,
                  " Sweep grind time:   %10.3f ns per cell-angle-iteration (wall time in the sweeps, max over ranks,"
                  " / its*it_g*jt_g*kt*mm*8 = %.6g)\n",
                  w.sweep_grind_ns,
                  static_cast<double>(r.iterations.size()) * d.it_g * static_cast<double>(d.jt_g) * d.kt * d.mm * 8.0);
    out << line;
    auto wg = [&](const char* what, const instrument::RankStats& s, const instrument::RankStats& kernel, int ranks) {
      if (ranks == 0)
        std::snprintf(line, sizeof line, " W_g %-16s   no such iteration\n", what);
      else
        std::snprintf(line, sizeof line,
                      " W_g %-16s %10.3f ns per cell-angle (the sweep's local work: all but its MPI calls, / cell-angles"
                      " swept; mean over %d ranks, min %.3f, max %.3f; the kernel alone %.3f)\n",
                      what, s.mean, ranks, s.min, s.max, kernel.mean);
      out << line;
    };
    wg("without fixups:", w.wg_nofix_ns, w.kernel_nofix_ns, w.wg_nofix_ranks);
    wg("with fixups:", w.wg_fix_ns, w.kernel_fix_ns, w.wg_fix_ranks);
  }
  std::snprintf(line, sizeof line, " Memory per cell:    %10.1f bytes (rank 0: %.1f MB allocated for %lld cells)\n",
                r.bytes_per_cell, r.rank0_bytes / 1.0e6, static_cast<long long>(r.rank0.local_cells()));
  out << line;
  std::snprintf(line, sizeof line,
                " Flux check:         %016llx (checksum of every cell's flux moments; the same for any grid,"
                " blocking, kernel), max |scalar flux| %.17g\n",
                static_cast<unsigned long long>(r.flux_checksum), r.flux_max);
  out << line;
  std::snprintf(line, sizeof line, " Kernel: %s, %d thread(s) per rank, %s sends, blocking mk = %d, mmi = %d\n",
                r.kernel == "reference" ? "reference" : ("fast (" + r.kernel + ")").c_str(), r.threads,
                r.nonblocking ? "non-blocking" : "blocking", r.rank0.mk, r.rank0.mmi);
  out << line;
  if (!r.speed_check.before_ns.empty()) {
    std::snprintf(line, sizeof line, " Speed check (%s): %.1f ns before the iterations, %.1f after (rank 0; the run's %.1f)\n",
                  kSpeedCheckWhat, r.speed_check.before_ns[0], r.speed_check.after_ns[0], r.speed_check.run_ns());
    out << line;
  }
}

}  // namespace sweep3d
