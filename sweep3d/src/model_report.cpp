#include "sweep3d/model_report.hpp"

#include <mpi.h>

#include <algorithm>
#include <variant>

#include "instrument/error.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/mpi_main.hpp"
#include "loggp_machine_costs.hpp"
#include "run_comparison.hpp"

namespace sweep3d {

namespace {

double phase_max(const RunResult& r, const char* name) {
  for (const auto& p : r.phases)
    if (p.name == name) return p.max_seconds;
  return 0.0;
}

double number(const instrument::Attributes& a, const std::string& key, const std::string& file) {
  const auto it = a.find(key);
  if (it == a.end()) throw instrument::InputError(file, "/sweep3d/calibration", "attribute " + key + " (a sweep3d results file)");
  if (const auto* d = std::get_if<double>(&it->second)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&it->second)) return static_cast<double>(*i);
  throw instrument::InputError(file, "/sweep3d/calibration/" + key, "a number");
}

}  // namespace

model::KbaShape kba_shape(const Deck& deck, int npe_i, int npe_j, int mk, int mmi) {
  model::KbaShape s;
  s.npe_i = npe_i;
  s.npe_j = npe_j;
  s.it_g = deck.it_g;
  s.jt_g = deck.jt_g;
  s.kt = deck.kt;
  s.mm = deck.mm;
  s.mk = mk;
  s.mmi = mmi;
  return s;
}

Calibration calibration_of(const RunResult& r) {
  Calibration c;
  c.wg_s = r.wg_nofix_ns.mean * 1e-9;
  c.wg_fixup_s = r.wg_fix_ns.ranks > 0 && r.wg_fix_ns.mean > 0 ? r.wg_fix_ns.mean * 1e-9 : c.wg_s;
  if (c.wg_s == 0.0) c.wg_s = c.wg_fixup_s;  // every iteration had fixups
  const double its = std::max<std::size_t>(r.iterations.size(), 1);
  const double cells = std::max<long long>(r.rank0.local_cells(), 1);
  // Rank 0 holds the most cells and the phase figures are max over ranks: both the largest.
  c.w_before_s_per_cell = phase_max(r, "source") / its / cells;
  c.w_after_s_per_cell = phase_max(r, "flux_err") / its / cells;
  c.source = "this run";
  return c;
}

void add_calibration(const Calibration& c, instrument::ResultsExtras& x) {
  const std::string g = "/sweep3d/calibration";
  x.set_attribute(g, "wg_s", c.wg_s);
  x.set_attribute(g, "wg_fixup_s", c.wg_fixup_s);
  x.set_attribute(g, "w_before_s_per_cell", c.w_before_s_per_cell);
  x.set_attribute(g, "w_after_s_per_cell", c.w_after_s_per_cell);
  x.set_attribute(g, "description",
                  std::string("W_g = kernel seconds per cell-angle (mean over ranks), without and with "
                              "fixups; W_before/W_after = source / flux-error seconds per iteration "
                              "per local cell (max over ranks)"));
}

Calibration read_calibration(const std::string& file) {
  const instrument::ResultsDocument doc = instrument::read_results(file);
  const auto g = doc.extras.group_attributes.find("/sweep3d/calibration");
  if (doc.run.info.app != "sweep3d" || g == doc.extras.group_attributes.end())
    throw instrument::InputError(file, "/sweep3d/calibration", "a sweep3d results file with a calibration");
  Calibration c;
  c.wg_s = number(g->second, "wg_s", file);
  c.wg_fixup_s = number(g->second, "wg_fixup_s", file);
  c.w_before_s_per_cell = number(g->second, "w_before_s_per_cell", file);
  c.w_after_s_per_cell = number(g->second, "w_after_s_per_cell", file);
  if (!(c.wg_s > 0.0)) throw instrument::InputError(file, "/sweep3d/calibration/wg_s", "a positive W_g");
  c.source = "calibrated on " + file + " (" + std::to_string(doc.run.info.nranks) + " rank" +
             (doc.run.info.nranks == 1 ? "" : "s") + ")";
  return c;
}

void check_model_inputs(const ModelInputs& in, instrument::Comm& comm) {
  std::string error;
  try {
    if (!in.machine_file.empty()) model::read_machine_costs(in.machine_file);
    if (!in.calibration_file.empty()) {
      if (in.machine_file.empty())
        throw instrument::InputError("command line", "--calibration", "--machine FILE as well (the models need both)");
      read_calibration(in.calibration_file);
    }
  } catch (const std::exception& e) {
    error = e.what();
  }
  instrument::throw_if_any_rank_failed(comm.mpi(), error);
}

ModelReport build_model_report(const RunResult& r, const ModelInputs& in, instrument::Comm& comm) {
  ModelReport report;
  if (in.machine_file.empty()) return report;

  // The measured breakdown: max over ranks of kernel time and of the LogGPS split.
  const instrument::CommSplit split = comm.split();
  double local[3] = {0.0, split.send_transfer + split.receive_transfer, split.send_wait + split.receive_wait};
  for (const auto& p : r.phases)
    if (p.name == "sweep_compute" || p.name == "sweep_compute_fixup") local[0] += p.max_seconds;
  double worst[3] = {0.0, 0.0, 0.0};
  MPI_Allreduce(local, worst, 3, MPI_DOUBLE, MPI_MAX, comm.mpi());
  if (comm.rank() != 0) return report;

  const Calibration cal = in.calibration_file.empty() ? calibration_of(r) : read_calibration(in.calibration_file);
  const auto machine_file = instrument::MachineFile::read(in.machine_file);
  report.machine = instrument::machine_record(machine_file);
  report.enabled = true;

  model::MeasuredSweepRun run;
  run.shape = kba_shape(r.deck, r.rank0.npe_i, r.rank0.npe_j, r.rank0.mk, r.rank0.mmi);
  run.iterations = static_cast<int>(r.iterations.size());
  run.fixup_iterations = static_cast<int>(std::count_if(r.iterations.begin(), r.iterations.end(),
                                                        [](const IterationRecord& it) { return it.fixups_on; }));
  run.total = phase_max(r, "iteration");
  run.computation = worst[0];
  run.communication = worst[1];
  run.synchronization = worst[2];

  model::SweepModelInputs mi;
  const double cells = static_cast<double>(r.rank0.local_cells());
  mi.w_g = cal.wg_s;
  mi.w_g_fixup = cal.wg_fixup_s;
  mi.w_before = cal.w_before_s_per_cell * cells;
  mi.w_after = cal.w_after_s_per_cell * cells;
  mi.w_source = "W_g, W_before, W_after " + cal.source;
  mi.machine = model::machine_costs_from_loggp(instrument::loggp::read_params(machine_file));
  mi.machine_source = in.machine_file;
  model::add_sweep_predictions(report.comparison, run, mi);
  return report;
}

}  // namespace sweep3d
