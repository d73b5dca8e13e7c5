/* bsp_put: the source is copied at the call; the destination changes only at bsp_sync;
 * offsets; puts to self; several puts to one area in one superstep. */
#include <stdio.h>

#include "bsp_check.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int right = (s + 1) % p, left = (s + p - 1) % p;
  int area[8] = {0};
  bsp_push_reg(area, (int)sizeof area);
  bsp_sync();

  int v = 100 + s;
  bsp_put(right, &v, area, 2 * (int)sizeof(int), (int)sizeof v);
  v = -1; /* copied at the call: the -1 must not arrive */
  CHECK(area[2] == 0); /* nothing arrives before the sync (even from self when p == 1) */
  bsp_sync();
  CHECK(area[2] == 100 + left);
  CHECK(area[0] == 0 && area[1] == 0 && area[3] == 0);

  /* to self, and two disjoint puts into one area from one source */
  int a = 7, b[2] = {8, 9};
  bsp_put(s, &a, area, 0, (int)sizeof a);
  bsp_put(right, b, area, 5 * (int)sizeof(int), 2 * (int)sizeof(int));
  bsp_sync();
  CHECK(area[0] == 7);
  CHECK(area[5] == 8 && area[6] == 9);

  /* word puts into consecutive words (the combined path) and into scattered words */
  int src[8];
  for (int i = 0; i < 8; ++i) src[i] = 1000 * s + i;
  for (int i = 0; i < 4; ++i) bsp_put(right, &src[i], area, i * (int)sizeof(int), (int)sizeof(int));
  for (int i = 7; i >= 4; --i) bsp_put(right, &src[i], area, i * (int)sizeof(int), (int)sizeof(int));
  bsp_sync();
  for (int i = 0; i < 8; ++i) CHECK(area[i] == 1000 * left + i);

  /* zero-byte put is legal and does nothing */
  bsp_put(right, src, area, 0, 0);
  bsp_sync();
  CHECK(area[0] == 1000 * left);
  bsp_pop_reg(area);
  bsp_end();
  printf("PASS t_put\n");
  return 0;
}
