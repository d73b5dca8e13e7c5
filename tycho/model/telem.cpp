#include "tycho/model/telem.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "instrument/error.hpp"
#include "instrument/fitting.hpp"
#include "instrument/machine_file.hpp"  // format_number
#include "instrument/path_list.hpp"
#include "instrument/statistics.hpp"

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

// One point a distinct (E_p, MCPS), in the order first met, its T_elem the median of the
// points there (the repetitions of one calibration configuration).
std::vector<TelemPoint> medians_of_repeats(const std::vector<TelemPoint>& points) {
  std::vector<TelemPoint> out;
  std::vector<std::vector<double>> times;
  for (const TelemPoint& p : points) {
    std::size_t k = 0;
    while (k < out.size() && !(out[k].cells_per_rank == p.cells_per_rank && out[k].mcps == p.mcps)) ++k;
    if (k == out.size()) {
      out.push_back(p);
      times.emplace_back();
    }
    times[k].push_back(p.seconds_per_task);
  }
  for (std::size_t k = 0; k < out.size(); ++k) out[k].seconds_per_task = instrument::median(times[k]);
  return out;
}

// The value at x of {x_i, v_i} (ascending x_i > 0, at least one): linear in ln x between
// neighbours, the end's value beyond either end. Both the MCPS factor and the points' T_ref.
double log_interpolated(const std::vector<std::pair<double, double>>& at, double x) {
  if (x <= at.front().first) return at.front().second;
  if (x >= at.back().first) return at.back().second;
  std::size_t k = 1;
  while (at[k].first < x) ++k;
  const auto& [x0, v0] = at[k - 1];
  const auto& [x1, v1] = at[k];
  const double f = std::log(x / x0) / std::log(x1 / x0);
  return v0 + f * (v1 - v0);
}

// points' knots: {E_p, T} at each distinct E_p of (x, y), ascending, T the median of the y there.
std::vector<std::pair<double, double>> knots_through(const std::vector<double>& x, const std::vector<double>& y) {
  std::map<double, std::vector<double>> at;
  for (std::size_t i = 0; i < x.size(); ++i) at[x[i]].push_back(y[i]);
  std::vector<std::pair<double, double>> knots;
  for (const auto& [e, ts] : at) knots.emplace_back(e, instrument::median(ts));
  return knots;
}

}  // namespace

const char* telem_fit_name(TelemFit fit) noexcept { return fit == TelemFit::points ? "points" : "line"; }

TelemCurve::TelemCurve(std::vector<TelemPoint> points, TelemFit fit) : points_(std::move(points)), fit_(fit) {
  if (points_.empty()) throw instrument::InputError(kCalibration, "", "expected at least one point {E_p, T_elem}");
  for (const TelemPoint& p : points_) {
    require_positive(p.cells_per_rank, p, "E_p", "cells per rank");
    require_positive(p.seconds_per_task, p, "T_elem", "seconds per cell-angle task");
  }
  fitted_ = medians_of_repeats(points_);
  measure_mcps_factor();
  // T_ref(E_p) over the points whose MCPS the factor relates (all of them without a factor),
  // each divided by its rho.
  std::vector<double> x, y;
  for (const TelemPoint& p : fitted_) {
    if (!rho_.empty() && !measured_mcps(p.mcps)) continue;
    x.push_back(p.cells_per_rank);
    y.push_back(p.seconds_per_task / rho(p.mcps));
  }
  // Ordinary least squares in T_elem (not relative): the points are of one magnitude (a few
  // tens of ns per task), and one E_p gives slope 0 through the mean: a constant.
  ref_ = instrument::fit_clamped_log_line(x, y);
  if (fit_ == TelemFit::points) {
    knots_ = knots_through(x, y);  // medians of positive times: positive
    return;
  }
  if (!ref_.positive_at_ends()) {
    const double e = ref_.slope * std::log(ref_.lo) + ref_.intercept > 0.0 ? ref_.hi : ref_.lo;
    std::ostringstream s;
    s << "expected a fit a ln(E_p) + b positive over the measured E_p, found "
      << ref_.slope * std::log(e) + ref_.intercept << " s at E_p " << e << " (" << describe() << ")";
    throw instrument::InputError(kCalibration, "", s.str());
  }
}

bool TelemCurve::measured_mcps(double mcps) const {
  for (const auto& [m, r] : rho_)
    if (m == mcps) return true;
  return false;
}

// rho_ from the points (see the header); leaves it empty when the points do not give one.
void TelemCurve::measure_mcps_factor() {
  std::size_t known = 0;
  for (const TelemPoint& p : fitted_) known += p.mcps > 0.0 && std::isfinite(p.mcps);
  if (known < fitted_.size()) {
    if (known > 0) mcps_note_ = "MCPS not known for every point: no MCPS factor";
    return;
  }
  // T_elem at each (MCPS, E_p) measured (the median of its repeats).
  std::map<double, std::map<double, double>> at;
  for (const TelemPoint& p : fitted_) at[p.mcps][p.cells_per_rank] = p.seconds_per_task;
  if (at.size() < 2) return;  // one MCPS: nothing to relate, nothing to say
  double ref = 0.0;
  std::size_t most = 0;
  for (const auto& [m, by_e] : at)
    if (by_e.size() > most) most = by_e.size(), ref = m;  // ascending: ties keep the smaller
  mcps_ref_ = ref;
  std::string left_out;
  for (const auto& [m, by_e] : at) {
    if (m == ref) {
      rho_.emplace_back(m, 1.0);
      continue;
    }
    double log_sum = 0.0;
    int pairs = 0;
    for (const auto& [e, t] : by_e) {
      const auto r = at[ref].find(e);
      if (r == at[ref].end()) continue;
      log_sum += std::log(t / r->second);
      ++pairs;
    }
    if (pairs > 0) rho_.emplace_back(m, std::exp(log_sum / pairs));
    else left_out += (left_out.empty() ? "" : ", ") + instrument::format_number(m);
  }
  if (rho_.size() < 2) {
    rho_.clear();
    mcps_note_ = "no E_p measured at two MCPS: no MCPS factor";
  } else if (!left_out.empty()) {
    mcps_note_ = "MCPS " + left_out + " never measured at an E_p that has MCPS " +
                 instrument::format_number(ref) + ": their points left out";
  }
}

double TelemCurve::rho(double mcps) const {
  if (rho_.empty()) return 1.0;
  if (!std::isfinite(mcps) || mcps <= 0.0)
    throw std::invalid_argument("T_elem(E_p, MCPS): MCPS must be finite and > 0, got " + std::to_string(mcps));
  return log_interpolated(rho_, mcps);
}

double TelemCurve::operator()(double cells_per_rank, double mcps) const {
  if (!std::isfinite(cells_per_rank) || cells_per_rank <= 0.0) {
    throw std::invalid_argument("T_elem(E_p): E_p must be finite and > 0, got " +
                                std::to_string(cells_per_rank));
  }
  return ref(cells_per_rank) * rho(mcps);
}

double TelemCurve::ref(double cells_per_rank) const {
  if (fit_ == TelemFit::line) return ref_(cells_per_rank);
  return log_interpolated(knots_, cells_per_rank);
}

std::string TelemCurve::describe() const {
  std::ostringstream s;
  s.precision(4);
  if (fit_ == TelemFit::points && knots_.size() > 1) {
    s << "T_elem through the measured E_p:";
    for (std::size_t i = 0; i < knots_.size(); ++i)
      s << (i ? "," : "") << " " << knots_[i].second << " s at E_p " << knots_[i].first;
    s << " (linear in ln E_p between, constant outside)";
  } else if (fit_ == TelemFit::points || ref_.slope == 0.0) {
    s << "T_elem = " << (fit_ == TelemFit::points ? knots_.front().second : ref_.intercept) << " s (constant)";
  } else {
    s << "T_elem = " << ref_.slope << " ln(E_p) " << (ref_.intercept < 0 ? "- " : "+ ")
      << std::abs(ref_.intercept) << " s for " << ref_.lo << " <= E_p <= " << ref_.hi
      << ", constant outside";
  }
  if (!rho_.empty()) {
    s << ", times rho(MCPS) =";
    for (std::size_t i = 0; i < rho_.size(); ++i)
      s << (i ? "," : "") << " " << rho_[i].second << " at " << rho_[i].first;
    s << " (ratios to MCPS " << mcps_ref_ << " at the same E_p; linear in ln MCPS between, held beyond)";
  }
  if (!mcps_note_.empty()) s << " (" << mcps_note_ << ")";
  if (fitted_.size() < points_.size()) {
    // Repeated runs: each point with its median and count, then every run once, listed compactly.
    s << ", " << (fit_ == TelemFit::points ? "through " : "least squares over ") << fitted_.size() << " point"
      << (fitted_.size() == 1 ? "" : "s")
      << " (each the median of the runs at its E_p and MCPS; " << points_.size() << " runs): ";
    std::vector<std::string> sources;
    for (std::size_t i = 0; i < fitted_.size(); ++i) {
      const TelemPoint& f = fitted_[i];
      std::size_t runs = 0;
      for (const TelemPoint& p : points_) runs += p.cells_per_rank == f.cells_per_rank && p.mcps == f.mcps;
      s << (i ? ", " : "") << "E_p " << f.cells_per_rank;
      if (!rho_.empty()) s << ", MCPS " << f.mcps;
      s << ": " << f.seconds_per_task << " s of " << runs;
    }
    for (const TelemPoint& p : points_) sources.push_back(p.source.empty() ? "<unnamed>" : p.source);
    s << "; from " << instrument::path_list(sources);
    return s.str();
  }
  s << (points_.size() == 1 ? " from "
                            : std::string(fit_ == TelemFit::points ? ", through " : ", least squares over ") +
                                  std::to_string(points_.size()) + " points: ");
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const TelemPoint& p = points_[i];
    s << (i ? ", " : "") << (p.source.empty() ? "<unnamed>" : p.source) << " (E_p " << p.cells_per_rank;
    if (!rho_.empty()) s << ", MCPS " << p.mcps;
    s << ": " << p.seconds_per_task << " s)";
  }
  return s.str();
}

}  // namespace tycho::model
