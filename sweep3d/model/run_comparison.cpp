#include "sweep3d/model/run_comparison.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "instrument/statistics.hpp"
#include "sweep3d/model/iteration_model.hpp"
#include "sweep3d/model/loggp_sweep_model.hpp"
#include "sweep3d/model/pipeline_model.hpp"

namespace sweep3d::model {

namespace {

using instrument::ComparisonRow;
using instrument::RowKind;

struct OneIteration {
  IterationParts loggp, pipeline;
  PathTerms loggp_terms;
  LogGpSweeps loggp_sweeps;
  PipelineSweeps pipeline_sweeps;
};

OneIteration predict(const MeasuredSweepRun& run, const SweepModelInputs& in, bool fixups) {
  const WorkCalibration& cal = in.calibration;
  const double w_g = fixups ? cal.wg_fixup_s : cal.wg_s;
  const IterationWork work = iteration_work(run.shape, cal, in.machine);
  OneIteration o;
  o.loggp_sweeps = predict_loggp(run.shape, w_g, in.machine, run.mode, cal.faces);
  o.pipeline_sweeps = predict_pipeline(run.shape, w_g, in.machine, cal.faces);
  const PathTerms& s = o.loggp_sweeps.sweeps;
  // Each model's first reduction is entered its own iteration time after the previous one.
  const double outside = work.w_before + work.w_after;
  o.loggp = {work.w_before, s.computation, s.communication + s.synchronization, work.w_after,
             reductions_seconds(run.shape, in.machine, outside + s.total()), 0.0};
  const PipelineSweeps& p = o.pipeline_sweeps;
  o.pipeline = {work.w_before, p.t_comp, p.t_comm, work.w_after,
                reductions_seconds(run.shape, in.machine, outside + p.total()), 0.0};
  return o;
}

// The faces as the models price them (face_work.hpp).
std::string describe_face_work(const KbaShape& s, const WorkCalibration& c) {
  if (!c.faces.priced) return "faces in W_g per cell-angle, not apart (" + c.faces_why + ")";
  const FaceWork& f = c.faces;
  char text[400];
  std::snprintf(text, sizeof text,
                "W = W_g less its faces' %.3g ns a cell-angle, plus the block's faces: I / J a value zeroed %.3g / %.3g "
                "ns, leakage %.3g / %.3g, unpacked %.3g / %.3g, packed %.3g / %.3g ns (%.3g us a block on rank 0)",
                1e9 * f.edge_share_s, 1e9 * f.fill_s[0], 1e9 * f.fill_s[1], 1e9 * f.leak_s[0], 1e9 * f.leak_s[1],
                1e9 * f.unpack_s[0], 1e9 * f.unpack_s[1], 1e9 * f.pack_s[0], 1e9 * f.pack_s[1],
                1e6 * f.block_seconds(s, 0, 0));
  return text;
}

}  // namespace

void add_sweep_predictions(instrument::Comparison& table, const MeasuredSweepRun& run, const SweepModelInputs& in) {
  const int its = static_cast<int>(run.fixups_on.size());
  const int traced = std::min(static_cast<int>(run.path.size()), its);
  IterationParts loggp_all, pipeline_all;
  std::vector<IterationParts> loggp_traced, pipeline_traced;  // per traced iteration
  PathTerms loggp_terms;
  for (int k = 0; k < its; ++k) {
    const OneIteration o = predict(run, in, run.fixups_on[static_cast<std::size_t>(k)]);
    loggp_all += o.loggp;
    pipeline_all += o.pipeline;
    loggp_terms += o.loggp_sweeps.sweeps;
    if (k < traced) {
      loggp_traced.push_back(o.loggp);
      pipeline_traced.push_back(o.pipeline);
    }
  }
  const OneIteration first = predict(run, in, its > 0 && run.fixups_on[0]);
  const double n = std::max(its, 1);
  const bool nonblocking = run.mode == SendMode::nonblocking;
  const std::string inputs = "W_g, W_before, W_after calibrated on " + in.calibration.describe() + "; machine: " +
                             in.machine_source + "; " + describe_face_work(run.shape, in.calibration);
  const std::string loggp_source =
      inputs + (nonblocking ? "; non-blocking variant of eq. 6-8 (Send = the MPI_Isend post, no (m-1)L)" : "");
  const std::string pipeline_source =
      inputs + (nonblocking ? "; HLW do not model the send mode: the same model as for blocking sends" : "");

  const KbaShape& sh = run.shape;
  const std::int64_t face = std::max(sh.npe_i > 1 ? sh.i_face_bytes(0) : 0, sh.npe_j > 1 ? sh.j_face_bytes(0) : 0);
  const std::string cold_messages = describe_cold_messages(in.machine, face, sh.block_bytes(0, 0));
  // The first reduction's text, per model (its interval is that model's iteration).
  auto first_reduction = [&](const IterationParts& m) {
    const double interval = m.w_before + m.computation + m.communication + m.w_after;
    const std::string s = describe_allreduce_after_stream(in.machine, interval, sh.one_way_messages_at_end(), sh.rank_bytes(0, 0));
    return s.empty() ? describe_cold_allreduce(in.machine, sh.rank_bytes(0, 0)) +
                           "; no after-stream figures in the machine file (" + kNoColdWhy + ")"
                     : s;
  };

  auto totals = [&](const char* model, const IterationParts& all, const std::string& source) {
    table.add({model, "T_iter (mean)", run.total / n, all.total() / n, source, RowKind::total});
    table.add({model, "T_total", run.total, all.total(), source, RowKind::total});
  };
  auto parts = [&](const char* model, const std::vector<IterationParts>& m, const char* comp, const char* comm,
                   const std::string& source, const std::string& first_text) {
    if (traced == 0) return;
    const std::string on_path = "; per iteration on the measured critical path, the median of " +
                                (traced < its ? "iterations 1-" + std::to_string(traced) : std::string("the iterations"));
    // One row: the medians of the measured and the modelled part over the traced iterations,
    // and the measured mean beside them (what the first iteration and any detour add).
    auto row = [&](const char* term, double IterationParts::*part, const std::string& text) {
      std::vector<double> x, y;
      for (int k = 0; k < traced; ++k) {
        x.push_back(run.path[static_cast<std::size_t>(k)].*part);
        y.push_back(m[static_cast<std::size_t>(k)].*part);
      }
      const instrument::Summary measured = instrument::summarise(x);
      char also[96];
      std::snprintf(also, sizeof also, " (measured mean %.3g s)", measured.mean);
      table.add({model, term, measured.median, instrument::median(y), source + on_path + also + text, RowKind::part});
    };
    row("W_before (source)", &IterationParts::w_before, "");
    row(comp, &IterationParts::computation, ": local work (kernel, face copies)");
    row(comm, &IterationParts::communication, ": MPI calls of the sweeps; " + cold_messages);
    row("W_after (flux error)", &IterationParts::w_after, "");
    // On one rank an allreduce is a local copy the model prices at 0: no row to score.
    if (run.shape.npe_i * run.shape.npe_j > 1)
      row("reductions", &IterationParts::reductions,
          "; model: 2 x allreduce, recursive doubling; the first: " + first_text);
  };
  totals("loggp", loggp_all, loggp_source);
  parts("loggp", loggp_traced, "sweeps: computation", "sweeps: comm + sync", loggp_source, first_reduction(first.loggp));
  totals("pipeline", pipeline_all, pipeline_source);
  parts("pipeline", pipeline_traced, "sweeps: T_comp", "sweeps: T_comm", pipeline_source,
        first_reduction(first.pipeline));

  const std::string ssv = "Sundaram-Stukel & Vernon Table 2";
  const std::string per_it = " (per iteration, the mean over the run's iterations)";
  table.add_model_term({"loggp", "T_56", first.loggp_sweeps.t_56.total(), ssv + " eq. 7, first iteration"});
  table.add_model_term({"loggp", "T_78", first.loggp_sweeps.t_78.total(), ssv + " eq. 8, first iteration"});
  table.add_model_term({"loggp", "sweeps: computation", loggp_terms.computation / n, ssv + ": W terms on the path" + per_it});
  table.add_model_term({"loggp", "sweeps: communication", loggp_terms.communication / n,
                        ssv + ": Send, Receive, Total_Comm terms on the path (not measurable apart)" + per_it});
  table.add_model_term({"loggp", "sweeps: synchronization", loggp_terms.synchronization / n,
                        ssv + ": (m-1)L and (n-2)L terms (not measurable apart)" + per_it});
  table.add_model_term({"loggp", "T_iter", loggp_all.total() / n, ssv + " eq. 9 + W_before + W_after + reductions" + per_it});
  table.add_model_term({"loggp", "W_before", first.loggp.w_before, "calibrated: " + in.calibration.describe()});
  table.add_model_term({"loggp", "W_after", first.loggp.w_after, "calibrated: " + in.calibration.describe()});
  table.add_model_term({"loggp", "reductions", first.loggp.reductions,
                        "2 x MPI_Allreduce(8 B), recursive doubling; the first: " + first_reduction(first.loggp)});
  const std::string hlw = "Hoisie, Lubeck & Wasserman";
  table.add_model_term({"pipeline", "T_cpu", first.pipeline_sweeps.t_cpu, hlw + " eq. 3 (W_g x block)"});
  table.add_model_term({"pipeline", "T_msg", first.pipeline_sweeps.t_msg, hlw + " eq. 5 (LogGP Total_Comm)"});
  const PipelineSweeps& pl = first.pipeline_sweeps;
  auto count = [](double x) { return std::to_string(static_cast<long long>(x + 0.5)); };
  table.add_model_term({"pipeline", "T_comp", pl.t_comp,
                        hlw + " eq. 6 per axis: " + count(pl.comp_stages) + " x T_cpu (N_sweep " + count(pl.n_sweep) +
                            ", a fill at each of " + std::to_string(pl.starts_i) + " I and " +
                            std::to_string(pl.starts_j) + " J starts of the octant order)"});
  table.add_model_term({"pipeline", "T_comm", pl.t_comm,
                        hlw + " eq. 7 per axis: " + count(pl.comm_stages) + " x T_msg (repetition delay " +
                            count(pl.repetition_delay) + (pl.synchronous ? ", synchronous" : ", eager") +
                            " faces; their §4.3 argument, pipeline_model.cpp)"});
}

}  // namespace sweep3d::model
