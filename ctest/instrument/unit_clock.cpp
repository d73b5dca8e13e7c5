// The hooks' clock: which source is chosen, the start calibration, and ticks -> seconds on
// steady_clock's time base (registered again with SUITE_CLOCK=steady, see clock.cmake).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "instrument/clock.hpp"

using namespace instrument;

namespace {
bool cpuinfo_has(const std::string& flag) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("flags", 0) == 0) return (line + " ").find(" " + flag + " ") != std::string::npos;
  return false;
}

void busy_for(double seconds) {
  const double t0 = now_seconds();
  while (now_seconds() - t0 < seconds) {
  }
}
}  // namespace

TEST_CASE("the TSC is used exactly when the kernel reports it invariant") {
  const char* forced = std::getenv("SUITE_CLOCK");
  const bool want_tsc = INSTRUMENT_HAVE_TSC &&
                        (forced && std::strcmp(forced, "steady") == 0
                             ? false
                             : cpuinfo_has("constant_tsc") && cpuinfo_has("nonstop_tsc"));
  CHECK((clock_source() == ClockSource::tsc) == want_tsc);
  CHECK(std::string(clock_source_name(clock_source())) == (want_tsc ? "tsc" : "steady_clock"));
}

TEST_CASE("the start calibration gives a plausible rate and read cost") {
  const ClockCalibration& c = clock_calibration();
  CHECK(&c == &clock_calibration());  // once per process
  if (c.source == ClockSource::steady) {
    CHECK(c.start_hz == 1e9);
    CHECK(c.start.ticks == c.start.steady_ns);
  } else {
    CHECK(c.start_hz > 1e8);   // no CPU counts slower than 100 MHz ...
    CHECK(c.start_hz < 1e10);  // ... or faster than 10 GHz
    CHECK(c.start_uncertainty < 1e-3);
  }
  CHECK(c.read_ns > 0.1);
  CHECK(c.read_ns < 1000.0);
}

TEST_CASE("ticks convert to steady_clock seconds") {
  busy_for(0.05);  // a run, however short, refines the rate
  const ClockConversion conv = final_conversion();
  CHECK(conv.consistent);
  CHECK(std::abs(conv.disagreement) < kClockTolerance);
  // A tick read between two steady_clock reads converts to a time between them; of a few
  // tries the tightest bracket is judged (a preempted try proves nothing).
  double best_gap = 1.0, best_error = 1.0;
  for (int i = 0; i < 20; ++i) {
    const double s0 = now_seconds();
    const Ticks t = now_ticks();
    const double s1 = now_seconds();
    if (s1 - s0 < best_gap) {
      best_gap = s1 - s0;
      const double s = conv.steady_seconds(t);
      best_error = s < s0 ? s0 - s : (s > s1 ? s - s1 : 0.0);
    }
  }
  CHECK(best_gap < 1e-5);
  CHECK(best_error < 0.2e-6);  // well under a microsecond after 50 ms
  CHECK(conv.seconds(conv.ticks(0.125)) == Approx(0.125).margin(1.0 / conv.hz));
  CHECK(conv.steady_seconds(conv.ticks_at(12345.5)) == Approx(12345.5).margin(2.0 / conv.hz));
}

TEST_CASE("a duration in ticks matches steady_clock's") {
  const ClockConversion conv = final_conversion();
  const double s0 = now_seconds();
  const Ticks t0 = now_ticks();
  busy_for(0.02);
  const Ticks t1 = now_ticks();
  const double s1 = now_seconds();
  CHECK(conv.seconds(t1 - t0) == Approx(s1 - s0).margin(2e-6));
}
