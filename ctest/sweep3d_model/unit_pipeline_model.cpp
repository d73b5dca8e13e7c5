// The pipeline model of Hoisie, Lubeck & Wasserman, eq. 6-7, by hand.
#include <catch2/catch.hpp>

#include "sweep3d/model/pipeline_model.hpp"

using namespace sweep3d::model;

TEST_CASE("pipeline model: stages and repetition delays") {
  KbaShape s;
  s.npe_i = 4;
  s.npe_j = 4;
  s.it_g = s.jt_g = 40;
  s.kt = 30;
  s.mm = 6;
  s.mk = 10;
  s.mmi = 2;  // kb = 3, mmo = 3: N_sweep = 8 * 3 * 3 = 72
  const double w_g = 2e-9;
  const double t_msg = 7e-6;
  MachineCosts m;
  m.message = [&](std::int64_t bytes) {
    CHECK(bytes == 10 * 10 * 2 * 8);  // 10 cells x mk x mmi doubles
    return MessageCosts{0, 0, t_msg, false};
  };
  const auto p = predict_pipeline(s, w_g, m);
  const double t_cpu = w_g * 10 * 10 * 10 * 2;
  CHECK(p.n_sweep == 72);
  CHECK(p.t_cpu == Approx(t_cpu));
  CHECK(p.t_comp == Approx((4 + 4 - 1 + 71) * t_cpu));
  // Figure 6: 12 communication stages on a 4x4 grid, then 4 per further sweep.
  CHECK(p.t_comm == Approx((12 + 4 * 71) * t_msg));
  CHECK(p.total() == Approx(p.t_comp + p.t_comm));
}

TEST_CASE("pipeline model on one rank has no communication") {
  KbaShape s;
  s.it_g = s.jt_g = s.kt = 10;
  s.mm = 3;
  s.mk = 10;
  s.mmi = 3;
  MachineCosts m;
  m.message = [](std::int64_t) { return MessageCosts{1, 1, 1, true}; };
  m.latency = 1.0;
  const auto p = predict_pipeline(s, 1e-9, m);
  CHECK(p.t_comm == 0.0);
  CHECK(p.t_comp == Approx(8 * 1e-9 * 1000 * 3));
}

TEST_CASE("pipeline model on a 1-D chain: P - 1 fill stages, repetition delay 2 (§4.3's argument)") {
  KbaShape s;
  s.npe_i = 1;
  s.npe_j = 4;
  s.it_g = 10;
  s.jt_g = 40;
  s.kt = 20;
  s.mm = 6;
  s.mk = 10;
  s.mmi = 3;  // kb = 2, mmo = 2: N_sweep = 32
  MachineCosts m;
  m.message = [](std::int64_t) { return MessageCosts{0, 0, 5e-6, false}; };
  const auto p = predict_pipeline(s, 1e-9, m);
  CHECK(p.fill_stages == 3);
  CHECK(p.repetition_delay == 2);
  CHECK(p.t_comm == Approx((3 + 2 * 31) * 5e-6));
  CHECK(p.t_comp == Approx((1 + 4 - 1 + 31) * 1e-9 * 10 * 10 * 10 * 3));
  s.npe_i = 4;  // and the transposed chain alike
  s.npe_j = 1;
  s.it_g = 40;
  s.jt_g = 10;
  CHECK(predict_pipeline(s, 1e-9, m).t_comm == Approx(p.t_comm));
}
