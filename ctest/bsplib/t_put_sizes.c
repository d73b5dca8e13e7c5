/* Large puts of sizes just off a power of two (32776, 65544, 131080 B: where a probe saw
 * the one-way curve jump), their power-of-two neighbours and odd sizes, at even and odd
 * offsets, by bsp_put and bsp_hpput, each superstep alternating sizes: every byte lands
 * where it was put and nothing else of the area changes. Run by the shared segment and by
 * MPI (BSP_SHARED_PUTS=0). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsp_check.h"

enum { AREA = 140000 };

/* The byte i of the put of n bytes from process s (never 0, the area's fill). */
static unsigned char pattern(int s, int n, int i) {
  return (unsigned char)(1 + (unsigned)(s * 131 + n * 7 + i * 13 + (i >> 8)) % 255);
}

int main(void) {
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs(), s = bsp_pid();
  const int left = (s + p - 1) % p, right = (s + 1) % p;
  unsigned char *area = malloc(AREA), *src = malloc(AREA);
  CHECK(area && src);
  bsp_push_reg(area, AREA);
  bsp_sync();
  const int sizes[] = {32768, 32776, 65536, 65544, 131072, 131080, 32777, 131079, 8200, 40000};
  const int offsets[] = {0, 8, 3, 64};
  const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
  for (int hp = 0; hp < 2; ++hp)
    for (int o = 0; o < 4; ++o)
      for (int k = 0; k < nsizes; ++k) {
        const int n = sizes[k], off = offsets[o];
        if (off + n > AREA) continue;
        memset(area, 0, AREA);
        for (int i = 0; i < n; ++i) src[i] = pattern(s, n, i);
        bsp_sync(); /* every area cleared before any put lands */
        if (hp) bsp_hpput(right, src, area, off, n);
        else bsp_put(right, src, area, off, n);
        if (!hp) memset(src, 0, (size_t)n); /* a buffered put copied its source at the call */
        bsp_sync();
        for (int i = 0; i < AREA; ++i) {
          const int at = i - off;
          const unsigned char want = (at >= 0 && at < n) ? pattern(left, n, at) : 0;
          if (area[i] != want)
            bsp_abort("%s of %d B at offset %d from process %d: byte %d is %u, expected %u\n",
                      hp ? "bsp_hpput" : "bsp_put", n, off, left, i, area[i], want);
        }
      }
  bsp_pop_reg(area);
  bsp_sync();
  bsp_end();
  free(area);
  free(src);
  printf("PASS t_put_sizes\n");
  return 0;
}
