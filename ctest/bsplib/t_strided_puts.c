/* Puts that the library combines into runs (same area and size, offsets in arithmetic
 * progression), checked byte for byte against a replay of every process's calls.
 * Each superstep every process issues a random mix of runs (strides positive, negative,
 * zero, smaller than the element: overlapping, equal to it: contiguous; element sizes 1 to
 * 16 bytes), runs broken off by another area, another size, a get, a BSMP send or an hp put,
 * into its own region of every destination's two areas (hp puts, whose order relative to
 * other puts the definition leaves open, into a band of their own without overlaps). The
 * expected areas are computed by
 * replaying all processes' calls in call order (the library applies one source's puts in
 * call order, so where a run overlaps itself the later element wins); gets must see the
 * areas as they were before the superstep's puts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsp_check.h"

enum { REGION = 1536, HP_BAND = 1024, MAX_OPS = 600, STEPS = 4 };
enum { OP_PUT, OP_HPPUT, OP_GET, OP_SEND };

typedef struct {
  int kind, dest, area, off, n;
  unsigned char data[16];
} Op;

static unsigned next(unsigned *x) {
  *x ^= *x << 13;
  *x ^= *x >> 17;
  *x ^= *x << 5;
  return *x;
}
static int below(unsigned *x, int n) { return (int)(next(x) % (unsigned)n); }

/* The calls process q makes in superstep step, deterministic so every process can replay
 * them. Offsets are relative to the area; q writes only inside its region [q R, (q+1) R). */
static int make_ops(int q, int step, int p, Op *ops) {
  unsigned x = 0x9e3779b9u ^ (unsigned)(q * 7919 + step * 104729 + 1);
  int count = 0, hp = 0;
  while (count < MAX_OPS - 64) {
    static const int sizes[] = {1, 3, 4, 8, 8, 8, 12, 16};
    const int n = sizes[below(&x, 8)];
    const int dest = below(&x, p), area = below(&x, 2);
    int stride;
    switch (below(&x, 8)) {
      case 0: stride = n; break;            /* contiguous */
      case 1: stride = 2 * n; break;
      case 2: stride = -n; break;           /* descending */
      case 3: stride = 0; break;            /* the same bytes again: the last wins */
      case 4: stride = n > 1 ? n / 2 : 1; break;  /* overlapping */
      case 5: stride = p * n; break;        /* bspbench's interleaving */
      case 6: stride = -3 * n - 1; break;
      default: stride = 1 + below(&x, 40); break;
    }
    int len = 1 + below(&x, 40);
    const int span = abs(stride) * (len - 1) + n;
    if (span > REGION) len = 1 + (REGION - n) / (abs(stride) ? abs(stride) : 1);
    const int reach = abs(stride) * (len - 1);
    int start = below(&x, REGION - n - reach + 1);
    if (stride < 0) start += reach;
    for (int i = 0; i < len; ++i) {
      Op *o = &ops[count++];
      o->kind = OP_PUT;
      o->dest = dest;
      o->area = area;
      o->off = q * REGION + start + i * stride;
      o->n = n;
      for (int b = 0; b < n; ++b) o->data[b] = (unsigned char)next(&x);
      /* now and then something else cuts in: the run must close and go on correctly */
      const int cut = below(&x, 64);
      if (cut < 3 && count < MAX_OPS - 1) {
        Op *c = &ops[count++];
        *c = *o;
        c->kind = cut == 0 ? OP_GET : cut == 1 ? OP_SEND : hp < HP_BAND / 16 ? OP_HPPUT : OP_GET;
        c->n = c->kind == OP_HPPUT ? n : 1 + below(&x, 8);
        if (c->kind == OP_GET) c->off = below(&x, p * (REGION + HP_BAND) - c->n);
        if (c->kind == OP_HPPUT) {
          c->off = p * REGION + q * HP_BAND + 16 * hp++;
          for (int b = 0; b < c->n; ++b) c->data[b] = (unsigned char)next(&x);
        }
      }
    }
  }
  return count;
}

int main(void) {
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs(), s = bsp_pid();
  const int area_bytes = p * (REGION + HP_BAND);
  unsigned char *area[2], *ref = calloc((size_t)p * 2 * area_bytes, 1);
  for (int a = 0; a < 2; ++a) {
    area[a] = calloc((size_t)area_bytes, 1);
    bsp_push_reg(area[a], area_bytes);
  }
  bsp_sync();
  Op *mine = malloc(MAX_OPS * sizeof(Op)), *theirs = malloc(MAX_OPS * sizeof(Op));
  unsigned char *got = malloc(MAX_OPS * 16);
  long runs_checked = 0;
  for (int step = 0; step < STEPS; ++step) {
    const int n_mine = make_ops(s, step, p, mine);
    int sends_to_me = 0;
    for (int k = 0; k < n_mine; ++k) {
      Op *o = &mine[k];
      unsigned char scratch[16];
      switch (o->kind) {
        case OP_PUT:
          /* bsp_put copies at the call: the source is overwritten right after */
          memcpy(scratch, o->data, (size_t)o->n);
          bsp_put(o->dest, scratch, area[o->area], o->off, o->n);
          memset(scratch, 0xee, sizeof scratch);
          break;
        case OP_HPPUT: bsp_hpput(o->dest, o->data, area[o->area], o->off, o->n); break;
        case OP_GET: bsp_get(o->dest, area[o->area], o->off, got + 16 * k, o->n); break;
        case OP_SEND: bsp_send(o->dest, NULL, o->data, o->n); break;
      }
    }
    bsp_sync();
    /* gets see every process's areas as they were before this superstep's puts */
    for (int k = 0; k < n_mine; ++k) {
      const Op *o = &mine[k];
      if (o->kind != OP_GET) continue;
      const unsigned char *want = ref + ((size_t)o->dest * 2 + o->area) * area_bytes + o->off;
      CHECK(memcmp(got + 16 * k, want, (size_t)o->n) == 0);
    }
    /* replay every process's puts into the expected areas of their destinations */
    for (int q = 0; q < p; ++q) {
      const int n_q = make_ops(q, step, p, theirs);
      for (int k = 0; k < n_q; ++k) {
        const Op *o = &theirs[k];
        if (o->kind == OP_SEND && o->dest == s) ++sends_to_me;
        if (o->kind != OP_PUT && o->kind != OP_HPPUT) continue;
        memcpy(ref + ((size_t)o->dest * 2 + o->area) * area_bytes + o->off, o->data,
               (size_t)o->n);
        ++runs_checked;
      }
    }
    for (int a = 0; a < 2; ++a) {
      const unsigned char *want = ref + ((size_t)s * 2 + a) * area_bytes;
      for (int b = 0; b < area_bytes; ++b)
        if (area[a][b] != want[b])
          bsp_abort("superstep %d: area %d byte %d is %d, expected %d", step, a, b,
                    area[a][b], want[b]);
    }
    int queued = 0;
    int queued_bytes = 0;
    bsp_qsize(&queued, &queued_bytes);
    CHECK(queued == sends_to_me);
  }
  CHECK(runs_checked > 1000);
  bsp_end();
  printf("PASS t_strided_puts (%ld puts replayed)\n", runs_checked);
  free(mine);
  free(theirs);
  free(got);
  free(ref);
  return 0;
}
