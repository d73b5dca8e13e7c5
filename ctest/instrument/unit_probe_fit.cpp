// The probe's fitting code on synthetic data generated from known parameters: it must give
// them back, or, where the paper's derivation gives unphysical values, say so and fall back
// to a constrained fit that meets every constraint of the model. No MPI, no timing.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "instrument/error.hpp"
#include "instrument/loggp.hpp"
#include "instrument/loggps.hpp"
#include "instrument/probe_fit.hpp"

using namespace instrument;
using instrument::probe::RttSample;

namespace {

std::vector<std::int64_t> geometric(std::int64_t max) {
  std::vector<std::int64_t> s;
  for (std::int64_t k = 1; k <= max; k *= 2) s.push_back(k);
  return s;
}

// What the probe measures, from the model itself: RTT(k, 0) and RTT(k, w) - w with w large.
void synthesise(const loggps::LogGpsParams& p, const std::vector<std::int64_t>& sizes,
                std::vector<RttSample>& no_delay, std::vector<RttSample>& delayed) {
  for (std::int64_t k : sizes) {
    no_delay.push_back({k, loggps::round_trip_time(p, k, 0.0)});
    const double w = 1.0;
    delayed.push_back({k, loggps::round_trip_time(p, k, w) - w});
  }
}

// A plausible machine: positive everything, s and S on measured sizes' boundaries.
loggps::LogGpsParams machine() {
  loggps::LogGpsParams p;
  p.L = 0.4e-6;
  p.o_prime = 0.3e-6;
  p.O_s = 0.20e-9;
  p.O_r = 0.15e-9;
  p.G_s = 0.50e-9;
  p.G_l = 0.10e-9;
  p.s = 1024;
  p.S = 16384;
  return p;
}

}  // namespace

TEST_CASE("LogGPS fit with s and S given recovers every parameter", "[probe_fit]") {
  const auto p = machine();
  std::vector<RttSample> a, b;
  synthesise(p, geometric(4 << 20), a, b);
  const auto q = probe::fit_loggps_fixed(a, b, p.s, p.S, {}, 1.0);
  CHECK(q.L == Approx(p.L).epsilon(1e-6));
  CHECK(q.o_prime == Approx(p.o_prime).epsilon(1e-6));
  CHECK(q.O_s == Approx(p.O_s).epsilon(1e-6));
  CHECK(q.O_r == Approx(p.O_r).epsilon(1e-6));
  CHECK(q.G_s == Approx(p.G_s).epsilon(1e-6));
  CHECK(q.G_l == Approx(p.G_l).epsilon(1e-6));
  // Every parameter is >= 0 here, so the non-negative fit is the same.
  const auto r = probe::fit_loggps_fixed(a, b, p.s, p.S, {}, 1.0, true);
  CHECK(r.o_prime == Approx(p.o_prime).epsilon(1e-6));
  CHECK(r.O_r == Approx(p.O_r).epsilon(1e-6));
  CHECK(r.G_l == Approx(p.G_l).epsilon(1e-6));
}

TEST_CASE("LogGPS fit finds s where the per-byte cost changes", "[probe_fit]") {
  const auto p = machine();
  std::vector<RttSample> a, b;
  synthesise(p, geometric(4 << 20), a, b);
  const auto fit = probe::fit_loggps(a, b, p.S);
  CHECK(fit.derivation == "ino-4.3");  // the paper's derivation meets every constraint: kept
  CHECK(fit.rejected.empty());
  CHECK(fit.params.s == 1024);
  CHECK(fit.params.S == 16384);
  CHECK(fit.params.gap_steps.empty());  // the paper's model fits exactly: no extension needed
  CHECK(fit.max_rel_error_no_delay < 1e-6);
  CHECK(fit.max_rel_error_delayed < 1e-6);
  CHECK(fit.params.L == Approx(p.L).epsilon(1e-5));
  CHECK(fit.params.o_prime == Approx(p.o_prime).epsilon(1e-5));
  CHECK(fit.params.G_s == Approx(p.G_s).epsilon(1e-5));
  CHECK(fit.params.G_l == Approx(p.G_l).epsilon(1e-5));
}

TEST_CASE("LogGPS: the Myrinet parameters of Table 5 are recovered, then refused (T2' < 0)", "[probe_fit]") {
  loggps::LogGpsParams p;
  p.L = 1.16e-6;
  p.o_prime = 6.55e-6;
  p.O_s = 6.86e-9;
  p.O_r = 2.57e-9;
  p.G_s = 15.48e-9;
  p.G_l = -0.74e-9;
  p.s = 8191;
  p.S = 16383;
  // Sizes as the probe would measure them around the thresholds.
  std::vector<std::int64_t> sizes = geometric(1 << 20);
  sizes.insert(sizes.end(), {8191, 16383});
  std::sort(sizes.begin(), sizes.end());
  std::vector<RttSample> a, b;
  synthesise(p, sizes, a, b);
  // The paper's arithmetic (unconstrained) gives the parameters back, G_l < 0 included...
  const auto q = probe::fit_loggps_fixed(a, b, p.s, p.S, {}, 0.01);
  CHECK(q.O_s == Approx(p.O_s).epsilon(1e-5));
  CHECK(q.O_r == Approx(p.O_r).epsilon(1e-5));
  CHECK(q.G_l == Approx(p.G_l).epsilon(1e-5));
  // ... but T2' = s G_s + (k - s) G_l + L is < 0 from k = 8191 + 127956.68 / 0.74 = 181105 B
  // (by hand), so the probe does not keep them: it says why and fits with every parameter >= 0.
  const auto fit = probe::fit_loggps(a, b, p.S);
  CHECK(fit.paper.G_l == Approx(p.G_l).epsilon(1e-5));
  CHECK(fit.derivation == "constrained");
  CHECK(fit.rejected.find("loggps.G_l") != std::string::npos);
  CHECK(fit.rejected.find("T2'(262144 B)") != std::string::npos);  // first power of 2 above 181105
  CHECK_NOTHROW(loggps::validate(fit.params, "fit"));
  CHECK(fit.params.G_l >= 0.0);
  // The undelayed round trip does not need G_l < 0: slope 2(O_s + O_r + G_l) = 17.38 ns/B above s
  // is carried by O_s + O_r = 8.69 with G_l = 0 (the delayed curve, weight 0.01, pays for it).
  CHECK(fit.max_rel_error_no_delay < 0.01);
}

TEST_CASE("LogGPS fit adds gap steps where one G_l cannot fit", "[probe_fit]") {
  auto p = machine();
  p.gap_steps = {{1 << 20, 0.6e-9}};  // out of cache: bytes beyond 1 MiB cost 6x more
  std::vector<RttSample> a, b;
  synthesise(p, geometric(4 << 20), a, b);
  const auto plain = probe::fit_loggps(a, b, p.S, {0.05, 0.10, 0, 0.01});
  CHECK(plain.max_rel_error_no_delay > 0.05);  // the paper's one G_l does not fit this
  const auto fit = probe::fit_loggps(a, b, p.S);
  CHECK(fit.max_rel_error_no_delay < 0.05);
  REQUIRE_FALSE(fit.params.gap_steps.empty());
  CHECK(fit.derivation == "ino-4.3");
  CHECK_NOTHROW(loggps::validate(fit.params, "fit"));
}

// Sundaram-Stukel & Vernon §3.3 on their own Table 1 (SP/2, C): L = 23 us, o_s = 16 us,
// o_l = 36 us, G_s = 0.07 us/B up to 1 KB, G_l = 0.03 us/B above, handshake from 4 KB.
// Intercepts by hand: a1 = 2(16) + 23 = 55, a2 = 2(36) + 23 = 95, a3 = 3(16) + 2(36) + 3(23) =
// 189; L = 2(189) - 3(55) - 2(95) = 23, o_s = (55 - 23)/2 = 16, o_l = (95 - 23)/2 = 36.
TEST_CASE("LogGP: the three equations of §3.3 recover L, o_s, o_l of Table 1", "[probe_fit]") {
  const auto e = probe::solve_ssv_equations(55e-6, 95e-6, 189e-6);
  CHECK(e.L == Approx(23e-6));
  CHECK(e.o_s == Approx(16e-6));
  CHECK(e.o_l == Approx(36e-6));

  loggp::LogGpParams p;
  p.L = 23e-6;
  p.rendezvous_bytes = 4096;
  p.bands = {{1024, 16e-6, 0.07e-6}, {1 << 30, 36e-6, 0.03e-6}};
  // Powers of two and two sizes more, so that the 1-4 KB band holds three sizes.
  std::vector<std::int64_t> sizes = geometric(4 << 20);
  sizes.insert(sizes.end(), {1536, 3072});
  std::sort(sizes.begin(), sizes.end());
  std::vector<RttSample> d;
  for (std::int64_t k : sizes) d.push_back({k, loggp::round_trip_time(p, k)});
  const auto fit = probe::fit_loggp(d, {}, p.rendezvous_bytes);
  CHECK(fit.derivation == "ssv-3.3");
  CHECK(fit.rejected.empty());
  REQUIRE(fit.ssv.solvable);
  CHECK(fit.ssv.a1 == Approx(55e-6));
  CHECK(fit.ssv.a2 == Approx(95e-6));
  CHECK(fit.ssv.a3 == Approx(189e-6));
  CHECK(fit.ssv.L == Approx(23e-6));
  CHECK(fit.ssv.o_s == Approx(16e-6));
  CHECK(fit.ssv.o_l == Approx(36e-6));
  const auto& q = fit.params;
  CHECK(q.per_byte == loggp::PerByteCost::band_rate);
  CHECK(q.L == Approx(23e-6));
  REQUIRE(q.bands.size() == 3);  // <= 1 KB, 1-4 KB, above the handshake
  CHECK(q.bands[0].upper_bytes == 1024);
  CHECK(q.bands[1].upper_bytes == 4095);  // the last eager band reaches the handshake
  CHECK(q.bands[0].o == Approx(16e-6));
  CHECK(q.bands[1].o == Approx(36e-6));
  CHECK(q.bands[2].o == Approx(36e-6));
  CHECK(q.bands[0].G == Approx(0.07e-6));
  CHECK(q.bands[1].G == Approx(0.03e-6));
  CHECK(q.bands[2].G == Approx(0.03e-6));
  CHECK(fit.max_rel_error < 1e-9);
}

// More bands than the paper's three: L = 2 us, o = 1 us and G = 1 ns/B up to 1 KB; above,
// G = 0.1 ns/B and o = 1.4608 us (Total_Comm continuous at 1 KB: 2(1) + 2 + 1.024 = 5.024 =
// 2(1.4608) + 2 + 0.1024 us); handshake from 8 KB with o_l = 1.4608 us, G = 0.05 ns/B. The three
// equations: a1 = 4, a2 = 4.9216, a3 = 3 + 2.9216 + 6 = 11.9216 us -> L = 23.8432 - 12 - 9.8432 = 2 us.
TEST_CASE("LogGP bands: one band per regime, recovered L, o and G", "[probe_fit]") {
  loggp::LogGpParams p;
  p.L = 2e-6;
  p.rendezvous_bytes = 8192;
  p.bands = {{1024, 1e-6, 1e-9}, {8191, 1.4608e-6, 0.1e-9}, {1 << 30, 1.4608e-6, 0.05e-9}};
  std::vector<RttSample> d;
  for (std::int64_t k : geometric(4 << 20)) d.push_back({k, loggp::round_trip_time(p, k)});
  const auto fit = probe::fit_loggp(d, {}, p.rendezvous_bytes);
  CHECK(fit.derivation == "ssv-3.3");
  CHECK(fit.ssv.a2 == Approx(4.9216e-6));
  CHECK(fit.ssv.a3 == Approx(11.9216e-6));
  const auto& q = fit.params;
  CHECK(q.L == Approx(2e-6));
  REQUIRE(q.bands.size() == 3);
  CHECK(q.rendezvous_bytes == 8192);
  CHECK(q.bands[0].upper_bytes == 1024);
  CHECK(q.bands[1].upper_bytes == 8191);  // the last eager band reaches the handshake
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(q.bands[i].o == Approx(p.bands[i].o).epsilon(1e-6));
    CHECK(q.bands[i].G == Approx(p.bands[i].G).epsilon(1e-6));
  }
  for (const auto& s : d) CHECK(loggp::round_trip_time(q, s.bytes) == Approx(s.seconds).epsilon(1e-6));
}

// A shared-memory-like node, one-way Total_Comm in us (k in bytes):
//   k <= 1 KB:          0.60 + 0.25e-3 k
//   1 KB < k < 8 KB:    0.80 + 0.05e-3 k
//   k >= 8 KB (handshake, a small jump): 1.50 + 0.03e-3 k, and beyond 512 KiB the bytes
//                       cost 0.02e-3 us more each (out of cache: faster than linear).
// Intercepts a1 = 0.60, a2 = 0.80, a3 = 1.50 us: L = 2(1.5) - 3(0.6) - 2(0.8) = -0.4 us,
// o_s = (0.6 + 0.4)/2 = 0.5 us, o_l = (0.8 + 0.4)/2 = 0.6 us. The delayed round trip (send,
// then receive a message that is already there) is 0.5 us + 0.1e-3 us/B: 2 o_s = 0.5 us.
TEST_CASE("LogGP: where the three equations give L < 0 the constrained fit is taken", "[probe_fit]") {
  std::vector<RttSample> d, delayed;
  for (std::int64_t k : geometric(4 << 20)) {
    const double kd = static_cast<double>(k);
    double one_way = k <= 1024 ? 0.60 + 0.25e-3 * kd : k < 8192 ? 0.80 + 0.05e-3 * kd : 1.50 + 0.03e-3 * kd;
    if (k > (512 << 10)) one_way += 0.02e-3 * (kd - (512 << 10));
    d.push_back({k, 2 * one_way * 1e-6});
    delayed.push_back({k, (0.5 + 0.1e-3 * kd) * 1e-6});
  }
  const auto fit = probe::fit_loggp(d, delayed, 8192);
  REQUIRE(fit.ssv.solvable);
  CHECK(fit.ssv.L == Approx(-0.4e-6));
  CHECK(fit.ssv.o_s == Approx(0.5e-6));
  CHECK(fit.ssv.o_l == Approx(0.6e-6));
  CHECK(fit.derivation == "constrained");
  CHECK(fit.rejected.find("loggp.L") != std::string::npos);
  const auto& q = fit.params;
  CHECK(q.per_byte == loggp::PerByteCost::cumulative);
  CHECK_NOTHROW(loggp::validate(q, "fit"));  // every constraint of the model
  CHECK(fit.max_rel_error <= 0.10);
  for (const auto& s : d) CHECK(std::fabs(relative_error(loggp::round_trip_time(q, s.bytes), s.seconds)) <= 0.10);
  // The split of 2 o_s + L = 0.60 us by the delayed round trip: o_s = 0.25 us, L = 0.10 us
  // (to the fit's tolerance: the eager intercept is fitted, not given).
  CHECK(q.bands.front().o == Approx(0.25e-6).epsilon(0.01));
  CHECK(q.L == Approx(0.10e-6).epsilon(0.25));
  CHECK(q.L >= 0.0);
  for (const auto& b : q.bands) CHECK(b.G >= 0.0);
  // Costs never fall: Send and Receive are constant below the handshake, and above it
  // Receive and Total_Comm grow faster than linearly, as measured.
  CHECK(loggp::send_cost(q, 8192) > loggp::send_cost(q, 8191));
  CHECK(loggp::total_comm(q, 4 << 20) == Approx(d.back().seconds / 2).epsilon(0.04));
}

TEST_CASE("S search: scan then bisect to the byte", "[probe_fit]") {
  const std::vector<std::int64_t> sizes = geometric(4 << 20);
  for (std::int64_t first_waiting : {std::int64_t{4096}, std::int64_t{8256}, std::int64_t{65536},
                                     std::int64_t{1}, std::int64_t{3}}) {
    const auto r = probe::find_synchronous_threshold(sizes, [&](std::int64_t k) { return k >= first_waiting; });
    CHECK(r.first_waiting == first_waiting);
    CHECK(r.S == first_waiting - 1);  // k = S is still eager, k = S + 1 waits (Ino's S)
    CHECK(r.monotone);
  }
  const auto never = probe::find_synchronous_threshold(sizes, [](std::int64_t) { return false; });
  CHECK(never.first_waiting == -1);
  CHECK(never.S == (4 << 20));
  // A size above S that did not wait is reported, not hidden.
  const auto odd = probe::find_synchronous_threshold(
      sizes, [](std::int64_t k) { return k >= 1024 && k != 65536; });
  CHECK_FALSE(odd.monotone);
  CHECK(odd.first_waiting == 1024);
}

TEST_CASE("LogGPS fit recovers the rendezvous handshake H under either send rule", "[probe_fit]") {
  for (const auto rule : {loggps::SendReturns::after_injection, loggps::SendReturns::after_transfer}) {
    auto p = machine();
    p.H = 2.5e-6;  // the jump of the round trip at S beyond 8o' + 4L
    p.send_returns = rule;
    std::vector<RttSample> a, b;
    synthesise(p, geometric(4 << 20), a, b);
    const auto q = probe::fit_loggps_fixed(a, b, p.s, p.S, {}, 1.0, false, rule);
    CHECK(q.H == Approx(p.H).epsilon(1e-6));
    CHECK(q.L == Approx(p.L).epsilon(1e-6));
    CHECK(q.o_prime == Approx(p.o_prime).epsilon(1e-6));
    CHECK(q.O_r == Approx(p.O_r).epsilon(1e-6));
    CHECK(q.G_l == Approx(p.G_l).epsilon(1e-6));
    CHECK(q.send_returns == rule);
    // Fitted under the other rule, the delayed round trips above S cannot all be matched.
    const auto other = rule == loggps::SendReturns::after_injection ? loggps::SendReturns::after_transfer
                                                                    : loggps::SendReturns::after_injection;
    const auto wrong = probe::fit_loggps_fixed(a, b, p.s, p.S, {}, 1.0, false, other);
    CHECK(std::fabs(wrong.G_l - p.G_l) > 1e-3 * p.G_l);
  }
  // Data without a jump give H = 0: the paper.
  const auto p = machine();
  std::vector<RttSample> a, b;
  synthesise(p, geometric(4 << 20), a, b);
  CHECK(std::fabs(probe::fit_loggps_fixed(a, b, p.s, p.S, {}, 1.0).H) < 1e-15);
}

TEST_CASE("the rendezvous send rule: the send's growth against the one-way growth", "[probe_fit]") {
  // Measured here (MPICH ch4:ucx, shared memory): 16384 B 4.658 us, 131072 B 7.904 us, round
  // trips growing by 8.796 us: 3.246 / 4.398 = 0.738 of the one-way growth -> after the transfer.
  const auto e = probe::rendezvous_send_rule(8255, 16384, 131072, 4.658e-6, 7.904e-6, 10.0e-6, 18.796e-6);
  CHECK(e.ratio == Approx(3.246 / 4.398).epsilon(1e-9));
  CHECK(e.rule == loggps::SendReturns::after_transfer);
  // Ino's eq. 5 machine: the send grows by k O_s only (0.2 of the one-way growth).
  const auto f = probe::rendezvous_send_rule(16383, 16384, 131072, 150e-6, 151e-6, 600e-6, 610e-6);
  CHECK(f.ratio == Approx(0.2).epsilon(1e-9));
  CHECK(f.rule == loggps::SendReturns::after_injection);
  CHECK_THROWS_AS(probe::rendezvous_send_rule(16384, 16384, 131072, 1, 2, 3, 4), std::invalid_argument);
  CHECK_THROWS_AS(probe::rendezvous_send_rule(100, 2000, 1000, 1, 2, 3, 4), std::invalid_argument);
  CHECK_THROWS_AS(probe::rendezvous_send_rule(100, 1000, 2000, 1, 2, 4, 4), std::invalid_argument);
}

TEST_CASE("a machine file whose fit misses its round trips by more than 50% is named, with the figure",
          "[probe_fit]") {
  const auto problem = [](const std::string& keys) {
    return probe::round_trip_fit_problem(MachineFile::parse("format = suite-machine-1\n" + keys, "m.machine"));
  };
  CHECK(problem("") == "");  // a file that does not say (written by hand, another tool)
  CHECK(problem("loggp.max_rel_error_rtt = 0.0289\nloggps.max_rel_error_rtt = 0.0484\n") == "");
  CHECK(problem("loggp.max_rel_error_rtt = 0.21\n") == "");  // --reps 3 on a loaded guest
  CHECK(problem("loggp.max_rel_error_rtt = 0.5\n") == "");   // the bound itself is kept
  CHECK(problem("loggp.max_rel_error_rtt = 0.797\nloggps.max_rel_error_rtt = 0.01\n") ==
        "loggp.max_rel_error_rtt = 0.797: the fit misses a measured round trip by 79.7%, more than 50%");
  // LogGPS is looked at first.
  CHECK(problem("loggps.max_rel_error_rtt = 0.829\nloggp.max_rel_error_rtt = 0.797\n") ==
        "loggps.max_rel_error_rtt = 0.829: the fit misses a measured round trip by 82.9%, more than 50%");
  CHECK(problem("loggps.max_rel_error_rtt = 0.5001\n") ==
        "loggps.max_rel_error_rtt = 0.5001: the fit misses a measured round trip by 50.0%, more than 50%");
  // A figure that is not a number is refused as the file's readers refuse it.
  CHECK_THROWS_AS(problem("loggp.max_rel_error_rtt = nan\n"), InputError);
}
