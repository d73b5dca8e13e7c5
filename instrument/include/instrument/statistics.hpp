// statistics: the summary of repeated measurements (or of one quantity over ranks) that every
// table and probe of the suite prints: min, mean, median, max.
//
// The median of an even count is the mean of the two middle values. No values: every field 0
// (a phase nobody entered, an empty sample), so callers print a row without a special case.
#pragma once
#include <cstddef>
#include <vector>

namespace instrument {

struct Summary {
  double min = 0.0, mean = 0.0, median = 0.0, max = 0.0;
  std::size_t count = 0;
};

Summary summarise(const std::vector<double>& values);
double median(std::vector<double> values);

}  // namespace instrument
