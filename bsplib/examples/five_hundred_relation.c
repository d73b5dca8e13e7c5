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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"
#include "bsp_command_line.h"

enum { H = 500, MAX_ROUNDS = 1000000 };

#define USAGE "usage: mpiexec -n P five_hundred_relation [ROUNDS=1]"

/* The optional argument, read whole ("5x", "" and "--bogus" are refused, not read as 0 or
 * 5) and in [1, MAX_ROUNDS]. Every process reads the same command line and refuses it
 * alike, before bsp_begin: the library prints one line and every process exits 1. */
static int rounds_argument(int argc, char **argv) {
  if (argc > 2)
    bsp_abort("five_hundred_relation: unexpected argument \"%.64s\" (" USAGE ")", argv[2]);
  if (argc < 2) return 1;
  char *end = NULL;
  errno = 0;
  const long v = strtol(argv[1], &end, 10);
  if (argv[1][0] == '\0' || *end != '\0' || errno != 0 || v < 1 || v > MAX_ROUNDS)
    bsp_abort("five_hundred_relation: ROUNDS must be a whole number in [1, %d]; got \"%.64s\" "
              "(" USAGE ")",
              MAX_ROUNDS, argv[1]);
  return (int)v;
}

int main(int argc, char **argv) {
  if (bsp_command_line_help(argc, argv,
                            USAGE "\n"
                                  "  Every process sends 500 words to the others (a 500-relation), ROUNDS times,\n"
                                  "  and checks them.\n"
                                  "  ROUNDS  rounds, in [1, 1000000] (default: 1)\n"
                                  "  -h, --help  this text\n"))
    return 0;
  bsp_command_line_refuse_options(argc, argv, "five_hundred_relation");
  const int rounds = rounds_argument(argc, argv);
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

  /* Each process checks its own copy of the broadcast; a wrong one ends the run (every
   * process, one line on stderr, non-zero exit): after bsp_end only process 0 would speak. */
  for (int i = 0; i < share; ++i)
    if (dst[i] != i)
      bsp_abort("five_hundred_relation: WRONG DATA on process %d: word %d of the broadcast is "
                "%d, expected %d",
                s, i, dst[i], i);
  bsp_pop_reg(dst);
  bsp_pop_reg(src);
  bsp_end();
  printf("five_hundred_relation: data correct\n");
  return 0;
}
