// The run summary's T_elem and its solve part (run_report.hpp), on a result written by hand.
#include <catch2/catch.hpp>

#include <optional>

#include "tycho/run_report.hpp"

using tycho::RunResult;

namespace {

// Two ranks of 10 and 30 tasks a sweep, three iterations (the first left out of both figures:
// first_scored_iteration), with each rank's times over the scored ones as the driver gathers
// them: compute 4 and 8 us, of which gathers and solves 3 and 5 us.
RunResult two_ranks() {
  RunResult r;
  r.transport.iterations.resize(3);
  r.tasks = {10, 30};
  r.compute_s = {4e-6, 8e-6};
  r.gather_solve_s = {3e-6, 5e-6};
  return r;
}

}  // namespace

TEST_CASE("the solve part of T_elem is over the same tasks as T_elem", "[run_report]") {
  const RunResult r = two_ranks();
  // Scored: iterations 1 and 2, 2 x (10 + 30) = 80 tasks; gathers and solves 8 us, compute 12.
  CHECK(tycho::measured_t_gather_solve(r) == Approx(8e-6 / 80).epsilon(1e-12));
  CHECK(tycho::measured_t_elem(r) == Approx(12e-6 / 80).epsilon(1e-12));
}

TEST_CASE("with two iterations or fewer every iteration is scored", "[run_report]") {
  RunResult r = two_ranks();
  r.transport.iterations.resize(2);  // the times then cover both: 2 x 40 tasks
  CHECK(tycho::measured_t_gather_solve(r) == Approx(8e-6 / 80).epsilon(1e-12));
  r.transport.iterations.resize(1);  // one sweep of 40 tasks
  CHECK(tycho::measured_t_gather_solve(r) == Approx(8e-6 / 40).epsilon(1e-12));
}

TEST_CASE("no tasks give a solve part of 0, not a division by zero", "[run_report]") {
  RunResult r;
  r.transport.iterations.resize(1);
  CHECK(tycho::measured_t_gather_solve(r) == 0.0);
}

TEST_CASE("the scored sweeps' PCE is theirs as one: W_p summed over their fullest ranks summed", "[run_report]") {
  // Two ranks of 10 tasks a sweep, two steps a sweep. Sweep 0 (left out): 10, 0 against 0, 10
  // (PCE 0.5); sweep 1: 6, 4 against 4, 6 (10 / 12); sweep 2: 5, 5 both (1).
  RunResult r;
  r.transport.iterations.resize(3);
  const std::int64_t work[2][3][2] = {{{10, 0}, {6, 4}, {5, 5}}, {{0, 10}, {4, 6}, {5, 5}}};
  for (int p = 0; p < 2; ++p) {
    tycho::RankHistory h;
    for (int i = 0; i < 3; ++i)
      for (int s = 0; s < 2; ++s) h.steps.push_back({.iteration = i, .step = s, .work = work[p][i][s]});
    r.histories.push_back(h);
  }
  const std::optional<tycho::model::PceOfIteration> pce = tycho::scored_sweeps_pce(r);
  REQUIRE(pce);
  CHECK(pce->pce == Approx(20.0 / 22.0).epsilon(1e-12));  // not the mean of 10/12 and 1, nor with sweep 0's
  CHECK(pce->w_p == Approx(20.0));
  CHECK(pce->sum_max_work == 22);
  CHECK(pce->steps == 2);
  CHECK(pce->iteration == 2);
  CHECK(tycho::last_sweep_pce(r)->pce == 1.0);
  r.transport.iterations.resize(2);  // two sweeps: both scored, (10 + 10) / (20 + 12)
  CHECK(tycho::scored_sweeps_pce(r)->pce == Approx(20.0 / 32.0).epsilon(1e-12));
  r.histories.clear();
  CHECK_FALSE(tycho::scored_sweeps_pce(r));
}
