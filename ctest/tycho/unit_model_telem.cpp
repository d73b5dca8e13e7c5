// T_elem(E_p) in the paper's piecewise form, on points chosen so the least squares come out
// round: x = ln E_p = 6, 7, 8 and T_elem = 2, 3.5, 4 us.
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

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
  CHECK(!t.has_mcps_factor());
  CHECK(t(std::exp(7.5), 64) == us(7.5 - 23.0 / 6.0));
  CHECK(t(std::exp(7.5), 0) == us(7.5 - 23.0 / 6.0));  // no MCPS term: MCPS not asked for
  CHECK(t(std::exp(6.0), 64) == us(13.0 / 6.0));
  CHECK(t(std::exp(2.0), 64) == us(13.0 / 6.0));   // below: the cache plateau
  CHECK(t(1.0, 64) == us(13.0 / 6.0));
  CHECK(t(std::exp(12.0), 64) == us(25.0 / 6.0));  // above: the main-memory plateau
  const std::string d = t.describe();
  CHECK_THAT(d, Catch::Contains("least squares over 3 points"));
  CHECK_THAT(d, Catch::Contains("a.h5"));
  CHECK_THAT(d, Catch::Contains("b.h5"));
  CHECK_THAT(d, Catch::Contains("c.h5"));
  CHECK_THAT(d, Catch::Contains("constant outside"));
  CHECK_THROWS_AS(t(0.0, 64), std::invalid_argument);
  CHECK_THROWS_AS(t(std::nan(""), 64), std::invalid_argument);
}

TEST_CASE("T_elem: one point, or points at one E_p, is a constant", "[tycho][model]") {
  const TelemCurve one({{10717.0, 7.5e-8, "cube.h5"}});
  CHECK(one.is_constant());
  CHECK(one(1.0, 1) == Approx(7.5e-8));
  CHECK(one(1e9, 1) == Approx(7.5e-8));
  CHECK(one.describe() == "T_elem = 7.5e-08 s (constant) from cube.h5 (E_p 1.072e+04: 7.5e-08 s)");

  // Two runs at the same E_p: their mean.
  const TelemCurve same({{500.0, 1e-7, "x.h5"}, {500.0, 3e-7, "y.h5"}});
  CHECK(same.is_constant());
  CHECK(same(2000.0, 1) == Approx(2e-7));
}

TEST_CASE("T_elem: repeated runs of one configuration enter as their median", "[tycho][model]") {
  // Three runs at each of x = 6 and 8, one of them 25 times slower (a process that drew a slow
  // start): the medians 2 and 4 us give slope 1 us and intercept -4 us; the means (18 and 4)
  // would give a falling line.
  const TelemCurve t({{std::exp(6.0), 2e-6, "a1.h5", 512}, {std::exp(6.0), 50e-6, "a2.h5", 512},
                      {std::exp(6.0), 2e-6, "a3.h5", 512}, {std::exp(8.0), 4e-6, "b1.h5", 512},
                      {std::exp(8.0), 3.5e-6, "b2.h5", 512}, {std::exp(8.0), 4.5e-6, "b3.h5", 512}});
  CHECK(t.slope() == us(1.0));
  CHECK(t.intercept() == us(-4.0));
  CHECK(t.points().size() == 6);
  const std::string d = t.describe();
  CHECK_THAT(d, Catch::Contains("least squares over 2 points (each the median of the runs at its E_p and MCPS; 6 runs): "
                                "E_p 403.4: 2e-06 s of 3, E_p 2981: 4e-06 s of 3; from "
                                "a1.h5, a2.h5, a3.h5, b1.h5, b2.h5, b3.h5"));  // every run still named
  // The MCPS factor takes the medians too: at x = 6 MCPS 64 runs of 2.4, 2.4 and 24 us against
  // the 2 us above give rho(64) = 1.2 (the mean ratio would be 4.8).
  const TelemCurve m({{std::exp(6.0), 2e-6, "a1.h5", 512}, {std::exp(6.0), 50e-6, "a2.h5", 512},
                      {std::exp(6.0), 2e-6, "a3.h5", 512}, {std::exp(8.0), 4e-6, "b1.h5", 512},
                      {std::exp(6.0), 2.4e-6, "c1.h5", 64}, {std::exp(6.0), 24e-6, "c2.h5", 64},
                      {std::exp(6.0), 2.4e-6, "c3.h5", 64}});
  REQUIRE(m.has_mcps_factor());
  CHECK(m.rho(64) == Approx(1.2).epsilon(1e-12));
  CHECK(m(std::exp(8.0), 512) == us(4.0));
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

// The MCPS factor by hand. Points (E_p, MCPS: T_elem in us):
//   E_p e^6: MCPS 64: 6.0, 512: 5.0, 2048: 4.5      E_p e^8: MCPS 64: 8.4, 512: 7.0 (and 7.0)
//   E_p e^7: MCPS 512 only: 6.0
// MCPS 512 is measured at the most E_p (3): the reference. rho(64) = sqrt(6/5 * 8.4/7) = 1.2,
// rho(2048) = 4.5/5 = 0.9 (only e^6 has both). Every point divided by its rho: 5, 5, 5 at
// x = 6; 7, 7, 7 at x = 8; 6 at x = 7: T_ref = 1 us ln E_p - 1 us.
TEST_CASE("T_elem: the MCPS factor, ratios at the same E_p", "[tycho][model]") {
  const auto pt = [](double x, double m, double t_us, const char* src) {
    return TelemPoint{std::exp(x), t_us * 1e-6, src, m};
  };
  const TelemCurve t({pt(6, 64, 6.0, "a.h5"), pt(6, 512, 5.0, "b.h5"), pt(6, 2048, 4.5, "c.h5"),
                      pt(8, 64, 8.4, "d.h5"), pt(8, 512, 7.0, "e.h5"), pt(8, 512, 7.0, "f.h5"),
                      pt(7, 512, 6.0, "g.h5")});
  REQUIRE(t.has_mcps_factor());
  CHECK(!t.is_constant());
  REQUIRE(t.mcps_factor().size() == 3);
  CHECK(t.mcps_factor()[0].first == 64);
  CHECK(t.mcps_factor()[0].second == Approx(1.2).epsilon(1e-12));
  CHECK(t.mcps_factor()[1].second == 1.0);
  CHECK(t.mcps_factor()[2].second == Approx(0.9).epsilon(1e-12));
  CHECK(t.slope() == us(1.0));
  CHECK(t.intercept() == us(-1.0));
  CHECK(t(std::exp(7.0), 512) == us(6.0));
  CHECK(t(std::exp(7.0), 64) == us(7.2));
  CHECK(t(std::exp(7.0), 2048) == us(5.4));
  CHECK(t(std::exp(7.0), 1024) == us(6.0 * 0.95));  // halfway in ln MCPS between 512 and 2048
  CHECK(t(std::exp(7.0), std::sqrt(64.0 * 512.0)) == us(6.0 * 1.1));
  CHECK(t(std::exp(7.0), 8) == us(7.2));            // below the measured MCPS: held
  CHECK(t(std::exp(7.0), 1e6) == us(5.4));          // and above
  CHECK(t(std::exp(9.0), 64) == us(8.4));           // E_p held too: 7 us x 1.2
  CHECK(t.rho(64) == Approx(1.2));
  CHECK_THROWS_AS(t(std::exp(7.0), 0.0), std::invalid_argument);  // MCPS needed now
  CHECK_THROWS_AS(t(std::exp(7.0), std::nan("")), std::invalid_argument);
  const std::string d = t.describe();
  CHECK_THAT(d, Catch::Contains("times rho(MCPS) = 1.2 at 64, 1 at 512, 0.9 at 2048"));
  CHECK_THAT(d, Catch::Contains("ratios to MCPS 512 at the same E_p"));
  CHECK_THAT(d, Catch::Contains("E_p 403.4, MCPS 64: 6e-06 s of 1"));  // e.h5 and f.h5 repeat a point
  CHECK_THAT(d, Catch::Contains("E_p 2981, MCPS 512: 7e-06 s of 2"));
  CHECK_THAT(d, Catch::EndsWith("from a.h5, b.h5, c.h5, d.h5, e.h5, f.h5, g.h5"));
}

TEST_CASE("T_elem: no MCPS factor without MCPS on every point or an E_p at two MCPS",
          "[tycho][model]") {
  // MCPS missing on one point: the E_p fit over all four, told why.
  const TelemCurve mixed({{std::exp(6.0), 4e-6, "a.h5", 64}, {std::exp(6.0), 3e-6, "b.h5", 0.0},
                          {std::exp(8.0), 6e-6, "c.h5", 64}, {std::exp(8.0), 5e-6, "d.h5", 512}});
  CHECK(!mixed.has_mcps_factor());
  CHECK(mixed.slope() == us(1.0));  // means 3.5 and 5.5 us at x = 6 and 8
  CHECK(mixed(std::exp(7.0), 0.0) == us(4.5));  // MCPS not asked for
  CHECK_THAT(mixed.describe(), Catch::Contains("MCPS not known for every point"));
  // Two MCPS, never at one E_p: nothing relates them.
  const TelemCurve apart({{std::exp(6.0), 2e-6, "p.h5", 64}, {std::exp(8.0), 4e-6, "q.h5", 2048}});
  CHECK(!apart.has_mcps_factor());
  CHECK(apart.slope() == us(1.0));
  CHECK_THAT(apart.describe(), Catch::Contains("no E_p measured at two MCPS"));
  // A third MCPS measured only where the reference is not: its point left out, and said.
  const TelemCurve partly({{std::exp(6.0), 6e-6, "a.h5", 64}, {std::exp(6.0), 5e-6, "b.h5", 512},
                           {std::exp(8.0), 7e-6, "c.h5", 512}, {std::exp(7.0), 1e-3, "x.h5", 4096}});
  REQUIRE(partly.has_mcps_factor());
  CHECK(partly.mcps_factor().size() == 2);
  CHECK(partly.slope() == us(1.0));  // 5 and 7 us at x = 6 and 8; x.h5 not in the fit
  CHECK(partly(std::exp(7.0), 4096) == us(6.0));  // above 512: held at 1
  CHECK_THAT(partly.describe(), Catch::Contains("MCPS 4096 never measured at an E_p that has MCPS 512"));
  // One MCPS everywhere: the E_p fit, and nothing to say.
  const TelemCurve one_m({{std::exp(6.0), 2e-6, "s.h5", 512}, {std::exp(8.0), 4e-6, "t.h5", 512}});
  CHECK(!one_m.has_mcps_factor());
  CHECK_THAT(one_m.describe(), !Catch::Contains("MCPS"));
}

// TelemFit::points: through each measured E_p's value, linear in ln E_p between, constant
// beyond; on x = ln E_p = 6, 7, 8 with 2, 4, 3 us (a step no line follows).
TEST_CASE("T_elem points: through each measured E_p, linear in ln E_p between", "[tycho][model]") {
  using tycho::model::TelemFit;
  const std::vector<TelemPoint> pts = {{std::exp(6.0), 2e-6, "a.h5"}, {std::exp(8.0), 3e-6, "c.h5"},
                                       {std::exp(7.0), 4e-6, "b.h5"}};
  const TelemCurve t(pts, TelemFit::points);
  CHECK(t.fit() == TelemFit::points);
  CHECK(!t.is_constant());
  REQUIRE(t.knots().size() == 3);  // ascending whatever the order given
  CHECK(t.knots()[1].first == Approx(std::exp(7.0)));
  CHECK(t(std::exp(6.0), 64) == us(2.0));
  CHECK(t(std::exp(7.0), 64) == us(4.0));  // the line would give 3
  CHECK(t(std::exp(8.0), 64) == us(3.0));
  CHECK(t(std::exp(6.5), 64) == us(3.0));
  CHECK(t(std::exp(7.25), 64) == us(3.75));
  CHECK(t(std::exp(2.0), 64) == us(2.0));   // held below
  CHECK(t(std::exp(12.0), 64) == us(3.0));  // and above
  const TelemCurve line(pts);  // the default: the paper's least squares
  CHECK(line.fit() == TelemFit::line);
  CHECK(line(std::exp(7.0), 64) == us(3.0));
  const std::string d = t.describe();
  CHECK_THAT(d, Catch::Contains("T_elem through the measured E_p: 2e-06 s at E_p"));
  CHECK_THAT(d, Catch::Contains("(linear in ln E_p between, constant outside)"));
  CHECK_THAT(d, Catch::Contains("through 3 points: a.h5"));
  CHECK_THROWS_AS(t(0.0, 64), std::invalid_argument);
  CHECK(std::string(tycho::model::telem_fit_name(TelemFit::points)) == "points");
  CHECK(std::string(tycho::model::telem_fit_name(TelemFit::line)) == "line");
}

TEST_CASE("T_elem points: two E_p are the line, one is a constant, repeats enter as medians", "[tycho][model]") {
  using tycho::model::TelemFit;
  const std::vector<TelemPoint> two = {{std::exp(6.0), 2e-6, "a.h5"}, {std::exp(8.0), 4e-6, "b.h5"}};
  const TelemCurve p(two, TelemFit::points), l(two, TelemFit::line);
  for (double x : {5.0, 6.0, 6.3, 7.0, 7.9, 8.0, 9.0}) CHECK(p(std::exp(x), 64) == us(l(std::exp(x), 64) * 1e6));
  const TelemCurve one({{100.0, 7.5e-8, "cube.h5"}}, TelemFit::points);
  CHECK(one.is_constant());
  CHECK(one(1e9, 1) == Approx(7.5e-8));
  CHECK(one.describe() == "T_elem = 7.5e-08 s (constant) from cube.h5 (E_p 100: 7.5e-08 s)");
  // 1, 2 and 30 us at e^6 (a slow start): the median 2; 4 us at e^8.
  const TelemCurve rep({{std::exp(6.0), 1e-6, "r1.h5"}, {std::exp(6.0), 2e-6, "r2.h5"},
                        {std::exp(6.0), 30e-6, "r3.h5"}, {std::exp(8.0), 4e-6, "r4.h5"}},
                       TelemFit::points);
  CHECK(rep(std::exp(6.0), 64) == us(2.0));
  CHECK(rep(std::exp(7.0), 64) == us(3.0));
  CHECK_THAT(rep.describe(), Catch::Contains("through 2 points (each the median of the runs at its E_p and MCPS; 4 runs)"));
}

TEST_CASE("T_elem points: the MCPS factor divides the points and multiplies the curve", "[tycho][model]") {
  using tycho::model::TelemFit;
  // The factor's test points: rho(64) = 1.2, rho(2048) = 0.9; T_ref 5 us at x = 6, 6 at 7, 7 at 8.
  const auto pt = [](double x, double m, double t_us, const char* src) {
    return TelemPoint{std::exp(x), t_us * 1e-6, src, m};
  };
  const TelemCurve t({pt(6, 64, 6.0, "a.h5"), pt(6, 512, 5.0, "b.h5"), pt(6, 2048, 4.5, "c.h5"),
                      pt(8, 64, 8.4, "d.h5"), pt(8, 512, 7.0, "e.h5"), pt(8, 512, 7.0, "f.h5"),
                      pt(7, 512, 6.0, "g.h5")},
                     TelemFit::points);
  REQUIRE(t.has_mcps_factor());
  REQUIRE(t.knots().size() == 3);
  CHECK(t.knots()[0].second == Approx(5e-6).epsilon(1e-12));
  CHECK(t(std::exp(7.0), 512) == us(6.0));
  CHECK(t(std::exp(7.0), 64) == us(7.2));
  CHECK(t(std::exp(6.5), 2048) == us(5.5 * 0.9));
  // At e^8 the points are 8.4 us at MCPS 64 and 7 at 512: 7 and 7 once divided by rho; the
  // median of the undivided would be 7.7.
  CHECK(t.knots()[2].second == Approx(7e-6).epsilon(1e-12));
  CHECK(t(std::exp(8.0), 512) == us(7.0));
  CHECK(t(std::exp(8.0), 64) == us(8.4));
}
