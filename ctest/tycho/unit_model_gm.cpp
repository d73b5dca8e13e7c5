// The general model (eq. 6, 8, 9) and the choice of MCPS (Figure 10), worked by hand.
#include <catch2/catch.hpp>

#include <limits>
#include <stdexcept>

#include "tycho/model/gm.hpp"

using tycho::model::GmInputs;
using tycho::model::LogicalGrid;
using tycho::model::choose_mcps;
using tycho::model::general_model;
using tycho::model::grid_neighbours;
using tycho::model::logical_grid;

namespace {
void check_grid(int p, int x, int y, int z, int neighbours) {
  INFO("P = " << p);
  const LogicalGrid g = logical_grid(p);
  CHECK(g.x == x);
  CHECK(g.y == y);
  CHECK(g.z == z);
  CHECK(grid_neighbours(g) == neighbours);
}

GmInputs cube_8000() {
  GmInputs in;
  in.cells = 8000;
  in.ranks = 8;
  in.directions = 8;
  in.mcps = 1000;
  in.pce = 0.8;
  in.pce_source = "assumed";
  in.bytes_per_boundary_cell_angle = 8 + 24 * 2;  // 2 groups: 56 B
  in.t_elem = [](double, double) { return 1e-7; };
  in.t_comm = [](std::int64_t bytes) { return 1e-6 + 1e-9 * static_cast<double>(bytes); };
  return in;
}
}  // namespace

TEST_CASE("GM: the logical grid and an interior rank's neighbours", "[tycho][model]") {
  check_grid(1, 1, 1, 1, 0);
  check_grid(2, 2, 1, 1, 1);
  check_grid(3, 3, 1, 1, 2);
  check_grid(7, 7, 1, 1, 2);
  check_grid(8, 2, 2, 2, 3);
  check_grid(12, 3, 2, 2, 4);
  check_grid(16, 4, 2, 2, 4);   // not 4 x 4 x 1: P_x is the smallest possible
  check_grid(27, 3, 3, 3, 6);
  check_grid(64, 4, 4, 4, 6);
  check_grid(4096, 16, 16, 16, 6);
  check_grid(30, 5, 3, 2, 5);
  CHECK_THROWS_AS(logical_grid(0), std::invalid_argument);
}

TEST_CASE("GM: eq. 8, 9 and 6 on a 2 x 2 x 2 grid", "[tycho][model]") {
  // E_p = 1000, W_p = 8000; work steps = 8000 / (1000 x 0.8) = 10, pipeline 1 + 1 + 1 = 3:
  // 13 steps of 1000 tasks at 0.1 us: compute 1.3 ms. N_s = min(100, 100) x 56 = 5600 B,
  // T_comm = 1 + 5.6 = 6.6 us, 3 neighbours: comm = 13 x 3 x 6.6 us = 257.4 us.
  const auto r = general_model(cube_8000());
  CHECK(r.cells_per_rank == Approx(1000));
  CHECK(r.work_steps == Approx(10));
  CHECK(r.pipeline_steps == 3);
  CHECK(r.steps == Approx(13));
  CHECK(r.work_per_step == Approx(1000));
  CHECK(r.messages_per_step == 3);
  CHECK(r.message_bytes == Approx(5600));
  CHECK(r.t_comm_s == Approx(6.6e-6));
  CHECK(r.compute_s == Approx(1.3e-3));
  CHECK(r.comm_s == Approx(257.4e-6));
  CHECK(r.total_s == Approx(1.5574e-3));
  CHECK(r.comm_share == Approx(257.4 / 1557.4));

  // MCPS 8: N_s = min(100, 4) x 56 = 224 B (the step's surface, not the part's face).
  GmInputs small = cube_8000();
  small.mcps = 8;
  CHECK(general_model(small).message_bytes == Approx(224));
}

TEST_CASE("GM: one rank has no pipeline and no messages; MCPS beyond W_p", "[tycho][model]") {
  GmInputs in = cube_8000();
  in.cells = 1000;
  in.ranks = 1;
  in.mcps = 100;
  in.pce = 1.0;
  // W_p = 8000: 80 steps of 100 tasks = 0.8 ms, no communication.
  const auto one = general_model(in);
  CHECK(one.steps == Approx(80));
  CHECK(one.compute_s == Approx(8e-4));
  CHECK(one.comm_s == 0.0);
  CHECK(one.comm_share == 0.0);

  // E_p = 10, N_Omega = 2: W_p = 20 < MCPS = 64, so Work = 20 and the work steps are
  // 20 / (20 x 0.5) = 2 (not 20 / (64 x 0.5) = 0.625); + 3 pipeline = 5 steps of 20 tasks.
  in = cube_8000();
  in.cells = 80;
  in.directions = 2;
  in.mcps = 64;
  in.pce = 0.5;
  const auto big = general_model(in);
  CHECK(big.work_per_step == Approx(20));
  CHECK(big.steps == Approx(5));
  CHECK(big.compute_s == Approx(5 * 20 * 1e-7));
}

TEST_CASE("GM: T_step is charged once a step, beside compute and comm", "[tycho][model]") {
  GmInputs in = cube_8000();
  const auto paper = general_model(in);
  CHECK(paper.bookkeeping_s == 0.0);
  in.step_overhead_s = 1e-6;
  const auto ours = general_model(in);
  CHECK(ours.steps == Approx(paper.steps));
  CHECK(ours.compute_s == Approx(paper.compute_s));
  CHECK(ours.comm_s == Approx(paper.comm_s));
  CHECK(ours.bookkeeping_s == Approx(paper.steps * 1e-6));
  CHECK(ours.total_s == Approx(paper.total_s + paper.steps * 1e-6));
  CHECK(ours.comm_share == Approx(ours.comm_s / ours.total_s));
  in.step_overhead_s = -1e-9;
  CHECK_THROWS_AS(general_model(in), std::invalid_argument);
  in.step_overhead_s = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(general_model(in), std::invalid_argument);
}

TEST_CASE("GM: inputs out of range are refused", "[tycho][model]") {
  GmInputs in = cube_8000();
  in.pce = 0.0;
  CHECK_THROWS_AS(general_model(in), std::invalid_argument);
  in = cube_8000();
  in.mcps = 0;
  CHECK_THROWS_AS(general_model(in), std::invalid_argument);
  in = cube_8000();
  in.cells = 4;  // fewer cells than ranks
  CHECK_THROWS_AS(general_model(in), std::invalid_argument);
  in = cube_8000();
  in.t_elem = nullptr;
  CHECK_THROWS_AS(general_model(in), std::invalid_argument);
  in = cube_8000();
  in.t_elem = [](double, double) { return -1.0; };
  CHECK_THROWS_AS(general_model(in), std::invalid_argument);
  CHECK_THROWS_AS(choose_mcps(cube_8000(), 1.5), std::invalid_argument);
}

TEST_CASE("GM: choosing MCPS by the communication share (Figure 10)", "[tycho][model]") {
  // N = 64, P = 8 (2 x 2 x 2: pipeline 3, 3 neighbours), N_Omega = 1: W_p = 8, PCE = 1,
  // T_elem = 1 s, T_comm = 0.5 s whatever the size. For MCPS m: steps = 8/m + 3,
  // compute = 8 + 3m, comm = 1.5 (8/m + 3) = 12/m + 4.5. Candidates 1, 2, 3, 4, 6, 8:
  //   m:      1     2      3     4      6     8
  //   total:  27.5  24.5   25.5  27.5   32.5  38
  //   share:  .600  .429   .333  .273   .200  .158
  GmInputs in;
  in.cells = 64;
  in.ranks = 8;
  in.directions = 1;
  in.pce = 1.0;
  in.bytes_per_boundary_cell_angle = 1;
  in.t_elem = [](double, double) { return 1.0; };
  in.t_comm = [](std::int64_t) { return 0.5; };

  auto c = choose_mcps(in, 0.3);  // 4, 6, 8 qualify; 4 is the fastest
  CHECK(c.mcps == 4);
  CHECK(c.within_share);
  CHECK(c.prediction.total_s == Approx(27.5));
  CHECK_THAT(c.reason, Catch::Contains("least GM time of the 3 of 6 candidates"));

  CHECK(choose_mcps(in, 0.25).mcps == 6);
  CHECK(choose_mcps(in, 1.0).mcps == 2);  // every one qualifies: the fastest

  c = choose_mcps(in, 0.1);  // none qualifies: the smallest share
  CHECK(c.mcps == 8);
  CHECK(!c.within_share);
  CHECK(c.prediction.comm_share == Approx(6.0 / 38.0));
  CHECK_THAT(c.reason, Catch::Contains("no candidate of 6"));
}
