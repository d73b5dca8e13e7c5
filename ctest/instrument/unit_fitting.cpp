// The least-squares arithmetic of instrument/fitting.hpp on systems solved by hand.
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "instrument/fitting.hpp"

using namespace instrument;

TEST_CASE("least squares solves an exact system and detects dependence", "[fitting]") {
  // x = 2, y = -3 from three consistent equations with very different column scales.
  const std::vector<std::vector<double>> rows = {{1, 1e6}, {1, 2e6}, {1, 4e6}};
  const std::vector<double> rhs = {2 - 3e6, 2 - 6e6, 2 - 12e6};
  const auto x = least_squares(rows, rhs);
  CHECK(x[0] == Approx(2.0).epsilon(1e-9));
  CHECK(x[1] == Approx(-3.0).epsilon(1e-12));
  CHECK_THROWS(least_squares({{1, 2}, {2, 4}}, {1, 2}));
}

TEST_CASE("non-negative least squares: the unconstrained answer when it is >= 0", "[fitting]") {
  // x = 2, y = 3, scales 1 and 1e6 as above.
  const auto x = nonnegative_least_squares({{1, 1e6}, {1, 2e6}, {1, 4e6}}, {2 + 3e6, 2 + 6e6, 2 + 12e6});
  CHECK(x[0] == Approx(2.0).epsilon(1e-9));
  CHECK(x[1] == Approx(3.0).epsilon(1e-12));
}

TEST_CASE("non-negative least squares: a bound becomes active", "[fitting]") {
  // y = a + b t through (0, 3), (1, 2), (2, 1): unconstrained a = 3, b = -1. With b >= 0 the
  // best is b = 0 and a = the mean of 3, 2, 1 = 2 (by hand: d/da sum (a - y)^2 = 0).
  const std::vector<std::vector<double>> rows = {{1, 0}, {1, 1}, {1, 2}};
  const auto free = least_squares(rows, {3, 2, 1});
  CHECK(free[1] == Approx(-1.0));
  const auto x = nonnegative_least_squares(rows, {3, 2, 1});
  CHECK(x[0] == Approx(2.0));
  CHECK(x[1] == 0.0);
  // With b >= -0.5 instead: b = -0.5, and a minimises sum (a - (y + 0.5 t))^2, the mean of
  // 3, 2.5, 2 = 2.5.
  const auto lo = nonnegative_least_squares(rows, {3, 2, 1}, {0.0, -0.5});
  CHECK(lo[0] == Approx(2.5));
  CHECK(lo[1] == Approx(-0.5));
  // Both at the bound: every column only raises the residual of a negative target.
  const auto z = nonnegative_least_squares({{1, 1}, {1, 2}}, {-1, -2});
  CHECK(z[0] == 0.0);
  CHECK(z[1] == 0.0);
}

TEST_CASE("non-negative least squares: a column without data gets 0", "[fitting]") {
  // x0 = 1.5 (mean of 1 and 2), the zero column 0, x2 = 4.
  const auto x = nonnegative_least_squares({{1, 0, 0}, {1, 0, 0}, {0, 0, 1}}, {1, 2, 4});
  CHECK(x[0] == Approx(1.5));
  CHECK(x[1] == 0.0);
  CHECK(x[2] == Approx(4.0));
  CHECK_THROWS_AS(nonnegative_least_squares({}, {}), std::runtime_error);
}

TEST_CASE("ordinary line fit", "[fitting]") {
  // (0, 1), (1, 3), (2, 5), (3, 7): y = 1 + 2x exactly.
  const auto f = fit_line({0, 1, 2, 3}, {1, 3, 5, 7});
  CHECK(f.intercept == Approx(1.0));
  CHECK(f.slope == Approx(2.0));
  // (0, 0), (1, 1), (2, 5): mean x = 1, mean y = 2; slope = sum (x - 1)(y - 2) / sum (x - 1)^2
  // = ((-1)(-2) + 0 + (1)(3)) / 2 = 2.5; intercept 2 - 2.5 = -0.5.
  const auto g = fit_line({0, 1, 2}, {0, 1, 5});
  CHECK(g.slope == Approx(2.5));
  CHECK(g.intercept == Approx(-0.5));
  const auto flat = fit_line({4, 4}, {1, 3});  // all x equal: through the mean
  CHECK(flat.slope == 0.0);
  CHECK(flat.intercept == 2.0);
  CHECK(fit_line({}, {}).slope == 0.0);
  CHECK_THROWS_AS(fit_line({1, 2}, {1}), std::invalid_argument);
}

TEST_CASE("relative line fit with a fixed intercept, and points it leaves out", "[fitting]") {
  // a = 1 fixed, points (1, 2), (2, 2): b = sum x (y - a)/y^2 / sum x^2/y^2
  // = (1/4 + 2/4) / (1/4 + 4/4) = 0.75 / 1.25 = 0.6.
  const auto f = fit_line_relative({1, 2}, {2, 2}, 1.0);
  CHECK(f.intercept == 1.0);
  CHECK(f.slope == Approx(0.6));
  // y <= 0 has no relative error: left out (y = 1 + x through the rest).
  const auto g = fit_line_relative({0, 1, 2, 3}, {-1, 2, 3, 4});
  CHECK(g.intercept == Approx(1.0));
  CHECK(g.slope == Approx(1.0));
  // All x equal: the constant minimising sum ((a - y)/y)^2, a = sum(1/y) / sum(1/y^2)
  // = (1/2 + 1/4) / (1/4 + 1/16) = 0.75 / 0.3125 = 2.4.
  const auto h = fit_line_relative({3, 3}, {2, 4});
  CHECK(h.slope == 0.0);
  CHECK(h.intercept == Approx(2.4));
  CHECK(fit_line_relative({}, {}).intercept == 0.0);
  CHECK_THROWS_AS(fit_line_relative({1, 2}, {1}), std::invalid_argument);
}

TEST_CASE("relative line fit recovers a line and handles one point", "[fitting]") {
  const auto f = fit_line_relative({1, 10, 100}, {5 + 2, 5 + 20, 5 + 200});
  CHECK(f.intercept == Approx(5.0));
  CHECK(f.slope == Approx(2.0));
  const auto one = fit_line_relative({7}, {3});
  CHECK(one.intercept == 3.0);
  CHECK(one.slope == 0.0);
  CHECK(relative_error(11.0, 10.0) == Approx(0.1));
}

TEST_CASE("clamped log line: a ln x + b between the measured x, held outside", "[fitting]") {
  // (e^6, 2), (e^7, 2.5), (e^8, 4): ln x = 6, 7, 8, mean 7, mean y 17/6; slope = (-1)(2 - 17/6)
  // + (1)(4 - 17/6) over 2 = 1, intercept 17/6 - 7.
  const ClampedLogLine c = fit_clamped_log_line({std::exp(6.0), std::exp(7.0), std::exp(8.0)}, {2.0, 2.5, 4.0});
  CHECK(c.slope == Approx(1.0));
  CHECK(c.intercept == Approx(17.0 / 6.0 - 7.0));
  CHECK(c.lo == Approx(std::exp(6.0)));
  CHECK(c.hi == Approx(std::exp(8.0)));
  CHECK(c(std::exp(7.5)) == Approx(7.5 + 17.0 / 6.0 - 7.0));
  CHECK(c(1.0) == Approx(6.0 + 17.0 / 6.0 - 7.0));    // below lo: its value at lo
  CHECK(c(1e9) == Approx(8.0 + 17.0 / 6.0 - 7.0));    // above hi: its value at hi
  CHECK(c.positive_at_ends());
  // One x (twice): a constant, the mean.
  const ClampedLogLine k = fit_clamped_log_line({500.0, 500.0}, {1.0, 3.0});
  CHECK(k.slope == 0.0);
  CHECK(k(1.0) == Approx(2.0));
  CHECK(k(1e6) == Approx(2.0));
  // A falling line through 0 inside the range is refused by the caller via positive_at_ends.
  CHECK_FALSE(fit_clamped_log_line({std::exp(1.0), std::exp(3.0)}, {1.0, -1.0}).positive_at_ends());
  CHECK_THROWS_AS(fit_clamped_log_line({}, {}), std::invalid_argument);
  CHECK_THROWS_AS(fit_clamped_log_line({0.0}, {1.0}), std::invalid_argument);
  CHECK_THROWS_AS(fit_clamped_log_line({1.0, 2.0}, {1.0}), std::invalid_argument);
  CHECK_THROWS_AS(c(0.0), std::invalid_argument);
}
