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
  for (const TelemPoint& p : points_) {
    require_positive(p.cells_per_rank, p, "E_p", "cells per rank");
    require_positive(p.seconds_per_task, p, "T_elem", "seconds per cell-angle task");
  }
  measure_mcps_factor();
  // T_ref(E_p) over the points whose MCPS the factor relates (all of them without a factor),
  // each divided by its rho.
  std::vector<double> x, y;
  for (const TelemPoint& p : points_) {
    if (!rho_.empty() && !measured_mcps(p.mcps)) continue;
    x.push_back(p.cells_per_rank);
    y.push_back(p.seconds_per_task / rho(p.mcps));
  }
  // Ordinary least squares in T_elem (not relative): the points are of one magnitude (a few
  // tens of ns per task), and one E_p gives slope 0 through the mean: a constant.
  ref_ = instrument::fit_clamped_log_line(x, y);
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
  for (const TelemPoint& p : points_) known += p.mcps > 0.0 && std::isfinite(p.mcps);
  if (known < points_.size()) {
    if (known > 0) mcps_note_ = "MCPS not known for every point: no MCPS factor";
    return;
  }
  // The mean T_elem at each (MCPS, E_p) measured.
  std::map<double, std::map<double, std::pair<double, int>>> at;
  for (const TelemPoint& p : points_) {
    auto& [sum, n] = at[p.mcps][p.cells_per_rank];
    sum += p.seconds_per_task;
    ++n;
  }
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
      log_sum += std::log((t.first / t.second) / (r->second.first / r->second.second));
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
  if (mcps <= rho_.front().first) return rho_.front().second;
  if (mcps >= rho_.back().first) return rho_.back().second;
  std::size_t k = 1;
  while (rho_[k].first < mcps) ++k;
  const auto& [m0, r0] = rho_[k - 1];
  const auto& [m1, r1] = rho_[k];
  const double f = std::log(mcps / m0) / std::log(m1 / m0);
  return r0 + f * (r1 - r0);
}

double TelemCurve::operator()(double cells_per_rank, double mcps) const {
  if (!std::isfinite(cells_per_rank) || cells_per_rank <= 0.0) {
    throw std::invalid_argument("T_elem(E_p): E_p must be finite and > 0, got " +
                                std::to_string(cells_per_rank));
  }
  return ref_(cells_per_rank) * rho(mcps);
}

std::string TelemCurve::describe() const {
  std::ostringstream s;
  s.precision(4);
  if (ref_.slope == 0.0) {
    s << "T_elem = " << ref_.intercept << " s (constant)";
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
  s << (points_.size() == 1 ? " from " : ", least squares over " + std::to_string(points_.size()) + " points: ");
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const TelemPoint& p = points_[i];
    s << (i ? ", " : "") << (p.source.empty() ? "<unnamed>" : p.source) << " (E_p " << p.cells_per_rank;
    if (!rho_.empty()) s << ", MCPS " << p.mcps;
    s << ": " << p.seconds_per_task << " s)";
  }
  return s.str();
}

}  // namespace tycho::model
