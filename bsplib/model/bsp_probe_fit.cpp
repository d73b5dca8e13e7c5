#include "bsplib/model/bsp_probe_fit.hpp"

#include <algorithm>
#include <cmath>

#include "instrument/fitting.hpp"

namespace bspmodel {

LineOfSupersteps fit_supersteps(const std::vector<double>& h, const std::vector<double>& t) {
  LineOfSupersteps f;
  instrument::LineFit lg = instrument::fit_line_relative(h, t);
  if (lg.intercept < 0 && !t.empty()) {
    lg = instrument::fit_line_relative(h, t, t[0]);
    f.l_fixed = true;
  }
  f.l = lg.intercept;
  f.g = lg.slope;
  for (std::size_t i = 0; i < h.size() && i < t.size(); ++i)
    if (t[i] > 0) f.worst_residual = std::max(f.worst_residual, std::fabs(f.l + f.g * h[i] - t[i]) / t[i]);
  return f;
}

GranularityFit fit_granularity(const std::vector<double>& x, const std::vector<double>& t,
                               double g_inf) {
  GranularityFit f;
  const std::size_t n = std::min(x.size(), t.size());
  if (n < 2) return f;
  f.g_inf = g_inf > 0 ? g_inf : std::min(t[n - 1], t[n - 2]);
  if (f.g_inf <= 0) return f;
  std::vector<double> inverse_x, times;
  for (std::size_t i = 0; i < n; ++i)
    if (x[i] > 0) {
      inverse_x.push_back(1.0 / x[i]);
      times.push_back(t[i]);
    }
  const instrument::LineFit line = instrument::fit_line_relative(inverse_x, times, f.g_inf);
  f.n_half = std::max(line.slope / f.g_inf, 0.0);
  return f;
}

double time_per_byte_after(double t, double t0, double h) {
  return h > 0 ? std::max(t - t0, 0.0) / h : 0.0;
}

}  // namespace bspmodel
