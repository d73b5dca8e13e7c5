// The wait of a cache-line round trip (line_pairs.hpp) for the partner's store, bounded: a
// partner that never stores (a bug, or a process stuck elsewhere) must end the run with one
// error line, not hang it. Header only, so that the unit test can run it with a short limit.
#pragma once
#include <sched.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace instrument {

// How long a process waits for its partner's store before the run is ended. A round trip
// takes 60-600 ns; a partner descheduled by the host for a while answers within
// milliseconds. Seconds without an answer mean it never will.
constexpr std::chrono::seconds kStoreWaitLimit{10};

// Spins until `line` holds `want`, yielding the core now and then (with more processes than
// cores a partner that is not running cannot answer); false if `limit` passed first. The
// clock is read only every 4096 spins, and the deadline is set at the first of those reads:
// a round trip answered within them (every one on a healthy run) reads no clock, which
// would cost 20-30 ns of the 60-600 ns measured. The limit so counts from a few
// microseconds after the call.
inline bool wait_for_store(const std::atomic_ref<std::uint64_t>& line, std::uint64_t want,
                           std::chrono::steady_clock::duration limit) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point deadline{};
  bool deadline_set = false;
  for (long k = 0; line.load(std::memory_order_acquire) != want; ++k) {
    if (k % 4096 != 4095) continue;
    const Clock::time_point now = Clock::now();
    if (!deadline_set) {
      deadline = now + limit;
      deadline_set = true;
    } else if (now >= deadline) {
      return false;
    }
    sched_yield();
  }
  return true;
}

// The error's text when process `waiter` of the round trip's communicator gave up waiting
// for process `partner` to store round trip `want` into their shared line.
inline std::string missed_store_text(int waiter, int partner, std::uint64_t want,
                                     std::chrono::steady_clock::duration limit) {
  const double seconds = std::chrono::duration<double>(limit).count();
  char text[256];
  std::snprintf(text, sizeof text,
                "process %d waited %g s for process %d to store round trip %llu into their "
                "shared cache line; process %d is stuck or did not take part",
                waiter, seconds, partner, static_cast<unsigned long long>(want), partner);
  return text;
}

}  // namespace instrument
