/* Puts large enough to travel as messages of their own (>= 32 KiB): buffered (copied at the
 * call: later changes to the source must not arrive), unbuffered, to self and to others,
 * mixed with small puts and with a get of the same area in the same superstep (the get sees
 * the value before the puts). */
#include <stdio.h>
#include <stdlib.h>

#include "bsp_check.h"

enum { N = 20000 }; /* ints: 80000 bytes */

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int right = (s + 1) % p, left = (s + p - 1) % p;
  int *area = calloc(2 * N, sizeof(int)), *src = malloc(2 * N * sizeof(int));
  int *hsrc = malloc(N * sizeof(int)), *before = malloc(N * sizeof(int));
  for (int i = 0; i < 2 * N; ++i) area[i] = -1 - s;
  bsp_push_reg(area, 2 * N * (int)sizeof(int));
  bsp_sync();
  for (int r = 0; r < 3; ++r) {
    for (int i = 0; i < 2 * N; ++i) src[i] = r * 1000000 + s * 100000 + i % 100000;
    for (int i = 0; i < N; ++i) hsrc[i] = -(r * 1000000 + s * 100000 + i);
    bsp_get(right, area, 0, before, N * (int)sizeof(int));
    bsp_put(right, src, area, 0, N * (int)sizeof(int));            /* large, buffered */
    bsp_hpput(s, hsrc, area, N * (int)sizeof(int), N * (int)sizeof(int)); /* large, hp, self */
    int small = 7 + r;
    bsp_put(right, &small, area, (N - 1) * (int)sizeof(int), (int)sizeof small);
    for (int i = 0; i < 2 * N; ++i) src[i] = -5; /* copied at the call */
    bsp_sync();
    int prev = r == 0 ? -1 - right : (r - 1) * 1000000 + s * 100000;
    CHECK(before[0] == prev);
    CHECK(before[1] == (r == 0 ? prev : prev + 1));
    for (int i = 0; i < N - 1; ++i) CHECK(area[i] == r * 1000000 + left * 100000 + i);
    CHECK(area[N - 1] == 7 + r || area[N - 1] == r * 1000000 + left * 100000 + N - 1);
    for (int i = 0; i < N; ++i) CHECK(area[N + i] == -(r * 1000000 + s * 100000 + i));
  }
  bsp_pop_reg(area);
  bsp_end();
  printf("PASS t_large_puts\n");
  free(area);
  free(src);
  free(hsrc);
  free(before);
  return 0;
}
