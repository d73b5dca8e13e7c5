// The cache-line round trip's bounded wait for the partner's store (instrument/placement/store_wait.hpp):
// a store that comes ends the wait, one that never comes ends it after the limit (here tens of
// milliseconds, not the library's 10 s), and the error names both processes and the round trip.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "../../instrument/placement/store_wait.hpp"

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

TEST_CASE("a store already made ends the wait at once") {
  std::uint64_t word = 7;
  const std::atomic_ref<std::uint64_t> line(word);
  CHECK(instrument::wait_for_store(line, 7, 10ms));
}

TEST_CASE("a store made while waiting ends the wait before the limit") {
  std::uint64_t word = 0;
  const std::atomic_ref<std::uint64_t> line(word);
  std::thread partner([&word] {
    std::this_thread::sleep_for(5ms);
    std::atomic_ref<std::uint64_t>(word).store(3, std::memory_order_release);
  });
  const Clock::time_point t0 = Clock::now();
  const bool answered = instrument::wait_for_store(line, 3, 10s);
  const Clock::duration waited = Clock::now() - t0;
  partner.join();
  CHECK(answered);
  CHECK(waited < 5s);
}

TEST_CASE("a store that never comes ends the wait after the limit") {
  std::uint64_t word = 1;  // the previous round trip's count: the partner stopped answering
  const std::atomic_ref<std::uint64_t> line(word);
  const Clock::time_point t0 = Clock::now();
  const bool answered = instrument::wait_for_store(line, 2, 30ms);
  const Clock::duration waited = Clock::now() - t0;
  CHECK_FALSE(answered);
  CHECK(waited >= 30ms);
  CHECK(waited < 5s);  // the limit fired: no spinning on without bound
}

TEST_CASE("the error names the waiting process, the partner, the round trip and the limit") {
  CHECK(instrument::missed_store_text(0, 2, 37, instrument::kStoreWaitLimit) ==
        "process 0 waited 10 s for process 2 to store round trip 37 into their shared cache "
        "line; process 2 is stuck or did not take part");
  CHECK(instrument::kStoreWaitLimit >= 1s);  // generous: a partner descheduled for a while answers
}
