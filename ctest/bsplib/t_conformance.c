/* Behaviours programs written for the other BSPlib libraries rely on (bsp.h):
 *  - the type names bsp_pid_t, bsp_nprocs_t and bsp_size_t, mixed freely with int;
 *  - bsp_push_reg and bsp_pop_reg of one superstep take effect at its sync in call order,
 *    popping a registration pushed in the same superstep included;
 *  - a get and a put whose destinations overlap: the put's bytes remain (gets land first),
 *    for small gets (a reply) and large ones (a message of their own), from self and others;
 *  - bsp_set_tagsize called by every process in one superstep;
 *  - bsp_nprocs() after bsp_end() is the p that ended. */
#include <stdio.h>
#include <string.h>

#include "bsp_check.h"

enum { big = 40000 }; /* above the library's direct-message size for gets and puts */

static char area_a[64], area_b[64], area_x[128];
static int words[big / 4], fill[big / 4];

/* Registers area_x with `size` bytes, then checks a put at byte size - 1 is accepted (the
 * library refuses one outside the area registered on the destination). */
static void expect_area_size(bsp_size_t size) {
  bsp_pid_t right = (bsp_pid() + 1) % bsp_nprocs();
  char c = 'z';
  bsp_put(right, &c, area_x, size - 1, 1);
  bsp_sync();
  CHECK(area_x[size - 1] == 'z');
}

/* A get and a put of n ints whose destinations (dst, on this process) are the same bytes. */
static void overlap(int *dst, int *src, bsp_size_t n, bsp_pid_t from, bsp_pid_t putter_of) {
  bsp_pid_t s = bsp_pid();
  for (bsp_size_t i = 0; i < n; ++i) {
    src[i] = 1000000 * s + i;   /* what a get from s reads */
    dst[i] = -1;
    fill[i] = 2000000 + 1000 * s + i;  /* what s puts */
  }
  bsp_sync();
  bsp_get(from, src, 0, dst, n * (bsp_size_t)sizeof(int));
  bsp_put(putter_of, fill, dst, 0, n * (bsp_size_t)sizeof(int));
  bsp_sync();
  /* The process that put into s's dst is the one whose putter_of is s. */
  bsp_nprocs_t p = bsp_nprocs();
  bsp_pid_t putter = (s + p - (putter_of - s + p) % p) % p;
  for (bsp_size_t i = 0; i < n; ++i) CHECK(dst[i] == 2000000 + 1000 * putter + i);
}

int main(void) {
  bsp_begin(bsp_nprocs());
  bsp_nprocs_t p = bsp_nprocs();
  bsp_pid_t s = bsp_pid(), right = (s + 1) % p;
  int plain_p = bsp_nprocs(); /* int and the type names are the same type */
  CHECK(plain_p == p);

  /* A push popped in its own superstep never takes effect; the other push does. */
  bsp_push_reg(area_a, (bsp_size_t)sizeof area_a);
  bsp_push_reg(area_b, (bsp_size_t)sizeof area_b);
  bsp_pop_reg(area_a);
  bsp_sync();
  char c = (char)('a' + s);
  bsp_put(right, &c, area_b, 3, 1);
  bsp_sync();
  CHECK(area_b[3] == (char)('a' + (s + p - 1) % p));

  /* area_x registered with 16 bytes; then, in one superstep, a second registration of 128
   * bytes pushed and popped: the 16-byte one is what remains (the newest is the one
   * popped). */
  bsp_push_reg(area_x, 16);
  bsp_sync();
  expect_area_size(16);
  bsp_push_reg(area_x, 128);
  bsp_pop_reg(area_x);
  bsp_sync();
  expect_area_size(16);
  /* Pop then push in one superstep: the 16-byte registration goes, the 128-byte one stays. */
  bsp_pop_reg(area_x);
  bsp_push_reg(area_x, 128);
  bsp_sync();
  expect_area_size(128);

  /* Gets land before puts: small and large, from the right neighbour and from self. */
  bsp_push_reg(words, (bsp_size_t)sizeof words);
  bsp_sync();
  overlap(words, words, 4, right, right);          /* small: a reply */
  overlap(words, words, big / 4, right, right);    /* large: a direct message */
  overlap(words, words, 4, s, s);                  /* from self */
  overlap(words, words, big / 4, s, s);

  /* Tag size set by everyone in one superstep: effective from the next. */
  bsp_size_t tag = 4;
  bsp_set_tagsize(&tag);
  CHECK(tag == 0);
  bsp_sync();
  int t = 7 + s, payload = 100 + s;
  bsp_send(right, &t, &payload, (bsp_size_t)sizeof payload);
  bsp_sync();
  bsp_nprocs_t nmessages = 0;
  bsp_size_t nbytes = 0;
  bsp_qsize(&nmessages, &nbytes);
  CHECK(nmessages == 1 && nbytes == (bsp_size_t)sizeof payload);
  int got_tag = 0, status = 0;
  bsp_get_tag(&status, &got_tag);
  CHECK(status == (int)sizeof payload && got_tag == 7 + (s + p - 1) % p);

  bsp_pop_reg(words);
  bsp_pop_reg(area_x);
  bsp_pop_reg(area_b);
  bsp_end();
  /* Only process 0 continues after bsp_end. */
  if (bsp_nprocs() != p) {
    printf("FAIL: bsp_nprocs() after bsp_end() is %d, the section had %d\n", bsp_nprocs(), p);
    return 1;
  }
  printf("PASS t_conformance (p = %d)\n", p);
  return 0;
}
