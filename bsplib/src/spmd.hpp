// SPMD start-up and shut-down (bsp_init, bsp_begin, bsp_end) and the one Context the C API
// reaches. The definition allows bsp_begin as the first statement of main, or of a function
// that bsp_init named at the start of main; in the second case every MPI process other than
// 0 enters that function from bsp_init while process 0 runs main until it calls it.
#pragma once
#include "context.hpp"

namespace bsplib {

class Spmd {
 public:
  // The current context; a fatal error naming `call` outside bsp_begin/bsp_end.
  static Context& context(const char* call) {
    if (!s_context) outside(call);
    return *s_context;
  }
  static bool active() { return s_context != nullptr; }

  static void init(void (*spmd_part)(void), int argc, char** argv);
  static void begin(int maxprocs);
  static void end();
  // bsp_nprocs: the processes of the SPMD section inside it; before bsp_begin the processes
  // available (MPI initialised on demand); after bsp_end the p of the section that ended
  // (MPI may be finalised by then).
  static int available();
  // Before an error outside bsp_begin/bsp_end: MPI initialised if it is not yet (and not
  // finalised), so that processes failing alike agree and print one line (fatal.hpp).
  static void prepare_to_fail(const char* call);
  // bsplib::allow_next_section (bsp_sections.hpp).
  static void allow_next_section();

 private:
  [[noreturn]] static void outside(const char* call);
  static void ensure_mpi(const char* call);
  static void at_exit();

  static Context* s_context;   // the one run state the C API forces
  static int* s_argc;
  static char*** s_argv;
  static bool s_owns_mpi, s_init_called, s_begun;
  static int s_ended_nprocs;  // 0 until bsp_end
};

}  // namespace bsplib
