// T_elem(E_p, MCPS): the time of one cell-angle task (one cell, one direction, all groups) as
// a function of E_p, the cells per rank, in the piecewise form of Kerbyson, Hoisie & Pautz
// (section 3.4, Figure 5, Table 1): constant while the part is in cache, a ln(E_p) + b in the
// partial-reuse region, constant when it no longer fits:
//
//   T_elem(E_p) = a ln(E_lo) + b     E_p <= E_lo
//                 a ln(E_p)  + b     E_lo < E_p < E_hi
//                 a ln(E_hi) + b     E_p >= E_hi
//
// fitted to calibration points {E_p, T_elem} measured on earlier runs: a and b by least squares
// over the points (in ln E_p; repeated runs of one configuration, points at one E_p and MCPS,
// count as one point, their median: a process's speed on a shared or virtual host is drawn when
// it starts and moves by tens of percent run to run, and a mean would let one such run pull
// the curve), E_lo and E_hi the smallest and largest E_p measured, so the
// curve never extrapolates beyond what was measured (the paper's plateaus; held constant, and
// continuous at the ends). One point (or points all at one E_p): a constant, their mean.
// The plateau edges are where our measurements end, not where the caches do: with points
// only inside one regime the curve is that regime's line or constant.
//
// Our extension: T_elem also depends on MCPS (a larger step takes more tasks of one direction
// while its angular fluxes are in cache). In twelve calibration triples it was 1.02-1.32 times
// as much at MCPS 64 as at 512, and 0.78-1.16 times at 2048 (tycho/BENCHMARKS.md): a shape no
// one-term fit in ln MCPS follows. So when the points carry their run's MCPS and
// span two values or more, the curve is
//
//   T_elem(E_p, MCPS) = T_ref(E_p) rho(MCPS)
//
// with M_ref the MCPS measured at the most E_p (ties: the smaller), rho(M) the geometric mean
// of T_elem(E_p, M) / T_elem(E_p, M_ref) over the E_p measured at both (rho(M_ref) = 1), linear
// in ln MCPS between the measured M and held beyond them, and T_ref the piecewise fit above
// over every point divided by its rho. An MCPS never measured at an E_p that also has M_ref
// cannot be related: it is left out of rho (and its points out of the fit), and describe()
// says so. A point without its MCPS (a results file written before it was kept) gives the
// curve of E_p alone.
//
// How T_ref(E_p) is drawn (TelemFit): `line`, the paper's, is the least-squares line above;
// `points`, ours, goes through each measured E_p's value (the median of the points there, each
// divided by its rho), linear in ln E_p between neighbours and constant beyond the ends. Why:
// a cache's step between two measured E_p is a jump a line over all the points cannot follow.
// In the Table 3 campaign (AMD EPYC Zen 5, 2026-12-03) the calibrations sit at E_p 2064 and
// 4128 (cube-4128) and 5358 and 10717 (cube-10717), and the caches step between 4128 and 5358
// (the kuhn cubes at one rank: 103-117 ns a task at 4374 cells, 134-149 at 6000): the line,
// pulled up by the points above the step, put cube-4128's one-rank runs +7.4..+12.3% over
// their measured sweeps (medians, two invocations at 15:31-15:36; tycho/BENCHMARKS.md scores
// both fits alternated). With one value at each of two E_p (one MCPS) the two fits are one
// line, and with one E_p one constant; with more values at an E_p, `points` takes their median
// where `line` passes through their mean. `points` follows each measured E_p's noise where
// `line` averages it out.
//
// Units: E_p in cells per rank, T_elem in seconds per cell-angle task, MCPS in tasks a step.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "instrument/fitting.hpp"

namespace tycho::model {

enum class TelemFit { line, points };
// "line" or "points" (the --telem-fit words).
const char* telem_fit_name(TelemFit fit) noexcept;

struct TelemPoint {
  double cells_per_rank = 0.0;    // E_p of the run (its mean over ranks)
  double seconds_per_task = 0.0;  // T_elem measured there
  std::string source;             // where it was measured (a results file), for errors and describe()
  double mcps = 0.0;              // the run's MCPS (tasks a step); 0: not known
};

class TelemCurve {
 public:
  // Throws instrument::InputError naming the point's source and "E_p" or "T_elem" for a value
  // that is not finite and positive, and ("T_elem calibration", "", ...) for no point at all or
  // a fit that is not positive at an end of the measured range (noisy points whose line dips
  // below zero: the model would be meaningless).
  // `fit`: line, the paper's, unless asked (the apps' --telem-fit default is points).
  explicit TelemCurve(std::vector<TelemPoint> points, TelemFit fit = TelemFit::line);

  // Seconds per cell-angle task at E_p cells per rank and MCPS tasks a step;
  // std::invalid_argument unless E_p is finite and positive, and MCPS too when the curve has
  // an MCPS term (it is ignored otherwise).
  double operator()(double cells_per_rank, double mcps) const;

  bool is_constant() const noexcept {
    return rho_.empty() && (fit_ == TelemFit::line ? ref_.slope == 0.0 : knots_.size() == 1);
  }
  TelemFit fit() const noexcept { return fit_; }
  bool has_mcps_factor() const noexcept { return !rho_.empty(); }
  // rho at the measured MCPS, ascending: {MCPS, factor}; empty without an MCPS factor.
  const std::vector<std::pair<double, double>>& mcps_factor() const noexcept { return rho_; }
  double rho(double mcps) const;  // 1 without an MCPS factor
  double slope() const noexcept { return ref_.slope; }          // a, s per ln(cell) (line)
  double intercept() const noexcept { return ref_.intercept; }  // b, s (line)
  double lowest_cells() const noexcept { return ref_.lo; }      // E_lo
  double highest_cells() const noexcept { return ref_.hi; }     // E_hi
  // points: {E_p, T_ref} at each measured E_p, ascending; empty for line.
  const std::vector<std::pair<double, double>>& knots() const noexcept { return knots_; }
  const std::vector<TelemPoint>& points() const noexcept { return points_; }

  // The curve and the points that fed it, e.g.
  // "T_elem = 1.8e-06 ln(E_p) - 8.4e-06 s for 800 <= E_p <= 16000, constant outside, least
  //  squares over 3 points: a.h5 (E_p 800: 3.7e-06 s), ...".
  std::string describe() const;

 private:
  void measure_mcps_factor();
  bool measured_mcps(double mcps) const;

  std::vector<TelemPoint> points_;  // as given, for describe()
  std::vector<TelemPoint> fitted_;  // one a distinct (E_p, MCPS): the median of its repeats
  TelemFit fit_ = TelemFit::line;
  instrument::ClampedLogLine ref_;  // T_ref(E_p) for line; lo and hi the measured ends for both
  std::vector<std::pair<double, double>> knots_;  // T_ref at each measured E_p for points
  double ref(double cells_per_rank) const;
  std::vector<std::pair<double, double>> rho_;  // {MCPS, factor}, ascending
  double mcps_ref_ = 0.0;
  std::string mcps_note_;  // what of the points' MCPS could not be used, and why
};

}  // namespace tycho::model
