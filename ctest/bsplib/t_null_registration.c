/* NULL registrations: process 0 registers NULL where the others register an array (a
 * process with nothing to share). A pop is collective, as in BSPonMPI: the k-th pop on each
 * process pairs with the k-th pop on every other, each naming its own local address, and a
 * pop of NULL pairs with whatever the others name (where all name NULL: the newest
 * registration that is NULL on every process). Checked here: such pops in any order, not
 * only LIFO, remove the registrations the others name, and every later put lands in the
 * area it was meant for, byte for byte, the other areas untouched. */
#include <stdio.h>
#include <string.h>

#include "bsp_check.h"

enum { N = 8 };
static int a[N], b[N], c[N], d[N], e[N], f[N];
static int *areas[] = {a, b, c, d, e, f};

static void clear_all(void) {
  for (int k = 0; k < 6; ++k) memset(areas[k], 0, sizeof a);
}
/* Only area `which` (of the areas) holds the value v in word w; the rest is zero. */
static void check_only(const int *which, int w, int v) {
  for (int k = 0; k < 6; ++k)
    for (int i = 0; i < N; ++i) {
      const int want = (areas[k] == which && i == w) ? v : 0;
      CHECK(areas[k][i] == want);
    }
}
/* Registers `area` on processes other than 0, NULL (size 0) on process 0. */
static void push_but_0(int *area) {
  if (bsp_pid() == 0) bsp_push_reg(NULL, 0);
  else bsp_push_reg(area, (int)sizeof a);
}
static void pop_but_0(int *area) { bsp_pop_reg(bsp_pid() == 0 ? NULL : area); }

/* Every process but 0 puts v into word w of `area` on its right neighbour among 1..p-1
 * (itself when p == 2); then every process checks that only that word of that area is set. */
static void put_ring(int *area, int w, int v) {
  const int p = bsp_nprocs(), s = bsp_pid();
  clear_all();
  bsp_sync();
  if (s > 0) {
    const int right = s == p - 1 ? 1 : s + 1;
    bsp_put(right, &v, area, w * (int)sizeof(int), (int)sizeof v);
  }
  bsp_sync();
  if (s > 0) check_only(area, w, v);
  else check_only(NULL, 0, 0);
}

int main(void) {
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs(), s = bsp_pid();
  CHECK(p >= 2);

  /* a, b, c: NULL on process 0 */
  push_but_0(a);
  push_but_0(b);
  push_but_0(c);
  bsp_sync();
  put_ring(a, 1, 11);
  put_ring(b, 2, 12);
  put_ring(c, 3, 13);

  /* pops in FIFO order, not LIFO: a, then b; process 0 pops NULL twice */
  pop_but_0(a);
  pop_but_0(b);
  bsp_sync();
  /* c is left: process 0's one NULL registration names it unambiguously */
  clear_all();
  bsp_sync();
  if (s == 0) {
    const int v = 21;
    bsp_put(1, &v, NULL, 4 * (int)sizeof(int), (int)sizeof v);
  }
  bsp_sync();
  if (s == 1) check_only(c, 4, 21);
  else check_only(NULL, 0, 0);
  put_ring(c, 5, 22);

  /* the freed slots are reused alike everywhere: d (everyone's own), e (NULL on 0) */
  bsp_push_reg(d, (int)sizeof d);
  push_but_0(e);
  bsp_sync();
  clear_all();
  bsp_sync();
  {
    const int v = 30 + s;
    bsp_put((s + 1) % p, &v, d, 6 * (int)sizeof(int), (int)sizeof v);
  }
  bsp_sync();
  check_only(d, 6, 30 + (s + p - 1) % p);
  put_ring(e, 7, 31);
  put_ring(c, 0, 32);

  /* process 0's pop of NULL pairs with c, the oldest, while it also pops its own d */
  pop_but_0(c);
  bsp_pop_reg(d);
  bsp_sync();
  put_ring(e, 1, 41);

  /* push and pop of NULL in one superstep: the push never takes effect */
  push_but_0(f);
  pop_but_0(f);
  bsp_sync();
  clear_all();
  bsp_sync();
  if (s == 0) {
    const int v = 51; /* NULL still names e alone */
    bsp_put(p - 1, &v, NULL, 2 * (int)sizeof(int), (int)sizeof v);
  }
  bsp_sync();
  if (s == p - 1) check_only(e, 2, 51);
  else check_only(NULL, 0, 0);

  /* NULL on every process, twice, around process 0's NULL for f: popping NULL everywhere
   * removes a registration that is NULL everywhere (the newest), never f */
  bsp_push_reg(NULL, 0);
  push_but_0(f);
  bsp_push_reg(NULL, 0);
  bsp_sync();
  bsp_pop_reg(NULL);
  bsp_sync();
  bsp_pop_reg(NULL);
  bsp_sync();
  put_ring(f, 3, 61);
  put_ring(e, 4, 62);

  /* and the last two in FIFO order again: e (older), then f */
  pop_but_0(e);
  bsp_sync();
  clear_all();
  bsp_sync();
  if (s == 0) {
    const int v = 71; /* NULL now names f alone */
    bsp_put(1, &v, NULL, 5 * (int)sizeof(int), (int)sizeof v);
  }
  bsp_sync();
  if (s == 1) check_only(f, 5, 71);
  else check_only(NULL, 0, 0);
  pop_but_0(f);
  bsp_sync();
  bsp_end();
  printf("PASS t_null_registration\n");
  return 0;
}
