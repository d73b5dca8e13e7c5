#include "sweep3d/angle_block.hpp"

namespace sweep3d {

AngleBlock make_angle_block(const Problem& p, int iq, int mo, int mmi) {
  AngleBlock b;
  const Octant o = octant(iq);
  b.iq = iq;
  b.si = o.si;
  b.sj = o.sj;
  b.sk = o.sk;
  b.m0 = (mo - 1) * mmi;
  b.na = mmi;
  b.ls = lane_stride(mmi);
  b.nm = p.nm;
  for (int a = 0; a < b.ls; ++a) b.dl[a] = 1.0;  // padded lanes: r stays 0
  for (int a = 0; a < mmi; ++a) {
    const int m = b.m0 + a;
    const double mu = p.quad.mu[m], eta = p.quad.eta[m], tsi = p.quad.tsi[m], w = p.quad.w[m];
    b.ci[a] = mu * p.hi;
    b.cj[a] = eta * p.hj;
    b.ck[a] = tsi * p.hk;
    b.dl[a] = ((p.sigma_t + b.ci[a]) + b.cj[a]) + b.ck[a];
    b.r[a] = 1.0 / b.dl[a];
    const double pn[4] = {1.0, o.si * mu, o.sj * eta, o.sk * tsi};
    for (int n = 0; n < p.nm; ++n) {
      if (n > 0) b.pn[n - 1][a] = pn[n];
      b.pnw[a][n] = pn[n] * w;
    }
    b.wmu[a] = (o.si * mu) * w;
    b.weta[a] = (o.sj * eta) * w;
    b.wtsi[a] = (o.sk * tsi) * w;
  }
  return b;
}

}  // namespace sweep3d
