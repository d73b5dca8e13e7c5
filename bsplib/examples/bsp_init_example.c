/* SPMD start-up from a function (bsp_init), the way the definition's examples read: main
 * does sequential work on process 0, then calls the SPMD part; prints a sum of pids. */
#include <stdio.h>

#include "bsp.h"
#include "bsp_command_line.h"

static int nprocs_wanted;
static int arguments; /* argc - 1: the example takes none */
static const char *first_argument;
static int help_asked;

static void spmd_part(void) {
  /* Every process checks (they all see the same command line), before bsp_begin: each
   * refuses it alike, so the library prints one line and every process exits 1. */
  if (help_asked) {
    bsp_command_line_print_help("usage: mpiexec -n P bsp_init_example\n"
                                "  SPMD start-up by bsp_init: prints the sum of the pids. Takes no arguments.\n"
                                "  -h, --help  this text\n");
    return;
  }
  if (arguments > 0 && first_argument[0] == '-' && first_argument[1] != '\0')
    bsp_abort("bsp_init_example: error: command line:%.64s: unknown option (see bsp_init_example --help)",
              first_argument);
  if (arguments > 0)
    bsp_abort("bsp_init_example: unexpected argument \"%.64s\" (usage: mpiexec -n P "
              "bsp_init_example; it takes no arguments)",
              first_argument);
  bsp_begin(nprocs_wanted);
  int p = bsp_nprocs(), s = bsp_pid(), total = 0;
  bsp_push_reg(&total, (int)sizeof total);
  bsp_sync();
  int mine = s;
  int *partial = &mine;
  for (int q = 0; q < p; ++q) bsp_send(q, NULL, partial, (int)sizeof(int));
  bsp_sync();
  int v;
  for (int n = 0; n < p; ++n) {
    bsp_move(&v, (int)sizeof v);
    total += v;
  }
  if (s == 0) printf("bsp_init_example: %d processes, sum of pids %d\n", p, total);
  bsp_end();
}

int main(int argc, char **argv) {
  arguments = argc - 1;
  help_asked = bsp_command_line_asks_for_help(argc, argv);
  first_argument = argc > 1 ? argv[1] : "";
  bsp_init(spmd_part, argc, argv);
  nprocs_wanted = bsp_nprocs();
  spmd_part();
  return 0;
}
