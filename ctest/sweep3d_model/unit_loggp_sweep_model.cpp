// The LogGP model of Sweep3D on cases small enough to work out by hand from Table 2.
#include <catch2/catch.hpp>

#include "loggp_sweep_model.hpp"

using namespace sweep3d::model;

namespace {
// Constant per-message costs make the hand computation short: Send = a, Receive = b,
// Total_Comm = c for every size; the handshake flag as given.
MachineCosts constant_costs(double a, double b, double c, double L, bool handshake) {
  return MachineCosts{[=](std::int64_t) { return MessageCosts{a, b, c, handshake}; }, L};
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
}  // namespace

TEST_CASE("1x1: the whole iteration is 8 octants of compute") {
  const auto p = predict_loggp(shape(1, 1), Wg, constant_costs(1, 1, 1, 1, true), 0.5, 0.25);
  CHECK(p.sweeps == Approx(8 * B * W));
  CHECK(p.per_iteration == Approx(8 * B * W + 0.75));
  CHECK(p.computation == Approx(p.sweeps));
  CHECK(p.communication == Approx(0.0).margin(1e-18));
  CHECK(p.synchronization == 0.0);
}

TEST_CASE("2x1: eq. 7 and 8 with one row") {
  const double a = 1e-6, b = 2e-6, c = 3e-6;
  const auto p = predict_loggp(shape(2, 1), Wg, constant_costs(a, b, c, 5e-6, false));
  // StartP_1,1 = 0. T_56 = 0 + 2(W + Send_E)B (no north neighbour, m-1 = 0).
  CHECK(p.t_56 == Approx(2 * (W + a) * B));
  // T_78 uses p_{n-1,m} = p_{1,1}: no west neighbour of it, (n-2)L = 0; then Receive_W + W_2,1.
  CHECK(p.t_78 == Approx(2 * (W + a) * B + b + W));
  CHECK(p.sweeps == Approx(2 * (p.t_56 + p.t_78)));
  CHECK(p.computation == Approx(2 * (2 * W * B + 2 * W * B + W)));
  CHECK(p.synchronization == 0.0);
}

TEST_CASE("1x2: one column, north-east sweeps mirror south-east") {
  const double a = 1e-6, b = 2e-6, c = 3e-6, L = 4e-6;
  const auto p = predict_loggp(shape(1, 2), Wg, constant_costs(a, b, c, L, true));
  // StartP_1,2 = StartP_1,1 + W + Send_E(none: 0) + Total_Comm.
  const double start = W + c;
  CHECK(p.t_56 == Approx(start + 2 * (W + 0 + b + 1 * L) * B));
  CHECK(p.t_78 == Approx(p.t_56));
  CHECK(p.synchronization == Approx(2 * (2 * L * B + 2 * L * B)));
}

TEST_CASE("3x2 with handshake: recursion, both synchronisation terms") {
  const double a = 1e-6, b = 2e-6, c = 3e-6, L = 4e-6;
  const auto p = predict_loggp(shape(3, 2), Wg, constant_costs(a, b, c, L, true));
  // Row 1: StartP_2,1 = W + c; StartP_3,1 = 2(W + c).
  // Row 2: StartP_1,2 = W + a + c (p_1,1 sends east first, then south).
  //        StartP_2,2 = max(StartP_1,2 + W + c + b, StartP_2,1 + W + a + c)
  //                   = max(2W + a + 2c + b, 2W + a + 2c) = 2W + a + 2c + b.
  const double s12 = W + a + c;
  const double s22 = 2 * W + a + 2 * c + b;
  const double t56 = s12 + 2 * (W + a + b + 1 * L) * B;
  // T_78 at p_{n-1,m} = p_2,2: Send_E + Receive_W + Receive_N + (m-1)L + (n-2)L.
  const double t78 = s22 + 2 * (W + a + b + b + L + L) * B + b + W;
  CHECK(p.t_56 == Approx(t56));
  CHECK(p.t_78 == Approx(t78));
  CHECK(p.sweeps == Approx(2 * (t56 + t78)));
  CHECK(p.synchronization == Approx(2 * (2 * L * B + 2 * (L + L) * B)));
  CHECK(p.computation + p.communication + p.synchronization == Approx(p.sweeps));
}

TEST_CASE("without the handshake a sender does not wait: no (m-1)L") {
  const double L = 4e-6;
  const auto with = predict_loggp(shape(3, 2), Wg, constant_costs(0, 0, 0, L, true));
  const auto without = predict_loggp(shape(3, 2), Wg, constant_costs(0, 0, 0, L, false));
  // Only (n-2)L = L remains, twice per pair of octants in T_78, twice per iteration.
  CHECK(without.synchronization == Approx(2 * 2 * L * B));
  CHECK(with.sweeps - without.sweeps == Approx(2 * (2 * L * B + 2 * L * B)));
}

TEST_CASE("uneven splits use each rank's own block") {
  KbaShape s = shape(2, 1);
  s.it_g = 21;  // columns get 11 and 10 cells
  CHECK(s.it_of(0) == 11);
  CHECK(s.it_of(1) == 10);
  const auto p = predict_loggp(s, Wg, constant_costs(0, 0, 0, 0, false));
  const double w1 = Wg * 11 * 10 * 10 * 3, w2 = Wg * 10 * 10 * 10 * 3;
  CHECK(p.t_56 == Approx(2 * w1 * B));
  CHECK(p.t_78 == Approx(2 * w1 * B + w2));
}
