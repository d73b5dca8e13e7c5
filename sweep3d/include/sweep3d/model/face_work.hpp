// A block's local work in two parts: its cells' (W_g's volume part, per cell-angle) and its I
// and J faces' (per face value). A rank with a neighbour upstream unpacks an inflow face from
// the message, one at the domain edge zeroes it; a rank with one downstream packs the outflow
// face into a message, one at the edge sums it into the leakage (face_copies.hpp). A face
// scales with the block's area, not its volume: a 1x2 run's blocks hold half the cells of a
// one-rank run's but their J-faces as many values, so a W_g per cell-angle calibrated on one
// rank, faces included, prices them at half what they cost. On the AMD EPYC Zen 5 guest
// (2026-12-06, input50 mk 10 mmi 3) a block's work outside the kernel was 2.5 us at one rank
// (75000 cell-angles) and 2.6 us at 1x2 (37500): 2% of W_g left out at 1x2, more where the
// blocks are thinner.
//
// The calibration run measures the four loops' costs (face_copy_probe.hpp) and the share of
// its W_g its own faces took (every face at the edge, on one rank); the models take W_g less
// that share per cell-angle and add each block's faces as the rank's neighbours make them.
// Without the figures (an older file, a calibration at more ranks, or --wg) the models are
// the papers': W_g per cell-angle alone.
#pragma once

#include "sweep3d/model/kba_shape.hpp"

namespace sweep3d::model {

struct FaceWork {
  bool priced = false;
  // s per face value, per axis (0: I-faces, n = jt; 1: J-faces, n = it).
  double fill_s[2] = {0.0, 0.0};    // inflow at the domain edge: zeroed
  double leak_s[2] = {0.0, 0.0};    // outflow at the domain edge: the leakage sum
  double unpack_s[2] = {0.0, 0.0};  // inflow from a neighbour's message
  double pack_s[2] = {0.0, 0.0};    // outflow into a message to a neighbour
  // The part of the calibration's W_g (s per cell-angle) its own faces took: on one rank of
  // it x jt cells a plane, (fill_I + leak_I) / it + (fill_J + leak_J) / jt.
  double edge_share_s = 0.0;

  // s per cell-angle of a block's cells alone, from a W_g that holds the calibration's faces.
  double volume_w(double w_g) const { return priced ? w_g - edge_share_s : w_g; }

  // Face values of one block of rank (pi, pj) (0-based) on an axis: the cells of its face
  // times the block's angles and planes (kt / kb on average, as block_cell_angles counts).
  static double values(const KbaShape& s, int axis, int pi, int pj) {
    const double planes = static_cast<double>(s.kt) / s.kb();
    return (axis == 0 ? s.jt_of(pj) : s.it_of(pi)) * static_cast<double>(s.mmi) * planes;
  }
  // Rank (pi, pj)'s faces a block in eq. 6-8's orientation (the sweep from rank (0, 0)): per
  // axis an unpack where a rank is upstream, else a fill, and a pack where one is downstream,
  // else a leakage sum. 0 when not priced.
  double block_seconds(const KbaShape& s, int pi, int pj) const {
    if (!priced) return 0.0;
    const int at[2] = {pi, pj}, last[2] = {s.npe_i - 1, s.npe_j - 1};
    double t = 0.0;
    for (int a = 0; a < 2; ++a)
      t += ((at[a] > 0 ? unpack_s[a] : fill_s[a]) + (at[a] < last[a] ? pack_s[a] : leak_s[a])) * values(s, a, pi, pj);
    return t;
  }
  // The mean over a chain's ranks of the faces of rank (0, 0)'s block (the pipeline model's
  // one T_cpu for every block on its path): per axis of npe ranks, (npe - 1) / npe of an
  // unpack and of a pack, 1 / npe of a fill and of a leakage sum.
  double mean_block_seconds(const KbaShape& s) const {
    if (!priced) return 0.0;
    const int npe[2] = {s.npe_i, s.npe_j};
    double t = 0.0;
    for (int a = 0; a < 2; ++a) {
      const double inner = (npe[a] - 1.0) / npe[a];
      t += (inner * (unpack_s[a] + pack_s[a]) + (1.0 - inner) * (fill_s[a] + leak_s[a])) * values(s, a, 0, 0);
    }
    return t;
  }
};

}  // namespace sweep3d::model
