/* Misuse the library must detect: each mode ends every process with one message naming the
 * call, the process and the superstep, and a non-zero exit (checked by expect_failure.cmake). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsp.h"

static int x[4];

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (!strcmp(mode, "outside_begin")) {
    int v = 0;
    bsp_put(0, &v, x, 0, (int)sizeof v); /* before bsp_begin */
    return 0;
  }
  if (!strcmp(mode, "begin_bad_count")) bsp_begin(0);
  if (!strcmp(mode, "init_after_begin")) {
    bsp_begin(bsp_nprocs());
    bsp_init(NULL, argc, argv);
  }
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid(), v = 1;
  bsp_push_reg(x, (int)sizeof x);
  bsp_sync();
  if (!strcmp(mode, "begin_twice")) bsp_begin(p);
  if (!strcmp(mode, "put_unregistered")) {
    int y[2];
    bsp_put((s + 1) % p, &v, y, 0, (int)sizeof v);
  }
  if (!strcmp(mode, "put_outside_area")) bsp_put((s + 1) % p, &v, x, 3 * (int)sizeof(int), 8);
  if (!strcmp(mode, "get_outside_area")) bsp_get((s + 1) % p, x, -4, &v, 4);
  if (!strcmp(mode, "negative_size")) bsp_put((s + 1) % p, &v, x, 0, -4);
  if (!strcmp(mode, "bad_pid")) bsp_put(p, &v, x, 0, (int)sizeof v);
  if (!strcmp(mode, "put_same_superstep_as_push")) {
    static int z[2];
    bsp_push_reg(z, (int)sizeof z);
    bsp_put((s + 1) % p, &v, z, 0, (int)sizeof v); /* the push is not effective yet */
  }
  if (!strcmp(mode, "registration_order")) {
    static int a[2], b[2];
    bsp_push_reg(a, (int)sizeof a);
    bsp_push_reg(b, (int)sizeof b);
    bsp_sync();
    if (s == 0) { bsp_pop_reg(a); bsp_pop_reg(b); }
    else { bsp_pop_reg(b); bsp_pop_reg(a); }
    bsp_sync();
  }
  if (!strcmp(mode, "registration_count")) {
    if (s == p - 1) bsp_push_reg(&v, (int)sizeof v);
    bsp_sync();
  }
  if (!strcmp(mode, "end_while_sync")) {
    if (s == 0) bsp_end();
    bsp_sync();
    bsp_sync();
  }
  if (!strcmp(mode, "exit_without_end")) {
    if (s == p - 1) exit(0);
    bsp_sync();
  }
  if (!strcmp(mode, "abort")) {
    if (s == p - 1) bsp_abort("user abort from process %d", s);
    bsp_sync();
  }
  if (!strcmp(mode, "abort_every_process")) bsp_abort("user abort from every process\n");
  if (!strcmp(mode, "move_empty")) bsp_move(&v, (int)sizeof v);
  if (!strcmp(mode, "tagsize_not_all")) {
    int t = 0; /* the size in effect: only the number of calls differs */
    if (s == 0) bsp_set_tagsize(&t);
    bsp_sync();
  }
  if (!strcmp(mode, "null_qsize")) bsp_qsize(NULL, &v);
  if (!strcmp(mode, "null_get_tag")) bsp_get_tag(NULL, &v);
  if (!strcmp(mode, "null_hpmove")) {
    void *payload = NULL;
    bsp_hpmove(NULL, &payload);
  }
  if (!strcmp(mode, "null_move")) {
    bsp_send(s, NULL, &v, (int)sizeof v);
    bsp_sync();
    bsp_move(NULL, (int)sizeof v);
  }
  if (!strcmp(mode, "null_put_source")) bsp_put((s + 1) % p, NULL, x, 0, (int)sizeof v);
  if (!strcmp(mode, "null_get_destination")) bsp_get((s + 1) % p, x, 0, NULL, (int)sizeof v);
  if (!strcmp(mode, "null_send_tag")) {
    int t = 4;
    bsp_set_tagsize(&t);
    bsp_sync();
    bsp_send((s + 1) % p, NULL, &v, (int)sizeof v);
  }
  /* NULL registrations (process 0 has nothing to share) */
  static int y[2], z[2];
  if (!strncmp(mode, "null_ambiguous", 14)) {
    bsp_push_reg(s == 0 ? NULL : y, s == 0 ? 0 : (int)sizeof y);
    bsp_push_reg(s == 0 ? NULL : z, s == 0 ? 0 : (int)sizeof z);
    bsp_sync();
    /* which of y and z is meant? */
    if (s == 0 && !strcmp(mode, "null_ambiguous_put")) bsp_put(1, &v, NULL, 0, (int)sizeof v);
    if (s == 0 && !strcmp(mode, "null_ambiguous_get")) bsp_get(1, NULL, 0, &v, (int)sizeof v);
  }
  if (!strcmp(mode, "put_into_null")) {
    bsp_push_reg(s == 0 ? NULL : y, (int)sizeof y); /* a size, but nothing behind NULL */
    bsp_sync();
    if (s == 1) bsp_put(0, &v, y, 0, (int)sizeof v);
  }
  if (!strcmp(mode, "pop_null_of_array")) {
    bsp_push_reg(s == 0 ? NULL : y, s == 0 ? 0 : (int)sizeof y);
    bsp_sync();
    bsp_pop_reg(s == 0 ? NULL : x); /* x is process 0's array too */
  }
  if (!strcmp(mode, "pop_null_everywhere")) {
    bsp_push_reg(s == 0 ? NULL : y, s == 0 ? 0 : (int)sizeof y);
    bsp_push_reg(s == 0 ? z : NULL, s == 0 ? (int)sizeof z : 0);
    bsp_sync();
    bsp_pop_reg(NULL); /* NULL everywhere, but no registration is */
  }
  if (!strcmp(mode, "pop_different_with_null")) {
    bsp_push_reg(s == 0 ? NULL : y, s == 0 ? 0 : (int)sizeof y);
    bsp_push_reg(s == 0 ? NULL : z, s == 0 ? 0 : (int)sizeof z);
    bsp_sync();
    bsp_pop_reg(s == 0 ? NULL : s == 1 ? y : z);
  }
  if (!strcmp(mode, "pop_null_unregistered")) bsp_pop_reg(NULL);
  if (!strcmp(mode, "tagsize_mismatch")) {
    int t = s == p - 1 ? 8 : 4;
    bsp_set_tagsize(&t);
    bsp_sync();
  }
  bsp_sync();
  bsp_end();
  printf("no error detected in mode '%s'\n", mode);
  return 0;
}
