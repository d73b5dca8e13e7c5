// Helpers shared by the sweep3d model tests written by hand: input50's 1 x 2 shape, a
// calibration and a row of a comparison table by model and term.
#pragma once
#include <catch2/catch.hpp>

#include <string>

#include "instrument/comparison.hpp"
#include "sweep3d/model/calibration.hpp"
#include "sweep3d/model/kba_shape.hpp"

namespace sweep3d::test {

// Sweep3D's input50 on 1 x 2 with mk 10, mmi 3: kb = 5, mmo = 2 (10 blocks an octant);
// 12000-byte south faces; 72 B per cell.
inline model::KbaShape chain_1x2(double bytes_per_cell = 72.0) {
  model::KbaShape s;
  s.npe_i = 1;
  s.npe_j = 2;
  s.it_g = s.jt_g = s.kt = 50;
  s.mm = 6;
  s.mk = 10;
  s.mmi = 3;
  s.bytes_per_cell = bytes_per_cell;
  return s;
}

// mmi 3, mk 10 on the AVX-512 kernel: W_g (with and without fixups) 3 ns, W_before 10 and
// W_after 1 ns a cell, from "cal.h5".
inline model::WorkCalibration calibration() {
  model::WorkCalibration c;
  c.mmi = 3;
  c.mk = 10;
  c.kernel = "avx512";
  c.wg_s = c.wg_fixup_s = 3e-9;
  c.w_before_s_per_cell = 1e-8;
  c.w_after_s_per_cell = 1e-9;
  c.file = "cal.h5";
  return c;
}

inline const instrument::ComparisonRow& row(const instrument::Comparison& t, const std::string& model,
                                           const std::string& term) {
  for (const auto& r : t.rows())
    if (r.model == model && r.term == term) return r;
  FAIL("no row " << model << " " << term);
  return t.rows().front();
}

}  // namespace sweep3d::test
