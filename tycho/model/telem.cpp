#include "tycho/model/telem.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "instrument/error.hpp"
#include "instrument/fitting.hpp"

namespace tycho::model {

namespace {

constexpr const char* kCalibration = "T_elem calibration";

void require_positive(double value, const TelemPoint& p, const char* key, const char* what) {
  if (!std::isfinite(value) || value <= 0.0) {
    std::ostringstream s;
    s << "expected " << what << " finite and > 0, found " << value;
    throw instrument::InputError(p.source.empty() ? "<unnamed calibration point>" : p.source, key,
                                 s.str());
  }
}

}  // namespace

TelemCurve::TelemCurve(std::vector<TelemPoint> points) : points_(std::move(points)) {
  if (points_.empty()) throw instrument::InputError(kCalibration, "", "expected at least one point {E_p, T_elem}");
  std::vector<double> x, y;
  for (const TelemPoint& p : points_) {
    require_positive(p.cells_per_rank, p, "E_p", "cells per rank");
    require_positive(p.seconds_per_task, p, "T_elem", "seconds per cell-angle task");
    x.push_back(std::log(p.cells_per_rank));
    y.push_back(p.seconds_per_task);
  }
  lo_ = hi_ = points_.front().cells_per_rank;
  for (const TelemPoint& p : points_) {
    lo_ = std::min(lo_, p.cells_per_rank);
    hi_ = std::max(hi_, p.cells_per_rank);
  }
  // Ordinary least squares in T_elem (not relative): the points are of one magnitude (a few
  // tens of ns per task), and one E_p gives slope 0 through the mean: a constant.
  const instrument::LineFit fit = instrument::fit_line(x, y);
  slope_ = lo_ == hi_ ? 0.0 : fit.slope;
  intercept_ = fit.intercept;
  for (double e : {lo_, hi_}) {
    const double t = (*this)(e);
    if (!(t > 0.0) || !std::isfinite(t)) {
      std::ostringstream s;
      s << "expected a fit a ln(E_p) + b positive over the measured E_p, found " << t
        << " s at E_p " << e << " (" << describe() << ")";
      throw instrument::InputError(kCalibration, "", s.str());
    }
  }
}

double TelemCurve::operator()(double cells_per_rank) const {
  if (!std::isfinite(cells_per_rank) || cells_per_rank <= 0.0) {
    throw std::invalid_argument("T_elem(E_p): E_p must be finite and > 0, got " +
                                std::to_string(cells_per_rank));
  }
  if (slope_ == 0.0) return intercept_;
  return slope_ * std::log(std::clamp(cells_per_rank, lo_, hi_)) + intercept_;
}

std::string TelemCurve::describe() const {
  std::ostringstream s;
  s.precision(4);
  if (slope_ == 0.0) {
    s << "T_elem = " << intercept_ << " s (constant)";
  } else {
    s << "T_elem = " << slope_ << " ln(E_p) " << (intercept_ < 0 ? "- " : "+ ")
      << std::abs(intercept_) << " s for " << lo_ << " <= E_p <= " << hi_
      << ", constant outside";
  }
  s << (points_.size() == 1 ? " from " : ", least squares over " + std::to_string(points_.size()) + " points: ");
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const TelemPoint& p = points_[i];
    s << (i ? ", " : "") << (p.source.empty() ? "<unnamed>" : p.source) << " (E_p " << p.cells_per_rank
      << ": " << p.seconds_per_task << " s)";
  }
  return s.str();
}

}  // namespace tycho::model
