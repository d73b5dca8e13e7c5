/* The unbuffered variants: bsp_hpput and bsp_hpget deliver the same data as their buffered
 * forms by the end of the superstep (sources and destinations untouched until then). */
#include <stdio.h>

#include "bsp_check.h"

enum { N = 1000 };

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int right = (s + 1) % p, left = (s + p - 1) % p;
  static int in[N], out[N], got[N];
  for (int i = 0; i < N; ++i) out[i] = s * N + i;
  bsp_push_reg(in, (int)sizeof in);
  bsp_push_reg(out, (int)sizeof out);
  bsp_sync();
  bsp_hpput(right, out, in, 0, N / 2 * (int)sizeof(int));
  bsp_hpput(right, out + N / 2, in, N / 2 * (int)sizeof(int), N / 2 * (int)sizeof(int));
  bsp_hpget(left, out, 0, got, N * (int)sizeof(int));
  bsp_sync();
  for (int i = 0; i < N; ++i) CHECK(in[i] == left * N + i);
  for (int i = 0; i < N; ++i) CHECK(got[i] == left * N + i);
  /* mixed with buffered puts in one superstep, to other words */
  int w = -s;
  bsp_put(right, &w, in, 0, (int)sizeof w);
  bsp_hpput(right, out + 1, in, (int)sizeof(int), (int)sizeof(int));
  bsp_sync();
  CHECK(in[0] == -left && in[1] == left * N + 1);
  bsp_end();
  printf("PASS t_hp\n");
  return 0;
}
