#include "sweep3d/model_report.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "instrument/calibration_reader.hpp"
#include "instrument/critical_path.hpp"
#include "instrument/error.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/core_round_trip.hpp"
#include "instrument/speed_check.hpp"
#include "instrument/machine_load.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/results_file.hpp"
#include "instrument/shared_input.hpp"
#include "instrument/statistics.hpp"
#include "sweep3d/kernel_rates.hpp"
#include "sweep3d/model/loggp_machine_costs.hpp"
#include "sweep3d/model/run_comparison.hpp"
#include "sweep3d/phases.hpp"
#include "sweep3d/speed_check.hpp"

namespace sweep3d {

namespace {

model::KbaShape shape_of(const Deck& deck, const KbaDecomposition& rank0) {
  model::KbaShape s;
  s.npe_i = rank0.npe_i;
  s.npe_j = rank0.npe_j;
  s.it_g = deck.it_g;
  s.jt_g = deck.jt_g;
  s.kt = deck.kt;
  s.mm = deck.mm;
  s.mk = rank0.mk;
  s.mmi = rank0.mmi;
  return s;
}

// With the bytes a rank holds per cell, which price the calls after a kernel block.
model::KbaShape shape_of(const RunResult& r) {
  model::KbaShape s = shape_of(r.deck, r.rank0);
  s.bytes_per_cell = r.bytes_per_cell;
  return s;
}

// The iterations' measured critical path (empty when the run was not traced, or too short).
instrument::critical_path::Result walk_iterations(const instrument::RunResults& g, std::int64_t rendezvous_bytes) {
  bool any = false;
  for (const auto& events : g.trace.per_rank) any = any || !events.empty();
  if (!any) return {};
  instrument::critical_path::Rules rules = critical_path_rules();
  rules.send_waits_from_bytes = rendezvous_bytes;
  return instrument::critical_path::walk(instrument::critical_path::from_gathered(g.trace), rules);
}

}  // namespace

std::vector<model::IterationParts> parts_by_iteration(const instrument::critical_path::Result& path) {
  auto at = [&](const char* category) {
    const auto it = std::find(path.categories.begin(), path.categories.end(), category);
    return it == path.categories.end() ? path.categories.size() : static_cast<std::size_t>(it - path.categories.begin());
  };
  const std::size_t w_before = at(category::kWBefore), computation = at(category::kComputation),
                    communication = at(category::kCommunication), w_after = at(category::kWAfter),
                    reductions = at(category::kReductions), other = at(category::kOther);
  std::vector<model::IterationParts> out;
  for (const std::vector<double>& e : path.seconds) {
    auto get = [&](std::size_t c) { return c < e.size() ? e[c] : 0.0; };
    out.push_back({get(w_before), get(computation), get(communication), get(w_after), get(reductions), get(other)});
  }
  return out;
}

PreparedModels prepare_models(const ModelInputs& in, instrument::Comm& comm) {
  PreparedModels m;
  std::string error;
  try {
    if (!in.calibration_files.empty() && in.machine_file.empty())
      throw instrument::InputError("command line", "--calibration", "--machine FILE as well (the models need both)");
    if (!in.machine_file.empty()) {
      if (!INSTRUMENT_ENABLED)
        throw instrument::InputError("command line", "--machine",
                                     "a build with the hooks (the models are compared with what the hooks measure; "
                                     "this one was built with SUITE_INSTRUMENT=OFF)");
      // Read once, by rank 0, for every rank: a file changing during the run must not give
      // ranks different models (they choose the blocking from them, and would deadlock).
      const auto file = instrument::MachineFile::parse(
          instrument::read_input_file_shared(in.machine_file, "machine file", instrument::MachineFile::kMaxBytes, comm.mpi()),
          in.machine_file);
      const auto loggp = instrument::loggp::read_params(file);
      m.machine = model::machine_costs_from_file(file);
      m.rendezvous_bytes = loggp.rendezvous_bytes;
      m.machine_record = instrument::machine_record(file);
      m.machine_file = in.machine_file;
      m.enabled = true;
    }
    m.calibrations = model::read_calibrations_shared(in.calibration_files, comm.mpi());
  } catch (const std::exception& e) {
    error = e.what();
  }
  instrument::throw_if_any_rank_failed(comm.mpi(), error);
  return m;
}

model::BlockingChoice choose_blocking(const Deck& deck, const PreparedModels& models, bool auto_mk, bool auto_mmi,
                                      RunOptions& opt, instrument::Comm& comm) {
  const std::string kernel = kernel_name(opt);
  model::WgByMmi wg;
  for (const auto& c : models.calibrations.entries())
    if (c.threads == std::max(1, opt.threads) && c.kernel == kernel) wg[c.mmi] = c.wg_s;
  const KbaDecomposition rank0 = run_decomposition(deck, 0, comm.size(), opt);
  const int fixed_mk = auto_mk ? 0 : rank0.mk, fixed_mmi = auto_mmi ? 0 : rank0.mmi;
  const model::BlockingSearch search = model::search_blockings(
      shape_of(deck, rank0), wg, models.machine, opt.nonblocking ? model::SendMode::nonblocking : model::SendMode::blocking,
      fixed_mk, fixed_mmi);
  if (search.best().mk == 0)
    throw instrument::CollectiveError(
        "--mk/--mmi auto: " +
        models.calibrations.missing(fixed_mmi > 0 ? fixed_mmi : deck.mm, std::max(1, opt.threads), kernel));
  opt.force_mk = search.best().mk;
  opt.force_mmi = search.best().mmi;
  if (comm.rank() == 0) {
    std::cout << " Blocking chosen by the LogGP model: mk = " << search.best().mk << ", mmi = " << search.best().mmi
              << " (predicted " << search.best().predicted << " s per iteration's sweeps";
    if (!search.mmis_without_wg.empty()) {
      std::cout << "; not searched for want of a calibration: mmi =";
      for (int m : search.mmis_without_wg) std::cout << ' ' << m;
    }
    std::cout << ")\n";
  }
  return search.best();
}

void require_calibration(const Deck& deck, const RunOptions& opt, const PreparedModels& models, instrument::Comm& comm) {
  if (!models.enabled || models.calibrations.empty()) return;
  const KbaDecomposition rank0 = run_decomposition(deck, 0, comm.size(), opt);
  const int threads = std::max(1, opt.threads);
  const std::string kernel = kernel_name(opt);
  if (!models.calibrations.find(rank0.mmi, threads, kernel))
    throw instrument::CollectiveError("--calibration: " + models.calibrations.missing(rank0.mmi, threads, kernel));
}

void print_model_report(std::ostream& out, const ModelReport& report) {
  report.comparison.print(out);
  const std::vector<model::IterationParts>& parts = report.parts;
  const int n = static_cast<int>(parts.size());
  if (n == 0) {
    out << " No breakdown rows: the trace holds no iteration complete on every rank (--trace N too small? "
           "leave --trace unset with --machine: the run then traces what the critical path needs)\n";
    return;
  }
  if (report.path_by_iteration.unmatched > 0 || report.dropped_events > 0)
    out << " WARNING: the trace lost " << report.dropped_events << " events past its capacity and has "
        << report.path_by_iteration.unmatched
        << " communication calls without their partner: where the path meets one it cannot follow it\n";
  model::IterationParts p;  // summed over the traced iterations
  for (const model::IterationParts& q : parts) p += q;
  const double path = p.total();
  char line[512];
  std::snprintf(line, sizeof line,
                " The measured critical path also holds %.3g s per iteration (%.1f%% of it) that no model term "
                "covers: rank 0's monitor line and loop bookkeeping.\n",
                p.other / n, path > 0.0 ? 100.0 * p.other / path : 0.0);
  out << line;
  // The part rows take the median iteration; what the first adds is in the totals alone,
  // said here part by part (each against the later iterations' median of that part).
  if (parts.size() >= 3) {
    auto later_median = [&](double model::IterationParts::*part) {
      std::vector<double> v;
      for (std::size_t k = 1; k < parts.size(); ++k) v.push_back(parts[k].*part);
      return instrument::median(v);
    };
    std::vector<double> lengths;
    for (std::size_t k = 1; k < parts.size(); ++k) lengths.push_back(parts[k].total());
    const double first = parts.front().total(), later = instrument::median(lengths);
    std::snprintf(line, sizeof line,
                  " The first iteration's critical path was %.3g s (%+.1f%%) beside the later iterations' median "
                  "%.3g s; its parts over theirs (us): W_before %+.0f, computation %+.0f, comm + sync %+.0f, "
                  "W_after %+.0f, reductions %+.0f. Its first-use costs are in the totals, not in the part rows "
                  "(medians).\n",
                  first, later > 0.0 ? 100.0 * (first / later - 1.0) : 0.0, later,
                  1e6 * (parts.front().w_before - later_median(&model::IterationParts::w_before)),
                  1e6 * (parts.front().computation - later_median(&model::IterationParts::computation)),
                  1e6 * (parts.front().communication - later_median(&model::IterationParts::communication)),
                  1e6 * (parts.front().w_after - later_median(&model::IterationParts::w_after)),
                  1e6 * (parts.front().reductions - later_median(&model::IterationParts::reductions)));
    out << line;
  }
}

ModelReport build_model_report(const RunResult& r, const WorkFigures& figures, const instrument::RunResults& g,
                               const PreparedModels& models) {
  ModelReport report;
  if (!models.enabled) return report;
  report.enabled = true;
  report.machine = models.machine_record;

  model::MeasuredSweepRun run;
  run.shape = shape_of(r);
  run.mode = r.nonblocking ? model::SendMode::nonblocking : model::SendMode::blocking;
  for (const auto& it : r.iterations) run.fixups_on.push_back(it.fixups_on);
  const auto* iteration = g.find_phase(std::string(phase::kIteration));
  run.total = iteration ? *std::max_element(iteration->inclusive.begin(), iteration->inclusive.end()) : 0.0;
  report.path_by_iteration = walk_iterations(g, models.rendezvous_bytes);
  for (const std::int64_t d : g.trace.dropped) report.dropped_events += d;
  report.parts = parts_by_iteration(report.path_by_iteration);
  run.path = report.parts;

  model::SweepModelInputs in;
  const model::WorkCalibration* cal = models.calibrations.find(r.rank0.mmi, r.threads, r.kernel);
  in.calibration = cal ? *cal : calibration_of(r, figures);
  in.machine = models.machine;
  in.machine_source = models.machine_file;
  model::add_sweep_predictions(report.comparison, run, in);
  instrument::mark_if_busy(report.comparison, g.machine_load);
  instrument::mark_if_other_placement(report.comparison, models.machine_file, instrument::kLogGpRoundTripKey,
                                      g.core_round_trip, g.info.nranks);
  // Only where each rank had a CPU of its own on one node (the round trip was measured): with
  // more ranks than CPUs, time-slicing alone makes the ranks' speeds differ.
  const bool own_cpus = g.info.nranks == 1 || !g.core_round_trip.samples().empty();
  if (!report.comparison.empty() && !g.core_round_trip.samples().empty())
    instrument::mark_if_uneven_cpus(report.comparison, kernel_rates_by_iteration(g.trace), "cell-angle");
  if (cal && !report.comparison.empty())
    instrument::mark_if_calibration_unreliable(report.comparison, cal->file, cal->unreliable_because);
  // The CPU's speed: steady through the run, and the calibration's (speed_check.hpp); only
  // where each rank had a CPU of its own, for the same reason.
  if (own_cpus && !report.comparison.empty()) {
    instrument::mark_if_speed_changed(report.comparison, r.speed_check, kSpeedCheckWhat);
    if (cal)
      instrument::mark_if_speed_differs(report.comparison, r.speed_check.run_ns(), cal->speed_check_ns, cal->file,
                                        kSpeedCheckWhat);
  }
  return report;
}

}  // namespace sweep3d
