/* bsp_begin from main, bsp_pid, bsp_nprocs, bsp_time, bsp_sync as a barrier. */
#include <stdio.h>

#include "bsp_check.h"

int main(void) {
  int avail = bsp_nprocs(); /* before bsp_begin: the processes available */
  bsp_begin(avail);
  int p = bsp_nprocs(), s = bsp_pid();
  CHECK(p == avail);
  CHECK(s >= 0 && s < p);
  double t0 = bsp_time();
  CHECK(t0 >= 0.0);
  for (int i = 0; i < 5; ++i) bsp_sync();
  CHECK(bsp_time() >= t0);
  /* every pid seen exactly once */
  int seen[64] = {0};
  bsp_push_reg(seen, (int)sizeof seen);
  bsp_sync();
  int one = 1;
  for (int q = 0; q < p; ++q) bsp_put(q, &one, seen, s * (int)sizeof(int), (int)sizeof(int));
  bsp_sync();
  for (int q = 0; q < p; ++q) CHECK(seen[q] == 1);
  bsp_end();
  printf("PASS t_enquiry\n");
  return 0;
}
