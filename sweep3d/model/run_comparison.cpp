#include "run_comparison.hpp"

#include "loggp_sweep_model.hpp"
#include "pipeline_model.hpp"

namespace sweep3d::model {

void add_sweep_predictions(instrument::Comparison& table, const MeasuredSweepRun& run,
                           const SweepModelInputs& in) {
  const int plain = run.iterations - run.fixup_iterations;
  const auto lg = predict_loggp(run.shape, in.w_g, in.machine, in.w_before, in.w_after);
  const auto lg_fix = predict_loggp(run.shape, in.w_g_fixup, in.machine, in.w_before, in.w_after);
  const auto pl = predict_pipeline(run.shape, in.w_g, in.machine, in.w_before, in.w_after);
  const auto pl_fix = predict_pipeline(run.shape, in.w_g_fixup, in.machine, in.w_before, in.w_after);
  const std::string source = in.w_source + "; machine: " + in.machine_source;

  auto total = [&](double a, double b) { return plain * a + run.fixup_iterations * b; };
  const double n = run.iterations > 0 ? run.iterations : 1;

  table.add({"loggp", "T_iter (mean)", run.total / n, total(lg.per_iteration, lg_fix.per_iteration) / n, source});
  table.add({"loggp", "T_total", run.total, total(lg.per_iteration, lg_fix.per_iteration), source});
  table.add({"loggp", "computation", run.computation, total(lg.computation, lg_fix.computation),
             source + "; measured: kernel time, max over ranks"});
  table.add({"loggp", "communication", run.communication, total(lg.communication, lg_fix.communication),
             source + "; measured: transfer part of send/recv (LogGPS split)"});
  table.add({"loggp", "synchronization", run.synchronization,
             total(lg.synchronization, lg_fix.synchronization),
             source + "; measured: sync-wait part of send/recv (LogGPS split)"});
  table.add({"pipeline", "T_iter (mean)", run.total / n, total(pl.per_iteration, pl_fix.per_iteration) / n, source});
  table.add({"pipeline", "T_total", run.total, total(pl.per_iteration, pl_fix.per_iteration), source});

  const char* ssv = "Sundaram-Stukel & Vernon Table 2";
  table.add_model_term({"loggp", "T_56", lg.t_56, std::string(ssv) + " eq. 7"});
  table.add_model_term({"loggp", "T_78", lg.t_78, std::string(ssv) + " eq. 8"});
  table.add_model_term({"loggp", "T_iter", lg.per_iteration, std::string(ssv) + " eq. 9 + W_before + W_after"});
  table.add_model_term({"loggp", "T_iter_fixup", lg_fix.per_iteration, std::string(ssv) + " eq. 9 with W_g of fixup iterations"});
  table.add_model_term({"loggp", "W_before", in.w_before, "measured, " + in.w_source});
  table.add_model_term({"loggp", "W_after", in.w_after, "measured, " + in.w_source});
  const char* hlw = "Hoisie, Lubeck & Wasserman";
  table.add_model_term({"pipeline", "T_cpu", pl.t_cpu, std::string(hlw) + " eq. 3 (W_g x block)"});
  table.add_model_term({"pipeline", "T_msg", pl.t_msg, std::string(hlw) + " eq. 5 (LogGP Total_Comm)"});
  table.add_model_term({"pipeline", "T_comp", pl.t_comp, std::string(hlw) + " eq. 6"});
  table.add_model_term({"pipeline", "T_comm", pl.t_comm, std::string(hlw) + " eq. 7"});
}

}  // namespace sweep3d::model
