// reuse_freed_memory (heap_reuse.hpp): after it, a block as large as one just freed is served
// from the freed one's pages, without a page fault a page; where a sanitizer brings its own
// allocator (AddressSanitizer, as in the suite's SANITIZE=1 build; MSan, TSan, HWASan, LSan)
// the advice is refused and the call says so. Taken, it also ends huge_capacity's rounding
// (huge_pages.hpp): a block from the heap gains no alignment by it.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstring>
#include <memory>

#include "instrument/heap_reuse.hpp"
#include "instrument/huge_pages.hpp"
#include "instrument/process_usage.hpp"
#include "sanitized_allocator.hpp"

#if defined(SUITE_SANITIZED_ALLOCATOR)
TEST_CASE("a sanitizer's allocator refuses the advice, and the call says so") {
  CHECK_FALSE(instrument::reuse_freed_memory());
  CHECK_FALSE(instrument::freed_memory_reused());
  // Blocks mapped alone, as before: a large one's capacity still whole huge pages.
  CHECK(instrument::huge_capacity(instrument::kHugePageBytes / 8 + 1, 8) > instrument::kHugePageBytes / 8 + 1);
}
#else
namespace {

constexpr std::size_t kBytes = 64u << 20;  // above glibc's largest mmap threshold (32 MiB)

// Page faults while a fresh 64 MiB block is allocated and written, then freed.
long faults_of_a_block() {
  const instrument::ProcessUsage before = instrument::process_usage();
  {
    const std::unique_ptr<char[]> block(new char[kBytes]);
    std::memset(block.get(), 1, kBytes);
    // Keep the writes: the block is read back before it is freed.
    REQUIRE(block[kBytes / 2] == 1);
  }
  return (instrument::process_usage() - before).minor_faults;
}

}  // namespace

TEST_CASE("after reuse_freed_memory a freed 64 MiB block is written again without page faults") {
  CHECK_FALSE(instrument::freed_memory_reused());
  const std::size_t large = instrument::kHugePageBytes / 8 + 1;  // 2 MiB and a double
  CHECK(instrument::huge_capacity(large, 8) > large);             // mapped alone: whole huge pages
  REQUIRE(instrument::reuse_freed_memory());
  CHECK(instrument::freed_memory_reused());
  // From the heap at any address: no rounding, which would only leave huge pages half used.
  CHECK(instrument::huge_capacity(large, 8) == large);
  const long first = faults_of_a_block();
  const long again = faults_of_a_block();
  INFO("page faults: the first block " << first << ", the second " << again);
  // The first block's pages are fresh: 16384 faults of 4 KiB pages, or about 32 of 2 MiB ones
  // where THP is "always"; the second reuses them (a few faults for the heap's own bookkeeping
  // or another thread of the process, counted with it).
  CHECK(first >= 16);
  CHECK(again <= 16);
}
#endif
