// A cost series of bspprobe's: the comm+sync of an empty superstep and of one put of 64 B and
// of 2 KiB one way, at points rising from 0 (the gaps of after_gap.hpp, the working sets of
// after_stream.hpp), read between and beyond its points.
#pragma once
#include <vector>

namespace bspmodel {

// The mean of the three series a, b, c (one value a point) at x: linear from 0 to the first
// point above 0 (log 0 is no place), linear in log x between points, held beyond the last.
// Why the mean: the increase over the point 0 did not depend on h within the probe's noise.
double mean_of_three_at(const std::vector<double>& points, const std::vector<double>& a,
                        const std::vector<double>& b, const std::vector<double>& c, double x);

}  // namespace bspmodel
