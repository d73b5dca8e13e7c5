// A Recorder whose trace cannot fit in this process is refused before it allocates, with the
// figure and the limit (`--trace 1000000000000` was a bad_alloc).
#include <catch2/catch.hpp>

#include <string>

#include "instrument/error.hpp"
#include "instrument/memory_budget.hpp"
#include "instrument/recorder.hpp"

TEST_CASE("a trace too large for this process is an InputError naming --trace and both sizes", "[recorder]") {
  const std::size_t events = std::size_t{1} << 56;  // 2^56 x sizeof(RecordedEvent) > 2^60 B
  std::string message;
  try {
    instrument::Recorder r(events);
  } catch (const instrument::InputError& e) {
    message = e.what();
  }
  const std::string bytes = std::to_string(sizeof(instrument::RecordedEvent));
  const std::string need =
      instrument::format_bytes(instrument::saturating_product({events, sizeof(instrument::RecordedEvent)}));
  CHECK(message == "--trace: a trace of " + std::to_string(events) + " events (" + bytes + " bytes each) needs " +
                       need + ", more than the " + instrument::format_bytes(instrument::memory_limit_bytes()) +
                       " this process can allocate");
  CHECK_NOTHROW(instrument::Recorder(1000));
}
