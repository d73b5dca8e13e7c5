/* Registration stacking and pop: a push takes effect at the next sync; the newest
 * registration of an address is the one puts use (its size bounds them); a pop takes effect
 * at the next sync (the popped registration still works in the pop's superstep) and
 * uncovers the older one; slots freed by pops are reused consistently. */
#include <stdio.h>

#include "bsp_check.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int right = (s + 1) % p, left = (s + p - 1) % p;
  int a[16] = {0}, b[4] = {0};
  bsp_push_reg(a, 4 * (int)sizeof(int)); /* first registration: 4 ints */
  bsp_push_reg(b, (int)sizeof b);
  bsp_sync();
  bsp_push_reg(a, 16 * (int)sizeof(int)); /* stacked: 16 ints, effective after the sync */
  bsp_sync();
  int v = 50 + s;
  bsp_put(right, &v, a, 12 * (int)sizeof(int), (int)sizeof v); /* legal only under the 16 */
  bsp_put(right, &v, b, 0, (int)sizeof v);
  bsp_sync();
  CHECK(a[12] == 50 + left && b[0] == 50 + left);

  bsp_pop_reg(a); /* pops the 16-int registration at the next sync... */
  v = 60 + s;
  bsp_put(right, &v, a, 10 * (int)sizeof(int), (int)sizeof v); /* ...so this is still fine */
  bsp_sync();
  CHECK(a[10] == 60 + left);

  /* now the 4-int registration is back; a new area reuses the freed slot */
  int c[2] = {0, 0};
  bsp_push_reg(c, (int)sizeof c);
  bsp_sync();
  v = 70 + s;
  bsp_put(right, &v, a, 3 * (int)sizeof(int), (int)sizeof v);
  bsp_put(right, &v, c, (int)sizeof(int), (int)sizeof v);
  bsp_sync();
  CHECK(a[3] == 70 + left && c[1] == 70 + left);

  /* a NULL registration: processes without the area take part in the order */
  int *maybe = (s == 0) ? c : NULL;
  bsp_push_reg(maybe, s == 0 ? (int)sizeof c : 0);
  bsp_sync();
  if (s == p - 1) {
    int w = 99;
    bsp_put(0, &w, maybe == NULL ? (void *)NULL : maybe, 0, (int)sizeof w);
  }
  bsp_sync();
  if (s == 0) CHECK(c[0] == 99);
  bsp_pop_reg(maybe);
  bsp_pop_reg(c);
  bsp_pop_reg(a);
  bsp_pop_reg(b);
  bsp_sync();
  bsp_end();
  printf("PASS t_registration\n");
  return 0;
}
