/* The four 500-relation supersteps of Hill, Crumpton & Burgess section 4.1 (their Figure 2),
 * on p processes, with 32-bit integers as the paper's words:
 *  1. every process puts 500 integers into its right neighbour (cyclic);
 *  2. process i < p/2 puts 500 integers into process i + p/2;
 *  3. every process gets 500/(p-1) integers from process 0 (a broadcast by gets: p-1
 *     messages leave process 0; its copy to itself is not communication);
 *  4. process 0 puts 500/(p-1) integers into every other process (a broadcast by puts).
 * Each is a 500-relation (3 and 4: (p-1) floor(500/(p-1)) words). Run it with
 * BSP_PROFILE=profile.csv and give the profile to bsp_predict. An optional argument repeats
 * the four supersteps (the first round pays for buffers growing; later rounds are steady). */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

enum { H = 500 };

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 1;
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  static int src[H], dst[H];
  for (int i = 0; i < H; ++i) src[i] = s * H + i;
  bsp_push_reg(src, (int)sizeof src);
  bsp_push_reg(dst, (int)sizeof dst);
  bsp_profile_label("register");
  bsp_sync();

  int share = p > 1 ? H / (p - 1) : H;
  for (int round = 0; round < rounds; ++round) {
  bsp_put((s + 1) % p, src, dst, 0, (int)sizeof src);
  bsp_profile_label("1 cyclic shift");
  bsp_sync();

  if (p > 1 && s < p / 2) bsp_put(s + p / 2, src, dst, 0, (int)sizeof src);
  bsp_profile_label("2 half to half");
  bsp_sync();

  bsp_get(0, src, 0, dst, share * (int)sizeof(int));
  bsp_profile_label("3 broadcast by gets");
  bsp_sync();

  if (s == 0)
    for (int q = 1; q < p; ++q) bsp_put(q, src, dst, 0, share * (int)sizeof(int));
  bsp_profile_label("4 broadcast by puts");
  bsp_sync();
  }

  int ok = 1;
  for (int i = 0; i < share; ++i) ok &= dst[i] == i;
  bsp_pop_reg(dst);
  bsp_pop_reg(src);
  bsp_end();
  printf("five_hundred_relation: %s\n", ok ? "data correct" : "WRONG DATA");
  return ok ? 0 : 1;
}
