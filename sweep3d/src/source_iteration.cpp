#include "sweep3d/source_iteration.hpp"

#include <cmath>

namespace sweep3d {

CellFields make_cell_fields(const Problem& p, const KbaDecomposition& d) {
  CellFields f;
  f.nm = p.nm;
  f.cells = d.local_cells();
  const std::size_t n = static_cast<std::size_t>(f.cells);
  f.flux.resize(n * static_cast<std::size_t>(p.nm));
  f.src.resize(n * static_cast<std::size_t>(p.nm));
  f.pflux.resize(n);
  return f;
}

ExternalSource::ExternalSource(const Problem& p, const KbaDecomposition& d) {
  const int first[3] = {d.istart, d.jstart, 1};
  for (int a = 0; a < 3; ++a) {
    lo[a] = p.src_lo[a] - first[a];
    hi[a] = p.src_hi[a] - first[a];
  }
}

void compute_source(const Problem& p, const KbaDecomposition& d, CellFields& f, int threads) {
  const ExternalSource srcx(p, d);
  const int nm = f.nm;
  double* flux = f.flux.data();
  double* src = f.src.data();
  double* pflux = f.pflux.data();
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
  for (int k = 0; k < d.kt; ++k)
    for (int j = 0; j < d.jt; ++j)
      for (int i = 0; i < d.it; ++i) {
        const long c = (static_cast<long>(k) * d.jt + j) * d.it + i;
        double* fl = flux + c * nm;
        double* s = src + c * nm;
        s[0] = srcx.at(i, j, k) + p.sigma_s0 * fl[0];
        for (int n = 1; n < nm; ++n) s[n] = p.sigma_s1 * fl[n];
        pflux[c] = fl[0];
        for (int n = 0; n < nm; ++n) fl[n] = 0.0;
      }
}

double local_flux_error(const CellFields& f, int threads) {
  double err = 0.0;
  const double* flux = f.flux.data();
  const double* pflux = f.pflux.data();
#pragma omp parallel for num_threads(threads) schedule(static) reduction(max : err) if (threads > 1)
  for (long c = 0; c < f.cells; ++c) {
    const double phi = flux[c * f.nm];
    if (phi != 0.0) {
      const double e = std::fabs((phi - pflux[c]) / phi);
      if (e > err) err = e;
    }
  }
  return err;
}

LocalBalance local_balance(const Problem& p, const KbaDecomposition& d, const CellFields& f) {
  const ExternalSource srcx(p, d);
  const double vol = (p.di * p.dj) * p.dk;
  const double sigma_a = p.sigma_t - p.sigma_s0;
  LocalBalance b;
  long c = 0;
  for (int k = 0; k < d.kt; ++k)
    for (int j = 0; j < d.jt; ++j)
      for (int i = 0; i < d.it; ++i, ++c) {
        b.source += srcx.at(i, j, k) * vol;
        b.absorption += (sigma_a * f.flux[static_cast<std::size_t>(c * f.nm)]) * vol;
      }
  return b;
}

}  // namespace sweep3d
