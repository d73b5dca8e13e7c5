/* Gets large enough to travel as messages of their own (>= 32 KiB), which the owner sends
 * straight from its area and the requester receives straight into the destination, or into
 * a staging buffer when the destination is one of its own registered areas. In every
 * superstep each process:
 *  - gets two blocks of its right neighbour's area A into local memory, with a small get
 *    between them (order of several direct gets from one owner, mixed with replies);
 *  - puts a new block into its right neighbour's A (the gets must still see the old one);
 *  - gets a third block of its left neighbour's A into its own registered area B (staged),
 *    while its right neighbour gets this B (it must see B as it was before the superstep). */
#include <stdio.h>
#include <stdlib.h>

#include "bsp_check.h"

enum { M = 12000 }; /* ints: 48000 bytes a block */

static int f(int step, int pid, int i) { return step * 10000000 + pid * 1000000 + i; }
static int g(int step, int pid, int i) { return -(step * 10000000 + pid * 1000000 + i) - 1; }

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int right = (s + 1) % p, left = (s + p - 1) % p;
  int *a = malloc(3 * M * sizeof(int)), *b = malloc(M * sizeof(int));
  int *local1 = malloc(M * sizeof(int)), *local2 = malloc(M * sizeof(int));
  int *local3 = malloc(M * sizeof(int)), *fresh = malloc(M * sizeof(int));
  for (int i = 0; i < M; ++i) b[i] = -7 - s;
  bsp_push_reg(a, 3 * M * (int)sizeof(int));
  bsp_push_reg(b, M * (int)sizeof(int));
  bsp_sync();
  for (int r = 0; r < 3; ++r) {
    for (int i = 0; i < 3 * M; ++i) a[i] = f(r, s, i);
    bsp_sync(); /* every A holds this step's values before anyone reads it */
    const int block = M * (int)sizeof(int);
    int small = 0;
    bsp_get(right, a, 0, local1, block);
    bsp_get(right, a, 5 * (int)sizeof(int), &small, (int)sizeof small);
    bsp_get(right, a, block, local2, block);
    for (int i = 0; i < M; ++i) fresh[i] = g(r, s, i);
    bsp_put(right, fresh, a, 0, block);
    bsp_get(left, a, 2 * block, b, block);
    bsp_get(left, b, 0, local3, block);
    /* what left's B held before this superstep (left's own get of the previous step) */
    const int lleft = (left + p - 1) % p;
    bsp_sync();
    for (int i = 0; i < M; ++i) {
      CHECK(local1[i] == f(r, right, i));
      CHECK(local2[i] == f(r, right, M + i));
      CHECK(b[i] == f(r, left, 2 * M + i));
      CHECK(local3[i] == (r == 0 ? -7 - left : f(r - 1, lleft, 2 * M + i)));
      CHECK(a[i] == g(r, left, i));
    }
    CHECK(small == f(r, right, 5));
  }
  bsp_pop_reg(b);
  bsp_pop_reg(a);
  bsp_end();
  printf("PASS t_large_gets\n");
  free(a);
  free(b);
  free(local1);
  free(local2);
  free(local3);
  free(fresh);
  return 0;
}
