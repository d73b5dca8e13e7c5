// Least squares of y = a + b x: ordinary, and on relative residuals ((y - a - b x) / y), the
// fit bspprobe uses for l and g (T(h) = l + g h), so that supersteps with small h, which l
// dominates, are fitted as closely as the large ones (ordinary least squares lets the
// largest h decide the line and leaves the intercept l at the mercy of their noise).
#pragma once
#include <cstddef>
#include <vector>

namespace bspmodel {

struct LineFit {
  double a = 0, b = 0;  // intercept, slope
};

inline LineFit fit_line(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n = x.size();
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  const double d = n * sxx - sx * sx;
  LineFit f;
  if (n == 0 || d == 0) return f;
  f.b = (n * sxy - sx * sy) / d;
  f.a = (sy - f.b * sx) / n;
  return f;
}

// Minimises sum ((y_i - a - b x_i) / y_i)^2, i.e. weights 1 / y_i^2; points with y <= 0
// are left out. Fixed a (fix_a): only b is fitted.
inline LineFit fit_line_relative(const std::vector<double>& x, const std::vector<double>& y,
                                 const double* fix_a = nullptr) {
  double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (y[i] <= 0) continue;
    const double w = 1.0 / (y[i] * y[i]);
    sw += w;
    sx += w * x[i];
    sy += w * y[i];
    sxx += w * x[i] * x[i];
    sxy += w * x[i] * y[i];
  }
  LineFit f;
  if (fix_a) {
    f.a = *fix_a;
    f.b = sxx > 0 ? (sxy - f.a * sx) / sxx : 0;
    return f;
  }
  const double d = sw * sxx - sx * sx;
  if (sw == 0 || d == 0) return f;
  f.b = (sw * sxy - sx * sy) / d;
  f.a = (sy - f.b * sx) / sw;
  return f;
}

}  // namespace bspmodel
