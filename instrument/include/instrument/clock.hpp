// The clocks of the suite.
//
// now_ticks() is the hooks' clock: the CPU's invariant time-stamp counter (rdtsc, ~11 ns a
// read on this machine) where the kernel reports one (/proc/cpuinfo flags constant_tsc and
// nonstop_tsc: a rate that does not change with frequency scaling or sleep states), and
// std::chrono::steady_clock in nanoseconds otherwise (and on non-x86, or with
// SUITE_CLOCK=steady in the environment). The choice is made once per process, before main.
// The hot path stores ticks (int64) and never converts.
//
// Ticks become seconds at gather/print time on steady_clock's time base (CLOCK_MONOTONIC,
// which all processes of a node share), through a ClockConversion:
//   seconds(t) = steady(start) + (t - ticks(start)) / hz,
// where `start` is a (ticks, steady) pair taken at the first calibration and hz the tick rate
// measured over the whole run (pairs at start and at the end). Both ends of the line are
// pinned to steady_clock within a pair's bracket (tens of ns), so ranks of a node agree on
// event times to well under a microsecond however long the run. The rate is also measured at
// start, over kCalibrationSeconds; the end check compares the two (a TSC that changed rate or
// jumped, e.g. a process moved to a core whose counter is not synchronised, disagrees).
//
// now_seconds() is steady_clock in seconds: for tools and benchmarks, never for hooks.
//
// A test build defines INSTRUMENT_COUNT_CLOCK_READS=1: every read of either clock then counts
// in clock_reads(), so a test can prove that hooks compiled out read no clock.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define INSTRUMENT_HAVE_TSC 1
#else
#define INSTRUMENT_HAVE_TSC 0
#endif

#ifndef INSTRUMENT_COUNT_CLOCK_READS
#define INSTRUMENT_COUNT_CLOCK_READS 0
#endif

namespace instrument {

using Ticks = std::int64_t;

enum class ClockSource { steady, tsc };

namespace clock_detail {
// Set before main (clock.cpp) and never changed: ticks of two sources must never mix.
extern const bool use_tsc;
#if INSTRUMENT_COUNT_CLOCK_READS
extern std::int64_t reads;
#endif

inline void count_read() noexcept {
#if INSTRUMENT_COUNT_CLOCK_READS
  ++reads;
#endif
}

inline std::int64_t steady_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace clock_detail

inline Ticks now_ticks() noexcept {
  clock_detail::count_read();
#if INSTRUMENT_HAVE_TSC
  if (clock_detail::use_tsc) return static_cast<Ticks>(__rdtsc());
#endif
  return clock_detail::steady_ns();
}

inline double now_seconds() noexcept {
  clock_detail::count_read();
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Clock reads so far in a build with INSTRUMENT_COUNT_CLOCK_READS=1 (-1 in other builds).
std::int64_t clock_reads() noexcept;

ClockSource clock_source() noexcept;
const char* clock_source_name(ClockSource s) noexcept;  // "tsc" or "steady_clock"

// A tick count and the steady_clock time read between two tick reads `bracket` ticks apart.
struct ClockPair {
  Ticks ticks = 0;
  std::int64_t steady_ns = 0;
  Ticks bracket = 0;
};

// The process's start calibration: taken once, at the first call (it spins for
// kCalibrationSeconds). The Recorder calls it at construction, outside every hook.
struct ClockCalibration {
  ClockSource source = ClockSource::steady;
  ClockPair start;                   // the first pair: the origin of every conversion
  double start_hz = 1e9;             // ticks per second measured over the spin
  double start_uncertainty = 0.0;    // relative: the two pairs' brackets over the spin
  double read_ns = 0.0;              // one now_ticks() read, measured during the spin
};
inline constexpr double kCalibrationSeconds = 0.005;
const ClockCalibration& clock_calibration();

// Ticks -> seconds on steady_clock's time base (see the header comment).
struct ClockConversion {
  ClockSource source = ClockSource::steady;
  ClockPair start;
  ClockPair end;  // the pair the rate was measured to (start's, before the end check)
  double hz = 1e9;
  // The end check: whole-run rate vs the start calibration's, relative, and how much of that
  // the pairs' brackets explain. `consistent` when |disagreement| <= tolerance + uncertainty.
  double disagreement = 0.0;
  double uncertainty = 0.0;
  bool consistent = true;

  double seconds(Ticks duration) const noexcept { return static_cast<double>(duration) / hz; }
  // steady_clock seconds (the value now_seconds() had) at tick count t.
  double steady_seconds(Ticks t) const noexcept {
    return 1e-9 * static_cast<double>(start.steady_ns) + static_cast<double>(t - start.ticks) / hz;
  }
  Ticks ticks(double duration_seconds) const noexcept {
    return static_cast<Ticks>(duration_seconds * hz + (duration_seconds < 0 ? -0.5 : 0.5));
  }
  // Inverse of steady_seconds, for intervals timed with now_seconds().
  Ticks ticks_at(double steady_s) const noexcept {
    return start.ticks + ticks(steady_s - 1e-9 * static_cast<double>(start.steady_ns));
  }
};

// The relative disagreement the end check accepts beyond the pairs' brackets: 100 ppm. A
// slewing NTP changes steady_clock's rate by a few ppm; an unstable TSC by far more.
inline constexpr double kClockTolerance = 100e-6;

// With the start calibration's rate (what a mid-run figure uses).
const ClockConversion& provisional_conversion();
// With the rate over the whole run so far: takes an end pair now and checks it.
ClockConversion final_conversion();

}  // namespace instrument
