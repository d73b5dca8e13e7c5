// Each process's time per finest-grid cell in each cycle (model_report.hpp's
// cell_rates_by_cycle), from a hand-made profile with rows per process: the finest grid's
// smoothing supersteps alone, over the cells each process holds, a process without cells left
// out; and the line it puts under the comparison when one process ran 2x slower.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "instrument/comparison.hpp"
#include "instrument/uneven_cpus.hpp"
#include "multigrid/cycle.hpp"
#include "multigrid/model_report.hpp"
#include "multigrid/superstep_tag.hpp"

namespace {

// A superstep whose process q computed for w[q] seconds, then spent 1 us in the sync.
bspmodel::SuperstepSummary step(const char* label, const std::vector<double>& w) {
  bspmodel::SuperstepSummary s;
  s.label = label;
  for (double x : w) {
    bspmodel::ProcessStep ps{};
    ps.t_begin = 1.0;
    ps.t_enter = 1.0 + x;
    ps.t_exit = 1.0 + x + 1e-6;
    s.per_process.push_back(ps);
    s.w_max = std::max(s.w_max, x);
  }
  return s;
}

// A two-grid run, one cycle per entry of `slow` (each process's factor on its computation in
// that cycle): per cycle 2 pre- and 2 post-smoothing supersteps on grid 1 of 4 us per 1000
// cells a process holds, 3 coarse ones on grid 2 and a monitor superstep, where process 0
// takes 1 ms (neither is the finest grid's smoothing: not counted). Process 0's first
// pre-smoothing superstep of a cycle holds 4 ms more, what it did between cycles: not counted.
mg::RunResult run_of(const std::vector<std::int64_t>& cells, const std::vector<std::vector<double>>& slow) {
  mg::RunResult r;
  r.p = static_cast<int>(cells.size());
  r.grids.resize(2);
  r.grids[0].process_cells = cells;
  for (std::int64_t n : cells) r.grids[0].cells += n;
  for (const std::vector<double>& f : slow) {
    r.cycle_seconds.push_back(1e-3);
    std::vector<double> fine, other(cells.size(), 1e-6);
    for (std::size_t q = 0; q < cells.size(); ++q) fine.push_back(4e-6 * static_cast<double>(cells[q]) / 1000 * f[q]);
    other[0] = 1e-3;
    std::vector<double> printed = fine;
    printed[0] += 4e-3;
    r.profile.steps.push_back(step("grid 1 pre-smooth", printed));
    r.profile.steps.push_back(step("grid 1 pre-smooth", fine));
    for (int k = 0; k < 3; ++k) r.profile.steps.push_back(step("grid 2 coarse", other));
    r.profile.steps.push_back(step("grid 1 post-smooth", fine));
    r.profile.steps.push_back(step("grid 1 post-smooth", fine));
    r.profile.steps.push_back(step("monitor norm", other));
  }
  r.superstep_tags = mg::tag_supersteps(r.profile, mg::cycle_labels(2));
  return r;
}

}  // namespace

TEST_CASE("a process 2x slower in one cycle: ratio 2 there, 1 in the others") {
  const mg::RunResult r = run_of({1000, 1000}, {{1, 1}, {1, 2}, {1, 1}});
  const std::vector<instrument::RankRates> rates = mg::cell_rates_by_cycle(r, 0.0);
  REQUIRE(rates.size() == 3);
  CHECK(rates[0].interval == "cycle 1");
  CHECK(rates[1].interval == "cycle 2");
  CHECK(rates[2].interval == "cycle 3");
  // 4 us a superstep over 1000 cells: 4 ns a cell and application, the coarse grid's and the
  // monitor's 1 ms on process 0 not in it, nor its 4 ms before the cycle's first superstep.
  REQUIRE(rates[0].seconds_per_unit.size() == 2);
  CHECK(rates[0].seconds_per_unit[0] == Approx(4e-9));
  CHECK(rates[0].seconds_per_unit[1] == Approx(4e-9));
  CHECK(rates[1].seconds_per_unit[0] == Approx(4e-9));
  CHECK(rates[1].seconds_per_unit[1] == Approx(8e-9));
  CHECK(instrument::uneven_cpus({rates[0]}).ratio == Approx(1.0));
  CHECK(instrument::uneven_cpus({rates[2]}).ratio == Approx(1.0));
  const instrument::UnevenCpus u = instrument::uneven_cpus(rates);
  CHECK(u.ratio == Approx(2.0));
  CHECK(u.interval == "cycle 2");
  CHECK(u.slow_rank == 1);
  CHECK(u.fast_rank == 0);
}

TEST_CASE("per cell each process holds: twice the cells in twice the time is the same speed") {
  const std::vector<instrument::RankRates> rates = mg::cell_rates_by_cycle(run_of({2000, 1000}, {{1, 1}, {1, 1}}), 0.0);
  REQUIRE(rates.size() == 2);
  for (const instrument::RankRates& in : rates) {
    CHECK(in.seconds_per_unit[0] == Approx(4e-9));
    CHECK(in.seconds_per_unit[1] == Approx(4e-9));
  }
  CHECK(instrument::uneven_cpus(rates).ratio == Approx(1.0));
}

TEST_CASE("a process with no cells of the finest grid is left out as 0") {
  mg::RunResult r = run_of({1000, 0, 1000}, {{1, 1, 1}, {1.2, 1, 1}});
  // Its node passes over nothing still take a little time: not a rate.
  for (std::size_t k = 0; k < r.profile.steps.size(); ++k)
    if (r.superstep_tags[k].grid == 1) r.profile.steps[k].per_process[1].t_enter = 1.0 + 1e-8;
  const std::vector<instrument::RankRates> rates = mg::cell_rates_by_cycle(r, 0.0);
  REQUIRE(rates.size() == 2);
  REQUIRE(rates[0].seconds_per_unit.size() == 3);
  CHECK(rates[0].seconds_per_unit[0] == Approx(4e-9));
  CHECK(rates[0].seconds_per_unit[1] == 0.0);
  CHECK(rates[0].seconds_per_unit[2] == Approx(4e-9));
  CHECK(rates[1].seconds_per_unit[1] == 0.0);
  const instrument::UnevenCpus u = instrument::uneven_cpus(rates);
  CHECK(u.ratio == Approx(1.2));
  CHECK(u.slow_rank == 0);
  CHECK(u.fast_rank == 2);
}

TEST_CASE("one grid: its smoothing is the coarse phase; no rates without rows, whole cycles or two a cycle") {
  mg::RunResult one;
  one.p = 2;
  one.grids.resize(1);
  one.grids[0].process_cells = {500, 500};
  for (int c = 0; c < 2; ++c) {
    one.cycle_seconds.push_back(1e-3);
    one.profile.steps.push_back(step("grid 1 coarse", {1e-3, 5e-6}));  // the first: not counted
    for (int k = 0; k < 2; ++k) one.profile.steps.push_back(step("grid 1 coarse", {5e-6, c == 1 ? 10e-6 : 5e-6}));
  }
  one.superstep_tags = mg::tag_supersteps(one.profile, mg::cycle_labels(1));
  const std::vector<instrument::RankRates> rates = mg::cell_rates_by_cycle(one, 0.0);
  REQUIRE(rates.size() == 2);
  CHECK(rates[0].seconds_per_unit[0] == Approx(10e-9));
  CHECK(rates[1].seconds_per_unit[0] == Approx(10e-9));
  CHECK(rates[1].seconds_per_unit[1] == Approx(20e-9));
  // One smoothing superstep a cycle (--pre 1 --post 0, or --coarse-iterations 1 on one grid):
  // only the first, which is left out.
  mg::RunResult single = one;
  single.profile.steps.resize(3);
  single.superstep_tags.resize(3);
  single.cycle_seconds.assign(3, 1e-3);
  CHECK(mg::cell_rates_by_cycle(single, 0.0).empty());

  // A profile without rows per process (one read back from w alone): nothing to compare.
  mg::RunResult bare = run_of({1000, 1000}, {{1, 1}});
  for (bspmodel::SuperstepSummary& s : bare.profile.steps) s.per_process.clear();
  CHECK(mg::cell_rates_by_cycle(bare, 0.0).empty());
  // Supersteps that do not split into the cycles said: no cycle is told apart.
  mg::RunResult split = run_of({1000, 1000}, {{1, 1}, {1, 1}});
  split.cycle_seconds.push_back(1e-3);  // 3 cycles said, 8 supersteps
  CHECK(mg::cell_rates_by_cycle(split, 0.0).empty());
  CHECK(mg::cell_rates_by_cycle(mg::RunResult{}, 0.0).empty());
  // Some of the finest grid's cells loose (a --partition that cut families): their share per
  // process is not known, so no rates; all loose (a mesh sequence's grid): the same work.
  mg::RunResult cut = run_of({1000, 1000}, {{1, 1}, {1, 1}});
  cut.grids[0].loose_cells = 16;
  CHECK(mg::cell_rates_by_cycle(cut, 0.0).empty());
  cut.grids[0].loose_cells = 2000;
  CHECK(mg::cell_rates_by_cycle(cut, 0.0).size() == 2);
}

TEST_CASE("a process 2x slower marks the comparison, per cell; 1.2x does not") {
  instrument::Comparison even;
  even.add({.model = "eq5", .term = "T_cycle", .measured = 1.0, .modelled = 1.1, .source = "s"});
  instrument::Comparison uneven = even;
  instrument::mark_if_uneven_cpus(even, mg::cell_rates_by_cycle(run_of({1000, 1000}, {{1, 1}, {1.2, 1}}), 0.0), "cell");
  CHECK(even.reliable());
  instrument::mark_if_uneven_cpus(uneven, mg::cell_rates_by_cycle(run_of({1000, 1000}, {{1, 1}, {1, 2}}), 0.0), "cell");
  CHECK_FALSE(uneven.reliable());
  CHECK(uneven.unreliable_because() ==
        "cpus: rank 1 took 2.00x rank 0's time per cell in cycle 2 (8 ns against 4 ns): its CPU ran slower (the "
        "host's load on it); the measured-vs-modelled comparison is unreliable");
}

TEST_CASE("cycles joined until each process has 10 ms of smoothing; microseconds in all are not judged") {
  // 3 counted supersteps of 4 ns x 10^6 cells = 12 ms a cycle: a span each at 10 ms.
  const std::vector<instrument::RankRates> each = mg::cell_rates_by_cycle(run_of({1000000, 1000000}, {{1, 1}, {1, 2}}));
  REQUIRE(each.size() == 2);
  CHECK(each[1].interval == "cycle 2");
  CHECK(instrument::uneven_cpus(each).ratio == Approx(2.0));
  // At 2.5 x 10^5 cells 3 ms a cycle (4.5 ms for process 1 in cycle 4): four cycles make a
  // span, the fifth, short, joins it.
  const std::vector<instrument::RankRates> joined =
      mg::cell_rates_by_cycle(run_of({250000, 250000}, {{1, 1}, {1, 1}, {1, 1}, {1, 1.5}, {1, 1}}));
  REQUIRE(joined.size() == 1);
  CHECK(joined[0].interval == "cycles 1-5");
  CHECK(joined[0].seconds_per_unit[1] == Approx(4e-9 * 5.5 / 5));
  // The run of the cases above, 12 us a cycle: too short to tell, however far apart.
  CHECK(mg::cell_rates_by_cycle(run_of({1000, 1000}, {{1, 1}, {1, 3}})).empty());
}
