// The LogGP derivation of loggps-probe (Sundaram-Stukel & Vernon §3.3, and the constrained
// fallback), see probe_fit.hpp.
#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "cost_checks.hpp"
#include "instrument/probe_fit.hpp"

namespace instrument::probe {

namespace {

struct Band {
  std::size_t first = 0, last = 0;  // indices into the sorted samples
  LineFit line;                     // Total_Comm = intercept + slope k
};


// Bands of at least two sizes, grown greedily from the smallest while one line of
// y = seconds / divisor fits every size within tol, never across rendezvous_bytes.
std::vector<Band> grow_bands(const std::vector<RttSample>& data, std::int64_t rendezvous_bytes, double divisor,
                             double tol) {
  auto line_of = [&](std::size_t i, std::size_t j) {
    std::vector<double> x, y;
    for (std::size_t t = i; t <= j; ++t) {
      x.push_back(static_cast<double>(data[t].bytes));
      y.push_back(data[t].seconds / divisor);
    }
    return fit_line_relative(x, y);
  };
  auto fits = [&](std::size_t i, std::size_t j, const LineFit& f) {
    for (std::size_t t = i; t <= j; ++t) {
      const double m = f.intercept + f.slope * static_cast<double>(data[t].bytes);
      if (std::fabs(relative_error(m, data[t].seconds / divisor)) > tol) return false;
    }
    return true;
  };
  constexpr std::size_t kMinSizes = 2;  // a one-point band says nothing about G
  std::vector<Band> bands;
  std::size_t i = 0;
  while (i < data.size()) {
    const bool eager = data[i].bytes < rendezvous_bytes;
    std::size_t last = i;
    LineFit line = line_of(i, i);
    for (std::size_t j = i + 1; j < data.size(); ++j) {
      if ((data[j].bytes < rendezvous_bytes) != eager) break;  // never across the handshake
      const LineFit f = line_of(i, j);
      if (j - i + 1 > kMinSizes && !fits(i, j, f)) break;
      last = j;
      line = f;
    }
    // A lone size before the handshake or at the end joins the previous band.
    const bool short_band = last - i + 1 < kMinSizes;
    if (short_band && !bands.empty() && (data[bands.back().first].bytes < rendezvous_bytes) == eager) {
      bands.back().last = last;
      bands.back().line = line_of(bands.back().first, last);
    } else {
      bands.push_back({i, last, line});
    }
    i = last + 1;
  }
  return bands;
}

double max_error(const loggp::LogGpParams& p, const std::vector<RttSample>& data) {
  return max_rel_error(data, [&](std::int64_t k) { return loggp::round_trip_time(p, k); });
}

// §3.3 on the band lines; false (and why) when the bands do not give the three equations.
bool derive_ssv(const std::vector<RttSample>& data, const std::vector<Band>& bands, std::int64_t R,
                LogGpFit& fit) {
  auto eager = [&](const Band& b) { return data[b.first].bytes < R; };
  std::size_t last_eager = bands.size(), first_handshake = bands.size();
  for (std::size_t b = 0; b < bands.size(); ++b) {
    if (eager(bands[b])) last_eager = b;
    else if (first_handshake == bands.size()) first_handshake = b;
  }
  if (!eager(bands.front()) || first_handshake == bands.size()) {
    fit.rejected = "the three equations need measured sizes on both sides of the handshake (" +
                   std::to_string(R) + " B)";
    return false;
  }
  fit.ssv = solve_ssv_equations(bands.front().line.intercept, bands[last_eager].line.intercept,
                                bands[first_handshake].line.intercept);
  loggp::LogGpParams& p = fit.params;
  p = {};
  p.L = fit.ssv.L;
  p.rendezvous_bytes = R;
  p.per_byte = loggp::PerByteCost::band_rate;
  for (std::size_t b = 0; b < bands.size(); ++b) {
    const double a = bands[b].line.intercept;
    loggp::LogGpBand band;
    band.G = bands[b].line.slope;
    band.upper_bytes = data[bands[b].last].bytes;
    if (eager(bands[b])) {
      band.o = (a - p.L) / 2.0;  // a = 2o + L, eq. (1)
      if (b == last_eager) band.upper_bytes = R - 1;
    } else {
      band.o = (a - 3.0 * fit.ssv.o_s - 3.0 * p.L) / 2.0;  // a = 3o_s + 2o + 3L, eq. (2)
    }
    p.bands.push_back(band);
  }
  return true;
}

// The constrained fallback (see fit_loggp): X(k) continuous, breakpoints at `edges`.
loggp::LogGpParams fit_cumulative(const std::vector<RttSample>& data, std::int64_t R,
                                  const std::set<std::int64_t>& edges, double two_o_s, double delayed_weight) {
  std::vector<std::int64_t> uppers(edges.begin(), edges.end());
  uppers.push_back(data.back().bytes);
  const std::size_t n = uppers.size();
  const bool any_eager = data.front().bytes < R;
  enum { kOs, kOl, kL, kFirstG };
  std::vector<std::vector<double>> rows;
  std::vector<double> rhs;
  for (const RttSample& d : data) {
    std::vector<double> r(kFirstG + n, 0.0);
    const bool eager = d.bytes < R;
    r[kOs] = eager ? 2.0 : 3.0;
    r[kOl] = eager ? 0.0 : 2.0;
    r[kL] = eager ? 1.0 : 3.0;
    if (!any_eager) r[kOs] += r[kOl], r[kOl] = 0.0;  // o_s is the o of the first band: one o
    std::int64_t lower = 0;
    for (std::size_t j = 0; j < n && d.bytes > lower; ++j) {
      const std::int64_t upper = j + 1 == n ? d.bytes : std::min(d.bytes, uppers[j]);
      r[kFirstG + j] = static_cast<double>(upper - lower);
      lower = uppers[j];
    }
    const double total_comm = d.seconds / 2.0;
    for (double& c : r) c /= total_comm;
    rows.push_back(std::move(r));
    rhs.push_back(1.0);
  }
  if (two_o_s > 0.0 && any_eager) {  // Send + Receive of a vanishing message = 2 o_s
    std::vector<double> r(kFirstG + n, 0.0);
    r[kOs] = 2.0 * delayed_weight / two_o_s;
    rows.push_back(std::move(r));
    rhs.push_back(delayed_weight);
  }
  std::vector<double> lower(kFirstG + n, 0.0);
  lower[kOs] = lower[kL] = kTimeFloor;
  lower[kOl] = any_eager ? kTimeFloor : 0.0;
  const auto x = nonnegative_least_squares(rows, rhs, lower);
  loggp::LogGpParams p;
  p.L = x[kL];
  p.rendezvous_bytes = R;
  p.per_byte = loggp::PerByteCost::cumulative;
  const double o_l = any_eager ? x[kOl] : x[kOs];
  for (std::size_t j = 0; j < n; ++j) {
    const bool eager = uppers[j] < R;
    p.bands.push_back({uppers[j], eager ? x[kOs] : o_l, x[kFirstG + j]});
  }
  return p;
}

double sum_sq_error(const loggp::LogGpParams& p, const std::vector<RttSample>& data) {
  double sum = 0.0;
  for (const RttSample& d : data) {
    const double e = relative_error(loggp::round_trip_time(p, d.bytes), d.seconds);
    sum += e * e;
  }
  return sum;
}

// The intercept of the delayed round trips of the smallest messages below the handshake (a
// line through the first band of them), or 0 if there are none.
double delayed_overheads(const std::vector<RttSample>& delayed, std::int64_t R, double tol) {
  std::vector<RttSample> eager;
  for (const RttSample& d : delayed)
    if (d.bytes < R && d.seconds > 0.0) eager.push_back(d);
  if (eager.empty()) return 0.0;
  std::sort(eager.begin(), eager.end(), [](const RttSample& a, const RttSample& b) { return a.bytes < b.bytes; });
  const double a = grow_bands(eager, R, 1.0, tol).front().line.intercept;
  return a > 0.0 ? a : eager.front().seconds;
}

}  // namespace

SsvEquations solve_ssv_equations(double a1, double a2, double a3) {
  SsvEquations e;
  e.solvable = true;
  e.a1 = a1;
  e.a2 = a2;
  e.a3 = a3;
  e.L = 2.0 * a3 - 3.0 * a1 - 2.0 * a2;
  e.o_s = (a1 - e.L) / 2.0;
  e.o_l = (a2 - e.L) / 2.0;
  return e;
}

LogGpFit fit_loggp(const std::vector<RttSample>& no_delay, const std::vector<RttSample>& delayed,
                   std::int64_t rendezvous_bytes, const LogGpFitOptions& options) {
  std::vector<RttSample> data = no_delay;
  std::sort(data.begin(), data.end(), [](const RttSample& a, const RttSample& b) { return a.bytes < b.bytes; });
  if (data.empty()) throw std::invalid_argument("fit_loggp: no data");
  const std::int64_t R = rendezvous_bytes;

  LogGpFit fit;
  fit.derivation = "ssv-3.3";
  if (derive_ssv(data, grow_bands(data, R, 2.0, options.band_tolerance), R, fit)) {
    fit.max_rel_error = max_error(fit.params, data);
    const std::string broken = cost_checks::broken_constraint(fit.params);
    if (!broken.empty()) {
      fit.rejected = broken;
    } else if (fit.max_rel_error > options.accept_rel_error) {
      fit.rejected = "the worst round trip is off by " + cost_checks::number(100 * fit.max_rel_error) +
                     "%, more than " + cost_checks::number(100 * options.accept_rel_error) + "%";
    }
  }
  if (fit.rejected.empty()) return fit;

  // Constrained: breakpoints of X added greedily (the one that lowers the sum of squared
  // relative errors most) until every size fits within the band tolerance, then removed again
  // while the worst error stays within max(tolerance, its value with them all): where the
  // data are not monotone (noise) no breakpoint can reach the tolerance, and those added in
  // trying only cut the data into bands of noise.
  fit.derivation = "constrained";
  const double two_o_s = delayed_overheads(delayed, R, options.band_tolerance);
  const double tol = options.band_tolerance;
  std::set<std::int64_t> edges;
  // An edge where the protocol changes: a band is all eager (o_s) or all handshake (o_l).
  if (R - 1 >= data.front().bytes && R - 1 < data.back().bytes) edges.insert(R - 1);
  const std::set<std::int64_t> forced = edges;
  auto fit_with = [&](const std::set<std::int64_t>& e) {
    return fit_cumulative(data, R, e, two_o_s, options.delayed_weight);
  };
  auto params = fit_with(edges);
  while (max_error(params, data) > tol) {
    double best_sse = sum_sq_error(params, data) * (1.0 - 1e-9);
    std::int64_t best_edge = -1;
    for (const RttSample& d : data) {
      if (d.bytes >= data.back().bytes || edges.count(d.bytes) != 0) continue;
      auto trial = edges;
      trial.insert(d.bytes);
      const double sse = sum_sq_error(fit_with(trial), data);
      if (sse < best_sse) best_sse = sse, best_edge = d.bytes;
    }
    if (best_edge < 0) break;
    edges.insert(best_edge);
    params = fit_with(edges);
  }
  const double allowed = std::max(tol, max_error(params, data));
  for (bool dropped = true; dropped;) {
    dropped = false;
    double best = allowed;
    std::int64_t drop = -1;
    for (std::int64_t e : edges) {
      if (forced.count(e) != 0) continue;
      auto trial = edges;
      trial.erase(e);
      const double err = max_error(fit_with(trial), data);
      if (err <= best) best = err, drop = e;
    }
    if (drop >= 0) {
      edges.erase(drop);
      dropped = true;
    }
  }
  params = fit_with(edges);
  fit.params = params;
  fit.max_rel_error = max_error(params, data);
  const std::string broken = cost_checks::broken_constraint(params);
  if (!broken.empty()) throw std::runtime_error("LogGP constrained fit breaks a constraint: " + broken);
  return fit;
}

}  // namespace instrument::probe
