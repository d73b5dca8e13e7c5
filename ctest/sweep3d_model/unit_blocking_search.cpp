// The blocking search, on a 1x2 grid where the LogGP optimum is found by hand.
//
// 1x2 with Receive = b, no handshake, L = 0, Total_Comm = 0: per rank it = jt = 10, kt = 100.
// With kb k-blocks, W = W_g * 10*10 * mmi * (100/kb), and eq. 7 (T_78 = T_56 when n = 1) is
//   T_56 = W + 2(W + b) kb mmo,   T_sweeps = 4 T_56.
// mmi = 3 (mmo = 2), W_g = 1e-9, b = 1.2e-6:  T_56 = 3e-5/kb + 1.2e-4 + 4.8e-6 kb
//   kb = 2: 1.2e-4 + 2.46e-5,  kb = 3: 1.2e-4 + 2.44e-5 (best),  kb = 4: 1.2e-4 + 2.67e-5
//   kb = 3 for every mk in 34..49; ties go to the larger block: mk = 49.
// mmi = 6 (mmo = 1), W_g = 0.6e-9:            T_56 = 3.6e-5/kb + 7.2e-5 + 2.4e-6 kb
//   kb = 3: 7.2e-5 + 1.92e-5,  kb = 4: 7.2e-5 + 1.86e-5 (best),  kb = 5: 7.2e-5 + 1.92e-5
//   kb = 4 for mk in 25..33: mk = 33.
#include <catch2/catch.hpp>

#include "sweep3d/model/blocking_search.hpp"

using namespace sweep3d::model;

namespace {
KbaShape column_of_two() {
  KbaShape s;
  s.npe_i = 1;
  s.npe_j = 2;
  s.it_g = 10;
  s.jt_g = 20;
  s.kt = 100;
  s.mm = 6;
  return s;
}
MachineCosts receive_only(double b) {
  MachineCosts m;
  m.message = [=](std::int64_t) { return MessageCosts{0.0, b, 0.0, false, 0.0}; };
  return m;
}
const WgByMmi kWg{{3, 1e-9}, {6, 0.6e-9}};
}  // namespace

TEST_CASE("a fixed mmi gets its own best mk, not another mmi's") {
  const auto r = search_blockings(column_of_two(), kWg, receive_only(1.2e-6), SendMode::blocking, 0, 3);
  REQUIRE(r.best().mk == 49);
  CHECK(r.best().mmi == 3);
  CHECK(r.best().predicted == Approx(4 * (1.2e-4 + 2.44e-5)));
  for (const auto& c : r.ranked) CHECK(c.mmi == 3);
  CHECK(r.ranked.size() == 100);  // every mk of 1..100
}

TEST_CASE("free mmi: each priced with its own W_g; mmi values without one are named") {
  const auto r = search_blockings(column_of_two(), kWg, receive_only(1.2e-6), SendMode::blocking, 0, 0);
  CHECK(r.best().mmi == 6);
  CHECK(r.best().mk == 33);
  CHECK(r.best().predicted == Approx(4 * (7.2e-5 + 1.86e-5)));
  CHECK(r.mmis_without_wg == std::vector<int>{1, 2});
}

TEST_CASE("a fixed mk is held (clamped to kt); a fixed mmi without W_g fits nothing") {
  const auto r = search_blockings(column_of_two(), kWg, receive_only(1.2e-6), SendMode::blocking, 500, 0);
  REQUIRE(r.ranked.size() == 2);
  CHECK(r.best().mk == 100);
  const auto none = search_blockings(column_of_two(), kWg, receive_only(1.2e-6), SendMode::blocking, 0, 2);
  CHECK(none.best().mk == 0);
  CHECK(none.mmis_without_wg == std::vector<int>{2});
}

TEST_CASE("deep grids: the sampled search finds the exhaustive optimum") {
  KbaShape s = column_of_two();
  s.kt = 1000;  // above 128 planes mk is sampled, then refined around the best sample
  MachineCosts m = receive_only(0.3e-6);
  const auto r = search_blockings(s, kWg, m, SendMode::blocking, 0, 3);
  BlockingChoice exhaustive;
  for (int mk = 1; mk <= s.kt; ++mk) {
    s.mk = mk;
    s.mmi = 3;
    const double t = predict_loggp(s, 1e-9, m).sweeps.total();
    if (exhaustive.mk == 0 || t < exhaustive.predicted || (t == exhaustive.predicted && mk > exhaustive.mk))
      exhaustive = {mk, 3, t};
  }
  CHECK(r.best().predicted == Approx(exhaustive.predicted).epsilon(1e-12));
  CHECK(r.ranked.size() < 300);
}
