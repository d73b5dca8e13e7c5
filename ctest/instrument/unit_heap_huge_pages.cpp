// advise_heap_huge_pages (heap_reuse.hpp): after reuse_freed_memory, a block carved from the
// heap it advised faults 2 MiB at a time where the kernel gives this process transparent huge
// pages; without reuse_freed_memory's advice (a sanitizer's allocator refuses it) it does
// nothing and says so. A process of its own (not unit_heap_reuse's): its heap's first block
// must be fresh.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>

#include "instrument/heap_reuse.hpp"
#include "instrument/huge_pages.hpp"
#include "instrument/process_usage.hpp"
#include "sanitized_allocator.hpp"

namespace {

constexpr std::size_t kAdvised = std::size_t{256} << 20, kBlock = std::size_t{192} << 20;

}  // namespace

#if defined(SUITE_SANITIZED_ALLOCATOR)
TEST_CASE("under a sanitizer's allocator the heap is not advised, and the call says so") {
  CHECK_FALSE(instrument::reuse_freed_memory());
  CHECK_FALSE(instrument::advise_heap_huge_pages(kAdvised));  // a freed block would not stay
}
#else
namespace {

// Page faults while a block of `bytes` is allocated and written, then freed.
long faults_of_a_block(std::size_t bytes) {
  const instrument::ProcessUsage before = instrument::process_usage();
  {
    const std::unique_ptr<char[]> block(new char[bytes]);
    std::memset(block.get(), 1, bytes);
    REQUIRE(block[bytes / 2] == 1);  // the writes kept: read back before the block is freed
  }
  return (instrument::process_usage() - before).minor_faults;
}

// Whether this process may get transparent huge pages where it advises them: the kernel's
// mode "always" or "madvise" (/sys/kernel/mm/transparent_hugepage/enabled) and the process not
// opted out (prctl PR_SET_THP_DISABLE: "THP_enabled: 0" in /proc/self/status).
bool huge_pages_here() {
  std::ifstream mode_file("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode;
  std::getline(mode_file, mode);
  if (mode.find("[always]") == std::string::npos && mode.find("[madvise]") == std::string::npos) return false;
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("THP_enabled:", 0) == 0) return line.find('1') != std::string::npos;
  return true;
}

}  // namespace

// One case, its steps in order: the first needs a process where reuse_freed_memory was not
// called yet, the last a heap whose advised top no block has written.
TEST_CASE("advise_heap_huge_pages: refused without the heap kept; then a block carved from it faults 2 MiB at a time") {
  // Without reuse_freed_memory's advice a freed block could go back to the kernel, advice and all.
  CHECK_FALSE(instrument::advise_heap_huge_pages(kAdvised));
  REQUIRE(instrument::reuse_freed_memory());
  CHECK_FALSE(instrument::advise_heap_huge_pages(instrument::kHugePageBytes - 1));  // not one huge page
  if (!huge_pages_here()) {
    WARN("no transparent huge pages for this process: the faults are not measured");
    return;
  }
  // 256 MiB of fresh heap advised, then a 192 MiB block written there: 49152 faults in 4 KiB
  // pages; 96 huge pages (and small ones where the block's ends share a 2 MiB frame with pages
  // the heap had written).
  REQUIRE(instrument::advise_heap_huge_pages(kAdvised));
  const long faults = faults_of_a_block(kBlock);
  INFO("page faults writing the block: " << faults);
  CHECK(faults < 4096);
}
#endif
