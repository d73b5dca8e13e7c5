// Ordinary least squares of y = a + b x, the fit bspprobe uses for l and g (T(h) = l + g h)
// and for g_inf and N_1/2 (time per byte = g_inf + g_inf N_1/2 / x).
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

}  // namespace bspmodel
