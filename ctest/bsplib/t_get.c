/* bsp_get reads the remote value at the end of the superstep: a change the owner makes
 * after the get was issued, in the same superstep, is what arrives. */
#include <stdio.h>

#include "bsp_check.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int left = (s + p - 1) % p;
  int x[4] = {s, s, s, s};
  bsp_push_reg(x, (int)sizeof x);
  bsp_sync();

  int got[2] = {-5, -5};
  bsp_get(left, x, (int)sizeof(int), got, 2 * (int)sizeof(int));
  CHECK(got[0] == -5); /* not before the sync */
  x[1] = 10 + s;       /* the owner's change in this superstep is seen */
  x[2] = 20 + s;
  bsp_sync();
  CHECK(got[0] == 10 + left && got[1] == 20 + left);

  /* get from self, and several gets from every process */
  int all[64];
  for (int q = 0; q < p; ++q) bsp_get(q, x, 0, &all[q], (int)sizeof(int));
  bsp_sync();
  for (int q = 0; q < p; ++q) CHECK(all[q] == q);
  bsp_end();
  printf("PASS t_get\n");
  return 0;
}
