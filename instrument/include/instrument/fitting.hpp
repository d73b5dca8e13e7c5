// fitting: the least-squares arithmetic every fit of the suite uses (the machine probes, the
// calibrations): dense least squares, the same with every unknown >= 0, and straight lines.
//
// Relative residuals ((model - measured) / measured) are what the probes minimise: their data
// span four decades (1 us .. ms) and their acceptance criterion is a relative error per point.
#pragma once
#include <vector>

namespace instrument {

struct LineFit {
  double intercept = 0.0, slope = 0.0;
};

// Least squares of A x = b (the rows of A given). Columns are scaled internally and solved by
// Householder QR in long double (the probe's fits have up to ~30 columns spanning 1 .. 4e6).
// Throws std::runtime_error if the columns are linearly dependent or a column is all zero.
std::vector<double> least_squares(const std::vector<std::vector<double>>& rows,
                                  const std::vector<double>& rhs);

// The same with every unknown >= 0, or >= lower[j] when `lower` is given (Lawson & Hanson's
// active-set NNLS on x - lower). A column that is all zero, or that only ever worsens the fit,
// stays at its bound. Throws std::runtime_error on empty data.
std::vector<double> nonnegative_least_squares(const std::vector<std::vector<double>>& rows,
                                              const std::vector<double>& rhs,
                                              const std::vector<double>& lower = {});

// y ~ a + b x minimising sum ((a + b x - y) / y)^2. One point: slope 0.
LineFit fit_line_relative(const std::vector<double>& x, const std::vector<double>& y);

// (modelled - measured) / measured: positive when the model over-predicts.
double relative_error(double modelled, double measured);

}  // namespace instrument
