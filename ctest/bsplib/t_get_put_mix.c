/* Puts and gets of sizes around the 32 KiB direct threshold (8 B to 200000 B), in all
 * directions, gets into local memory and into the requester's own registered area, over 30
 * supersteps, checked against a replay of every process's calls: gets must see the areas as
 * they were before the superstep's puts, and land before the puts do (where a get into the
 * own area and a put write the same bytes, the put's remain); bytes that two puts write in
 * one superstep are not checked (the definition leaves them to one of the writers). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bsp_check.h"
enum { ASZ = 1 << 20, NOPS = 24, STEPS = 30 };
/* kind 0: put; 1: get into local memory; 2: get into the own registered area A */
typedef struct { int kind, target, off, n, dstoff; } Op;
static unsigned nx(unsigned *x) { *x ^= *x << 13; *x ^= *x >> 17; *x ^= *x << 5; return *x; }
static unsigned char fv(int step, int q, int i) { return (unsigned char)(step * 31 + q * 7 + i * 13 + (i >> 9)); }
static unsigned char pv(int step, int q, int k, int i) { return (unsigned char)(step * 3 + q * 101 + k * 17 + i * 5 + 1); }
static int make(int q, int step, int p, Op *ops) {
  unsigned x = 0x12345u ^ (unsigned)(q * 7919 + step * 104729 + 1);
  static const int sz[] = {8, 100, 32767, 32768, 32769, 40000, 100000, 200000};
  int own_used = 0;
  for (int k = 0; k < NOPS; ++k) {
    Op *o = &ops[k];
    o->kind = nx(&x) % 3;
    o->target = nx(&x) % p;
    o->n = sz[nx(&x) % 8];
    o->off = nx(&x) % (ASZ - o->n);
    if (o->kind == 2) {
      /* into own A, disjoint from my other such gets: its own 256 KiB band */
      if (own_used >= 4 || o->n > 200000) { o->kind = 1; }
      else { o->dstoff = own_used * 250000 + (int)(nx(&x) % (250000 - o->n)); ++own_used; }
    }
    if (o->kind == 1) o->dstoff = k * 200000;
  }
  return NOPS;
}
int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  unsigned char *A = malloc(ASZ), *ref = malloc(ASZ), *local = malloc((size_t)NOPS * 200000);
  unsigned char *pbuf = malloc(200000); unsigned char *cnt = malloc(ASZ);
  Op *mine = malloc(NOPS * sizeof(Op)), *th = malloc(NOPS * sizeof(Op));
  bsp_push_reg(A, ASZ);
  bsp_sync();
  for (int step = 0; step < STEPS; ++step) {
    for (int i = 0; i < ASZ; ++i) A[i] = fv(step, s, i);
    bsp_sync();
    make(s, step, p, mine);
    for (int k = 0; k < NOPS; ++k) {
      Op *o = &mine[k];
      if (o->kind == 0) {
        for (int i = 0; i < o->n; ++i) pbuf[i] = pv(step, s, k, i);
        bsp_put(o->target, pbuf, A, o->off, o->n);
        memset(pbuf, 0, o->n);
      } else if (o->kind == 1) bsp_get(o->target, A, o->off, local + o->dstoff, o->n);
      else bsp_get(o->target, A, o->off, A + o->dstoff, o->n);
    }
    bsp_sync();
    for (int i = 0; i < ASZ; ++i) { ref[i] = fv(step, s, i); cnt[i] = 0; }
    for (int k = 0; k < NOPS; ++k) {
      Op *o = &mine[k];
      if (o->kind == 1)
        for (int i = 0; i < o->n; ++i)
          if (local[o->dstoff + i] != fv(step, o->target, o->off + i))
            bsp_abort("step %d op %d get byte %d wrong (n=%d from %d)", step, k, i, o->n, o->target);
      if (o->kind == 2)
        for (int i = 0; i < o->n; ++i) ref[o->dstoff + i] = fv(step, o->target, o->off + i);
    }
    for (int q = 0; q < p; ++q) {
      make(q, step, p, th);
      for (int k = 0; k < NOPS; ++k) {
        Op *o = &th[k];
        if (o->kind == 0 && o->target == s)
          for (int i = 0; i < o->n; ++i) { ref[o->off + i] = pv(step, q, k, i); if (cnt[o->off+i] < 2) cnt[o->off+i]++; }
      }
    }
    for (int i = 0; i < ASZ; ++i)
      if (cnt[i] < 2 && A[i] != ref[i]) bsp_abort("step %d: A[%d]=%d want %d", step, i, A[i], ref[i]);
  }
  bsp_end();
  if (s == 0) printf("PASS t_get_put_mix p=%d\n", p);
  free(A);
  free(ref);
  free(local);
  free(pbuf);
  free(cnt);
  free(mine);
  free(th);
  return 0;
}
