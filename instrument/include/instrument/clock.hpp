// The one clock of the suite. steady_clock is CLOCK_MONOTONIC through the vDSO on Linux
// (about 20-25 ns a read here, no system call) and never jumps with NTP; seconds travel as
// double, which keeps nanosecond resolution for runs up to weeks.
#pragma once
#include <chrono>

namespace instrument {

using Clock = std::chrono::steady_clock;

inline double now_seconds() noexcept {
  return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

}  // namespace instrument
