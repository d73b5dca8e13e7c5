// bsp_sync's header exchange through shared memory (bsplib/src/shared_headers.hpp) and by
// MPI (BSP_SHARED_SYNC=0): the route the environment asks for is the one taken, in every
// sync (bsplib::shared_header_exchanges), and streams around the inline limit arrive byte
// for byte. Every process puts n bytes into every process (itself too) for n = 0, 1 and
// sizes whose stream (a 16-byte record and the data) is 8135, 8136 (the largest that rides
// with the header: 8 KiB less the 7-word header), 8137, 8 KiB - 1, 8 KiB and 8 KiB + 1
// bytes, then puts of 8192 and 8193 bytes (the shared segment's records), each in three
// supersteps in a row with different bytes, so that both slots of each pair of processes are
// written, read and written again.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "bsp.h"
#include "bsp_check.h"
#include "bsp_sync_route.hpp"

namespace {
constexpr int slice = 9000;  // per source process in the area

// Byte i of the put of n bytes from s to d in round r: never 0, the area's fill.
unsigned char pattern(int s, int d, int n, int r, int i) {
  return static_cast<unsigned char>(
      1 + static_cast<unsigned>(s * 131 + d * 17 + n * 7 + r * 61 + i * 13 + (i >> 8)) % 255);
}
}  // namespace

int main() {
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs(), s = bsp_pid();
  const char* env = std::getenv("BSP_SHARED_SYNC");
  const bool forced_mpi = env && std::strcmp(env, "0") == 0;
  const bool shared = p > 1 && !forced_mpi;  // ctest runs every process on one node
  std::vector<unsigned char> area(static_cast<std::size_t>(p) * slice), src(slice);
  long syncs = 0;
  bsp_push_reg(area.data(), static_cast<int>(area.size()));
  bsp_sync();
  ++syncs;
  CHECK(bsplib::shared_header_exchanges() == (shared ? syncs : 0));
  const int sizes[] = {0, 1, 8119, 8120, 8121, 8175, 8176, 8177, 8192, 8193};
  for (const int n : sizes)
    for (int r = 0; r < 3; ++r) {
      std::memset(area.data(), 0, area.size());
      bsp_sync();  // every area cleared before any put lands
      ++syncs;
      for (int k = 0; k < p; ++k) {
        const int d = (s + k) % p;
        for (int i = 0; i < n; ++i) src[static_cast<std::size_t>(i)] = pattern(s, d, n, r, i);
        bsp_put(d, src.data(), area.data(), s * slice, n);
      }
      std::memset(src.data(), 0, src.size());  // a buffered put copied its source at the call
      bsp_sync();
      ++syncs;
      for (int q = 0; q < p; ++q)
        for (int i = 0; i < slice; ++i) {
          const unsigned got = area[static_cast<std::size_t>(q) * slice + i];
          const unsigned want = i < n ? pattern(q, s, n, r, i) : 0;
          if (got != want)
            bsp_abort("put of %d B from process %d, round %d: byte %d is %u, expected %u\n", n,
                      q, r, i, got, want);
        }
    }
  CHECK(bsplib::shared_header_exchanges() == (shared ? syncs : 0));
  bsp_pop_reg(area.data());
  bsp_sync();
  if (s == 0)
    std::printf("PASS t_shared_sync (p = %d, headers %s)\n", p,
                p == 1 ? "not exchanged" : shared ? "through shared memory" : "by MPI");
  bsp_end();
  return 0;
}
