// T_elem(E_p): the time of one cell-angle task (one cell, one direction, all groups) as a
// function of E_p, the cells per rank, in the piecewise form of Kerbyson, Hoisie & Pautz
// (section 3.4, Figure 5, Table 1): constant while the part is in cache, a ln(E_p) + b in the
// partial-reuse region, constant when it no longer fits:
//
//   T_elem(E_p) = a ln(E_lo) + b     E_p <= E_lo
//                 a ln(E_p)  + b     E_lo < E_p < E_hi
//                 a ln(E_hi) + b     E_p >= E_hi
//
// fitted to calibration points {E_p, T_elem} measured on earlier runs: a and b by least squares
// over the points (in ln E_p), E_lo and E_hi the smallest and largest E_p measured, so the
// curve never extrapolates beyond what was measured (the paper's plateaus; held constant, and
// continuous at the ends). One point (or points all at one E_p): a constant, their mean.
// The plateau edges are where our measurements end, not where the caches do: with points
// only inside one regime the curve is that regime's line or constant.
//
// Units: E_p in cells per rank, T_elem in seconds per cell-angle task.
#pragma once
#include <string>
#include <vector>

namespace tycho::model {

struct TelemPoint {
  double cells_per_rank = 0.0;    // E_p of the run (its mean over ranks)
  double seconds_per_task = 0.0;  // T_elem measured there
  std::string source;             // where it was measured (a results file), for errors and describe()
};

class TelemCurve {
 public:
  // Throws instrument::InputError naming the point's source and "E_p" or "T_elem" for a value
  // that is not finite and positive, and ("T_elem calibration", "", ...) for no point at all or
  // a fit that is not positive at an end of the measured range (noisy points whose line dips
  // below zero: the model would be meaningless).
  explicit TelemCurve(std::vector<TelemPoint> points);

  // Seconds per cell-angle task at E_p cells per rank; std::invalid_argument unless E_p is
  // finite and positive.
  double operator()(double cells_per_rank) const;

  bool is_constant() const noexcept { return slope_ == 0.0; }
  double slope() const noexcept { return slope_; }          // a, s per ln(cell)
  double intercept() const noexcept { return intercept_; }  // b, s
  double lowest_cells() const noexcept { return lo_; }      // E_lo
  double highest_cells() const noexcept { return hi_; }     // E_hi
  const std::vector<TelemPoint>& points() const noexcept { return points_; }

  // The curve and the points that fed it, e.g.
  // "T_elem = 1.8e-06 ln(E_p) - 8.4e-06 s for 800 <= E_p <= 16000, constant outside, least
  //  squares over 3 points: a.h5 (E_p 800: 3.7e-06 s), ...".
  std::string describe() const;

 private:
  std::vector<TelemPoint> points_;
  double slope_ = 0.0, intercept_ = 0.0, lo_ = 0.0, hi_ = 0.0;
};

}  // namespace tycho::model
