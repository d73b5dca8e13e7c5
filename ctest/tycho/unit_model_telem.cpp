// T_elem(E_p) in the paper's piecewise form, on points chosen so the least squares come out
// round: x = ln E_p = 6, 7, 8 and T_elem = 2, 3.5, 4 us.
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "instrument/error.hpp"
#include "tycho/model/telem.hpp"

using tycho::model::TelemCurve;
using tycho::model::TelemPoint;

namespace {
Approx us(double v) { return Approx(v * 1e-6).epsilon(1e-12); }
}  // namespace

TEST_CASE("T_elem: least squares in ln E_p, constant beyond the measured E_p", "[tycho][model]") {
  // mean x = 7, mean y = 19/6; slope = ((-1)(-7/6) + (1)(5/6)) / 2 = 1 us per ln(cell);
  // intercept = 19/6 - 7 = -23/6 us. At x = 6: 13/6 us, at x = 8: 25/6 us.
  const TelemCurve t({{std::exp(6.0), 2e-6, "a.h5"}, {std::exp(8.0), 4e-6, "c.h5"},
                      {std::exp(7.0), 3.5e-6, "b.h5"}});
  CHECK(!t.is_constant());
  CHECK(t.slope() == us(1.0));
  CHECK(t.intercept() == us(-23.0 / 6.0));
  CHECK(t.lowest_cells() == Approx(std::exp(6.0)));
  CHECK(t.highest_cells() == Approx(std::exp(8.0)));
  CHECK(t(std::exp(7.5)) == us(7.5 - 23.0 / 6.0));
  CHECK(t(std::exp(6.0)) == us(13.0 / 6.0));
  CHECK(t(std::exp(2.0)) == us(13.0 / 6.0));   // below: the cache plateau
  CHECK(t(1.0) == us(13.0 / 6.0));
  CHECK(t(std::exp(12.0)) == us(25.0 / 6.0));  // above: the main-memory plateau
  const std::string d = t.describe();
  CHECK_THAT(d, Catch::Contains("least squares over 3 points"));
  CHECK_THAT(d, Catch::Contains("a.h5"));
  CHECK_THAT(d, Catch::Contains("b.h5"));
  CHECK_THAT(d, Catch::Contains("c.h5"));
  CHECK_THAT(d, Catch::Contains("constant outside"));
  CHECK_THROWS_AS(t(0.0), std::invalid_argument);
  CHECK_THROWS_AS(t(std::nan("")), std::invalid_argument);
}

TEST_CASE("T_elem: one point, or points at one E_p, is a constant", "[tycho][model]") {
  const TelemCurve one({{10717.0, 7.5e-8, "cube.h5"}});
  CHECK(one.is_constant());
  CHECK(one(1.0) == Approx(7.5e-8));
  CHECK(one(1e9) == Approx(7.5e-8));
  CHECK(one.describe() == "T_elem = 7.5e-08 s (constant) from cube.h5 (E_p 1.072e+04: 7.5e-08 s)");

  // Two runs at the same E_p: their mean.
  const TelemCurve same({{500.0, 1e-7, "x.h5"}, {500.0, 3e-7, "y.h5"}});
  CHECK(same.is_constant());
  CHECK(same(2000.0) == Approx(2e-7));
}

TEST_CASE("T_elem: bad points are refused naming their source", "[tycho][model]") {
  using instrument::InputError;
  CHECK_THROWS_WITH(TelemCurve({{0.0, 1e-7, "zero.h5"}}),
                    Catch::StartsWith("zero.h5:E_p: expected cells per rank finite and > 0"));
  CHECK_THROWS_WITH(TelemCurve({{100.0, 1e-7, "ok.h5"}, {100.0, -1e-7, "neg.h5"}}),
                    Catch::StartsWith("neg.h5:T_elem: expected seconds per cell-angle task"));
  CHECK_THROWS_AS(TelemCurve({{100.0, std::nan(""), "nan.h5"}}), InputError);
  CHECK_THROWS_AS(TelemCurve({{INFINITY, 1e-7, "inf.h5"}}), InputError);
  CHECK_THROWS_AS(TelemCurve({}), InputError);
  // x = 6, 7, 8 with y = 100, 1, 1 us: slope -49.5, mean 34, at x = 8: 34 - 49.5 < 0.
  CHECK_THROWS_WITH(TelemCurve({{std::exp(6.0), 1e-4, "p.h5"}, {std::exp(7.0), 1e-6, "q.h5"},
                                {std::exp(8.0), 1e-6, "r.h5"}}),
                    Catch::StartsWith("T_elem calibration: expected a fit a ln(E_p) + b positive"));
}
