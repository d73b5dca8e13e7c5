// ProcessUsage (process_usage.hpp): first touches of fresh memory are page faults the reading
// counts, and `since` is the difference of two readings.
#include <catch2/catch.hpp>

#include <sys/mman.h>

#include <cstddef>
#include <cstring>

#include "instrument/process_usage.hpp"

TEST_CASE("touching 16 MiB of fresh anonymous memory counts as page faults") {
  constexpr std::size_t kBytes = 16u << 20;
  void* m = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(m != MAP_FAILED);
  madvise(m, kBytes, MADV_NOHUGEPAGE);  // 4 KiB pages: one fault a page, whatever THP's setting
  const instrument::ProcessUsage before = instrument::process_usage();
  std::memset(m, 1, kBytes);
  const instrument::ProcessUsage used = instrument::process_usage().since(before);
  munmap(m, kBytes);
  CHECK(used.minor_faults >= static_cast<long>(kBytes / 4096) * 9 / 10);  // a margin for pages the kernel maps another way
  CHECK(used.major_faults == 0);
  CHECK(used.kernel_seconds >= 0);
  CHECK(used.user_seconds >= 0);
}

TEST_CASE("since subtracts field by field") {
  const instrument::ProcessUsage a{1.5, 2.0, 100, 3}, b{0.5, 0.25, 40, 1};
  const instrument::ProcessUsage d = a.since(b);
  CHECK(d.kernel_seconds == 1.0);
  CHECK(d.user_seconds == 1.75);
  CHECK(d.minor_faults == 60);
  CHECK(d.major_faults == 2);
}
