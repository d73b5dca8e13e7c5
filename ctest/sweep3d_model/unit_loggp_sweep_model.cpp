// The LogGP model of Sweep3D on cases small enough to work out by hand from Table 2, with
// the breakdown of each case's critical path into W, message and L terms.
#include <catch2/catch.hpp>

#include "sweep3d/model/loggp_sweep_model.hpp"

using namespace sweep3d::model;

namespace {
// Constant per-message costs make the hand computation short: Send = a, Receive = b,
// Total_Comm = c, the post of an MPI_Isend = i for every size; the handshake flag as given.
MachineCosts constant_costs(double a, double b, double c, double L, bool handshake, double i = 0.0) {
  MachineCosts m;
  m.message = [=](std::int64_t) { return MessageCosts{a, b, c, handshake, i}; };
  m.latency = L;
  return m;
}
KbaShape shape(int n, int m) {
  KbaShape s;
  s.npe_i = n;
  s.npe_j = m;
  s.it_g = 10 * n;
  s.jt_g = 10 * m;
  s.kt = 20;
  s.mm = 6;
  s.mk = 10;
  s.mmi = 3;
  return s;  // per rank 10 x 10 x 20, kb = 2, mmo = 2, block = 10*10*10*3 = 3000 cell-angles
}
constexpr double Wg = 1e-9;
constexpr double W = Wg * 3000;  // one block
constexpr double B = 2 * 2;      // kb x mmo

void check_terms(const PathTerms& t, double comp, double comm, double sync) {
  CHECK(t.computation == Approx(comp));
  CHECK(t.communication == Approx(comm).margin(1e-18));
  CHECK(t.synchronization == Approx(sync).margin(1e-18));
}
}  // namespace

TEST_CASE("1x1: the whole iteration is 8 octants of compute") {
  const auto p = predict_loggp(shape(1, 1), Wg, constant_costs(1, 1, 1, 1, true));
  CHECK(p.sweeps.total() == Approx(8 * B * W));
  check_terms(p.sweeps, 8 * B * W, 0.0, 0.0);
}

TEST_CASE("2x1: eq. 7 and 8 with one row") {
  const double a = 1e-6, b = 2e-6, c = 3e-6;
  const auto p = predict_loggp(shape(2, 1), Wg, constant_costs(a, b, c, 5e-6, false));
  // StartP_1,1 = 0. T_56 = 0 + 2(W + Send_E)B (no north neighbour, m-1 = 0).
  CHECK(p.t_56.total() == Approx(2 * (W + a) * B));
  check_terms(p.t_56, 2 * W * B, 2 * a * B, 0.0);
  // T_78 uses p_{n-1,m} = p_{1,1}: no west neighbour of it, (n-2)L = 0; then Receive_W + W_2,1.
  CHECK(p.t_78.total() == Approx(2 * (W + a) * B + b + W));
  check_terms(p.t_78, 2 * W * B + W, 2 * a * B + b, 0.0);
  CHECK(p.sweeps.total() == Approx(2 * (p.t_56.total() + p.t_78.total())));
  check_terms(p.sweeps, 2 * (4 * W * B + W), 2 * (4 * a * B + b), 0.0);
}

TEST_CASE("1x2: one column, north-east sweeps mirror south-east") {
  const double a = 1e-6, b = 2e-6, c = 3e-6, L = 4e-6;
  const auto p = predict_loggp(shape(1, 2), Wg, constant_costs(a, b, c, L, true));
  // StartP_1,2 = StartP_1,1 + W + Send_E(none: 0) + Total_Comm.
  CHECK(p.t_56.total() == Approx(W + c + 2 * (W + 0 + b + 1 * L) * B));
  check_terms(p.t_56, W + 2 * W * B, c + 2 * b * B, 2 * L * B);
  CHECK(p.t_78.total() == Approx(p.t_56.total()));
  check_terms(p.sweeps, 4 * (W + 2 * W * B), 4 * (c + 2 * b * B), 4 * 2 * L * B);
}

TEST_CASE("3x2 with handshake: recursion, both synchronisation terms") {
  const double a = 1e-6, b = 2e-6, c = 3e-6, L = 4e-6;
  const auto p = predict_loggp(shape(3, 2), Wg, constant_costs(a, b, c, L, true));
  // Row 1: StartP_2,1 = W + c; StartP_3,1 = 2(W + c).
  // Row 2: StartP_1,2 = W + a + c (p_1,1 sends east first, then south).
  //        StartP_2,2 = max(StartP_1,2 + W + c + b, StartP_2,1 + W + a + c)
  //                   = max(2W + a + 2c + b, 2W + a + 2c) = 2W + a + 2c + b  (the west branch).
  const double s12 = W + a + c;
  const double s22 = 2 * W + a + 2 * c + b;
  const double t56 = s12 + 2 * (W + a + b + 1 * L) * B;
  // T_78 at p_{n-1,m} = p_2,2: Send_E + Receive_W + Receive_N + (m-1)L + (n-2)L.
  const double t78 = s22 + 2 * (W + a + b + b + L + L) * B + b + W;
  CHECK(p.t_56.total() == Approx(t56));
  CHECK(p.t_78.total() == Approx(t78));
  CHECK(p.sweeps.total() == Approx(2 * (t56 + t78)));
  // The terms of each, along the branch the max took.
  check_terms(p.t_56, W + 2 * W * B, a + c + 2 * (a + b) * B, 2 * L * B);
  check_terms(p.t_78, 3 * W + 2 * W * B, a + 2 * c + b + 2 * (a + 2 * b) * B + b, 4 * L * B);
  CHECK(p.sweeps.synchronization == Approx(2 * (2 * L * B + 4 * L * B)));
}

TEST_CASE("without the handshake a sender does not wait: no (m-1)L") {
  const double L = 4e-6;
  const auto with = predict_loggp(shape(3, 2), Wg, constant_costs(0, 0, 0, L, true));
  const auto without = predict_loggp(shape(3, 2), Wg, constant_costs(0, 0, 0, L, false));
  // Only (n-2)L = L remains, twice per pair of octants in T_78, twice per iteration.
  CHECK(without.sweeps.synchronization == Approx(2 * 2 * L * B));
  CHECK(with.sweeps.total() - without.sweeps.total() == Approx(2 * (2 * L * B + 2 * L * B)));
}

TEST_CASE("non-blocking sends: Send is the post, and no (m-1)L") {
  const double a = 1e-6, b = 2e-6, c = 3e-6, L = 4e-6, i = 0.25e-6;
  const auto p = predict_loggp(shape(3, 2), Wg, constant_costs(a, b, c, L, true, i), SendMode::nonblocking);
  const double s12 = W + i + c;
  const double s22 = 2 * W + i + 2 * c + b;  // west branch: s12 + W + c + b > (W + c) + W + i + c
  CHECK(p.t_56.total() == Approx(s12 + 2 * (W + i + b) * B));
  CHECK(p.t_78.total() == Approx(s22 + 2 * (W + i + b + b + L) * B + b + W));
  CHECK(p.sweeps.synchronization == Approx(2 * 2 * L * B));  // (n-2)L only
}

TEST_CASE("uneven splits use each rank's own block") {
  KbaShape s = shape(2, 1);
  s.it_g = 21;  // columns get 11 and 10 cells
  CHECK(s.it_of(0) == 11);
  CHECK(s.it_of(1) == 10);
  const auto p = predict_loggp(s, Wg, constant_costs(0, 0, 0, 0, false));
  const double w1 = Wg * 11 * 10 * 10 * 3, w2 = Wg * 10 * 10 * 10 * 3;
  CHECK(p.t_56.total() == Approx(2 * w1 * B));
  CHECK(p.t_78.total() == Approx(2 * w1 * B + w2));
}

// The faces priced apart from W_g (face_work.hpp). shape(): 10 x 10 cells a plane a rank,
// kt / kb = 10 planes a block, mmi = 3: every face of a block holds 10 * 10 * 3 = 300 values.
namespace {
FaceWork faces_for(const KbaShape& one_rank) {
  FaceWork f;
  f.priced = true;
  f.fill_s[0] = 0.1e-9, f.fill_s[1] = 0.2e-9;
  f.leak_s[0] = 0.5e-9, f.leak_s[1] = 0.6e-9;
  f.unpack_s[0] = 0.7e-9, f.unpack_s[1] = 0.8e-9;
  f.pack_s[0] = 0.9e-9, f.pack_s[1] = 1.1e-9;
  // As a one-rank calibration of this shape finds it: (fill + leak)_I / it + (fill + leak)_J / jt.
  f.edge_share_s = (0.1e-9 + 0.5e-9) / one_rank.it_g + (0.2e-9 + 0.6e-9) / one_rank.jt_g;
  return f;
}
}  // namespace

TEST_CASE("faces apart: at the calibration's own shape the block's W is W_g's") {
  const KbaShape s = shape(1, 1);
  const FaceWork f = faces_for(s);
  CHECK(FaceWork::values(s, 0, 0, 0) == Approx(300));
  CHECK(FaceWork::values(s, 1, 0, 0) == Approx(300));
  // One rank: every face at the edge, so W_g less its faces' share plus the faces is W_g.
  const auto with = predict_loggp(s, Wg, constant_costs(1, 1, 1, 1, true), SendMode::blocking, f);
  const auto without = predict_loggp(s, Wg, constant_costs(1, 1, 1, 1, true));
  CHECK(with.sweeps.computation == Approx(without.sweeps.computation).epsilon(1e-12));
}

TEST_CASE("faces apart: a rank's faces by its neighbours, in eq. 6-8 and the pipeline's T_cpu") {
  const KbaShape s = shape(1, 2);  // one column: J-faces between the two ranks
  const FaceWork f = faces_for(shape(1, 1));
  // Rank (0, 0): I at the edge (fill + leak), J packed downstream, none upstream (fill).
  CHECK(f.block_seconds(s, 0, 0) == Approx(300 * ((0.1e-9 + 0.5e-9) + (0.2e-9 + 1.1e-9))));
  // Rank (0, 1): J unpacked from upstream, leaked at the edge downstream.
  CHECK(f.block_seconds(s, 0, 1) == Approx(300 * ((0.1e-9 + 0.5e-9) + (0.8e-9 + 0.6e-9))));
  // The chain's mean for the pipeline: half the J ends at the edge, half beside the other rank.
  CHECK(f.mean_block_seconds(s) == Approx(300 * ((0.1e-9 + 0.5e-9) + 0.5 * (0.8e-9 + 1.1e-9) + 0.5 * (0.2e-9 + 0.6e-9))));
  const double w_cells = f.volume_w(Wg) * 3000;
  CHECK(f.volume_w(Wg) == Approx(Wg - f.edge_share_s));
  // 1x2's T_56 as in the case above, each rank's W its own: StartP_1,2 = W_11 + Total_Comm,
  // then 2B blocks of rank (1, 2).
  const double a = 1e-6, b = 2e-6, c = 3e-6, L = 4e-6;
  const auto p = predict_loggp(s, Wg, constant_costs(a, b, c, L, true), SendMode::blocking, f);
  const double w11 = w_cells + f.block_seconds(s, 0, 0), w12 = w_cells + f.block_seconds(s, 0, 1);
  CHECK(p.t_56.total() == Approx(w11 + c + 2 * (w12 + b + L) * B));
  check_terms(p.t_56, w11 + 2 * w12 * B, c + 2 * b * B, 2 * L * B);
  // Not priced: the papers' W_g per cell-angle whole.
  FaceWork none = f;
  none.priced = false;
  CHECK(none.block_seconds(s, 0, 0) == 0.0);
  CHECK(none.volume_w(Wg) == Wg);
}
