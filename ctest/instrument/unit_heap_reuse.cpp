// reuse_freed_memory (heap_reuse.hpp): after it, a block as large as one just freed is served
// from the freed one's pages, without a page fault a page; advise_heap_huge_pages then has the
// heap's next blocks fault 2 MiB at a time where the kernel has transparent huge pages; where a
// sanitizer brings its own allocator (AddressSanitizer, as in the suite's SANITIZE=1 build;
// MSan, TSan, HWASan, LSan) both are refused and the calls say so.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>

#include "instrument/heap_reuse.hpp"
#include "instrument/huge_pages.hpp"
#include "instrument/process_usage.hpp"

// A sanitizer with an allocator of its own: GCC's macros, then clang's features.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || defined(__SANITIZE_HWADDRESS__)
#define SUITE_SANITIZED_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(hwaddress_sanitizer) || __has_feature(leak_sanitizer)
#define SUITE_SANITIZED_ALLOCATOR 1
#endif
#endif

#if defined(SUITE_SANITIZED_ALLOCATOR)
TEST_CASE("a sanitizer's allocator refuses the advice, and the call says so") {
  CHECK_FALSE(instrument::reuse_freed_memory());
  CHECK_FALSE(instrument::advise_heap_huge_pages(std::size_t{256} << 20));  // a freed block would not stay
}
#else
namespace {

constexpr std::size_t kBytes = 64u << 20;  // above glibc's largest mmap threshold (32 MiB)

// Page faults while a fresh block of `bytes` is allocated and written, then freed.
long faults_of_a_block(std::size_t bytes = kBytes) {
  const instrument::ProcessUsage before = instrument::process_usage();
  {
    const std::unique_ptr<char[]> block(new char[bytes]);
    std::memset(block.get(), 1, bytes);
    // Keep the writes: the block is read back before it is freed.
    REQUIRE(block[bytes / 2] == 1);
  }
  return (instrument::process_usage() - before).minor_faults;
}

// The kernel's transparent huge page mode: "always", "madvise" or "never" (the bracketed word
// of /sys/kernel/mm/transparent_hugepage/enabled), or "" where there is no such file.
std::string huge_page_mode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  std::getline(in, line);
  const std::size_t open = line.find('['), close = line.find(']');
  return open == std::string::npos || close == std::string::npos ? std::string() : line.substr(open + 1, close - open - 1);
}

}  // namespace

TEST_CASE("after reuse_freed_memory a freed 64 MiB block is written again without page faults") {
  REQUIRE(instrument::reuse_freed_memory());
  const long first = faults_of_a_block();
  const long again = faults_of_a_block();
  INFO("page faults: the first block " << first << ", the second " << again);
  // The first block's pages are fresh: 16384 faults of 4 KiB pages, or about 32 of 2 MiB ones
  // where THP is "always"; the second reuses them (a few faults for the heap's own bookkeeping
  // or another thread of the process, counted with it).
  CHECK(first >= 16);
  CHECK(again <= 16);
}

TEST_CASE("advise_heap_huge_pages: a block carved from the advised heap faults 2 MiB at a time") {
  REQUIRE(instrument::reuse_freed_memory());
  CHECK_FALSE(instrument::advise_heap_huge_pages(instrument::kHugePageBytes - 1));  // not even one huge page
  // 256 MiB of fresh heap advised, then a 192 MiB block written there: in 4 KiB pages 49152
  // faults (less the 64 MiB of the test above, which the heap may still hold written).
  const std::size_t advised = std::size_t{256} << 20, block = std::size_t{192} << 20;
  const std::string mode = huge_page_mode();
  INFO("transparent huge pages: '" << mode << "'");
  if (mode == "always" || mode == "madvise") {
    REQUIRE(instrument::advise_heap_huge_pages(advised));
    const long faults = faults_of_a_block(block);
    INFO("page faults writing the block: " << faults);
    // 96 huge pages (and small ones at the block's unaligned ends): far under the (192 - 64)
    // MiB / 4 KiB = 32768 the smallest number of 4 KiB faults could be.
    CHECK(faults < 4096);
  } else {
    // No huge pages to advise (THP "never", or no THP at all): the advice may be refused or
    // taken; the block is written either way, with a fault a 4 KiB page at most.
    (void)instrument::advise_heap_huge_pages(advised);
    CHECK(faults_of_a_block(block) <= static_cast<long>(block / 4096) + 16);
  }
}
#endif
