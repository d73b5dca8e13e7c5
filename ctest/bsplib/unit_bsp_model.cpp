// The BSP cost model and the line fits bspprobe uses, on hand-computed cases and on
// synthetic data from known parameters. No MPI, no timing.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "bsplib/model/cost_model.hpp"
#include "instrument/fitting.hpp"

using namespace bspmodel;
using instrument::fit_line;
using instrument::fit_line_relative;
using instrument::LineFit;

TEST_CASE("fit_line and fit_line_relative give back an exact line") {
  // T(h) = 2 us + 3 ns/B h
  std::vector<double> h{0, 256, 1024, 4096, 16384, 65536}, t;
  for (double x : h) t.push_back(2e-6 + 3e-9 * x);
  for (const LineFit f : {fit_line(h, t), fit_line_relative(h, t)}) {
    CHECK(f.intercept == Approx(2e-6).epsilon(1e-9));
    CHECK(f.slope == Approx(3e-9).epsilon(1e-9));
  }
  const LineFit fixed = fit_line_relative(h, t, 1e-6);
  CHECK(fixed.intercept == 1e-6);
  CHECK(fixed.slope > 3e-9);  // the slope takes up what the lower intercept leaves
}

TEST_CASE("the relative fit keeps l where the small supersteps put it") {
  // The line of the small supersteps, with the largest h 20% slow (a noisy repetition):
  // ordinary least squares lets that point drag the intercept far off; the relative fit
  // keeps l within a few percent of the truth.
  std::vector<double> h{0, 256, 1024, 4096, 16384, 32768, 65536, 131072, 262144}, t;
  for (double x : h) t.push_back(1e-6 + 2e-9 * x);
  t.back() *= 1.2;
  const LineFit ols = fit_line(h, t), rel = fit_line_relative(h, t);
  CHECK(std::abs(ols.intercept - 1e-6) > 5e-6);  // what went wrong before: l off by 5x and more
  CHECK(rel.intercept == Approx(1e-6).epsilon(0.05));
  CHECK(rel.slope == Approx(2e-9).epsilon(0.1));
}

TEST_CASE("fit_line_relative ignores non-positive times and degenerate input") {
  const LineFit empty = fit_line_relative({}, {});
  CHECK(empty.intercept == 0);
  CHECK(empty.slope == 0);
  const LineFit f = fit_line_relative({0, 1, 2, 3}, {-1, 2, 3, 4});  // y = 1 + x without x = 0
  CHECK(f.intercept == Approx(1.0));
  CHECK(f.slope == Approx(1.0));
}

TEST_CASE("cost model: l + h g, l + (h + N_1/2) g, g(x), h_0 (eq. 1-4)") {
  BspMachine m;
  m.l_seconds = 159.962e-6;  // IBM SP2 switch, p = 4 (Table 1, in seconds)
  m.g_seconds_per_byte = 74.0385e-9;
  m.n_half_bytes = 24;
  CHECK(comm_sync_standard(m, 2000) == Approx(159.962e-6 + 2000 * 74.0385e-9));
  CHECK(comm_sync_standard(m, 2000) == Approx(308.039e-6).epsilon(1e-5));
  CHECK(comm_sync_granular(m, 2000) == Approx(309.816e-6).epsilon(1e-5));
  CHECK(comm_sync_granular(m, 0) == m.l_seconds);  // no message, no N_1/2
  CHECK(g_of_x(m, 24) == Approx(2 * 74.0385e-9));  // x = N_1/2: half the asymptotic rate
  CHECK(h0_bytes(24, 10) == Approx(240));
}
