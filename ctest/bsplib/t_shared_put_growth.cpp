// How the shared segment for large puts grows (bsplib/src/shared_arena.hpp): every process puts
// one block to its right neighbour a superstep, of sizes that rise and fall, and after each
// sync its half of the segment is what the rule gives for the largest superstep so far: the
// power of two at or above its puts' bytes (each rounded up to a cache line), 64 KiB at least,
// whole MiB above 1 MiB; never smaller than before. At p = 1 and with BSP_SHARED_PUTS=0 it
// never grows (a put to oneself, or every put, goes another way). The bytes arrive every time.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "bsp.h"
#include "bsp_check.h"
#include "bsp_sync_route.hpp"

namespace {

constexpr unsigned long long kLine = 64, kMin = 64 << 10, kMiB = 1 << 20;

unsigned long long half_for(unsigned long long demand) {
  unsigned long long half = kMin;
  while (half < demand && half < kMiB) half *= 2;
  if (half < demand) half = (demand + kMiB - 1) / kMiB * kMiB;
  return half;
}

unsigned char byte_of(int round, int from, long i) { return static_cast<unsigned char>(1 + (round * 37 + from * 11 + i) % 251); }

}  // namespace

int main() {
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs(), s = bsp_pid(), right = (s + 1) % p, left = (s + p - 1) % p;
  const char* e = std::getenv("BSP_SHARED_PUTS");
  const bool off = e && std::strcmp(e, "0") == 0;
  // 8192 is the smallest put the segment takes; 40000 fits 64 KiB; 1048577 and 2500000 go past
  // 1 MiB (rounded up to a line, then to whole MiB).
  const long sizes[] = {8192, 40000, 70000, 600000, 100000, 1048577, 2500000, 300000};
  constexpr long kMost = 2500000;
  std::vector<unsigned char> area(kMost), src(kMost);
  bsp_push_reg(area.data(), kMost);
  bsp_sync();
  CHECK(bsplib::shared_put_half_bytes() == 0);
  unsigned long long want = 0;
  int round = 0;
  for (long n : sizes) {
    for (long i = 0; i < n; ++i) src[static_cast<std::size_t>(i)] = byte_of(round, s, i);
    bsp_put(right, src.data(), area.data(), 0, static_cast<int>(n));
    bsp_sync();
    for (long i = 0; i < n; ++i) CHECK(area[static_cast<std::size_t>(i)] == byte_of(round, left, i));
    if (p > 1 && !off) want = std::max(want, half_for((static_cast<unsigned long long>(n) + kLine - 1) / kLine * kLine));
    if (bsplib::shared_put_half_bytes() != want)
      bsp_abort("CHECK failed: after a put of %ld bytes the half is %llu bytes, expected %llu\n", n,
                bsplib::shared_put_half_bytes(), want);
    ++round;
  }
  bsp_pop_reg(area.data());
  bsp_sync();
  if (s == 0)
    std::printf("PASS t_shared_put_growth (p = %d, half %llu bytes%s)\n", p, bsplib::shared_put_half_bytes(),
                off ? ", BSP_SHARED_PUTS=0" : "");
  bsp_end();
  return 0;
}
