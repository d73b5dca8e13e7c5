// The negative-flux fixup of the original, exactly (spec §3.2). Shared by every kernel:
// the fast kernel calls it for the rare lanes whose diamond outflow went negative.
#pragma once

namespace sweep3d {

// On entry: dl the un-inverted denominator, ql the numerator, psi = ql*(1/dl), the inflows
// and the diamond outflows ti, tj, tk. On return psi and the outflows are fixed. Returns 1
// if at least one face was zeroed (one fixup per cell-angle), else 0 with nothing changed.
inline int flux_fixup(double ci, double cj, double ck, double dl, double ql, double& psi,
                      double psi_i, double psi_j, double psi_k, double& ti, double& tj,
                      double& tk) {
  int fixed = 0;
  for (;;) {
    if (ti < 0.0) {  // (A), then fall through to (B)
      dl = dl - ci;
      ql = ql - (0.5 * ci) * psi_i;
      psi = ql * (1.0 / dl);
      ti = 0.0;
      if (tj != 0.0) tj = 2.0 * psi - psi_j;
      if (tk != 0.0) tk = 2.0 * psi - psi_k;
      fixed = 1;
    }
    if (tj < 0.0) {  // (B), then restart at (A)
      dl = dl - cj;
      ql = ql - (0.5 * cj) * psi_j;
      psi = ql * (1.0 / dl);
      tj = 0.0;
      if (tk != 0.0) tk = 2.0 * psi - psi_k;
      if (ti != 0.0) ti = 2.0 * psi - psi_i;
      fixed = 1;
      continue;
    }
    if (tk < 0.0) {  // (C), then restart at (A)
      dl = dl - ck;
      ql = ql - (0.5 * ck) * psi_k;
      psi = ql * (1.0 / dl);
      tk = 0.0;
      if (ti != 0.0) ti = 2.0 * psi - psi_i;
      if (tj != 0.0) tj = 2.0 * psi - psi_j;
      fixed = 1;
      continue;
    }
    return fixed;
  }
}

}  // namespace sweep3d
