// The results file of a tycho run (results_output.hpp).
#include "tycho/results_output.hpp"

#include <cmath>
#include <cstdio>

#include "instrument/results_file.hpp"
#include "tycho/model/pce.hpp"
#include "tycho/results_calibration.hpp"
#include "tycho/run_report.hpp"

namespace tycho {

namespace {

std::string hex(std::uint64_t x) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(x));
  return buf;
}

std::string number(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

void add_run_attributes(const RunOptions& o, const RunResult& r, const TychoCalibration& cal,
                        instrument::ResultsExtras& x) {
  auto set = [&](const char* name, instrument::AttributeValue v) { x.set_attribute("/tycho", name, std::move(v)); };
  auto whole = [](auto v) { return instrument::AttributeValue(static_cast<std::int64_t>(v)); };
  const double sweep = median_sweep_seconds(r.transport);
  set("mesh", o.mesh_path);
  set("partition", o.partition_path.empty() ? std::string("METIS k-way") : o.partition_path);
  set("cells", whole(r.mesh_cells));
  set("faces", whole(r.mesh_faces));
  set("ranks", whole(r.ranks));
  set("quadrature", r.problem.quadrature.name);
  set("directions", whole(r.problem.quadrature.size()));
  set("groups", whole(r.problem.groups));
  set("scheme", std::string(scheme_option_name(r.problem.scheme)));
  set("mcps", whole(r.mcps));
  if (!r.mcps_reason.empty()) set("mcps_auto", r.mcps_reason);
  set("priority", std::string(priority_name(o.priority)));
  set("sends", std::string(o.sweep.nonblocking ? "non-blocking" : "blocking"));
  set("threads", whole(o.sweep.threads));
  set("lagged_pairs", whole(r.lagged_faces));
  set("setup_s", r.setup_s);
  set("sweep_s", sweep);
  set("t_elem_s", cal.t_elem_s);
  set("t_elem_gather_solve_s", measured_t_gather_solve(r));
  set("grind_ns", grind_ns(r));
  set("digest", hex(r.digest));
  if (r.speed_check.run_ns() > 0) set("speed_check_ns", r.speed_check.run_ns());
  set("definitions",
      std::string("sweep_s: the median over iterations (the first left out when more than two) of the sweep's "
                  "time, max over ranks; t_elem_s: every rank's time in the cell solves / every rank's cell-angle "
                  "tasks (each all groups), over the iterations sweep_s is the median of; t_elem_gather_solve_s: of "
                  "t_elem_s, the part in the tasks' inflow gathers and cell solves (with threads, the parallel "
                  "region's start and end too); grind_ns: ranks x sweep_s / (cells x directions x groups); "
                  "lagged_pairs: (face, direction) pairs whose inflow is the last iteration's; digest: FNV-1a of "
                  "the scalar flux's bits in global cell order; speed_check_ns: a fixed cell solve's ns per "
                  "cell-angle-group (tycho/speed_check.hpp), each rank's mean of its check before the sweeps and "
                  "after, the median over ranks: what a run this file calibrates compares its own with"));
}

void add_step_tables(const std::vector<RankHistory>& histories, instrument::ResultsExtras& x) {
  std::vector<std::int64_t> rank, iteration, step, work, sends, send_bytes, receives, receive_bytes;
  std::vector<double> compute, send, receive;
  std::vector<std::int64_t> m_rank, m_iteration, m_step, peer, bytes;
  std::vector<std::string> direction;
  for (std::size_t p = 0; p < histories.size(); ++p) {
    for (const StepRecord& s : histories[p].steps) {
      rank.push_back(static_cast<std::int64_t>(p));
      iteration.push_back(s.iteration);
      step.push_back(s.step);
      work.push_back(s.work);
      sends.push_back(s.sends);
      send_bytes.push_back(s.send_bytes);
      receives.push_back(s.receives);
      receive_bytes.push_back(s.receive_bytes);
      compute.push_back(s.compute_s);
      send.push_back(s.send_s);
      receive.push_back(s.receive_s);
    }
    for (const MessageRecord& m : histories[p].messages) {
      m_rank.push_back(static_cast<std::int64_t>(p));
      m_iteration.push_back(m.iteration);
      m_step.push_back(m.step);
      peer.push_back(m.peer);
      bytes.push_back(m.bytes);
      direction.push_back(m.sent ? "send" : "recv");
    }
  }
  using instrument::Column;
  auto& steps = x.add_table("/tycho/steps");
  steps.columns = {Column::of("rank", "", rank),
                   Column::of("iteration", "", iteration),
                   Column::of("step", "", step),
                   Column::of("work", "cell-angles", work),
                   Column::of("sends", "messages", sends),
                   Column::of("send_bytes", "bytes", send_bytes),
                   Column::of("receives", "messages", receives),
                   Column::of("receive_bytes", "bytes", receive_bytes),
                   Column::of("compute_s", "s", compute),
                   Column::of("send_s", "s", send),
                   Column::of("receive_s", "s", receive)};
  steps.attributes["description"] =
      std::string("one row per step of every rank's sweep (steps numbered per rank and iteration from 0): "
                  "cell-angle tasks done (each all groups), messages sent then received, and the time in the "
                  "solves, the sends and the receives (waiting included)");
  auto& messages = x.add_table("/tycho/messages");
  messages.columns = {Column::of("rank", "", m_rank),   Column::of("iteration", "", m_iteration),
                      Column::of("step", "", m_step),   Column::of("peer", "", peer),
                      Column::of("bytes", "bytes", bytes), Column::of("direction", "", direction)};
  messages.attributes["description"] =
      std::string("every message of every rank in the order the rank made the calls: direction send or recv, "
                  "the other rank, the step it belongs to");
}

// PCE of every iteration (eq. 4) and, on /tycho, the scored iterations' (scored_sweeps_pce: the
// GM a calibration feeds charges the compute over the sweeps its measured rows are taken over;
// the last sweep's alone moved by up to 0.04 from theirs, tycho/BENCHMARKS.md).
void add_pce(const RunResult& r, instrument::ResultsExtras& x) {
  std::vector<std::int64_t> iteration, steps, total_work, sum_max_work;
  std::vector<double> w_p, pce;
  for (const IterationRecord& i : r.transport.iterations) {
    const model::PceOfIteration e = model::parallel_computational_efficiency(r.histories, i.iteration);
    iteration.push_back(e.iteration);
    steps.push_back(e.steps);
    total_work.push_back(e.total_work);
    w_p.push_back(e.w_p);
    sum_max_work.push_back(e.sum_max_work);
    pce.push_back(e.pce);
  }
  // Only a PCE a calibration reader takes (in (0, 1]): none where no work was done.
  if (const std::optional<model::PceOfIteration> scored = scored_sweeps_pce(r);
      scored && std::isfinite(scored->pce) && scored->pce > 0)
    x.set_attribute("/tycho", "pce", scored->pce);
  using instrument::Column;
  auto& table = x.add_table("/tycho/pce");
  table.columns = {Column::of("iteration", "", iteration),         Column::of("steps", "", steps),
                   Column::of("total_work", "cell-angles", total_work), Column::of("w_p", "cell-angles", w_p),
                   Column::of("sum_max_work", "cell-angles", sum_max_work), Column::of("pce", "", pce)};
  table.attributes["description"] =
      std::string("Parallel Computational Efficiency (Kerbyson, Hoisie & Pautz eq. 4) of each iteration: "
                  "w_p = total_work / ranks over sum_max_work = sum over steps of the most work any rank did in "
                  "the step (tycho/model/pce.hpp); /tycho pce is the scored iterations' (all but the first of more than two): "
                  "their w_p summed over their sum_max_work summed");
}

void add_critical_path(const model::MeasuredSweepPath& path, instrument::ResultsExtras& x) {
  if (!path.walked()) return;
  std::vector<std::int64_t> iteration;
  std::vector<double> compute, comm, other, walked;
  for (std::size_t k = 0; k < path.per_sweep.size(); ++k) {
    iteration.push_back(path.iterations[k]);
    compute.push_back(path.per_sweep[k].compute);
    comm.push_back(path.per_sweep[k].comm);
    other.push_back(path.per_sweep[k].other);
    walked.push_back(path.walked_s[k]);
  }
  using instrument::Column;
  auto& table = x.add_table("/tycho/critical_path");
  table.columns = {Column::of("iteration", "", iteration), Column::of("compute_s", "s", compute),
                   Column::of("comm_s", "s", comm),         Column::of("other_s", "s", other),
                   Column::of("walked_s", "s", walked)};
  table.attributes["description"] =
      std::string("the measured critical path of each walked sweep (instrument/critical_path.hpp), charged by "
                  "category (tycho/sweep_phases.hpp): compute the cell-angle solves and their local work, comm the "
                  "message calls (a receive from when its sender's send began), other the rest of the sweep; "
                  "walked_s, the path's span, is their sum; the models' part rows in /compare are the means");
  table.attributes["unmatched"] = path.unmatched;
  table.attributes["dropped_events"] = path.dropped_events;
}

void add_solution(const RunResult& r, instrument::ResultsExtras& x) {
  const TransportResult& t = r.transport;
  auto set = [&](const char* name, instrument::AttributeValue v) { x.set_attribute("/solution", name, std::move(v)); };
  double leakage = 0;
  if (!t.iterations.empty())
    for (double l : t.iterations.back().leakage) leakage += l;
  set("iterations", static_cast<std::int64_t>(t.iterations.size()));
  set("converged", static_cast<std::int64_t>(t.converged));
  set("balance_relative_residual", t.iterations.empty() ? 0.0 : t.iterations.back().residual);
  set("source", t.source_rate);
  set("absorption", t.absorption_rate);
  set("leakage", leakage);
  set("digest", hex(r.digest));

  std::vector<std::int64_t> iteration;
  std::vector<double> change, sweep, whole, residual;
  for (const IterationRecord& i : t.iterations) {
    iteration.push_back(i.iteration);
    change.push_back(i.change);
    sweep.push_back(i.sweep_s);
    whole.push_back(i.iteration_s);
    residual.push_back(i.residual);
  }
  using instrument::Column;
  auto& table = x.add_table("/solution/iterations");
  table.columns = {Column::of("iteration", "", iteration), Column::of("change", "", change),
                   Column::of("sweep_s", "s", sweep), Column::of("iteration_s", "s", whole),
                   Column::of("residual", "", residual)};
  table.attributes["description"] =
      std::string("change: largest relative change of a cell's mean scalar flux; sweep_s, iteration_s: max over "
                  "ranks; residual: the worst group's (emission - collision - leakage) / emission of the sweep");
}

}  // namespace

instrument::RunInfo run_info(const RunOptions& o, MPI_Comm comm) {
  instrument::RunInfo info = instrument::make_run_info("tycho", comm);
  info.threads = o.sweep.threads;
  info.input_file = o.mesh_path;
  auto& in = info.inputs;
  in["mesh"] = o.mesh_path;
  in["partition"] = o.partition_path;
  in["sn"] = std::to_string(o.sn);
  in["product"] = o.product_polar > 0 ? std::to_string(o.product_polar) + "x" + std::to_string(o.product_azimuthal) : "";
  in["groups"] = std::to_string(o.groups);
  in["scheme"] = scheme_option_name(o.scheme);
  in["mcps"] = o.choose_mcps ? "auto" : std::to_string(o.sweep.mcps);
  in["priority"] = priority_name(o.priority);
  in["nonblocking"] = o.sweep.nonblocking ? "1" : "0";
  in["threads"] = std::to_string(o.sweep.threads);
  in["iterations"] = std::to_string(o.iterations);
  in["tol"] = number(o.tolerance);
  in["stall_seconds"] = number(o.sweep.stall_seconds);
  return info;
}

void write_results_file(const std::string& path, const RunOptions& o, const RunResult& r,
                        instrument::RunResults gathered, const instrument::Comparison& comparison,
                        const model::MeasuredSweepPath& critical_path, MPI_Comm comm,
                        const TychoCalibration* calibration) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  instrument::ResultsDocument doc;
  doc.run = std::move(gathered);
  if (rank == 0) {
    const TychoCalibration cal = calibration ? *calibration : calibration_of(o, r, critical_path);
    add_run_attributes(o, r, cal, doc.extras);
    add_step_tables(r.histories, doc.extras);
    add_pce(r, doc.extras);
    add_calibration(cal, doc.extras);
    add_solution(r, doc.extras);
    add_critical_path(critical_path, doc.extras);
    doc.comparison = comparison;
  }
  instrument::write_results_on_root(path, doc, comm);
}

}  // namespace tycho
