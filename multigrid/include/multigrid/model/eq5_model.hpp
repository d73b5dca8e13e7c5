// Hill, Crumpton & Burgess's pencil-and-paper W-cycle cost (their eq. 5), in seconds:
//
//   T = sum over grids i of n_i [ C1 N_i / p + C2 (N_i / p)^gamma g + C3 l ]
//
// with N_i = N r^(i-1) the cells of grid i (grid 1 the finest) and n_i the smoothing
// iterations it gets per cycle (2^i in the paper's W-cycle with one pre- and one
// post-smoothing). Here every input is counted in the run rather than assumed: n_i counts
// the operator applications (smoothing iterations and residuals) on grid i, C3 the
// supersteps per application (the transfers add some), and C2, gamma come from a fit of the
// bytes a process exchanges per application against N_i / p over the grids. C1 is seconds
// per cell and application, taken per grid at its N_i / p (c1_curve.hpp: a grid out of cache
// costs more per cell) for the cells in families of 8 and from the coarsest grid for the
// cells in none (the cell loop takes those one at a time, at over twice the cost: on the
// coarsest grid, which has no families, one C1 put eq. 5 64% short), l seconds, g seconds per
// byte (so C2 is in bytes).
#pragma once
#include <functional>
#include <vector>

namespace mg {

struct Eq5Grid {
  double cells = 0;         // N_i
  double applications = 0;  // n_i per cycle
  double c3 = 1;            // supersteps per application
  double c1_seconds = 0;    // C1 at N_i / p, per cell and application (its cells' mix)
  double loose_fraction = 0;  // of its cells in no family, priced at the loose C1
};

struct Eq5Inputs {
  int p = 1;
  double c2_bytes = 0;     // surface constant
  double gamma = 2.0 / 3;  // surface exponent
  double l_seconds = 0;
  double g_seconds_per_byte = 0;
  std::vector<Eq5Grid> grids;  // [i - 1]: grid 1 first
};

struct Eq5Terms {
  double compute = 0, communicate = 0, synchronise = 0;
  double total() const { return compute + communicate + synchronise; }
};

// Per grid (same order as inputs.grids) and, last, the sum.
std::vector<Eq5Terms> eq5_w_cycle(const Eq5Inputs& inputs);

// h = C2 (N/p)^gamma by least squares on logs over the points with h > 0; with one such
// point gamma is taken as 2/3 (a surface) and C2 fits it; with none, C2 = 0.
struct SurfaceFit {
  double c2_bytes = 0;
  double gamma = 2.0 / 3;
  int points = 0;
};
SurfaceFit fit_surface(const std::vector<double>& cells_per_process, const std::vector<double>& h_bytes);

// What eq. 5 takes of one grid, counted in a run or in a projection.
struct Eq5GridCount {
  double cells = 0;           // N_i
  double applications = 0;    // n_i per cycle
  double supersteps = 0;      // per cycle: C3 = supersteps / applications
  double h_bytes = 0;         // most bytes into or out of a process per application
  double loose_cells = 0;     // cells in no family of 8, over all processes
};
// Eq. 5's inputs from the counts (grid 1 first): C3 per grid; C1 per grid as
// (1 - f) c1(N_i / p) + f c1_loose with f its fraction of loose cells (f = 0 where c1_loose
// is 0: not known); C2, gamma fitted to h over N_i / p (fit_surface).
Eq5Inputs eq5_inputs_from_counts(int p, const std::function<double(double)>& c1, double c1_loose, double l_seconds,
                                 double g_seconds_per_byte,
                                 const std::vector<Eq5GridCount>& grids);

}  // namespace mg
