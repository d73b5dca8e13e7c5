// fitting: the least-squares arithmetic every fit of the suite uses (loggps-probe, bspprobe,
// the calibrations): dense least squares, the same with bounds, and straight lines.
//
// Relative residuals ((model - measured) / measured) are what the probes minimise: their data
// span four decades (1 us .. ms) and their acceptance criterion is a relative error per point.
#pragma once
#include <optional>
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

// y ~ a + b x minimising sum (a + b x - y)^2 (ordinary least squares). No point: {0, 0}; all
// x equal: slope 0 through the mean.
LineFit fit_line(const std::vector<double>& x, const std::vector<double>& y);

// y ~ a + b x minimising sum ((a + b x - y) / y)^2: every point counts by its relative error,
// so the small y (a latency, l) are fitted as closely as the large ones (ordinary least squares
// lets the largest y decide the line and leaves the intercept to their noise). Points with
// y <= 0 are left out (no relative error there). With fixed_intercept only the slope is
// fitted. No usable point: {fixed_intercept or 0, 0}; one, or all x equal: slope 0.
// Throws std::invalid_argument if x and y differ in length.
LineFit fit_line_relative(const std::vector<double>& x, const std::vector<double>& y,
                          std::optional<double> fixed_intercept = std::nullopt);

// y = a ln x + b between the smallest and largest x measured (lo, hi), held at its value there
// outside: the piecewise form of a cost per item against the items a process holds (Kerbyson,
// Hoisie & Pautz's T_elem(E_p), section 3.4; multigrid's C1(N/p)): flat while the part fits in
// cache, a ln x + b while reuse falls off, flat once nothing fits. Holding the ends means the
// curve never extrapolates what was not measured.
struct ClampedLogLine {
  double slope = 0.0, intercept = 0.0, lo = 0.0, hi = 0.0;
  double operator()(double x) const;  // x finite and > 0, else std::invalid_argument
  bool positive_at_ends() const;      // a fit whose line dips to <= 0 at lo or hi means nothing
};
// Ordinary least squares in y over (ln x, y); all x equal (or one point): slope 0 through the
// mean y. Throws std::invalid_argument for no point, lengths that differ or an x <= 0.
ClampedLogLine fit_clamped_log_line(const std::vector<double>& x, const std::vector<double>& y);

// (modelled - measured) / measured: positive when the model over-predicts.
double relative_error(double modelled, double measured);

}  // namespace instrument
