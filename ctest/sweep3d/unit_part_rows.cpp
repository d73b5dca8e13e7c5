// The part rows of the sweep3d comparison (run_comparison.hpp): each row is the median over
// the traced iterations of the measured part beside the median of the model's term, so one
// iteration's detour or the first iteration's first-use costs do not decide a row, and the
// measured mean is printed beside it. The totals stay the run's mean.
#include <catch2/catch.hpp>

#include <string>

#include "instrument/comparison.hpp"
#include "instrument/machine_file.hpp"
#include "sweep3d/model/loggp_machine_costs.hpp"
#include "sweep3d/model/run_comparison.hpp"
#include "sweep3d/model_report.hpp"
#include "sweep3d/phases.hpp"
#include "model_test_support.hpp"

using namespace sweep3d::model;
using sweep3d::test::chain_1x2;
using sweep3d::test::row;

namespace {

MachineCosts warm_costs() {
  return machine_costs_from_file(instrument::MachineFile::parse(
      "format = suite-machine-1\nloggp.L = 1e-6\nloggp.rendezvous_bytes = 1048576\nloggp.bands = 1\n"
      "loggp.band.1.upper_bytes = 1073741824\nloggp.band.1.o = 1e-6\nloggp.band.1.G = 1e-9\n",
      "hand.machine"));
}

// W_g 3 ns, or 6 ns with fixups on: the computation term doubles in those iterations.
WorkCalibration calibration() {
  WorkCalibration c = sweep3d::test::calibration();
  c.wg_fixup_s = 6e-9;
  return c;
}

// Five iterations: the first pays 1 ms more in its messages, the third a 200 us detour in its
// reductions; the others alike.
MeasuredSweepRun five_iterations() {
  MeasuredSweepRun run;
  run.shape = chain_1x2();
  run.fixups_on = {false, false, false, false, false};
  run.total = 5 * 7.5e-3;
  const IterationParts steady{5e-4, 6.2e-3, 6e-4, 8e-5, 7e-6, 1e-6};
  for (int k = 0; k < 5; ++k) run.path.push_back(steady);
  run.path[0].communication += 1e-3;
  run.path[2].reductions += 200e-6;
  run.path[3].reductions = 9e-6;  // the steady ones: 7, 7, 9 and 7 us; the median 7 us
  return run;
}

}  // namespace

TEST_CASE("a part row is the median iteration's, not the mean of a first iteration and a detour") {
  const MeasuredSweepRun run = five_iterations();
  instrument::Comparison t;
  add_sweep_predictions(t, run, {calibration(), warm_costs(), "hand.machine"});
  for (const char* model : {"loggp", "pipeline"}) {
    CHECK(row(t, model, "reductions").measured == Approx(7e-6));
    CHECK(row(t, model, "W_before (source)").measured == Approx(5e-4));
    CHECK(row(t, model, "W_after (flux error)").measured == Approx(8e-5));
    CHECK(row(t, model, "T_iter (mean)").measured == Approx(7.5e-3));  // the totals keep the mean
  }
  CHECK(row(t, "loggp", "sweeps: comm + sync").measured == Approx(6e-4));
  CHECK(row(t, "pipeline", "sweeps: T_comm").measured == Approx(6e-4));
  CHECK(row(t, "loggp", "sweeps: computation").measured == Approx(6.2e-3));
  // The mean beside the median: (7 + 7 + 207 + 9 + 7) / 5 us = 47.4 us.
  CHECK(row(t, "loggp", "reductions").source.find("the median of the iterations (measured mean 4.74e-05 s)") !=
        std::string::npos);
  CHECK(row(t, "loggp", "sweeps: comm + sync").source.find("(measured mean 0.0008 s)") != std::string::npos);
}

TEST_CASE("the modelled side is the median of the same iterations' terms") {
  MeasuredSweepRun run = five_iterations();
  instrument::Comparison all_off;
  add_sweep_predictions(all_off, run, {calibration(), warm_costs(), "hand.machine"});
  const double off = row(all_off, "loggp", "sweeps: computation").modelled;
  CHECK(off > 0.0);

  // Fixups on in two of five: the median iteration has them off.
  run.fixups_on = {true, true, false, false, false};
  instrument::Comparison two_on;
  add_sweep_predictions(two_on, run, {calibration(), warm_costs(), "hand.machine"});
  CHECK(row(two_on, "loggp", "sweeps: computation").modelled == Approx(off));
  // The totals are means: two iterations at twice W_g move them.
  CHECK(row(two_on, "loggp", "T_iter (mean)").modelled > row(all_off, "loggp", "T_iter (mean)").modelled);

  // In three of five: on. Four iterations traced, two on: the mean of the two middle ones.
  run.fixups_on = {true, true, true, false, false};
  instrument::Comparison three_on;
  add_sweep_predictions(three_on, run, {calibration(), warm_costs(), "hand.machine"});
  const double on = row(three_on, "loggp", "sweeps: computation").modelled;
  CHECK(on > 1.5 * off);
  run.path.pop_back();
  run.fixups_on = {true, true, false, false, false};
  instrument::Comparison four_traced;
  add_sweep_predictions(four_traced, run, {calibration(), warm_costs(), "hand.machine"});
  CHECK(row(four_traced, "loggp", "sweeps: computation").modelled == Approx(0.5 * (on + off)));
  CHECK(row(four_traced, "loggp", "reductions").measured == Approx(8e-6));  // 7, 7, 207, 9 us
  CHECK(row(four_traced, "loggp", "sweeps: computation").source.find("the median of iterations 1-4") !=
        std::string::npos);
}

TEST_CASE("an untraced run has no part rows") {
  MeasuredSweepRun run = five_iterations();
  run.path.clear();
  instrument::Comparison t;
  add_sweep_predictions(t, run, {calibration(), warm_costs(), "hand.machine"});
  CHECK(row(t, "loggp", "T_iter (mean)").measured == Approx(7.5e-3));
  for (const auto& r : t.rows()) CHECK(r.kind == instrument::RowKind::total);
}

TEST_CASE("a walked path's categories land in their parts, whatever their order") {
  namespace cat = sweep3d::category;
  instrument::critical_path::Result path;
  path.categories = {cat::kReductions, cat::kOther, cat::kWAfter, cat::kComputation, cat::kWBefore,
                     cat::kCommunication};
  path.seconds = {{5.0, 6.0, 4.0, 2.0, 1.0, 3.0}, {50.0, 60.0, 40.0, 20.0, 10.0, 30.0}};
  const std::vector<IterationParts> parts = sweep3d::parts_by_iteration(path);
  REQUIRE(parts.size() == 2);
  for (std::size_t k = 0; k < 2; ++k) {
    const double scale = k == 0 ? 1.0 : 10.0;
    CHECK(parts[k].w_before == 1.0 * scale);
    CHECK(parts[k].computation == 2.0 * scale);
    CHECK(parts[k].communication == 3.0 * scale);
    CHECK(parts[k].w_after == 4.0 * scale);
    CHECK(parts[k].reductions == 5.0 * scale);
    CHECK(parts[k].other == 6.0 * scale);
    CHECK(parts[k].total() == 21.0 * scale);
  }
  // A category the walk does not hold (a run without reductions) reads 0.
  path.categories = {cat::kWBefore, cat::kComputation};
  path.seconds = {{1.0, 2.0}};
  const std::vector<IterationParts> two = sweep3d::parts_by_iteration(path);
  REQUIRE(two.size() == 1);
  CHECK(two[0].computation == 2.0);
  CHECK(two[0].reductions == 0.0);
  CHECK(two[0].total() == 3.0);
}
