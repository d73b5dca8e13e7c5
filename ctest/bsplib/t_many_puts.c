/* A large mixed h-relation checked word by word against a reference: word puts to scattered
 * and consecutive places, block puts, to two areas, from every process to every process, over
 * several supersteps. Exercises the per-destination combining. */
#include <stdio.h>
#include <stdlib.h>

#include "bsp_check.h"

enum { W = 4096 };

static unsigned next(unsigned *x) { *x = *x * 1664525u + 1013904223u; return *x >> 8; }

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  long *a = calloc(W, sizeof(long)), *b = calloc(W, sizeof(long));
  bsp_push_reg(a, W * (int)sizeof(long));
  bsp_push_reg(b, W * (int)sizeof(long));
  bsp_sync();
  for (int step = 0; step < 3; ++step) {
    /* process q owns the words i with i % p == q of every area: no two writers per word */
    for (int i = s; i < W; i += p) {
      long v = (long)step * 1000000 + i;
      int dest = (int)((unsigned)(i / p + step) % (unsigned)p);
      bsp_put(dest, &v, (i & 1) ? a : b, i * (int)sizeof(long), (int)sizeof(long));
    }
    bsp_sync();
    for (int i = 0; i < W; ++i) {
      int owner = i % p;
      int dest = (int)((unsigned)(i / p + step) % (unsigned)p);
      (void)owner;
      if (dest != s) continue;
      long want = (long)step * 1000000 + i;
      CHECK(((i & 1) ? a : b)[i] == want);
    }
  }
  /* block puts of random lengths to consecutive places, then checked */
  unsigned seed = 12345u;
  long *src = malloc(W * sizeof(long));
  for (int i = 0; i < W; ++i) src[i] = 7 * i + s;
  int right = (s + 1) % p, left = (s + p - 1) % p;
  for (int at = 0; at < W;) {
    int len = 1 + (int)(next(&seed) % 37);
    if (at + len > W) len = W - at;
    bsp_put(right, src + at, a, at * (int)sizeof(long), len * (int)sizeof(long));
    at += len;
  }
  bsp_sync();
  for (int i = 0; i < W; ++i) CHECK(a[i] == 7 * i + left);
  bsp_end();
  printf("PASS t_many_puts\n");
  free(src);
  return 0;
}
