// Eq. 5 and the surface fit (eq5_model.hpp).
#include "multigrid/model/eq5_model.hpp"

#include <algorithm>
#include <cmath>

namespace mg {

std::vector<Eq5Terms> eq5_w_cycle(const Eq5Inputs& in) {
  std::vector<Eq5Terms> terms;
  Eq5Terms sum;
  for (const Eq5Grid& g : in.grids) {
    const double per_process = g.cells / in.p;
    Eq5Terms t;
    t.compute = g.applications * g.c1_seconds * per_process;
    t.communicate = in.c2_bytes > 0 ? g.applications * in.c2_bytes * std::pow(per_process, in.gamma) * in.g_seconds_per_byte : 0;
    t.synchronise = g.applications * g.c3 * in.l_seconds;
    sum.compute += t.compute;
    sum.communicate += t.communicate;
    sum.synchronise += t.synchronise;
    terms.push_back(t);
  }
  terms.push_back(sum);
  return terms;
}

SurfaceFit fit_surface(const std::vector<double>& x, const std::vector<double>& h) {
  SurfaceFit fit;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size() && i < h.size(); ++i) {
    if (!(h[i] > 0) || !(x[i] > 0)) continue;
    const double lx = std::log(x[i]), ly = std::log(h[i]);
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
    ++fit.points;
  }
  if (fit.points == 0) return fit;
  const double n = fit.points, den = n * sxx - sx * sx;
  if (fit.points >= 2 && den > 1e-12) fit.gamma = (n * sxy - sx * sy) / den;
  fit.c2_bytes = std::exp((sy - fit.gamma * sx) / n);
  return fit;
}

Eq5Inputs eq5_inputs_from_counts(int p, const std::function<double(double)>& c1, double c1_loose, double l_seconds,
                                 double g_seconds_per_byte, const std::vector<Eq5GridCount>& grids) {
  Eq5Inputs in;
  in.p = p;
  in.l_seconds = l_seconds;
  in.g_seconds_per_byte = g_seconds_per_byte;
  std::vector<double> x, h;
  for (const Eq5GridCount& g : grids) {
    const double f = c1_loose > 0 && g.cells > 0 ? std::clamp(g.loose_cells / g.cells, 0.0, 1.0) : 0.0;
    const double c1_mix = f < 1 ? (1 - f) * c1(g.cells / p) + f * c1_loose : c1_loose;
    in.grids.push_back({g.cells, g.applications, g.applications > 0 ? g.supersteps / g.applications : 0, c1_mix, f});
    x.push_back(g.cells / p);
    h.push_back(g.h_bytes);
  }
  const SurfaceFit fit = fit_surface(x, h);
  in.c2_bytes = fit.c2_bytes;
  in.gamma = fit.gamma;
  return in;
}

}  // namespace mg
