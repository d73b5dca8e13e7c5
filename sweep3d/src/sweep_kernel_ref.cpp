// Reference kernel: the spec's cell solve written as plainly as possible. Angle outermost,
// then planes, lines and cells in sweep order, one scalar cell-angle at a time. Slow; it is
// the oracle the fast kernel is tested against.
#include "sweep3d/flux_fixup.hpp"
#include "sweep3d/sweep_kernel.hpp"

namespace sweep3d {

std::int64_t sweep_block_ref(const BlockData& b, const AngleBlock& ab) {
  const int ls = ab.ls;
  std::int64_t nfixed = 0;
  for (int a = 0; a < ab.na; ++a) {
    const double ci = ab.ci[a], cj = ab.cj[a], ck = ab.ck[a];
    for (int kp = 0; kp < b.nk; ++kp) {
      const int k = b.k_first + kp * ab.sk;
      for (int jj = 0; jj < b.jt; ++jj) {
        const int j = ab.sj > 0 ? jj : b.jt - 1 - jj;
        double& face_i = b.iface[(static_cast<long>(kp) * b.jt + j) * ls + a];
        double psi_i = face_i;
        for (int ii = 0; ii < b.it; ++ii) {
          const int i = ab.si > 0 ? ii : b.it - 1 - ii;
          const long cell = (static_cast<long>(k) * b.jt + j) * b.it + i;
          double& face_j = b.jface[(static_cast<long>(kp) * b.it + i) * ls + a];
          double& face_k = b.kface[(static_cast<long>(j) * b.it + i) * ls + a];
          const double psi_j = face_j, psi_k = face_k;
          // angular source
          const double* s = b.src + cell * b.nm;
          double q = s[0];
          for (int n = 1; n < b.nm; ++n) q = q + ab.pn[n - 1][a] * s[n];
          // diamond difference
          const double ql = ((q + ci * psi_i) + cj * psi_j) + ck * psi_k;
          double psi = ql * ab.r[a];
          double ti = 2.0 * psi - psi_i, tj = 2.0 * psi - psi_j, tk = 2.0 * psi - psi_k;
          if (b.fixup) nfixed += flux_fixup(ci, cj, ck, ab.dl[a], ql, psi, psi_i, psi_j, psi_k, ti, tj, tk);
          psi_i = ti;
          face_j = tj;
          face_k = tk;
          // flux moments
          double* f = b.flux + cell * b.nm;
          for (int n = 0; n < b.nm; ++n) f[n] += ab.pnw[a][n] * psi;
        }
        face_i = psi_i;
      }
    }
  }
  return nfixed;
}

}  // namespace sweep3d
