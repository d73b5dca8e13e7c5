#include "instrument/fitting.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace instrument {

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

namespace {

// Least squares on the columns marked in `use` (the others are 0).
std::vector<double> solve_on(const std::vector<std::vector<double>>& rows,
                             const std::vector<double>& rhs, const std::vector<bool>& use) {
  std::vector<std::vector<double>> sub;
  sub.reserve(rows.size());
  for (const auto& r : rows) {
    std::vector<double> s;
    for (std::size_t j = 0; j < r.size(); ++j)
      if (use[j]) s.push_back(r[j]);
    sub.push_back(std::move(s));
  }
  const auto y = least_squares(sub, rhs);
  std::vector<double> x(use.size(), 0.0);
  for (std::size_t j = 0, k = 0; j < use.size(); ++j)
    if (use[j]) x[j] = y[k++];
  return x;
}

}  // namespace

// Lawson & Hanson, "Solving Least Squares Problems" (1974), ch. 23, on columns scaled to a
// largest entry of 1 (a positive scaling keeps the signs, so the bounds are unchanged).
std::vector<double> nonnegative_least_squares(const std::vector<std::vector<double>>& rows,
                                              const std::vector<double>& rhs_in,
                                              const std::vector<double>& lower) {
  if (rows.empty()) throw std::runtime_error("non-negative least squares without data");
  const std::size_t m = rows.size(), n = rows.front().size();
  if (!lower.empty() && lower.size() != n) throw std::invalid_argument("non-negative least squares: bad bounds");
  std::vector<double> rhs = rhs_in;  // for x = lower + y, y >= 0: A y = b - A lower
  if (!lower.empty())
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) rhs[i] -= rows[i][j] * lower[j];
  std::vector<double> scale(n, 0.0);
  for (const auto& r : rows)
    for (std::size_t j = 0; j < n; ++j) scale[j] = std::max(scale[j], std::fabs(r[j]));
  std::vector<std::vector<double>> a = rows;
  for (auto& r : a)
    for (std::size_t j = 0; j < n; ++j) r[j] = scale[j] > 0.0 ? r[j] / scale[j] : 0.0;
  double bmax = 0.0;
  for (double v : rhs) bmax = std::max(bmax, std::fabs(v));
  const double tol = 1e-12 * static_cast<double>(m) * std::max(bmax, 1e-300);

  std::vector<double> x(n, 0.0);
  std::vector<bool> passive(n, false), refused(n, false);
  for (std::size_t outer = 0; outer < 3 * n + 3; ++outer) {
    // Gradient of -|r|^2 / 2: w = A^T (b - A x); a column with w_j > 0 would lower the residual.
    std::vector<double> r = rhs;
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) r[i] -= a[i][j] * x[j];
    std::size_t t = n;
    double best = tol;
    for (std::size_t j = 0; j < n; ++j) {
      if (passive[j] || refused[j] || scale[j] == 0.0) continue;
      double w = 0.0;
      for (std::size_t i = 0; i < m; ++i) w += a[i][j] * r[i];
      if (w > best) best = w, t = j;
    }
    if (t == n) break;
    passive[t] = true;
    for (std::size_t inner = 0; inner <= n; ++inner) {
      std::vector<double> z;
      try {
        z = solve_on(a, rhs, passive);
      } catch (const std::runtime_error&) {  // t depends on the passive columns: never again
        passive[t] = false;
        refused[t] = true;
        break;
      }
      double alpha = 1.0;
      for (std::size_t j = 0; j < n; ++j)
        if (passive[j] && z[j] <= 0.0) alpha = std::min(alpha, x[j] / (x[j] - z[j]));
      for (std::size_t j = 0; j < n; ++j) x[j] += alpha * (z[j] - x[j]);
      if (alpha >= 1.0) break;  // every passive z_j > 0: accept z
      double xmax = 0.0;
      for (double v : x) xmax = std::max(xmax, std::fabs(v));
      for (std::size_t j = 0; j < n; ++j)
        if (passive[j] && x[j] <= 1e-14 * xmax) passive[j] = false, x[j] = 0.0;
    }
    // A column that left again at once did so by rounding: it may come back only after
    // another column has entered (else it would cycle).
    if (passive[t]) std::fill(refused.begin(), refused.end(), false);
    else refused[t] = true;
    for (std::size_t j = 0; j < n; ++j)
      if (!passive[j]) x[j] = 0.0;
  }
  for (std::size_t j = 0; j < n; ++j) x[j] = (scale[j] > 0.0 ? x[j] / scale[j] : 0.0) + (lower.empty() ? 0.0 : lower[j]);
  return x;
}

double relative_error(double modelled, double measured) { return (modelled - measured) / measured; }

LineFit fit_line(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size()) throw std::invalid_argument("fit_line: x and y differ in length");
  if (x.empty()) return {};
  const double n = static_cast<double>(x.size());
  const double mx = std::accumulate(x.begin(), x.end(), 0.0) / n;
  const double my = std::accumulate(y.begin(), y.end(), 0.0) / n;
  double sxx = 0.0, sxy = 0.0;  // centred: no cancellation when x is far from 0
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
  }
  const double b = sxx > 0.0 ? sxy / sxx : 0.0;
  return {my - b * mx, b};
}

ClampedLogLine fit_clamped_log_line(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.empty() || x.size() != y.size())
    throw std::invalid_argument("fit_clamped_log_line: expected as many y as x, at least one");
  ClampedLogLine c;
  c.lo = c.hi = x.front();
  std::vector<double> lx;
  for (double v : x) {
    if (!(v > 0.0) || !std::isfinite(v)) throw std::invalid_argument("fit_clamped_log_line: x must be finite and > 0");
    lx.push_back(std::log(v));
    c.lo = std::min(c.lo, v);
    c.hi = std::max(c.hi, v);
  }
  const LineFit f = fit_line(lx, y);
  c.slope = c.lo == c.hi ? 0.0 : f.slope;
  c.intercept = f.intercept;
  return c;
}

double ClampedLogLine::operator()(double x) const {
  if (!(x > 0.0) || !std::isfinite(x))
    throw std::invalid_argument("ClampedLogLine: x must be finite and > 0, got " + std::to_string(x));
  return slope == 0.0 ? intercept : slope * std::log(std::clamp(x, lo, hi)) + intercept;
}

bool ClampedLogLine::positive_at_ends() const {
  for (double e : {lo, hi}) {
    const double v = slope * std::log(e) + intercept;
    if (!(v > 0.0) || !std::isfinite(v)) return false;
  }
  return true;
}

LineFit fit_line_relative(const std::vector<double>& x, const std::vector<double>& y,
                          std::optional<double> fixed_intercept) {
  if (x.size() != y.size()) throw std::invalid_argument("fit_line_relative: x and y differ in length");
  std::vector<double> xs, ys;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (y[i] > 0.0) xs.push_back(x[i]), ys.push_back(y[i]);
  if (fixed_intercept) {
    // d/db sum ((a + b x - y) / y)^2 = 0: b = sum x (y - a) / y^2 / sum x^2 / y^2.
    double num = 0.0, den = 0.0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      num += xs[i] * (ys[i] - *fixed_intercept) / (ys[i] * ys[i]);
      den += xs[i] * xs[i] / (ys[i] * ys[i]);
    }
    return {*fixed_intercept, den > 0.0 ? num / den : 0.0};
  }
  if (xs.empty()) return {};
  if (xs.size() == 1) return {ys[0], 0.0};
  std::vector<std::vector<double>> rows;
  for (std::size_t i = 0; i < xs.size(); ++i) rows.push_back({1.0 / ys[i], xs[i] / ys[i]});
  try {
    const auto c = least_squares(rows, std::vector<double>(xs.size(), 1.0));
    return {c[0], c[1]};
  } catch (const std::runtime_error&) {  // all x equal: the best constant, sum(1/y) / sum(1/y^2)
    double num = 0.0, den = 0.0;
    for (double v : ys) num += 1.0 / v, den += 1.0 / (v * v);
    return {num / den, 0.0};
  }
}

}  // namespace instrument
