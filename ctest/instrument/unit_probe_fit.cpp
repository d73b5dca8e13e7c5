// The probe's fitting code on synthetic data generated from known parameters: it must give
// them back. No MPI, no timing.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

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

TEST_CASE("least squares solves an exact system and detects dependence", "[probe_fit]") {
  // x = 2, y = -3 from three consistent equations with very different column scales.
  const std::vector<std::vector<double>> rows = {{1, 1e6}, {1, 2e6}, {1, 4e6}};
  const std::vector<double> rhs = {2 - 3e6, 2 - 6e6, 2 - 12e6};
  const auto x = probe::least_squares(rows, rhs);
  CHECK(x[0] == Approx(2.0).epsilon(1e-9));
  CHECK(x[1] == Approx(-3.0).epsilon(1e-12));
  CHECK_THROWS(probe::least_squares({{1, 2}, {2, 4}}, {1, 2}));
}

TEST_CASE("relative line fit recovers a line and handles one point", "[probe_fit]") {
  const auto f = probe::fit_line_relative({1, 10, 100}, {5 + 2, 5 + 20, 5 + 200});
  CHECK(f.intercept == Approx(5.0));
  CHECK(f.slope == Approx(2.0));
  const auto one = probe::fit_line_relative({7}, {3});
  CHECK(one.intercept == 3.0);
  CHECK(one.slope == 0.0);
}

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
}

TEST_CASE("LogGPS fit finds s where the per-byte cost changes", "[probe_fit]") {
  const auto p = machine();
  std::vector<RttSample> a, b;
  synthesise(p, geometric(4 << 20), a, b);
  const auto fit = probe::fit_loggps(a, b, p.S);
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

TEST_CASE("LogGPS fit recovers the Myrinet parameters of Table 5 (negative G_l)", "[probe_fit]") {
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
  const auto fit = probe::fit_loggps(a, b, p.S);
  CHECK(fit.params.s == 8191);
  CHECK(fit.params.O_s == Approx(p.O_s).epsilon(1e-5));
  CHECK(fit.params.O_r == Approx(p.O_r).epsilon(1e-5));
  CHECK(fit.params.G_l == Approx(p.G_l).epsilon(1e-5));
  CHECK(fit.max_rel_error_no_delay < 1e-6);
}

TEST_CASE("LogGPS fit adds gap steps where one G_l cannot fit", "[probe_fit]") {
  auto p = machine();
  p.gap_steps = {{1 << 20, 0.6e-9}};  // out of cache: bytes beyond 1 MiB cost 6x more
  std::vector<RttSample> a, b;
  synthesise(p, geometric(4 << 20), a, b);
  const auto plain = probe::fit_loggps(a, b, p.S, {0.05, 0, 0.01});
  CHECK(plain.max_rel_error_no_delay > 0.05);  // the paper's one G_l does not fit this
  const auto fit = probe::fit_loggps(a, b, p.S);
  CHECK(fit.max_rel_error_no_delay < 0.05);
  REQUIRE_FALSE(fit.params.gap_steps.empty());
}

TEST_CASE("LogGP bands: one band per regime, recovered o and G", "[probe_fit]") {
  loggp::LogGpParams p;
  p.L = 2e-6;
  p.rendezvous_bytes = 8192;
  p.bands = {{1024, 1e-6, 0.5e-9}, {8191, 3e-6, 0.2e-9}, {1 << 30, 4e-6, 0.1e-9}};
  std::vector<RttSample> d;
  for (std::int64_t k : geometric(4 << 20)) d.push_back({k, loggp::round_trip_time(p, k)});
  const auto q = probe::fit_loggp(d, p.rendezvous_bytes, p.L);
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
