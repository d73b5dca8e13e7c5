// The pipeline model of Hoisie, Lubeck & Wasserman, eq. 6-7 applied per axis to Sweep3D's
// octant order (pipeline_model.cpp), stage counts worked by hand.
#include <catch2/catch.hpp>

#include "sweep3d/model/pipeline_model.hpp"

using namespace sweep3d::model;

namespace {

// A px x py grid of 10 x 10 cells a rank, kt = 20, mk = 10, mm = 6, mmi = 3: kb = 2, mmo = 2,
// N_sweep = 8 x 2 x 2 = 32; faces 10 x 10 x 3 doubles = 2400 B on both axes.
KbaShape grid(int px, int py) {
  KbaShape s;
  s.npe_i = px;
  s.npe_j = py;
  s.it_g = 10 * px;
  s.jt_g = 10 * py;
  s.kt = 20;
  s.mm = 6;
  s.mk = 10;
  s.mmi = 3;
  return s;
}

constexpr double kWg = 1e-9, kTmsg = 5e-6;
constexpr double kTcpu = kWg * 10 * 10 * 10 * 3;

// Faces synchronous (above the eager limit, the paper's assumption) or eager.
MachineCosts faces(bool handshake) {
  MachineCosts m;
  m.message = [handshake](std::int64_t bytes) {
    CHECK(bytes == 2400);
    return MessageCosts{0, 0, kTmsg, handshake};
  };
  return m;
}

}  // namespace

TEST_CASE("pipeline model: Sweep3D's octant order starts the I pipeline twice, the J pipeline four times") {
  // Octants 1..8: I signs - - - - + + + +, J signs - - + + - - + +.
  const auto p = predict_pipeline(grid(2, 2), kWg, faces(true));
  CHECK(p.starts_i == 2);
  CHECK(p.starts_j == 4);
}

TEST_CASE("pipeline model on the paper's 4 x 4 grid: Figure 6's 12 stages, repetition delay 4") {
  const auto p = predict_pipeline(grid(4, 4), kWg, faces(true));
  CHECK(p.n_sweep == 32);
  CHECK(p.t_cpu == Approx(kTcpu));
  CHECK(p.fill_stages == 12);
  CHECK(p.repetition_delay == 4);
  // T_comp: 32 + 2 x 3 (I fills) + 4 x 3 (J fills) = 50 blocks (eq. 6 for one direction: 38).
  CHECK(p.comp_stages == 50);
  CHECK(p.t_comp == Approx(50 * kTcpu));
  // T_comm: 4 x 32 + 2 x (6 - 2) + 4 x (6 - 2) = 152 (each axis fills in 2 x 3 stages in
  // place of its 2 of the delay; one start per axis would give eq. 7: 12 + 4 x 31 = 136).
  CHECK(p.comm_stages == 152);
  CHECK(p.t_comm == Approx(152 * kTmsg));
  CHECK(p.total() == Approx(p.t_comp + p.t_comm));
}

TEST_CASE("pipeline model on 3 x 3 and 2 x 2: the paper's cycle of 4 on every grid") {
  const auto p33 = predict_pipeline(grid(3, 3), kWg, faces(true));
  CHECK(p33.fill_stages == 8);  // eq. 4: 2 x 2 + 2 x 2
  CHECK(p33.repetition_delay == 4);
  CHECK(p33.comp_stages == 32 + 2 * 2 + 4 * 2);                // 44
  CHECK(p33.comm_stages == 4 * 32 + 2 * (4 - 2) + 4 * (4 - 2));  // 140
  // 2 x 2: (0,0) -> (1,0), (0,0) -> (0,1), (0,1) -> (1,1), (1,0) -> (1,1), then (0,0)'s next:
  // a cycle of 4 messages although no rank has more than 2.
  const auto p22 = predict_pipeline(grid(2, 2), kWg, faces(true));
  CHECK(p22.fill_stages == 4);
  CHECK(p22.repetition_delay == 4);
  CHECK(p22.comp_stages == 32 + 2 * 1 + 4 * 1);  // 38
  CHECK(p22.comm_stages == 4 * 32);              // fills of 2 in place of 2: 128
  // Eager faces: nothing waits for a send; the busiest rank makes 2 calls a block, and the
  // fills (one message a hop) come on top: 2 x 32 + 2 x 1 + 4 x 1 = 70.
  const auto e22 = predict_pipeline(grid(2, 2), kWg, faces(false));
  CHECK_FALSE(e22.synchronous);
  CHECK(e22.repetition_delay == 2);
  CHECK(e22.fill_stages == 2);
  CHECK(e22.comm_stages == 70);
  CHECK(e22.comp_stages == 38);
  CHECK(predict_pipeline(grid(3, 3), kWg, faces(false)).comm_stages == 4 * 32 + 2 * 2 + 4 * 2);  // 140
  // 2 x 3, eager: the edge ranks (1, 1) and (0, 1) have 3 neighbours: 3 x 32 + 2 x 1 + 4 x 2 = 106.
  CHECK(predict_pipeline(grid(2, 3), kWg, faces(false)).repetition_delay == 3);
  CHECK(predict_pipeline(grid(2, 3), kWg, faces(false)).comm_stages == 106);
}

TEST_CASE("pipeline model on chains: a message a block on 2 ranks, two on 3 or more") {
  // 1 x 2, synchronous: one rank sends, the other receives: d = 1, fills of 1 in place of 1:
  // 32 messages (as measured: one a block); 32 + 4 x 1 blocks (the J direction reverses at
  // every octant pair).
  const auto p12 = predict_pipeline(grid(1, 2), kWg, faces(true));
  CHECK(p12.fill_stages == 1);
  CHECK(p12.repetition_delay == 1);
  CHECK(p12.comm_stages == 32);
  CHECK(p12.comp_stages == 36);
  CHECK(p12.t_comm == Approx(32 * kTmsg));
  // 2 x 1: the I direction reverses once: 32 + 2 blocks, 32 messages.
  const auto p21 = predict_pipeline(grid(2, 1), kWg, faces(true));
  CHECK(p21.comm_stages == 32);
  CHECK(p21.comp_stages == 34);
  // 1 x 3: the middle rank receives then sends: d = 2; fills of 2 in place of 2: 64; blocks
  // 32 + 4 x 2 = 40.
  const auto p13 = predict_pipeline(grid(1, 3), kWg, faces(true));
  CHECK(p13.fill_stages == 2);
  CHECK(p13.repetition_delay == 2);
  CHECK(p13.comm_stages == 64);
  CHECK(p13.comp_stages == 40);
  // 1 x 4: fills of 3 in place of 2: 2 x 32 + 4 x 1 = 68; 4 x 1, two I starts: 2 x 32 + 2 = 66.
  CHECK(predict_pipeline(grid(1, 4), kWg, faces(true)).comm_stages == 68);
  CHECK(predict_pipeline(grid(4, 1), kWg, faces(true)).comm_stages == 66);
  // Eager 1 x 2: the receiver's 32 calls and the 4 fills' messages on top: 36.
  CHECK(predict_pipeline(grid(1, 2), kWg, faces(false)).comm_stages == 36);
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
  CHECK(p.comm_stages == 0.0);
  CHECK(p.t_comp == Approx(8 * 1e-9 * 1000 * 3));
}

TEST_CASE("pipeline model with the faces apart: T_cpu is the cells' part plus the chain's mean faces") {
  FaceWork f;
  f.priced = true;
  f.fill_s[0] = f.fill_s[1] = 0.1e-9;
  f.leak_s[0] = f.leak_s[1] = 0.5e-9;
  f.unpack_s[0] = f.unpack_s[1] = 0.7e-9;
  f.pack_s[0] = f.pack_s[1] = 0.9e-9;
  f.edge_share_s = 2 * 0.6e-9 / 10;  // a one-rank calibration of 10 x 10 cells a plane
  // 4 x 4: per axis 3/4 of an unpack and a pack, 1/4 of a fill and a leakage, on 300 values.
  const double faces_a_block = 2 * 300 * (0.75 * 1.6e-9 + 0.25 * 0.6e-9);
  const auto p = predict_pipeline(grid(4, 4), kWg, faces(true), f);
  CHECK(p.t_cpu == Approx((kWg - f.edge_share_s) * 3000 + faces_a_block));
  CHECK(p.t_comp == Approx(50 * p.t_cpu));
  // 1 x 1: every face at the edge, T_cpu is W_g's block.
  const auto one = predict_pipeline(grid(1, 1), kWg, faces(true), f);
  CHECK(one.t_cpu == Approx(kTcpu));
}
