// C1(N/p) over calibration points (c1_curve.hpp).
#include "multigrid/model/c1_curve.hpp"

#include <cmath>
#include <sstream>

#include "instrument/error.hpp"

namespace mg {

namespace {

const char* const kCalibration = "C1 calibration";

void require_positive(double v, const C1Point& p, const char* key) {
  if (std::isfinite(v) && v > 0) return;
  std::ostringstream s;
  s << "expected a finite number > 0, found " << v;
  throw instrument::InputError(p.source.empty() ? "<unnamed calibration point>" : p.source, key, s.str());
}

}  // namespace

C1Curve::C1Curve(std::vector<C1Point> points) : points_(std::move(points)) {
  if (points_.empty()) throw instrument::InputError(kCalibration, "", "expected at least one point {N/p, C1}");
  std::vector<double> x, y;
  for (const C1Point& p : points_) {
    require_positive(p.cells_per_process, p, "cells_per_process");
    require_positive(p.seconds, p, "c1_seconds_per_cell");
    x.push_back(p.cells_per_process);
    y.push_back(p.seconds);
  }
  double loose_sum = 0;
  int loose_points = 0;
  for (const C1Point& p : points_)
    if (p.loose_seconds > 0) loose_sum += p.loose_seconds, ++loose_points;
  loose_ = loose_points ? loose_sum / loose_points : 0;
  line_ = instrument::fit_clamped_log_line(x, y);
  if (!line_.positive_at_ends())
    throw instrument::InputError(kCalibration, "",
                                 "expected a fit a ln(N/p) + b positive over the measured N/p, found " +
                                     describe(0, "") + " (noisy points: calibrate again, or with more runs)");
}

std::string C1Curve::describe(int p, const std::string& kernel) const {
  std::ostringstream s;
  s.precision(3);
  if (line_.slope == 0.0)
    s << "C1 = " << line_.intercept << " s (constant)";
  else
    s << "C1 = " << line_.slope << " ln(N/p) " << (line_.intercept < 0 ? "- " : "+ ") << std::abs(line_.intercept)
      << " s for " << line_.lo << " <= N/p <= " << line_.hi << ", flat outside";
  s << (points_.size() == 1 ? " from " : ", least squares over " + std::to_string(points_.size()) + " points: ");
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const C1Point& c = points_[i];
    s << (i ? ", " : "") << c.source << " (";
    if (c.p > 0) s << "p = " << c.p << ", ";
    s << "N/p " << c.cells_per_process << ", " << (c.kernel.empty() ? "kernel not recorded" : c.kernel) << ": "
      << c.seconds << " s";
    if (c.loose_seconds > 0) s << ", in no family " << c.loose_seconds << " s";
    if (p > 0 && c.p > 0 && c.p != p) s << "; NOT this run's p = " << p;
    if (!kernel.empty() && c.kernel != kernel) s << "; NOT this run's cell kernel (" << kernel << ")";
    s << ")";
  }
  if (loose_ > 0) s << "; cells in no family of 8 at C1 = " << loose_ << " s (the points' coarsest grids, mean)";
  return s.str();
}

}  // namespace mg
