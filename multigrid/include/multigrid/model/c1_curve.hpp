// C1(N/p): eq. 5's seconds per cell and operator application as a function of the cells a
// process holds, fitted over calibration runs in the piecewise form tycho's T_elem(E_p) takes
// (instrument::ClampedLogLine: flat, a ln(N/p) + b, flat; never extrapolated).
//
// Why a curve, not one number: the smoother gathers from and scatters to nodes, and once a
// process's grid no longer fits in the last-level cache each cell costs more (about a quarter
// more here, multigrid/BENCHMARKS.md), so one C1 from a small grid prices a large one short.
// A point per calibration run (its finest grid) at the N/p it ran, spanning the sizes to be
// predicted, gives C1 where it is wanted.
#pragma once
#include <string>
#include <vector>

#include "instrument/fitting.hpp"

namespace mg {

struct C1Point {
  double cells_per_process = 0;  // N_1 / p of the run measured
  double seconds = 0;            // C1 measured there
  std::string source;            // the results file (or "this run")
  int p = 0;                     // the run's processes; 0: not known
  std::string kernel;            // its cell kernel (p1_operator.hpp); empty: not recorded
  double loose_seconds = 0;      // C1 of cells in no family (its coarsest grid); 0: not recorded
  std::string unreliable_because{};  // its run's own mark (instrument::calibration_unreliable_because)
  double speed_check_ns{};       // its run's speed check (speed_check.hpp); 0: not recorded
};

class C1Curve {
 public:
  // Throws instrument::InputError naming the point's source for a value that is not finite and
  // > 0, and ("C1 calibration", ...) for no point or a fit that is not positive over the
  // measured range.
  explicit C1Curve(std::vector<C1Point> points);

  double operator()(double cells_per_process) const { return line_(cells_per_process); }
  // C1 of cells in no family of 8: the mean over the points that recorded it; 0 if none did.
  double loose_seconds() const noexcept { return loose_; }
  const instrument::ClampedLogLine& line() const noexcept { return line_; }
  const std::vector<C1Point>& points() const noexcept { return points_; }

  // The curve and every point, flagging points measured at another process count than `p` or
  // with another cell kernel than `kernel` (C1 depends on both: README.md), e.g.
  // "C1 = 1.1e-09 ln(N/p) - 6.6e-09 s for 196608 <= N/p <= 3072000, flat outside, least squares
  //  over 2 points: a.h5 (p = 1, N/p 196608, avx2: 6.7e-09 s), b.h5 (...)".
  std::string describe(int p, const std::string& kernel) const;

 private:
  std::vector<C1Point> points_;
  instrument::ClampedLogLine line_;
  double loose_ = 0;
};

}  // namespace mg
