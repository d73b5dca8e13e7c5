/* bsp_init + bsp_begin inside a function, the SPMD start-up the definition gives for codes
 * whose main does sequential work first; only process 0 continues after bsp_end. */
#include <stdio.h>

#include "bsp_check.h"

static int requested;

static void spmd(void) {
  bsp_begin(requested);
  int p = bsp_nprocs(), s = bsp_pid();
  int sum = 0;
  bsp_push_reg(&sum, (int)sizeof sum);
  bsp_push_reg(&requested, (int)sizeof requested);
  bsp_sync();
  /* only process 0 ran main's sequential part: it tells the others what it asked for */
  if (s == 0)
    for (int q = 1; q < p; ++q) bsp_put(q, &requested, &requested, 0, (int)sizeof requested);
  bsp_sync();
  CHECK(p == requested);
  int mine = s + 1;
  int all[64];
  for (int q = 0; q < p; ++q) bsp_send(q, NULL, &mine, (int)sizeof mine);
  bsp_sync();
  int n = 0, bytes = 0;
  bsp_qsize(&n, &bytes);
  CHECK(n == p && bytes == p * (int)sizeof(int));
  for (int q = 0; q < p; ++q) bsp_move(&all[q], (int)sizeof(int));
  for (int q = 0; q < p; ++q) sum += all[q];
  CHECK(sum == p * (p + 1) / 2);
  bsp_end();
}

int main(int argc, char **argv) {
  bsp_init(spmd, argc, argv);
  requested = bsp_nprocs(); /* only process 0 runs this: it decides */
  spmd();
  printf("PASS t_init_function\n");
  return 0;
}
