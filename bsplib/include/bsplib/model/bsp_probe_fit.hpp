// bspprobe's derivations from its measurements, apart from MPI and timing so that they are
// unit-tested (as instrument's probe_fit.hpp is for loggps-probe); the line fits themselves
// are instrument's (fitting.hpp), shared with loggps-probe.
#pragma once
#include <vector>

#include "bsplib/model/machine_params.hpp"

namespace bspmodel {

// T(h) = l + g h over the measured h-relations, least squares on relative residuals (so the
// small supersteps, where l dominates, place l). A negative intercept (curvature from a
// protocol switch inside the range) is unphysical: then l is the measured empty superstep
// T(h[0]) and g is refitted with the intercept fixed there.
struct LineOfSupersteps {
  double l = 0, g = 0;           // seconds, seconds per byte
  bool l_fixed = false;          // l was fixed to T(h[0])
  double worst_residual = 0;     // max |l + g h - T| / T over the points
};
LineOfSupersteps fit_supersteps(const std::vector<double>& h, const std::vector<double>& t);

// Eq. 3, t(x) = g_inf (1 + N_1/2 / x): the time per byte of messages of x bytes. g_inf is
// given (the g the model applies N_1/2 with), or if 0 the asymptote (the smaller of the two
// largest-x points). N_1/2 minimises the squared relative residuals, so the large-x points (t
// close to g_inf) and the small-x points (t many times g_inf) count alike: the relative line
// fit in 1/x with the intercept fixed at g_inf, whose slope is g_inf N_1/2. (A plain
// least-squares line in 1/x lets the smallest x decide the intercept, which can come out
// negative.) N_1/2 < 0 (faster small messages, noise) is taken as 0.
struct GranularityFit {
  double g_inf = 0;   // seconds per byte
  double n_half = 0;  // bytes
};
GranularityFit fit_granularity(const std::vector<double>& x, const std::vector<double>& t,
                               double g_inf = 0);

// The time per byte of h bytes after the empty superstep's t0 (not the fitted l, which
// carries the fit's error), 0 where the measurement came out below t0.
double time_per_byte_after(double t, double t0, double h);

}  // namespace bspmodel
