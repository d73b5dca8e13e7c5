// Choice of the hooks' clock, its start calibration and the end check (see clock.hpp).
#include "instrument/clock.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace instrument {

namespace {

// The kernel's word that the TSC ticks at one rate whatever the core's frequency and state.
bool cpu_has_invariant_tsc() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    bool constant = false, nonstop = false;
    for (std::string w; words >> w;) {
      constant = constant || w == "constant_tsc";
      nonstop = nonstop || w == "nonstop_tsc";
    }
    return constant && nonstop;  // the first CPU speaks for all
  }
  return false;
}

bool choose_tsc() {
  if (!INSTRUMENT_HAVE_TSC) return false;
  const char* forced = std::getenv("SUITE_CLOCK");
  if (forced && std::strcmp(forced, "steady") == 0) return false;
  if (forced && std::strcmp(forced, "tsc") == 0) return true;
  return cpu_has_invariant_tsc();
}

// A steady_clock read between two tick reads; of a few tries the tightest bracket wins (a
// try that an interrupt or the hypervisor stretched is discarded).
ClockPair take_pair() {
  ClockPair best;
  best.bracket = -1;
  for (int i = 0; i < 7; ++i) {
    const Ticks a = now_ticks();
    const std::int64_t s = clock_detail::steady_ns();
    clock_detail::count_read();
    const Ticks b = now_ticks();
    if (best.bracket < 0 || b - a < best.bracket) best = ClockPair{a + (b - a) / 2, s, b - a};
  }
  return best;
}

ClockCalibration calibrate() {
  ClockCalibration c;
  c.source = clock_source();
  if (c.source == ClockSource::steady) {  // ticks are steady_clock nanoseconds: exact
    const std::int64_t ns = clock_detail::steady_ns();
    clock_detail::count_read();
    c.start = ClockPair{ns, ns, 0};
    c.start_hz = 1e9;
    const std::int64_t t0 = clock_detail::steady_ns();
    std::int64_t reads = 0;
    while (now_ticks() - t0 < static_cast<Ticks>(kCalibrationSeconds * 1e9)) ++reads;
    c.read_ns = kCalibrationSeconds * 1e9 / static_cast<double>(reads);
    return c;
  }
  c.start = take_pair();
  std::int64_t reads = 0;
  const std::int64_t spin_ns = static_cast<std::int64_t>(kCalibrationSeconds * 1e9);
  Ticks t0 = now_ticks(), t = t0;
  const std::int64_t s0 = clock_detail::steady_ns();
  // Spin on the tick clock, checking steady_clock every 256 reads.
  while (true) {
    for (int i = 0; i < 256; ++i) t = now_ticks();
    reads += 256;
    if (clock_detail::steady_ns() - s0 >= spin_ns) break;
  }
  const ClockPair end = take_pair();
  const double dt_ns = static_cast<double>(end.steady_ns - c.start.steady_ns);
  c.start_hz = static_cast<double>(end.ticks - c.start.ticks) / dt_ns * 1e9;
  c.start_uncertainty =
      0.5 * static_cast<double>(c.start.bracket + end.bracket) /
      static_cast<double>(end.ticks - c.start.ticks);
  c.read_ns = static_cast<double>(t - t0) / c.start_hz * 1e9 / static_cast<double>(reads);
  return c;
}

}  // namespace

namespace clock_detail {
const bool use_tsc = choose_tsc();  // extern: declared so in clock.hpp
#if INSTRUMENT_COUNT_CLOCK_READS
std::int64_t reads = 0;
#endif
}  // namespace clock_detail

std::int64_t clock_reads() noexcept {
#if INSTRUMENT_COUNT_CLOCK_READS
  return clock_detail::reads;
#else
  return -1;
#endif
}

ClockSource clock_source() noexcept {
  return clock_detail::use_tsc ? ClockSource::tsc : ClockSource::steady;
}

const char* clock_source_name(ClockSource s) noexcept {
  return s == ClockSource::tsc ? "tsc" : "steady_clock";
}

const ClockCalibration& clock_calibration() {
  static const ClockCalibration c = calibrate();
  return c;
}

const ClockConversion& provisional_conversion() {
  static const ClockConversion conv = [] {
    const ClockCalibration& c = clock_calibration();
    ClockConversion v;
    v.source = c.source;
    v.start = c.start;
    v.end = c.start;
    v.hz = c.start_hz;
    v.uncertainty = c.start_uncertainty;
    return v;
  }();
  return conv;
}

ClockConversion final_conversion() {
  const ClockCalibration& c = clock_calibration();
  ClockConversion v = provisional_conversion();
  if (c.source == ClockSource::steady) return v;  // nothing to refine or check
  const ClockPair end = take_pair();
  v.end = end;
  const double span = static_cast<double>(end.ticks - c.start.ticks);
  v.hz = span / static_cast<double>(end.steady_ns - c.start.steady_ns) * 1e9;
  v.disagreement = (c.start_hz - v.hz) / v.hz;
  v.uncertainty =
      c.start_uncertainty + 0.5 * static_cast<double>(c.start.bracket + end.bracket) / span;
  v.consistent = std::abs(v.disagreement) <= kClockTolerance + v.uncertainty;
  return v;
}

}  // namespace instrument
