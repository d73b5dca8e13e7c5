// A Recorder whose trace cannot fit in this process is refused before it allocates, with the
// figure and the limit (`--trace 1000000000000` was a bad_alloc).
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "instrument/error.hpp"
#include "instrument/memory_budget.hpp"
#include "instrument/recorder.hpp"
#include "../memory_limit_text.hpp"

TEST_CASE("a trace too large for this process is an InputError naming --trace and both sizes", "[recorder]") {
  const std::size_t events = std::size_t{1} << 56;  // 2^56 x sizeof(RecordedEvent) > 2^60 B
  const std::uint64_t before = instrument::memory_limit_bytes();
  std::string message;
  try {
    instrument::Recorder r(events);
  } catch (const instrument::InputError& e) {
    message = e.what();
  }
  const std::string bytes = std::to_string(sizeof(instrument::RecordedEvent));
  const std::string need =
      instrument::format_bytes(instrument::saturating_product({events, sizeof(instrument::RecordedEvent)}));
  const std::uint64_t after = instrument::memory_limit_bytes();
  check_limit_named(message,
                    "--trace: a trace of " + std::to_string(events) + " events (" + bytes + " bytes each) needs " +
                        need + ", more than the ",
                    " this process can allocate", before, after);
  CHECK_NOTHROW(instrument::Recorder(1000));
}
