// bsplib::allow_next_section (bsp_sections.hpp): a program that initialised MPI itself runs
// a second SPMD section after the first (multigrid's run after its short BSP probe), and
// communicates in it; called inside a section, it ends the program with one line.
//   second_section          two sections, a put in each; "second section: ..." from process 0
//   second_section inside   allow_next_section inside the first section: the library's error
#include <mpi.h>

#include <cstdio>
#include <cstring>

#include "bsp.h"
#include "bsp_sections.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const bool inside = argc > 1 && std::strcmp(argv[1], "inside") == 0;
  int world = 1, rank = 0, wrong = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int section = 0; section < 2; ++section) {
    bsp_begin(world);
    const int p = bsp_nprocs(), pid = bsp_pid();
    int got = -1;
    bsp_push_reg(&got, sizeof got);
    bsp_sync();
    if (inside) bsplib::allow_next_section();
    const int sent = 100 * section + pid;
    bsp_put((pid + 1) % p, &sent, &got, 0, sizeof sent);
    bsp_sync();
    if (got != 100 * section + (pid + p - 1) % p) ++wrong;
    bsp_pop_reg(&got);
    bsp_end();
    bsplib::allow_next_section();
  }
  int wrong_total = 0;
  MPI_Reduce(&wrong, &wrong_total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("second section: p = %d, %s\n", world, wrong_total == 0 ? "both sections' puts arrived" : "WRONG values");
  MPI_Finalize();
  return wrong_total == 0 ? 0 : 1;
}
