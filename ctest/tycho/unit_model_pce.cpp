// PCE (eq. 4) and the per-step layout of the histories, on histories written by hand.
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "tycho/model/history_steps.hpp"
#include "tycho/model/pce.hpp"
#include "tycho/model_report.hpp"

using tycho::RankHistory;
using tycho::StepRecord;
using tycho::model::parallel_computational_efficiency;

namespace {
StepRecord step(std::int32_t iteration, std::int32_t s, std::int64_t work) {
  StepRecord r;
  r.iteration = iteration;
  r.step = s;
  r.work = work;
  return r;
}
}  // namespace

TEST_CASE("PCE of an iteration: ranks of unequal step counts", "[tycho][model]") {
  // Iteration 1: rank 0 does 4, 4, 2; rank 1 does 1, 4 (and no third step).
  // Total 15, W_p = 7.5; max per step 4, 4, 2 -> 10; PCE = 0.75; 3 steps.
  // Iteration 0 (other numbers, recorded in another order) must not leak in.
  std::vector<RankHistory> h(2);
  h[0].steps = {step(0, 0, 100), step(1, 2, 2), step(1, 0, 4), step(1, 1, 4)};
  h[1].steps = {step(1, 0, 1), step(1, 1, 4), step(0, 0, 50), step(0, 1, 50)};
  const auto r = parallel_computational_efficiency(h, 1);
  CHECK(r.ranks == 2);
  CHECK(r.total_work == 15);
  CHECK(r.w_p == Approx(7.5));
  CHECK(r.steps == 3);
  CHECK(r.sum_max_work == 10);
  CHECK(r.pce == Approx(0.75));

  // Iteration 0: rank 0 does 100, rank 1 does 50, 50: 200 in all, W_p 100; max per step
  // 100, 50 -> 150; PCE 2/3, 2 steps.
  const auto r0 = parallel_computational_efficiency(h, 0);
  CHECK(r0.steps == 2);
  CHECK(r0.pce == Approx(2.0 / 3.0));
  CHECK(tycho::model::iterations_in(h) == std::vector<std::int32_t>{0, 1});
}

TEST_CASE("PCE is 1 when every step is as full on every rank", "[tycho][model]") {
  std::vector<RankHistory> h(3);
  for (auto& r : h) r.steps = {step(0, 0, 8), step(0, 1, 8)};
  CHECK(parallel_computational_efficiency(h, 0).pce == Approx(1.0));
}

TEST_CASE("PCE: a missing step counts 0, no work is NaN, bad records are refused",
          "[tycho][model]") {
  // Rank 0 recorded steps 0 and 2 only (step 1 absent -> 0): work [3, 0, 5].
  std::vector<RankHistory> h(1);
  h[0].steps = {step(0, 0, 3), step(0, 2, 5)};
  CHECK(tycho::model::work_by_step(h[0], 0, 0) == std::vector<std::int64_t>{3, 0, 5});
  CHECK(parallel_computational_efficiency(h, 0).steps == 3);
  CHECK(parallel_computational_efficiency(h, 0).pce == Approx(1.0));

  CHECK(std::isnan(parallel_computational_efficiency(h, 7).pce));  // no such iteration

  h[0].steps.push_back(step(0, 2, 1));
  CHECK_THROWS_WITH(parallel_computational_efficiency(h, 0),
                    "tycho model: rank 0, iteration 0: step 2 recorded twice");
  h[0].steps = {step(0, -1, 1)};
  CHECK_THROWS_AS(parallel_computational_efficiency(h, 0), std::invalid_argument);
  h[0].steps = {step(0, 0, -1)};
  CHECK_THROWS_AS(parallel_computational_efficiency(h, 0), std::invalid_argument);
  CHECK_THROWS_AS(parallel_computational_efficiency({}, 0), std::invalid_argument);
}

TEST_CASE("each rank's time per task by iteration: the steps' compute over their work", "[tycho][model]") {
  // Rank 0: iteration 0 two steps of 100 tasks in 15 + 15 us (150 ns a task), iteration 1 one
  // step of 100 in 22.3 us; rank 1: 50 tasks in 7.5 us, then 100 in 12.8 us. The rows are
  // in any order and sum per rank and iteration.
  const auto timed = [](std::int32_t iteration, std::int32_t s, std::int64_t work, double compute) {
    StepRecord r = step(iteration, s, work);
    r.compute_s = compute;
    return r;
  };
  tycho::RunResult result;
  result.histories.resize(2);
  result.histories[0].steps = {timed(1, 0, 100, 22.3e-6), timed(0, 0, 100, 15e-6), timed(0, 1, 100, 15e-6)};
  result.histories[1].steps = {timed(0, 0, 50, 7.5e-6), timed(1, 0, 100, 12.8e-6)};
  const auto rates = tycho::task_rates_by_iteration(result, 0.0);
  REQUIRE(rates.size() == 2);
  CHECK(rates[0].interval == "iteration 0");
  CHECK(rates[0].seconds_per_unit[0] == Approx(150e-9));
  CHECK(rates[0].seconds_per_unit[1] == Approx(150e-9));
  CHECK(rates[1].seconds_per_unit[0] == Approx(223e-9));
  CHECK(rates[1].seconds_per_unit[1] == Approx(128e-9));
  CHECK(instrument::uneven_cpus(rates).ratio == Approx(223.0 / 128));
  CHECK(tycho::task_rates_by_iteration(tycho::RunResult{}, 0.0).empty());
  // Microseconds of compute in all: too short to tell at the default 10 ms.
  CHECK(tycho::task_rates_by_iteration(result).empty());
}
