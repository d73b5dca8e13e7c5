#include "instrument/probe_fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace instrument::probe {

std::vector<double> least_squares(const std::vector<std::vector<double>>& rows,
                                  const std::vector<double>& rhs) {
  if (rows.empty()) throw std::runtime_error("least squares without data");
  const std::size_t m = rows.size(), n = rows.front().size();
  if (m < n) throw std::runtime_error("least squares: fewer data than parameters");
  // Column scaling (sizes run from 1 to 4e6), then Householder QR in long double: the fit
  // has up to ~30 columns, too ill-conditioned for the normal equations.
  std::vector<long double> scale(n, 0.0L);
  for (const auto& r : rows)
    for (std::size_t j = 0; j < n; ++j) scale[j] = std::max(scale[j], std::fabs((long double)r[j]));
  for (std::size_t j = 0; j < n; ++j) {
    if (scale[j] == 0.0L) throw std::runtime_error("least squares: a parameter has no data");
  }
  std::vector<std::vector<long double>> a(m, std::vector<long double>(n));
  std::vector<long double> b(m);
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) a[i][j] = rows[i][j] / scale[j];
    b[i] = rhs[i];
  }
  long double rmax = 0.0L;
  for (std::size_t c = 0; c < n; ++c) {
    long double norm = 0.0L;
    for (std::size_t i = c; i < m; ++i) norm += a[i][c] * a[i][c];
    norm = std::sqrt(norm);
    rmax = std::max(rmax, norm);
    if (norm <= 1e-12L * rmax || norm == 0.0L) {
      throw std::runtime_error("least squares: parameters not separable by these data");
    }
    const long double alpha = a[c][c] > 0 ? -norm : norm;
    std::vector<long double> v(m - c);
    for (std::size_t i = c; i < m; ++i) v[i - c] = a[i][c];
    v[0] -= alpha;
    long double vv = 0.0L;
    for (long double x : v) vv += x * x;
    if (vv == 0.0L) continue;
    for (std::size_t j = c; j < n; ++j) {
      long double d = 0.0L;
      for (std::size_t i = c; i < m; ++i) d += v[i - c] * a[i][j];
      d = 2.0L * d / vv;
      for (std::size_t i = c; i < m; ++i) a[i][j] -= d * v[i - c];
    }
    long double d = 0.0L;
    for (std::size_t i = c; i < m; ++i) d += v[i - c] * b[i];
    d = 2.0L * d / vv;
    for (std::size_t i = c; i < m; ++i) b[i] -= d * v[i - c];
  }
  std::vector<long double> y(n);
  for (std::size_t c = n; c-- > 0;) {
    long double t = b[c];
    for (std::size_t j = c + 1; j < n; ++j) t -= a[c][j] * y[j];
    y[c] = t / a[c][c];
  }
  std::vector<double> x(n);
  for (std::size_t j = 0; j < n; ++j) x[j] = static_cast<double>(y[j] / scale[j]);
  return x;
}

double relative_error(double modelled, double measured) { return (modelled - measured) / measured; }

LineFit fit_line_relative(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.empty() || x.size() != y.size()) throw std::invalid_argument("fit_line_relative: bad data");
  if (x.size() == 1) return {y[0], 0.0};
  std::vector<std::vector<double>> rows;
  std::vector<double> rhs;
  for (std::size_t i = 0; i < x.size(); ++i) {
    rows.push_back({1.0 / y[i], x[i] / y[i]});
    rhs.push_back(1.0);
  }
  const auto c = least_squares(rows, rhs);
  return {c[0], c[1]};
}

// ---------------------------------------------------------------------------- LogGPS
namespace {

enum Col { kOprime, kL, kOs, kOr, kGs, kGl, kFirstStep };

// Bytes of (s, k] in each multi-packet segment: (s, b1], (b1, b2], ..., (b_m, inf).
std::vector<double> segment_lengths(std::int64_t k, std::int64_t s,
                                    const std::vector<std::int64_t>& steps) {
  std::vector<double> len(steps.size() + 1, 0.0);
  std::int64_t lower = s;
  for (std::size_t j = 0; j <= steps.size(); ++j) {
    const std::int64_t upper = j < steps.size() ? steps[j] : std::numeric_limits<std::int64_t>::max();
    if (k > lower) len[j] = static_cast<double>(std::min(k, upper) - lower);
    lower = upper;
  }
  return len;
}

// Coefficients of the model in (o', L, O_s, O_r, G_s, G_l, steps...), eq. (12)-(14):
// without delay RTT = 2(T1 + T2 + T3) (+ 2T4 + 2T5 above S); with a large delay
// RTT - w = T1 + T3 (k <= S) or 2T1 + T2' + T3 + 2T4 + 2T5 - (o' + L) (k > S).
// Each equation is max{A - w, 0} + B; with a large w it is B, without delay A + B (A >= 0
// is ensured after the fit, see fit_loggps_fixed).
std::vector<double> model_row(std::int64_t k, bool delayed, std::int64_t s, std::int64_t S,
                              const std::vector<std::int64_t>& steps) {
  std::vector<double> r(kFirstStep + steps.size(), 0.0);
  const double kd = static_cast<double>(k), sd = static_cast<double>(s);
  const auto len = segment_lengths(k, s, steps);
  const bool sync = k > S;
  auto put_gap = [&](double factor) {
    if (k <= s) {
      r[kGs] = factor * kd;
    } else {
      r[kGs] = factor * sd;
      r[kGl] = factor * len[0];
      for (std::size_t j = 0; j < steps.size(); ++j) r[kFirstStep + j] = factor * len[j + 1];
    }
  };
  if (!delayed) {
    r[kOprime] = sync ? 12.0 : 4.0;  // 2(2o') + (2T4 + 2T5 = 8o' + 4L)
    r[kL] = sync ? 6.0 : 2.0;
    r[kOs] = 2.0 * kd;
    r[kOr] = 2.0 * kd;
    put_gap(2.0);
  } else if (!sync) {
    r[kOprime] = 2.0;
    r[kOs] = kd;
    r[kOr] = kd;
  } else {
    r[kOprime] = 10.0;  // 2 + 1 + 1 + 2(2) + 2(2) - 1, see eq. (14)
    r[kL] = 4.0;
    r[kOs] = 2.0 * kd;
    r[kOr] = kd;
    put_gap(1.0);
  }
  return r;
}

loggps::LogGpsParams params_from(const std::vector<double>& x, std::int64_t s, std::int64_t S,
                                 const std::vector<std::int64_t>& steps) {
  loggps::LogGpsParams p;
  p.o_prime = x[kOprime];
  p.L = x[kL];
  p.O_s = x[kOs];
  p.O_r = x[kOr];
  p.G_s = x[kGs];
  p.G_l = x[kGl];
  p.s = s;
  p.S = S;
  for (std::size_t j = 0; j < steps.size(); ++j) p.gap_steps.push_back({steps[j], x[kFirstStep + j]});
  return p;
}

// Solves with some columns held at zero (`fixed`) and O_r optionally tied to O_s.
std::vector<double> solve_masked(const std::vector<std::vector<double>>& rows,
                                 const std::vector<double>& rhs, const std::vector<bool>& fixed,
                                 bool tie_Or_to_Os) {
  const std::size_t n = rows.front().size();
  std::vector<int> map(n, -1);
  int free_cols = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (fixed[j] || (tie_Or_to_Os && j == kOr)) continue;
    map[j] = free_cols++;
  }
  std::vector<std::vector<double>> reduced;
  for (const auto& r : rows) {
    std::vector<double> rr(static_cast<std::size_t>(free_cols), 0.0);
    for (std::size_t j = 0; j < n; ++j)
      if (map[j] >= 0) rr[static_cast<std::size_t>(map[j])] += r[j];
    if (tie_Or_to_Os) rr[static_cast<std::size_t>(map[kOs])] += r[kOr];
    reduced.push_back(std::move(rr));
  }
  const auto y = least_squares(reduced, rhs);
  std::vector<double> x(n, 0.0);
  for (std::size_t j = 0; j < n; ++j)
    if (map[j] >= 0) x[j] = y[static_cast<std::size_t>(map[j])];
  if (tie_Or_to_Os) x[kOr] = x[kOs];
  return x;
}

double max_abs_rel_error(const loggps::LogGpsParams& p, const std::vector<RttSample>& data,
                         bool delayed) {
  double worst = 0.0;
  for (const RttSample& d : data) {
    // "Large w": the max{} terms vanish, so RTT - w is the model at w = +inf, minus w.
    const double w = delayed ? 1.0 : 0.0;
    const double m = loggps::round_trip_time(p, d.bytes, w) - w;
    worst = std::max(worst, std::fabs(relative_error(m, d.seconds)));
  }
  return worst;
}

double sum_sq_rel_error(const loggps::LogGpsParams& p, const std::vector<RttSample>& data) {
  double sum = 0.0;
  for (const RttSample& d : data) {
    const double e = relative_error(loggps::round_trip_time(p, d.bytes, 0.0), d.seconds);
    sum += e * e;
  }
  return sum;
}

}  // namespace

loggps::LogGpsParams fit_loggps_fixed(const std::vector<RttSample>& no_delay,
                                      const std::vector<RttSample>& delayed, std::int64_t s,
                                      std::int64_t S, const std::vector<std::int64_t>& steps,
                                      double delayed_weight) {
  bool any_sync_delayed = false;
  for (const RttSample& d : delayed) any_sync_delayed = any_sync_delayed || d.bytes > S;
  std::vector<bool> fixed(kFirstStep + steps.size(), false);
  // O_s and O_r are told apart only by delayed round trips above S (slope 2O_s + O_r).
  const bool tie = !any_sync_delayed;
  std::vector<std::vector<double>> rows;
  std::vector<double> rhs;
  for (int curve = 0; curve < 2; ++curve) {
    for (const RttSample& d : curve == 0 ? no_delay : delayed) {
      auto r = model_row(d.bytes, curve == 1, s, S, steps);
      const double weight = curve == 0 ? 1.0 : delayed_weight;
      for (double& c : r) c *= weight / d.seconds;  // relative residuals
      rows.push_back(std::move(r));
      rhs.push_back(weight);
    }
  }
  loggps::LogGpsParams p = params_from(solve_masked(rows, rhs, fixed, tie), s, S, steps);

  // The rows above are eq. (12)-(14) at w = 0 without their max{}: exact while the max{}
  // arguments are >= 0. The undelayed RTT does not change if O_s + O_r drops by c and every
  // gap (G_s, G_l, steps) rises by c; the arguments then grow by c k (eager) or c k / 2
  // (synchronous). Where the delayed curve asks for more per-byte overhead than the
  // undelayed ping-pong can carry (receiving a message that has already arrived costs more
  // than half a round trip here), take the smallest such c that keeps every argument >= 0,
  // so the model stays equal to the fitted rows at every measured size.
  // Likewise the undelayed RTT sees o' and L only as 4o' + 2L: if the delayed curve's o'
  // makes L < -o' (every small-message argument 2o' + 2L + ... < 0), hold L at 0 instead.
  if (p.L < -p.o_prime) {
    p.o_prime = (4.0 * p.o_prime + 2.0 * p.L) / 4.0;
    p.L = 0.0;
  }
  double c = 0.0;
  for (const RttSample& d : no_delay) {
    const std::int64_t k = d.bytes;
    if (k == 0) continue;
    const bool sync = loggps::is_synchronous(p, k);
    const double arg = sync ? loggps::T2_for(p, k) + loggps::T3(p, k) + p.o_prime + p.L
                            : loggps::T1(p, k) + 2.0 * loggps::T2_for(p, k) + loggps::T3(p, k);
    const double per_c = sync ? 0.5 * static_cast<double>(k) : static_cast<double>(k);
    if (arg < 0.0) c = std::max(c, -arg / per_c * (1.0 + 1e-9));
  }
  if (c > 0.0) {
    p.O_s -= 0.5 * c;
    p.O_r -= 0.5 * c;
    p.G_s += c;
    p.G_l += c;
    for (auto& step : p.gap_steps) step.G += c;
  }
  return p;
}

namespace {
// One LogGPS fit for a given s and set of gap steps, with its errors; false when the
// system is singular for that choice.
bool try_fit_loggps(const std::vector<RttSample>& no_delay, const std::vector<RttSample>& delayed,
                    std::int64_t s, std::int64_t S, const std::vector<std::int64_t>& steps,
                    double delayed_weight, LogGpsFit& out) {
  try {
    out.params = fit_loggps_fixed(no_delay, delayed, s, S, steps, delayed_weight);
  } catch (const std::runtime_error&) {
    return false;
  }
  out.max_rel_error_no_delay = max_abs_rel_error(out.params, no_delay, false);
  out.max_rel_error_delayed = max_abs_rel_error(out.params, delayed, true);
  return true;
}
}  // namespace

LogGpsFit fit_loggps(const std::vector<RttSample>& no_delay, const std::vector<RttSample>& delayed,
                     std::int64_t S, const LogGpsFitOptions& options) {
  if (no_delay.size() < 3 || delayed.size() < 2) {
    throw std::invalid_argument("fit_loggps: need round trips at three sizes or more");
  }
  std::vector<std::int64_t> sizes;
  for (const RttSample& d : no_delay) sizes.push_back(d.bytes);
  std::sort(sizes.begin(), sizes.end());
  const std::int64_t largest = sizes.back();

  // s candidates: measured sizes (at least the second one, so the single-packet band holds
  // two sizes) up to S, and S itself.
  std::vector<std::int64_t> s_candidates;
  for (std::int64_t k : sizes)
    if (k > sizes.front() && k <= S && k < largest) s_candidates.push_back(k);
  if (S < largest && S > sizes.front() && (s_candidates.empty() || s_candidates.back() != S)) s_candidates.push_back(S);
  if (s_candidates.empty()) s_candidates.push_back(std::min<std::int64_t>(S, largest));

  LogGpsFit best;
  bool have_best = false;
  std::size_t best_steps = 0;
  for (std::int64_t s : s_candidates) {
    std::vector<std::int64_t> steps;
    auto evaluate = [&](const std::vector<std::int64_t>& st, LogGpsFit& out) {
      return try_fit_loggps(no_delay, delayed, s, S, st, options.delayed_weight, out);
    };
    LogGpsFit current;
    if (!evaluate(steps, current)) continue;
    // Greedy: add the gap step that lowers the sum of squared relative errors of the
    // undelayed round trips most (the worst error alone can need two steps to move), until
    // every size is within the target.
    while (current.max_rel_error_no_delay > options.target_rel_error &&
           static_cast<int>(steps.size()) < options.max_gap_steps) {
      LogGpsFit round_best;
      std::vector<std::int64_t> round_steps;
      double round_sse = sum_sq_rel_error(current.params, no_delay);
      bool improved = false;
      std::vector<std::int64_t> candidates = sizes;
      candidates.push_back(S);
      for (std::int64_t b : candidates) {
        if (b <= s || b >= largest || std::find(steps.begin(), steps.end(), b) != steps.end()) continue;
        auto trial = steps;
        trial.push_back(b);
        std::sort(trial.begin(), trial.end());
        LogGpsFit f;
        if (!evaluate(trial, f)) continue;
        const double sse = sum_sq_rel_error(f.params, no_delay);
        // Better in the squares, or (when no step helps the squares) in the worst size.
        const bool helps = sse < round_sse * (1.0 - 1e-9) ||
                           (!improved && f.max_rel_error_no_delay < current.max_rel_error_no_delay - 1e-9 &&
                            sse < sum_sq_rel_error(current.params, no_delay) * 1.5);
        if (helps) {
          round_best = f;
          round_steps = trial;
          round_sse = sse;
          improved = true;
        }
      }
      if (!improved) break;
      current = round_best;
      steps = round_steps;
    }
    // Prefer fits that reach the target with fewer steps; then the smaller error.
    const bool ok = current.max_rel_error_no_delay <= options.target_rel_error;
    const bool best_ok = have_best && best.max_rel_error_no_delay <= options.target_rel_error;
    bool better = !have_best;
    if (have_best) {
      if (ok != best_ok) better = ok;
      else if (ok && steps.size() != best_steps) better = steps.size() < best_steps;
      else better = current.max_rel_error_no_delay < best.max_rel_error_no_delay;
    }
    if (better) {
      best = current;
      best_steps = steps.size();
      have_best = true;
    }
  }
  if (!have_best) throw std::runtime_error("LogGPS fit failed: the round trips do not separate the parameters");
  if (best.max_rel_error_no_delay <= options.target_rel_error || options.max_gap_steps == 0) return best;

  // Forward selection can get stuck where two steps are needed at once. Backward elimination
  // then: start with a step at every measured size above s (as many parameters as sizes: the
  // model interpolates) and drop steps while every size stays within the target.
  for (std::int64_t s : {s_candidates.front(), best.params.s}) {
    std::vector<std::int64_t> steps;
    for (std::int64_t k : sizes)
      if (k > s && k < largest) steps.push_back(k);
    if (static_cast<int>(steps.size()) > options.max_gap_steps) continue;
    auto evaluate = [&](const std::vector<std::int64_t>& st, LogGpsFit& out) {
      return try_fit_loggps(no_delay, delayed, s, S, st, options.delayed_weight, out);
    };
    LogGpsFit current;
    if (!evaluate(steps, current)) continue;
    const double allowed = std::max(options.target_rel_error, current.max_rel_error_no_delay);
    for (bool dropped = true; dropped && !steps.empty();) {
      dropped = false;
      LogGpsFit round_best;
      std::size_t drop = 0;
      for (std::size_t j = 0; j < steps.size(); ++j) {
        auto trial = steps;
        trial.erase(trial.begin() + static_cast<std::ptrdiff_t>(j));
        LogGpsFit f;
        if (!evaluate(trial, f) || f.max_rel_error_no_delay > allowed) continue;
        if (!dropped || f.max_rel_error_no_delay < round_best.max_rel_error_no_delay) {
          round_best = f;
          drop = j;
          dropped = true;
        }
      }
      if (dropped) {
        steps.erase(steps.begin() + static_cast<std::ptrdiff_t>(drop));
        current = round_best;
      }
    }
    if (current.max_rel_error_no_delay < best.max_rel_error_no_delay) best = current;
  }
  return best;
}

// ---------------------------------------------------------------------------- LogGP
loggp::LogGpParams fit_loggp(const std::vector<RttSample>& no_delay, std::int64_t rendezvous_bytes,
                             double L, double tol) {
  std::vector<RttSample> data = no_delay;
  std::sort(data.begin(), data.end(), [](const RttSample& a, const RttSample& b) { return a.bytes < b.bytes; });
  if (data.empty()) throw std::invalid_argument("fit_loggp: no data");
  loggp::LogGpParams p;
  p.rendezvous_bytes = rendezvous_bytes;

  struct Segment {
    std::size_t first, last;
    LineFit line;
  };
  // A band's line must be physical: no negative gap per byte (a slope < 0 becomes the flat
  // line through the band's mean) and, below the handshake, no negative intercept (then a
  // line through 0). Above it the intercept is left free: there it holds o_l and the
  // handshake, and large messages on a node grow faster than linearly (caches), which an
  // effective o_l < 0 absorbs, as Ino et al. accept G_l < 0 for the same reason.
  auto line_of = [&](std::size_t i, std::size_t j) {
    std::vector<double> x, y;
    for (std::size_t t = i; t <= j; ++t) {
      x.push_back(static_cast<double>(data[t].bytes));
      y.push_back(data[t].seconds / 2.0);  // Total_Comm: one way
    }
    LineFit f = fit_line_relative(x, y);
    if (f.slope < 0.0 || x.size() == 1) {
      double sum = 0.0;
      for (double v : y) sum += v;
      f.slope = 0.0;
      f.intercept = sum / static_cast<double>(y.size());
    }
    if (f.intercept < 0.0 && data[i].bytes < rendezvous_bytes) {
      double num = 0.0, den = 0.0;
      for (std::size_t t = 0; t < x.size(); ++t) {
        num += x[t] / y[t];
        den += x[t] * x[t] / (y[t] * y[t]);
      }
      f.intercept = 0.0;
      f.slope = den > 0.0 ? num / den : 0.0;
    }
    return f;
  };
  auto fits = [&](std::size_t i, std::size_t j, const LineFit& f) {
    for (std::size_t t = i; t <= j; ++t) {
      const double m = f.intercept + f.slope * static_cast<double>(data[t].bytes);
      if (std::fabs(relative_error(m, data[t].seconds / 2.0)) > tol) return false;
    }
    return true;
  };
  // Bands hold at least two measured sizes (a one-point band says nothing about G), never
  // cross the handshake, and grow while one line fits every size within tol.
  constexpr std::size_t kMinSizes = 2;
  std::vector<Segment> segments;
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
    if (short_band && !segments.empty() &&
        (data[segments.back().first].bytes < rendezvous_bytes) == eager) {
      segments.back().last = last;
      segments.back().line = line_of(segments.back().first, last);
    } else {
      segments.push_back({i, last, line});
    }
    i = last + 1;
  }
  // L >= 0, and no larger than the smallest eager intercept, so every o = (a - L) / 2 >= 0.
  // On shared memory the fit may want L < 0 (receiving costs more than the flight): L = 0
  // then puts the whole cost into the overheads, which is what the routines really spend.
  p.L = std::max(L, 0.0);
  for (const auto& seg : segments)
    if (data[seg.first].bytes < rendezvous_bytes) p.L = std::min(p.L, seg.line.intercept);
  double o_s = 0.0;
  for (std::size_t b = 0; b < segments.size(); ++b) {
    const Segment& seg = segments[b];
    const bool eager = data[seg.first].bytes < rendezvous_bytes;
    loggp::LogGpBand band;
    band.G = seg.line.slope;
    band.upper_bytes = data[seg.last].bytes;
    if (eager) {
      band.o = (seg.line.intercept - p.L) / 2.0;  // a = 2o + L, eq. (1)
      const bool last_eager = b + 1 == segments.size() || data[segments[b + 1].first].bytes >= rendezvous_bytes;
      if (last_eager && b + 1 < segments.size()) band.upper_bytes = rendezvous_bytes - 1;
    } else if (b == 0) {
      band.o = (seg.line.intercept - 3.0 * p.L) / 5.0;  // o_s = o_l: a = 5o + 3L, eq. (2)
    } else {
      band.o = (seg.line.intercept - 3.0 * o_s - 3.0 * p.L) / 2.0;  // a = 3o_s + 3L + 2o_l
    }
    if (b == 0) o_s = band.o;
    p.bands.push_back(band);
  }
  return p;
}

// ---------------------------------------------------------------------------- S
ThresholdSearch find_synchronous_threshold(const std::vector<std::int64_t>& sizes,
                                           const std::function<bool(std::int64_t)>& waits) {
  ThresholdSearch r;
  auto probe = [&](std::int64_t k) {
    const bool w = waits(k);
    r.tried.push_back(k);
    r.waited.push_back(w);
    return w;
  };
  std::size_t first = sizes.size();
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const bool w = probe(sizes[i]);
    if (w && first == sizes.size()) first = i;
    if (!w && first != sizes.size()) r.monotone = false;
  }
  if (first == sizes.size()) {
    r.S = sizes.empty() ? 0 : sizes.back();
    r.first_waiting = -1;
    return r;
  }
  std::int64_t lo = first == 0 ? 0 : sizes[first - 1];  // did not wait (0 B: nothing to wait for)
  std::int64_t hi = sizes[first];                       // waited
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (probe(mid)) hi = mid;
    else lo = mid;
  }
  r.S = lo;
  r.first_waiting = hi;
  return r;
}

}  // namespace instrument::probe
