/* The command line of the suite's BSPlib programs in C, the way every program of the suite
 * answers it (instrument/run_app.hpp): -h or --help prints the usage once and every process
 * exits 0; an unknown option is one line naming it and every process exits 1. Only
 * BSPlib's standard calls are used, so the programs still build against any BSPlib with its
 * bsp.h alone (this header is found beside the program that includes it).
 *
 * Both are called before the program's own bsp_begin, by every process alike (each reads
 * the same command line): bsp_abort there prints the one line and ends every process. */
#ifndef SUITE_BSP_COMMAND_LINE_H
#define SUITE_BSP_COMMAND_LINE_H

#include <stdio.h>
#include <string.h>

#include "bsp.h"

/* True when argv asks for help: -h or --help anywhere. */
static inline int bsp_command_line_asks_for_help(int argc, char **argv) {
  for (int i = 1; i < argc; ++i)
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) return 1;
  return 0;
}

/* `usage` printed once, by process 0 of an SPMD section of bsp_nprocs() processes: the
 * first call of the SPMD part (main, or the function given to bsp_init) when help is asked. */
static inline void bsp_command_line_print_help(const char *usage) {
  bsp_begin(bsp_nprocs());
  if (bsp_pid() == 0) {
    fputs(usage, stdout);
    fflush(stdout);
  }
  bsp_end();
}

/* For a program whose SPMD part is main: true (on every process) when argv asks for help,
 * the usage then printed once; main returns 0. */
static inline int bsp_command_line_help(int argc, char **argv, const char *usage) {
  if (!bsp_command_line_asks_for_help(argc, argv)) return 0;
  bsp_command_line_print_help(usage);
  return 1;
}

/* These programs take no options, only counts: an argument starting with '-' that is not a
 * number ("-5" is left to the count's range check) is refused, naming it. */
static inline void bsp_command_line_refuse_options(int argc, char **argv, const char *program) {
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (a[0] == '-' && a[1] != '\0' && !(a[1] >= '0' && a[1] <= '9'))
      bsp_abort("%s: error: command line:%.64s: unknown option (see %s --help)", program, a, program);
  }
}

#endif
