// A cost series read between and beyond its points (cost_series.hpp).
#include "bsplib/model/cost_series.hpp"

#include <cmath>

namespace bspmodel {

double mean_of_three_at(const std::vector<double>& points, const std::vector<double>& a,
                        const std::vector<double>& b, const std::vector<double>& c, double x) {
  const auto mean_at = [&](std::size_t i) { return (a[i] + b[i] + c[i]) / 3; };
  const std::size_t n = points.size();
  if (n == 1 || x <= 0) return mean_at(0);
  if (x >= points[n - 1]) return mean_at(n - 1);
  std::size_t i = 1;
  while (points[i] < x) ++i;  // points[i - 1] < x <= points[i]
  const double lo = points[i - 1], hi = points[i];
  const double f = i == 1 ? x / hi : std::log(x / lo) / std::log(hi / lo);
  return mean_at(i - 1) + f * (mean_at(i) - mean_at(i - 1));
}

}  // namespace bspmodel
