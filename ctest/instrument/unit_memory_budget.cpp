// memory_limit_bytes / require_memory / format_bytes: a size from input is refused with the
// figure and the limit before anything is allocated.
#include <catch2/catch.hpp>
#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>

#include "instrument/error.hpp"
#include "instrument/memory_budget.hpp"
#include "../memory_limit_text.hpp"

using instrument::format_bytes;
using instrument::InputError;
using instrument::memory_limit_bytes;
using instrument::require_memory;
using instrument::saturating_product;

TEST_CASE("format_bytes: binary units, one decimal at most", "[memory_budget]") {
  CHECK(format_bytes(0) == "0 B");
  CHECK(format_bytes(512) == "512 B");
  CHECK(format_bytes(1023) == "1023 B");
  CHECK(format_bytes(1024) == "1 KiB");
  CHECK(format_bytes(1536) == "1.5 KiB");
  CHECK(format_bytes(12ULL << 20) == "12 MiB");
  CHECK(format_bytes(3ULL << 29) == "1.5 GiB");
  CHECK(format_bytes(5ULL << 28) == "1.3 GiB");  // 1.25 GiB: the half rounds away from zero
  CHECK(format_bytes((1ULL << 20) - 1) == "1024 KiB");  // 1023.999 KiB rounds to 1024.0
  CHECK(format_bytes(1ULL << 60) == "1 EiB");
  CHECK(format_bytes(std::numeric_limits<std::uint64_t>::max()) == "16 EiB");
}

namespace {
std::uint64_t mem_available_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  std::uint64_t kb = 0;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return 0;
}
}  // namespace

TEST_CASE("memory_limit_bytes is at most MemAvailable and the address-space limit", "[memory_budget]") {
  // MemAvailable moves while other processes run (by 270 KB between two reads in a CI run
  // beside other jobs): the limit is compared with the larger of a read before and one
  // after, plus 1%.
  const std::uint64_t before = mem_available_bytes();
  const std::uint64_t limit = memory_limit_bytes();
  const std::uint64_t after = mem_available_bytes();
  CHECK(limit > 0);
  if (before > 0 && after > 0) CHECK(limit <= std::max(before, after) / 100 * 101);
  struct rlimit rl {};
  REQUIRE(::getrlimit(RLIMIT_AS, &rl) == 0);
  if (rl.rlim_cur != RLIM_INFINITY) CHECK(limit <= rl.rlim_cur);
}

TEST_CASE("require_memory throws for 2^60 bytes, naming the figure and the limit", "[memory_budget]") {
  const std::uint64_t before = memory_limit_bytes();
  std::string message;
  try {
    require_memory(std::uint64_t{1} << 60, "--trace", "", "the trace buffer of 1000000000 events");
  } catch (const InputError& e) {
    message = e.what();
  }
  const std::uint64_t after = memory_limit_bytes();
  check_limit_named(message, "--trace: the trace buffer of 1000000000 events needs 1 EiB, more than the ",
                    " this process can allocate", before, after);
  CHECK_NOTHROW(require_memory(4096, "x", "", "a page"));
}

TEST_CASE("require_memory honours a lowered RLIMIT_AS", "[memory_budget]") {
  struct rlimit old {};
  REQUIRE(::getrlimit(RLIMIT_AS, &old) == 0);
  if (old.rlim_cur != RLIM_INFINITY) {
    SUCCEED("RLIMIT_AS already set: not lowering it here");
    return;
  }
  // Lower the soft limit only; the hard limit stays so it can be raised back.
  struct rlimit low = old;
  low.rlim_cur = 64ULL << 40;  // 64 TiB: far above what runs, far below 2^60
  REQUIRE(::setrlimit(RLIMIT_AS, &low) == 0);
  const std::uint64_t limit = memory_limit_bytes();
  REQUIRE(::setrlimit(RLIMIT_AS, &old) == 0);
  CHECK(limit <= 64ULL << 40);
}

TEST_CASE("saturating_product never wraps", "[memory_budget]") {
  CHECK(saturating_product({}) == 1);
  CHECK(saturating_product({3, 5, 7}) == 105);
  CHECK(saturating_product({1ULL << 32, 1ULL << 32}) == std::numeric_limits<std::uint64_t>::max());
  CHECK(saturating_product({1ULL << 32, (1ULL << 32) - 1}) == (1ULL << 32) * ((1ULL << 32) - 1));
  CHECK(saturating_product({1ULL << 40, 1ULL << 40, 0}) == 0);
}

// SUITE_MEMORY_AVAILABLE stands in for MemAvailable (the tests of up-front refusals use it).
TEST_CASE("SUITE_MEMORY_AVAILABLE replaces MemAvailable; a malformed one is refused", "[memory_budget]") {
  REQUIRE(::setenv("SUITE_MEMORY_AVAILABLE", "3GiB", 1) == 0);
  const std::uint64_t three = memory_limit_bytes();
  REQUIRE(::setenv("SUITE_MEMORY_AVAILABLE", "4096", 1) == 0);
  const std::uint64_t page = memory_limit_bytes();
  REQUIRE(::setenv("SUITE_MEMORY_AVAILABLE", "12 GiB", 1) == 0);
  std::string malformed;
  try {
    memory_limit_bytes();
  } catch (const InputError& e) {
    malformed = e.what();
  }
  REQUIRE(::unsetenv("SUITE_MEMORY_AVAILABLE") == 0);
  CHECK(three <= 3ULL << 30);  // the rlimits and the cgroup still apply
  CHECK(three > 0);
  CHECK(page == 4096);
  CHECK(malformed.rfind("SUITE_MEMORY_AVAILABLE: expected the memory available", 0) == 0);
  CHECK(malformed.find("\"12 GiB\"") != std::string::npos);
}

TEST_CASE("require_node_memory: the ranks of a node share it; the message says the share", "[memory_budget]") {
  REQUIRE(::setenv("SUITE_MEMORY_AVAILABLE", "10GiB", 1) == 0);
  std::string two_ranks, one_rank;
  try {
    instrument::require_node_memory(6ULL << 30, 2, "command line", "--cube", "--cube 99");
  } catch (const InputError& e) {
    two_ranks = e.what();
  }
  try {
    instrument::require_node_memory(11ULL << 30, 1, "command line", "--cube", "--cube 99");
  } catch (const InputError& e) {
    one_rank = e.what();
  }
  const bool fits = [] {
    try {
      instrument::require_node_memory(4ULL << 30, 2, "command line", "--cube", "--cube 9");
      return true;
    } catch (const InputError&) {
      return false;
    }
  }();
  REQUIRE(::unsetenv("SUITE_MEMORY_AVAILABLE") == 0);
  // Only if nothing else holds this process below 10 GiB (an rlimit, a cgroup).
  if (memory_limit_bytes() < 10ULL << 30) {
    SUCCEED("less than 10 GiB can be had here: the figures below would differ");
    return;
  }
  CHECK(two_ranks ==
        "command line:--cube: --cube 99 needs about 12 GiB (6 GiB a rank at 2 ranks on this node), more than the 10 GiB "
        "available");
  CHECK(one_rank == "command line:--cube: --cube 99 needs about 11 GiB, more than the 10 GiB available");
  CHECK(fits);
}
