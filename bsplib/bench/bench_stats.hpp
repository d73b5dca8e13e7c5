// Median and spread of repeated measurements, for the benchmark programs' printouts.
#pragma once
#include <algorithm>
#include <cstdio>
#include <vector>

namespace bspbench {

struct Spread {
  double median, min, max;
};

inline Spread spread(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  const double med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  return Spread{med, v.front(), v.back()};
}

}  // namespace bspbench
