/* Large buffered puts between processes of one node, which go through the library's shared
 * segment once it has grown to hold them (the first superstep of each larger size goes by
 * MPI and grows it), and by MPI throughout when run with BSP_SHARED_PUTS=0. Over 14
 * supersteps of sizes that rise and fall, with the processes skewed differently in each:
 *  - every process puts a block to every process (itself too), and overwrites the source
 *    right after the call (buffered: the bytes at the call arrive);
 *  - call order: a large put, then a small and a second large put into part of the same
 *    bytes of the right neighbour: the later ones win, whichever route each took;
 *  - source order: every process puts a large block into the same bytes of process 0:
 *    the highest process id's bytes remain.
 * Then 24 supersteps back to back of one process putting into another (the segment's two halves),
 * and 8 supersteps of streams over 8 KiB made of small puts, BSMP messages and gets.
 * With the argument "big", two more supersteps put 12 MB each (run by small_shm with a
 * 24 MiB /dev/shm, where segments of that size would be a SIGBUS: they must not grow). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsp_check.h"

enum { SMALL_AT = 4096, SECOND = 40000, SECOND_AT = 100000 };
static long MAXN = 1 << 21;

static unsigned char byte_of(int round, int from, int to, long i) {
  return (unsigned char)(round * 31 + from * 7 + to * 3 + i % 251);
}

/* The stream section's area: byte i of process s's as it starts, and as it is at the start
 * of superstep r (the words its left neighbour put in superstep r - 1 over the even words). */
static unsigned char stream_init(int s, int i) { return (unsigned char)(i * 13 + s * 5); }
static unsigned int stream_word(int r, int from, int i) {
  return i == 1500 ? 0xC0FFEEu + (unsigned int)r : (unsigned int)(r * 1000003 + from * 7919 + i);
}
static unsigned char stream_before(int r, int owner, int p, int i) {
  if (r == 0 || i % 8 >= 4) return stream_init(owner, i);
  const unsigned int w = stream_word(r - 1, (owner + p - 1) % p, i / 8);
  unsigned char b[4];
  memcpy(b, &w, 4);
  return b[i % 8];
}

static void skew(int round, int s) { /* a different process arrives last in each round */
  volatile double x = 0;
  const long spins = ((round + s) % 3) * 200000L;
  for (long i = 0; i < spins; ++i) x += 1e-9 * (double)i;
}

int main(int argc, char **argv) {
  const int big = argc > 1 && strcmp(argv[1], "big") == 0;
  if (big) MAXN = 12 << 20;
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs(), s = bsp_pid(), right = (s + 1) % p;
  const long sizes[] = {40000, 300000, 40000, 1200000, 1200000, 2000000, 12000, 2000000,
                        500000, 1999999, 65536, 700000, 2000000, 40000, 12000000, 12582912};
  const int rounds = (int)(sizeof sizes / sizeof sizes[0]) - (big ? 0 : 2);
  unsigned char *all = malloc((size_t)p * MAXN), *ordered = malloc(MAXN),
                *shared = malloc(MAXN), *src = malloc(MAXN), *second = malloc(SECOND);
  CHECK(all && ordered && shared && src && second);
  memset(all, 0, (size_t)p * MAXN);
  bsp_push_reg(all, (int)(p * MAXN));
  bsp_push_reg(ordered, (int)MAXN);
  bsp_push_reg(shared, (int)MAXN);
  bsp_sync();
  for (int r = 0; r < rounds; ++r) {
    const long n = sizes[r];
    for (int q = 0; q < p; ++q) {
      for (long i = 0; i < n; ++i) src[i] = byte_of(r, s, q, i);
      bsp_put(q, src, all, (int)(s * MAXN), (int)n);
      memset(src, 0xEE, (size_t)n); /* copied at the call */
    }
    for (long i = 0; i < n; ++i) src[i] = byte_of(r, s, 100, i);
    bsp_put(right, src, ordered, 0, (int)n);
    const unsigned char mark[8] = {1, 2, 3, 4, 5, 6, 7, (unsigned char)r};
    bsp_put(right, mark, ordered, SMALL_AT, 8);
    memset(second, 0x40 + r, SECOND);
    bsp_put(right, second, ordered, SECOND_AT, SECOND);
    memset(src, s + 1, (size_t)n);
    bsp_put(0, src, shared, 0, (int)n);
    skew(r, s);
    bsp_sync();

    const int left = (s + p - 1) % p;
    for (int q = 0; q < p; ++q)
      for (long i = 0; i < n; ++i) CHECK(all[(long)q * MAXN + i] == byte_of(r, q, s, i));
    for (long i = 0; i < n; ++i) {
      unsigned char want = byte_of(r, left, 100, i);
      if (i >= SMALL_AT && i < SMALL_AT + 8) want = mark[i - SMALL_AT];
      if (i >= SECOND_AT && i < SECOND_AT + SECOND) want = (unsigned char)(0x40 + r);
      CHECK(ordered[i] == want);
    }
    if (s == 0)
      for (long i = 0; i < n; ++i) CHECK(shared[i] == p);
  }
  /* Back to back: process 0 puts a 2 MB block into process 1 in every superstep, from two
   * sources prepared beforehand, so its copy into the segment starts as soon as it leaves a
   * sync, while process 1 may still be copying the previous block out of the segment. A half
   * written again before its reader has copied it out shows here. */
  const long n2 = 2000000;
  const int to = p > 1 ? 1 : 0;
  memset(src, 'A', (size_t)n2);
  memset(all, 'B', (size_t)n2); /* the second source: process 0's own copy of `all` is free now */
  for (int r = 0; r < 24; ++r) {
    if (s == 0) bsp_put(to, r % 2 ? all : src, ordered, 0, (int)n2);
    bsp_sync();
    if (s == to)
      for (long i = 0; i < n2; ++i) CHECK(ordered[i] == (r % 2 ? 'B' : 'A'));
  }
  /* Streams over 8 KiB of small records, which go through the segment within a node: in each
   * of 8 supersteps every process puts 3000 4-byte words into every other word of its right
   * neighbour's area (a stream of runs), a word into the middle of that (a later put wins),
   * sends 12 BSMP messages of 1000 bytes and gets 200 scattered 8-byte words from its left
   * neighbour, whose area holds what was put there in the superstep before (gets are served
   * before puts land). Checked in the next superstep. */
  enum { WORDS = 3000, MSGS = 12, MSG_BYTES = 1000, GETS = 200 };
  const int left = (s + p - 1) % p;
  for (int i = 0; i < 2 * WORDS * 4; ++i) ordered[i] = stream_init(s, i);
  int tagsize = 4;
  bsp_set_tagsize(&tagsize);
  bsp_sync();
  static unsigned char got[GETS * 8];
  for (int r = 0; r < 8; ++r) {
    for (int i = 0; i < WORDS; ++i) {
      const unsigned int w = (unsigned int)(r * 1000003 + s * 7919 + i);
      bsp_put(right, &w, ordered, i * 8, 4);
    }
    const unsigned int late = stream_word(r, s, 1500);
    bsp_put(right, &late, ordered, 1500 * 8, 4);
    for (int m = 0; m < MSGS; ++m) {
      unsigned char msg[MSG_BYTES];
      memset(msg, (unsigned char)(r * 16 + m), sizeof msg);
      const int tag = r * 100 + m;
      bsp_send(right, &tag, msg, (int)sizeof msg);
    }
    for (int g = 0; g < GETS; ++g) bsp_get(left, ordered, (g * 37 % (2 * WORDS)) * 4, got + g * 8, 8);
    bsp_sync();
    /* the gets return the left neighbour's area as it was before this superstep's puts */
    for (int g = 0; g < GETS; ++g)
      for (int k = 0; k < 8; ++k)
        CHECK(got[g * 8 + k] == stream_before(r, left, p, (g * 37 % (2 * WORDS)) * 4 + k));
    for (int i = 0; i < WORDS; ++i) {
      unsigned int w;
      memcpy(&w, ordered + i * 8, 4);
      CHECK(w == stream_word(r, left, i));
    }
    int nmsgs = 0, nbytes = 0;
    bsp_qsize(&nmsgs, &nbytes);
    CHECK(nmsgs == MSGS && nbytes == MSGS * MSG_BYTES);
    for (int m = 0; m < MSGS; ++m) {
      int status = 0, tag = -1;
      bsp_get_tag(&status, &tag);
      unsigned char msg[MSG_BYTES];
      bsp_move(msg, (int)sizeof msg);
      CHECK(status == MSG_BYTES && tag >= r * 100 && tag < r * 100 + MSGS);
      CHECK(msg[0] == (unsigned char)(r * 16 + tag - r * 100) && msg[MSG_BYTES - 1] == msg[0]);
    }
  }
  bsp_pop_reg(shared);
  bsp_pop_reg(ordered);
  bsp_pop_reg(all);
  bsp_end();
  printf("PASS t_shared_puts\n");
  free(all);
  free(ordered);
  free(shared);
  free(src);
  free(second);
  return 0;
}
