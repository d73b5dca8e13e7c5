// The models beside the run (model_report.hpp).
#include "tycho/model_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <ostream>

#include "instrument/calibration_reader.hpp"
#include "instrument/error.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/path_list.hpp"
#include "instrument/results_file.hpp"
#include "instrument/speed_check.hpp"
#include "tycho/model/gm.hpp"
#include "tycho/model/machine_comm.hpp"
#include "tycho/model/msm.hpp"
#include "tycho/model/pce.hpp"
#include "tycho/model/trace_program.hpp"
#include "tycho/results_calibration.hpp"
#include "tycho/run_report.hpp"
#include "tycho/sweep_phases.hpp"

namespace tycho {

namespace {

// T_elem depends on what a task does: a calibration must have done the same.
void check_matches(const TychoCalibration& c, const RunOptions& run, int directions) {
  auto refuse = [&](const std::string& what, const std::string& theirs, const std::string& ours) {
    throw instrument::InputError(c.path, "/tycho/calibration/" + what,
                                 "the same as this run's " + ours + " (T_elem depends on it), found " + theirs);
  };
  if (c.groups != run.groups) refuse("groups", std::to_string(c.groups), std::to_string(run.groups));
  if (c.directions != directions) refuse("directions", std::to_string(c.directions), std::to_string(directions));
  if (c.scheme != scheme_option_name(run.scheme)) refuse("scheme", c.scheme, scheme_option_name(run.scheme));
  if (c.threads != run.sweep.threads) refuse("threads", std::to_string(c.threads), std::to_string(run.sweep.threads));
  if (calibration_priority(c) != priority_name(run.priority))
    refuse("priority", calibration_priority_found(c), priority_name(run.priority));
}

// The iterations the measured column is the median of (run_report.hpp's rule).
std::vector<std::int32_t> scored_iterations(const TransportResult& t) {
  std::vector<std::int32_t> its;
  for (std::size_t k = first_scored_iteration(t.iterations.size()); k < t.iterations.size(); ++k)
    its.push_back(static_cast<std::int32_t>(k));
  return its;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.empty() ? 0.0 : v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// The GM's PCE at `ranks`: --pce as given; else at one rank 1, since a lone rank never idles
// waiting for another (PCE = work / sum of the steps' largest work, eq. 4, is 1 there); else,
// with no calibration (the consistency check, on this run's own T_elem), this run's own PCE of
// its scored sweeps, `own` (the figure its summary prints; the paper's assumed 0.8 put the GM
// +20% off this run on cube-10717 at two ranks, where the run's was 0.99); else the calibration
// run's or the paper's (prepare_models). `own` <= 0 (none: a projection): not used.
struct PceChoice {
  double pce;
  std::string source;
};
PceChoice gm_pce(const PreparedModels& m, int ranks, double own = 0) {
  if (ranks == 1 && m.pce_source != kPceGiven) return {1.0, "1 (one rank: no idle time by definition)"};
  if (m.telem_points.empty() && m.pce_source != kPceGiven && own > 0 && own <= 1) {
    char text[96];
    std::snprintf(text, sizeof text, "%.4f this run's own (its scored sweeps, eq. 4: a consistency check)", own);
    return {own, text};
  }
  return {m.pce, m.pce_source};
}

// This run's PCE (eq. 4) over its scored sweeps, the iterations its measured rows are taken
// over, as its summary prints it; 0 with no histories or no work.
double own_pce(const RunResult& r) {
  const std::optional<model::PceOfIteration> pce = scored_sweeps_pce(r);
  return pce && std::isfinite(pce->pce) ? pce->pce : 0;
}

// The consistency check (no --calibration) prices a message with this run's own T_unpack
// and buffered-send extra, measured after the run as a calibration run measures them
// (calibration_of), as it takes the run's own T_elem: without them the unpack and the
// Bsend went unpriced and the comm rows read -60..-66% on cube-10717 at two ranks (AMD EPYC
// Zen 4). T_step is not taken (model_comparison says why).
PreparedModels with_own_message_figures(const PreparedModels& m, const TychoCalibration* own) {
  PreparedModels out = m;
  if (!own || !m.telem_points.empty()) return out;
  const std::string source = "measured by this run after its sweeps (a consistency check)";
  if (own->unpack_s_per_record > 0) {
    out.unpack_s_per_record = own->unpack_s_per_record;
    out.unpack_source = "T_unpack " + source;
    out.unpack_message_measured = own->unpack_s_per_message >= 0;
    out.unpack_s_per_message = std::max(own->unpack_s_per_message, 0.0);
  }
  if (own->bsend_extra_s_per_call >= 0 && own->bsend_extra_s_per_byte >= 0) {
    out.bsend_measured = true;
    out.bsend_s_per_call = own->bsend_extra_s_per_call;
    out.bsend_s_per_byte = own->bsend_extra_s_per_byte;
    out.bsend_source = source;
  }
  return out;
}

// What a part row's measured side covers, said in its source.
std::string walked_iterations(const model::MeasuredSweepPath& path) {
  std::string s = "measured: per sweep on its critical path, mean of iteration";
  if (path.iterations.size() > 1) s += "s";
  for (std::size_t k = 0; k < path.iterations.size(); ++k) {
    s += k ? ',' : ' ';
    s += std::to_string(path.iterations[k] + 1);
  }
  return s;
}
constexpr const char* kMeasuredCompute = " (the cell-angle solves and their local work: sweep.compute)";
constexpr const char* kMeasuredOther =
    " (the rest of the sweep: the step loop's bookkeeping, probes that found nothing, the receives' posting)";
constexpr const char* kMeasuredComm =
    " (each send call; each receive from when its sender's send began to its records unpacked; waits are off the "
    "path)";

}  // namespace

std::vector<CalibrationRun> read_calibration_runs(const ModelOptions& o, const RunOptions& run, MPI_Comm comm) {
  std::vector<CalibrationRun> runs;
  std::string error;
  try {
    const int directions = run.product_polar > 0 ? run.product_polar * run.product_azimuthal : run.sn * (run.sn + 2);
    std::vector<model::TelemPoint> points;
    for (const std::string& path : o.calibration_files) {
      // Read once, by rank 0 for all (collective: each file's verdict is the same on every
      // rank, so they stay in step).
      const instrument::ResultsDocument doc = std::move(read_tycho_results_shared({path}, comm).front());
      CalibrationRun c{path, tycho_calibration_from(doc, path), 0, 0};
      check_matches(c.calibration, run, directions);
      // Its run's PCE over the scored sweeps (0: a file from before it was kept).
      if (doc.extras.group_attributes.contains("/tycho"))
        c.pce = instrument::CalibrationReader(doc, {"tycho", "/tycho", "the calibration results file"}, path)
                    .real_or("pce", 0.0, 1e-9, 1.0, "the run's parallel computational efficiency");
      c.speed_check_ns = instrument::calibration_speed_check_ns(doc, "tycho", "/tycho", path);
      points.push_back(telem_point(c.calibration));
      runs.push_back(std::move(c));
    }
    if (!points.empty()) model::TelemCurve check(points, o.telem_fit);  // refuses a bad fit now
  } catch (const instrument::InputError& e) {
    error = e.what();
  }
  instrument::throw_if_any_rank_failed(comm, error);
  return runs;
}

PreparedModels prepare_models(const ModelOptions& o, const std::vector<CalibrationRun>& calibrations, MPI_Comm comm) {
  PreparedModels m;
  m.telem_fit = o.telem_fit;
  std::string error;
  try {
    if (o.machine_file.empty()) {
      if (!o.calibration_files.empty())
        throw instrument::InputError("command line", "--calibration", "expected --machine too: the models need T_comm");
      if (o.pce > 0) throw instrument::InputError("command line", "--pce", "expected --machine too: it feeds the GM");
    } else {
      m.enabled = true;
      m.machine_file = o.machine_file;
      const instrument::MachineFile file = instrument::MachineFile::read(o.machine_file);
      m.loggps = model::read_checked_loggps(file);
      m.loggp = model::read_loggp_if_any(file);
      m.pending = instrument::loggp::read_pending(file);
      m.machine = instrument::replay::machine_from(file);
    }
  } catch (const instrument::InputError& e) {
    error = e.what();
  }
  instrument::throw_if_any_rank_failed(comm, error);
  if (!m.enabled) return m;
  // The GM's PCE: the first calibration run that measured one, and the repetitions of its
  // configuration (the same mesh, E_p and MCPS) by their median.
  std::optional<TychoCalibration> pce_config;
  std::vector<double> pce_runs;
  std::vector<double> unpack, unpack_message, bsend_call, bsend_byte, step;
  std::vector<std::string> pce_paths, unpack_paths, bsend_paths, step_paths;  // who measured each
  for (const CalibrationRun& run : calibrations) {
    const TychoCalibration& c = run.calibration;
    const std::string& path = run.path;
    m.telem_points.push_back(telem_point(c));
    if (c.unpack_s_per_record > 0) {
      unpack.push_back(c.unpack_s_per_record);
      unpack_paths.push_back(path);
      if (c.unpack_s_per_message >= 0) unpack_message.push_back(c.unpack_s_per_message);
    }
    if (c.bsend_extra_s_per_call >= 0 && c.bsend_extra_s_per_byte >= 0) {
      bsend_call.push_back(c.bsend_extra_s_per_call);
      bsend_byte.push_back(c.bsend_extra_s_per_byte);
      bsend_paths.push_back(path);
    }
    if (c.step_s >= 0) {
      step.push_back(c.step_s);
      step_paths.push_back(path);
    }
    const bool same_config =
        !pce_config || (c.mesh == pce_config->mesh && c.e_p == pce_config->e_p && c.mcps == pce_config->mcps);
    if (o.pce <= 0 && same_config && run.pce > 0) {
      if (!pce_config) pce_config = c;
      pce_runs.push_back(run.pce);
      pce_paths.push_back(path);
    }
  }
  if (!pce_runs.empty()) {
    m.pce = median(pce_runs);
    m.pce_source = "measured on " + instrument::path_list(pce_paths) + (pce_runs.size() > 1 ? " (median)" : "");
  }
  if (!unpack.empty()) {
    m.unpack_s_per_record = median(unpack);
    m.unpack_source = "T_unpack measured by " + instrument::path_list(unpack_paths) + (unpack.size() > 1 ? " (median)" : "");
    if (!unpack_message.empty()) {
      m.unpack_message_measured = true;
      m.unpack_s_per_message = median(unpack_message);
    }
  }
  if (!bsend_call.empty()) {
    m.bsend_measured = true;
    m.bsend_s_per_call = median(bsend_call);
    m.bsend_s_per_byte = median(bsend_byte);
    m.bsend_source = "measured by " + instrument::path_list(bsend_paths) + (bsend_call.size() > 1 ? " (medians)" : "");
  }
  if (!step.empty()) {
    m.step_measured = true;
    m.step_s = median(step);
    m.step_source = "measured by " + instrument::path_list(step_paths) + (step.size() > 1 ? " (median)" : "");
  }
  if (o.pce > 0) {
    m.pce = o.pce;
    m.pce_source = kPceGiven;
  }
  return m;
}

model::MeasuredSweepPath measured_sweep_path(const instrument::RunResults& gathered, const RunResult& r) {
  return model::walk_sweeps(gathered.trace, scored_iterations(r.transport));
}

void print_path_note(std::ostream& out, const model::MeasuredSweepPath& path) {
  if (!path.walked()) {
    out << " No part rows: "
        << (path.traced ? "the trace holds no scored iteration's sweep complete on every rank (past its budget of " +
                              std::to_string(kTraceBudgetEvents) + " events a rank)"
                        : std::string("the run was not traced (a build without the hooks)"))
        << "\n";
    return;
  }
  if (path.unmatched > 0 || path.dropped_events > 0)
    out << " WARNING: the trace lost " << path.dropped_events << " events past its capacity and has " << path.unmatched
        << " message calls without their partner: where the path meets one it cannot follow it\n";
  char line[400];
  const double length = path.mean.length();
  std::snprintf(line, sizeof line,
                " The sweep's measured critical path (%.4g s) also holds %.3g s (%.1f%% of it) outside the solves and "
                "message calls: the step loop's bookkeeping, probes that found nothing, the receives' posting; the models "
                "charge it as T_step a step where a one-rank calibration run measured it (the 'other' rows).\n",
                length, path.mean.other, length > 0 ? 100 * path.mean.other / length : 0.0);
  out << line;
}

instrument::Comparison model_comparison(const PreparedModels& prepared, const RunOptions& run, const RunResult& r,
                                        const model::MeasuredSweepPath& path, const TychoCalibration* own) {
  instrument::Comparison cmp;
  if (!prepared.enabled) return cmp;
  const PreparedModels m = with_own_message_figures(prepared, own);
  const double measured = median_sweep_seconds(r.transport);
  const double e_p = static_cast<double>(r.mesh_cells) / r.ranks;
  std::function<double(double, double)> t_elem_of;
  std::string t_elem_source;
  if (m.telem_points.empty()) {
    const double own_t_elem = measured_t_elem(r);
    t_elem_of = [own_t_elem](double, double) { return own_t_elem; };
    t_elem_source = "T_elem this run's own (a consistency check, not a prediction)";
  } else {
    const model::TelemCurve curve(m.telem_points, m.telem_fit);
    t_elem_of = curve;
    t_elem_source = "T_elem calibrated: " + curve.describe();
  }
  const double t_elem = t_elem_of(e_p, static_cast<double>(r.mcps));
  // T_step: the one-rank calibrations' median; else not priced (the paper's models). Never this
  // run's own: it is the path's time outside solves and messages over its steps, so the
  // one-rank consistency check would then hold by construction and show nothing.
  double t_step = 0.0;
  std::string t_step_source = "; T_step not priced (no one-rank calibration run measured it)";
  if (m.step_measured) {
    t_step = m.step_s;
    char figure[48];
    std::snprintf(figure, sizeof figure, "%.3g", t_step);
    t_step_source = std::string("; T_step ") + figure + " s a step, " + m.step_source;
  }
  // A message as the path holds it: the send call, the receive call, the unpack.
  model::PathMessagePrice price;
  price.loggp = m.loggp;
  price.loggps = m.loggps;
  price.record_bytes = 8.0 + 24.0 * r.problem.groups;
  price.unpack_s_per_record = m.unpack_s_per_record;
  price.unpack_priced = m.unpack_s_per_record > 0;
  price.unpack_source = m.unpack_source;
  price.unpack_s_per_message = m.unpack_s_per_message;
  price.unpack_message_priced = m.unpack_message_measured;
  // Only the blocking mode's MPI_Bsend copies into the attached buffer; MPI_Isend is what o prices.
  price.bsend_priced = m.bsend_measured && !run.sweep.nonblocking;
  price.bsend_s_per_call = m.bsend_s_per_call;
  price.bsend_s_per_byte = m.bsend_s_per_byte;
  price.bsend_source = m.bsend_source;
  price.pending = m.pending;
  price.pending_buffered = !run.sweep.nonblocking;
  const model::CommCost t_comm = model::path_message_cost(price);
  const model::CommCost t_comm_waiting = m.pending ? model::path_message_cost_waiting(price) : model::CommCost{};
  const std::string machine = "; T_msg (send call + receive call + unpack): machine " + m.machine_file;
  const std::vector<std::int32_t> its = scored_iterations(r.transport);

  model::GmInputs gm;
  gm.cells = static_cast<double>(r.mesh_cells);
  gm.ranks = r.ranks;
  gm.directions = static_cast<int>(r.problem.quadrature.size());
  gm.mcps = r.mcps;
  const PceChoice pce = gm_pce(m, r.ranks, own_pce(r));
  gm.pce = pce.pce;
  gm.pce_source = pce.source;
  gm.bytes_per_boundary_cell_angle = 8.0 + 24.0 * r.problem.groups;
  gm.t_elem = t_elem_of;
  gm.t_comm = t_comm;
  gm.t_comm_waiting = t_comm_waiting;
  gm.step_overhead_s = t_step;
  const model::GmPrediction g = model::general_model(gm);
  cmp.add({.model = "GM", .term = "T_sweep", .measured = measured, .modelled = g.total_s,
           .source = t_elem_source + machine + "; PCE " + pce.source + "; E_p = N/P, grid " +
                     std::to_string(g.grid.x) + "x" + std::to_string(g.grid.y) + "x" + std::to_string(g.grid.z) +
                     t_step_source});
  cmp.add_model_term({"GM", "compute", g.compute_s, "Kerbyson, Hoisie & Pautz eq. 6, 8, 9"});
  cmp.add_model_term({"GM", "comm", g.comm_s, "Kerbyson, Hoisie & Pautz eq. 6, 8; T_msg for eq. 7's T_comm"});
  cmp.add_model_term({"GM", "other", g.bookkeeping_s, "ours: #steps x T_step (0: not priced)"});
  // On one rank there is no message: measured and modelled comm are 0, no row to score.
  const bool comm_rows = r.ranks > 1;
  if (path.walked()) {
    const std::string measured_side = walked_iterations(path);
    cmp.add({"GM", "compute", path.mean.compute, g.compute_s,
             measured_side + kMeasuredCompute + "; modelled: #steps x Work x T_elem (eq. 6, 8, 9), " + t_elem_source,
             instrument::RowKind::part});
    if (comm_rows)
      cmp.add({"GM", "comm", path.mean.comm, g.comm_s,
               measured_side + kMeasuredComm + "; modelled: #steps x |N_c| x T_msg(N_s) (eq. 6, 8; T_msg for eq. 7's T_comm), " +
                   price.describe(std::llround(g.message_bytes)) +
                   price.describe_waiting(std::llround(g.message_bytes), g.waiting_sends_per_step, g.messages_per_step) +
                   machine,
               instrument::RowKind::part});
    if (t_step > 0)
      cmp.add({"GM", "other", path.mean.other, g.bookkeeping_s,
               measured_side + kMeasuredOther + "; modelled: #steps x T_step (ours)" + t_step_source,
               instrument::RowKind::part});
  }

  std::vector<double> msm_total, msm_compute, msm_comm, msm_other;
  for (std::int32_t it : its) {
    const model::MsmPrediction p = model::mesh_specific_model(r.histories, it, t_elem, t_comm, t_comm_waiting, t_step);
    msm_total.push_back(p.total_s);
    msm_compute.push_back(p.compute_s);
    msm_comm.push_back(p.comm_s);
    msm_other.push_back(p.bookkeeping_s);
  }
  cmp.add({.model = "MSM", .term = "T_sweep", .measured = measured, .modelled = median(msm_total),
           .source = t_elem_source + machine + "; Work(P,S), N_c, N_s: this run's steps" + t_step_source});
  cmp.add_model_term({"MSM", "compute", median(msm_compute), "Kerbyson, Hoisie & Pautz eq. 6"});
  cmp.add_model_term({"MSM", "comm", median(msm_comm), "Kerbyson, Hoisie & Pautz eq. 6; T_msg for eq. 7's T_comm"});
  cmp.add_model_term({"MSM", "other", median(msm_other), "ours: #steps x T_step (0: not priced)"});
  if (path.walked()) {
    // The MSM of the very iterations walked: its parts and the path's cover the same sweeps.
    double compute = 0, comm = 0, bookkeeping = 0, waiting = 0, sent = 0;
    for (std::int32_t it : path.iterations) {
      const model::MsmPrediction p = model::mesh_specific_model(r.histories, it, t_elem, t_comm, t_comm_waiting, t_step);
      compute += p.compute_s;
      comm += p.comm_s;
      bookkeeping += p.bookkeeping_s;
      waiting += p.waiting_sends;
      sent += static_cast<double>(p.sends);
    }
    const double n = static_cast<double>(path.iterations.size());
    // The figures at the median size of the messages the walked sweeps sent, for the text.
    std::vector<double> sizes;
    for (const RankHistory& h : r.histories)
      for (const MessageRecord& msg : h.messages)
        if (msg.sent && std::find(path.iterations.begin(), path.iterations.end(), msg.iteration) != path.iterations.end())
          sizes.push_back(static_cast<double>(msg.bytes));
    const std::string measured_side = walked_iterations(path);
    cmp.add({"MSM", "compute", path.mean.compute, compute / n,
             measured_side + kMeasuredCompute +
                 "; modelled: sum over steps of max_P Work(P, S) x T_elem (eq. 6), this run's steps, " + t_elem_source,
             instrument::RowKind::part});
    if (comm_rows)
      cmp.add({"MSM", "comm", path.mean.comm, comm / n,
               measured_side + kMeasuredComm +
                   "; modelled: sum over steps of max_P sum T_msg(N_s) of the messages sent (eq. 6; T_msg for eq. 7's "
                   "T_comm), at the median size " + price.describe(std::llround(median(sizes))) +
                   price.describe_waiting(std::llround(median(sizes)), waiting, sent) + machine,
               instrument::RowKind::part});
    if (t_step > 0)
      cmp.add({"MSM", "other", path.mean.other, bookkeeping / n,
               measured_side + kMeasuredOther + "; modelled: #steps x T_step (ours), this run's steps" + t_step_source,
               instrument::RowKind::part});
  }

  const model::TraceModelTime tm = model::trace_model_time(r.histories, its, t_elem, m.machine, t_step);
  cmp.add({.model = "TM", .term = "T_sweep", .measured = measured, .modelled = tm.seconds_per_iteration,
           .source = t_elem_source + "; T_comm: machine " + m.machine_file +
                     " (LogGOPS replay); this run's steps and messages replayed" + t_step_source});
  cmp.add_model_term({"TM", "T_sweep", tm.seconds_per_iteration, "replay of the recorded trace (instrument/replay.hpp)"});
  return cmp;
}

std::int64_t auto_mcps(const PreparedModels& m, const RunOptions& run, std::size_t cells, int ranks,
                       std::string& why) {
  const model::TelemCurve curve(m.telem_points, m.telem_fit);
  model::GmInputs gm;
  gm.cells = static_cast<double>(cells);
  gm.ranks = ranks;
  gm.directions = run.product_polar > 0 ? run.product_polar * run.product_azimuthal : run.sn * (run.sn + 2);
  const PceChoice pce = gm_pce(m, ranks);
  gm.pce = pce.pce;
  gm.pce_source = pce.source;
  gm.bytes_per_boundary_cell_angle = 8.0 + 24.0 * run.groups;
  gm.t_elem = curve;
  gm.t_comm = model::comm_cost_from_loggps(m.loggps);
  gm.step_overhead_s = m.step_measured ? m.step_s : 0.0;  // more steps cost their bookkeeping too
  const model::McpsChoice c = model::choose_mcps(gm, kAutoMcpsCommShare);
  char share[64];
  std::snprintf(share, sizeof share, "GM comm share %.1f%%, ", 100 * c.prediction.comm_share);
  why = share + c.reason;
  return c.mcps;
}

std::vector<instrument::RankRates> task_rates_by_iteration(const RunResult& result, double min_seconds) {
  const auto& histories = result.histories;
  std::size_t iterations = 0;
  for (const RankHistory& h : histories)
    for (const StepRecord& s : h.steps)
      if (s.iteration >= 0) iterations = std::max(iterations, static_cast<std::size_t>(s.iteration) + 1);
  // Seconds and tasks summed per rank and iteration.
  std::vector<instrument::RankWork> work(iterations);
  for (std::size_t it = 0; it < iterations; ++it) {
    work[it].number = static_cast<int>(it);
    work[it].seconds.assign(histories.size(), 0.0);
    work[it].units.assign(histories.size(), 0.0);
  }
  for (std::size_t r = 0; r < histories.size(); ++r)
    for (const StepRecord& s : histories[r].steps) {
      if (s.iteration < 0) continue;
      work[static_cast<std::size_t>(s.iteration)].seconds[r] += s.compute_s;
      work[static_cast<std::size_t>(s.iteration)].units[r] += static_cast<double>(s.work);
    }
  return instrument::rates_over_spans(work, "iteration", min_seconds);
}

}  // namespace tycho
