/* Areas of different sizes on different processes: a put is bounded by the destination's
 * registered size, not the source's. */
#include <stdio.h>
#include <stdlib.h>

#include "bsp_check.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int n = 4 * (s + 1); /* process s owns 4(s+1) ints */
  int *area = calloc((size_t)n, sizeof(int));
  bsp_push_reg(area, n * (int)sizeof(int));
  bsp_sync();
  /* everyone writes the last int of every process's area */
  for (int q = 0; q < p; ++q) {
    int v = 10 * s + q;
    bsp_put(q, &v, area, (4 * (q + 1) - 1) * (int)sizeof(int), (int)sizeof v);
  }
  bsp_sync();
  /* p puts to the same word: the result is one of them */
  int last = area[n - 1];
  CHECK(last % 10 == s && last / 10 >= 0 && last / 10 < p);
  bsp_pop_reg(area);
  bsp_sync();
  free(area);
  bsp_end();
  printf("PASS t_reg_sizes\n");
  return 0;
}
