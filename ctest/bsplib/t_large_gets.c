/* Gets large enough to travel as messages of their own (>= 32 KiB), which the owner sends
 * straight from its area and the requester receives straight into the destination, or into
 * a staging buffer when the destination is one of its own registered areas. In every
 * superstep each process:
 *  - gets two blocks of its right neighbour's area A into local memory, with a small get
 *    between them (order of several direct gets from one owner, mixed with replies);
 *  - puts a new block into its right neighbour's A (the gets must still see the old one);
 *  - gets a third block of its left neighbour's A into its own registered area B (staged),
 *    while its right neighbour gets this B (it must see B as it was before the superstep).
 * Then destinations shared within one superstep, which must be staged too: a small and a
 * direct get into the same bytes (the later request wins), direct gets from every other
 * process into the same bytes (source order: the highest source wins), and the swap idiom,
 * a large hp put of X and a get into X (the put sends X's old contents). */
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
  {
    const int block = M * (int)sizeof(int);
    for (int i = 0; i < 3 * M; ++i) a[i] = f(9, s, i);
    bsp_sync();
    int *d = local1, *x = local2, *y = local3;
    /* a small get, then a direct get, into the same first word: request order */
    bsp_get(right, a, 7 * (int)sizeof(int), d, (int)sizeof(int));
    bsp_get(right, a, 0, d, block);
    /* every other process's first block into the same y: source order */
    for (int q = 0; q < p; ++q)
      if (q != s) bsp_get(q, a, 0, y, block);
    /* the swap: x's old contents go to the right neighbour's b, b's comes back into x */
    for (int i = 0; i < M; ++i) {
      x[i] = g(9, s, i);
      b[i] = f(9, s, i) + 5;
    }
    bsp_sync(); /* b's new value must be in place before the swap's superstep */
    bsp_hpput(right, x, b, 0, block);
    bsp_get(right, b, 0, x, block);
    bsp_sync();
    const int last = s == p - 1 ? p - 2 : p - 1; /* the highest other process */
    for (int i = 0; i < M; ++i) {
      CHECK(d[i] == f(9, right, i));
      if (p > 1) CHECK(y[i] == f(9, last, i));
      CHECK(b[i] == g(9, left, i));
      CHECK(x[i] == f(9, right, i) + 5);
    }
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
