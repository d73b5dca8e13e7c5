/* Large buffered puts, for any BSPlib: built against bsp.h alone (no MPI, no internals of
 * this library), so that the same figures can be measured with another implementation
 * (e.g. `mpicc -I<its include> bsp_put_bench.c -l<its library>`) and compared side by side.
 * For each size B from 1 KiB to 16 MiB (x4): process 0 bsp_puts B bytes into process 1 in one
 * superstep (the call and the sync, as a program pays them); the median, min and max over R
 * repetitions of the slowest process's time, and B / median. The destination is written
 * once before timing, so no first touch is timed.
 * Usage: mpiexec -n 2 bsp_put_bench [R=21] */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsp.h"
#include "../examples/bsp_command_line.h"

#define USAGE "usage: mpiexec -n 2 bsp_put_bench [R=21]"
enum { MAX_REPS = 100000 };

/* The command line, checked by every process alike before bsp_begin (so the library prints
 * one line and every process exits 1): R read whole ("5x", "" and "--bogus" are refused)
 * and in [1, MAX_REPS]; at least 2 processes, since process 0 puts into process 1. */
static int reps_argument(int argc, char **argv) {
  const int p = bsp_nprocs();
  if (argc > 2) bsp_abort("bsp_put_bench: unexpected argument \"%.64s\" (" USAGE ")", argv[2]);
  long reps = 21;
  if (argc == 2) {
    char *end = NULL;
    errno = 0;
    reps = strtol(argv[1], &end, 10);
    if (argv[1][0] == '\0' || *end != '\0' || errno != 0 || reps < 1 || reps > MAX_REPS)
      bsp_abort("bsp_put_bench: R must be a whole number in [1, %d]; got \"%.64s\" (" USAGE ")",
                MAX_REPS, argv[1]);
  }
  if (p < 2)
    bsp_abort("bsp_put_bench: needs 2 or more processes (process 0 puts into process 1); got "
              "%d (" USAGE ")",
              p);
  return (int)reps;
}

static int cmp(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (bsp_command_line_help(argc, argv,
                            USAGE "\n"
                                  "  Large buffered puts from process 0 into process 1, 1 KiB to 16 MiB, for any BSPlib.\n"
                                  "  R  repetitions, the median kept; in [1, 100000] (default: 21)\n"
                                  "  -h, --help  this text\n"))
    return 0;
  bsp_command_line_refuse_options(argc, argv, "bsp_put_bench");
  const int reps = reps_argument(argc, argv);
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs(), s = bsp_pid();
  const int max_bytes = 16 << 20;
  char *src = malloc(max_bytes), *dst = malloc(max_bytes);
  double *t = malloc(sizeof(double) * (size_t)reps), *all = malloc(sizeof(double) * (size_t)p);
  if (!src || !dst || !t || !all) bsp_abort("bsp_put_bench: out of memory");
  memset(src, 1, max_bytes);
  memset(dst, 0, max_bytes);
  bsp_push_reg(dst, max_bytes);
  bsp_push_reg(all, (int)(sizeof(double) * (size_t)p));
  bsp_sync();
  if (s == 0)
    printf("bsp_put_bench: process 0 puts B bytes into process 1 in one superstep, p = %d, "
           "%d repetitions (slowest process)\n%10s %12s %12s %12s %10s\n",
           p, reps, "B [bytes]", "median [us]", "min [us]", "max [us]", "GB/s");
  for (int bytes = 1 << 10; bytes <= max_bytes; bytes *= 4) {
    for (int r = -2; r < reps; ++r) { /* two untimed rounds first */
      bsp_sync();
      const double t0 = bsp_time();
      if (s == 0) bsp_put(1, src, dst, 0, bytes);
      bsp_sync();
      const double mine = bsp_time() - t0;
      /* the slowest process: everyone's time to everyone, in a superstep of its own */
      for (int q = 0; q < p; ++q) bsp_put(q, &mine, all, s * (int)sizeof(double), sizeof(double));
      bsp_sync();
      double worst = 0;
      for (int q = 0; q < p; ++q)
        if (all[q] > worst) worst = all[q];
      if (r >= 0) t[r] = worst;
    }
    qsort(t, (size_t)reps, sizeof(double), cmp);
    if (s == 0)
      printf("%10d %12.2f %12.2f %12.2f %10.2f\n", bytes, t[reps / 2] * 1e6, t[0] * 1e6,
             t[reps - 1] * 1e6, bytes / t[reps / 2] / 1e9);
  }
  bsp_pop_reg(all);
  bsp_pop_reg(dst);
  bsp_end();
  free(src);
  free(dst);
  free(t);
  free(all);
  return 0;
}
