// bspprobe's fits (bsp_probe_fit.hpp) on hand-worked cases and on synthetic data from known
// parameters. No MPI, no timing.
#include <catch2/catch.hpp>

#include <vector>

#include "bsplib/model/bsp_probe_fit.hpp"

using namespace bspmodel;

TEST_CASE("fit_supersteps gives back l and g of an exact line") {
  // T(h) = 1.5 us + 0.25 ns/B h, the probe's h values at p = 2
  const std::vector<double> h{0, 256, 1024, 4096, 16384, 32768, 65536, 131072, 262144};
  std::vector<double> t;
  for (double x : h) t.push_back(1.5e-6 + 0.25e-9 * x);
  const LineOfSupersteps f = fit_supersteps(h, t);
  CHECK(f.l == Approx(1.5e-6).epsilon(1e-9));
  CHECK(f.g == Approx(0.25e-9).epsilon(1e-9));
  CHECK_FALSE(f.l_fixed);
  CHECK(f.worst_residual < 1e-9);
}

TEST_CASE("a negative intercept is refused: l is the first point's T, g refitted") {
  // Worked by hand. T = 1, 3, 5 us at h = 1000, 2000, 3000 B lie on the line -1 us + 2 ns/B h,
  // whose intercept is negative: l = T(h[0]) = 1 us, and g minimises
  // sum ((l + g h - T) / T)^2:  g = sum h (T - l) / T^2 / sum h^2 / T^2
  //   = [0 + 2000 * 2e-6 / 9e-12 + 3000 * 4e-6 / 25e-12]
  //     / [1e6 / 1e-12 + 4e6 / 9e-12 + 9e6 / 25e-12]  (= 5.1232e-10 s/B).
  const std::vector<double> h{1000, 2000, 3000}, t{1e-6, 3e-6, 5e-6};
  const double g = (2000 * 2e-6 / 9e-12 + 3000 * 4e-6 / 25e-12) /
                   (1e6 / 1e-12 + 4e6 / 9e-12 + 9e6 / 25e-12);
  const LineOfSupersteps f = fit_supersteps(h, t);
  CHECK(f.l_fixed);
  CHECK(f.l == 1e-6);
  CHECK(f.g == Approx(g).epsilon(1e-12));
  CHECK(g == Approx(5.1232e-10).epsilon(1e-4));
  // the worst point is the first: |1 us + 1000 g - 1 us| / 1 us = 0.512
  CHECK(f.worst_residual == Approx(1000 * g / 1e-6).epsilon(1e-9));
}

TEST_CASE("with the empty superstep in the data the relative fit keeps l near it") {
  // A noisy small point (0.2 us at 1000 B) and a steep tail: the relative fit weighs T(0)
  // by 1/T(0), so l stays positive and no fixing happens.
  const LineOfSupersteps f = fit_supersteps({0, 1000, 2000, 3000}, {1e-6, 0.2e-6, 3e-6, 5e-6});
  CHECK_FALSE(f.l_fixed);
  CHECK(f.l > 0);
  CHECK(f.l < 1e-6);
}

TEST_CASE("fit_granularity gives back N_1/2 of eq. 3 with g_inf given or taken") {
  const double g_inf = 0.3e-9, n_half = 96;
  const std::vector<double> x{8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
  std::vector<double> t;
  for (double v : x) t.push_back(g_inf * (1 + n_half / v));
  const GranularityFit given = fit_granularity(x, t, g_inf);
  CHECK(given.g_inf == g_inf);
  CHECK(given.n_half == Approx(n_half).epsilon(1e-9));
  // g_inf taken as the smaller of the two largest-x points: t(4096) = g_inf (1 + 96/4096),
  // so the fit's asymptote is 2.3% high and N_1/2 comes out lower, still near 96.
  const GranularityFit taken = fit_granularity(x, t);
  CHECK(taken.g_inf == Approx(g_inf * (1 + n_half / 4096)).epsilon(1e-12));
  CHECK(taken.n_half > 80);
  CHECK(taken.n_half < n_half);
}

TEST_CASE("fit_granularity by hand, and its guards") {
  // g_inf = 1, points (x, t) = (1, 3), (2, 2): minimise sum ((1 + N / x - t) / t)^2:
  //   N = sum (t - 1) / (x t^2) / sum 1 / (x^2 t^2) = (2/9 + 1/8) / (1/9 + 1/16) = 2.
  const GranularityFit f = fit_granularity({1, 2}, {3, 2}, 1);
  CHECK(f.n_half == Approx(2.0).epsilon(1e-12));
  // faster small messages than large ones (noise): N_1/2 is 0, not negative
  CHECK(fit_granularity({8, 16, 32}, {0.5, 0.8, 1.0}, 1).n_half == 0);
  // fewer than two points, or no positive asymptote: nothing fitted
  CHECK(fit_granularity({8}, {1}).n_half == 0);
  CHECK(fit_granularity({8, 16}, {0, 0}).g_inf == 0);
}

TEST_CASE("time per byte after the empty superstep") {
  CHECK(time_per_byte_after(5e-6, 1e-6, 1000) == Approx(4e-9));
  CHECK(time_per_byte_after(0.5e-6, 1e-6, 1000) == 0);  // below T(0): 0
  CHECK(time_per_byte_after(5e-6, 1e-6, 0) == 0);
}
