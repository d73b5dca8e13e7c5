/* Gets are served before puts are applied: in one superstep every process puts a new value
 * into its right neighbour's x and gets x from that neighbour; the get returns the old one. */
#include <stdio.h>

#include "bsp_check.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int right = (s + 1) % p;
  int x = 1000 + s;
  bsp_push_reg(&x, (int)sizeof x);
  bsp_sync();
  int fresh = 2000 + s, old = 0;
  bsp_get(right, &x, 0, &old, (int)sizeof old);
  bsp_put(right, &fresh, &x, 0, (int)sizeof fresh);
  bsp_sync();
  CHECK(old == 1000 + right);
  CHECK(x == 2000 + (s + p - 1) % p);
  /* a get into the area a put from elsewhere fills also sees the pre-put value */
  int y = 0;
  bsp_get(s, &x, 0, &y, (int)sizeof y);
  int z = 3000 + s;
  bsp_put(s, &z, &x, 0, (int)sizeof z);
  bsp_sync();
  CHECK(y == 2000 + (s + p - 1) % p);
  CHECK(x == 3000 + s);
  bsp_end();
  printf("PASS t_put_get_order\n");
  return 0;
}
