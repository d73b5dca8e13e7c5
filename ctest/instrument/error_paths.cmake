# Failure paths of run_mpi_main: one line, non-zero exit of every rank, never a hang.
add_executable(error_exit_program ${CMAKE_CURRENT_LIST_DIR}/error_exit_program.cpp)
target_link_libraries(error_exit_program PRIVATE instrument)
foreach(n 1 2 4)
  # Every rank learns of rank 1's bad input: rank 0 prints the one line, all exit 1.
  suite_add_error_test(NAME instrument.error.collective.np${n} RANKS ${n} ONE_LINE TIMEOUT 60
    EXPECT "^error_exit_program: error: deck.txt:line 3: a positive number for dx, got -1$"
    COMMAND $<TARGET_FILE:error_exit_program> collective)
  # One rank fails alone while the others wait in a collective: MPI_Abort ends them all, and
  # the failed rank's line is the only one (MPICH's own abort line is silenced). At 1 rank
  # every rank has failed: no abort, no rank in the line.
  suite_add_error_test(NAME instrument.error.local.np${n} RANKS ${n} ABORTS ONE_LINE TIMEOUT 60
    EXPECT "^error_exit_program: error( \\(rank 1\\))?: out.h5: a writable path$"
    COMMAND $<TARGET_FILE:error_exit_program> local)
  # The same with std::bad_alloc: named as running out of memory, not "std::bad_alloc" alone.
  # Not under ASan: its allocator ends the process itself on an impossible size (its own
  # "allocation-size-too-big" report) instead of throwing, so the path cannot be reached.
  if(NOT SUITE_SANITIZE)
    suite_add_error_test(NAME instrument.error.bad_alloc.np${n} RANKS ${n} ABORTS ONE_LINE TIMEOUT 60
      EXPECT "^error_exit_program: error( \\(rank 1\\))?: out of memory: an allocation failed \\(std::bad_alloc\\)"
      COMMAND $<TARGET_FILE:error_exit_program> bad_alloc)
  endif()
  # Every rank fails alone with the same error (each refused the same size): no abort, one
  # line, and every rank exits 1 by itself.
  suite_add_error_test(NAME instrument.error.every_rank.np${n} RANKS ${n} ONE_LINE TIMEOUT 60
    EXPECT "^error_exit_program: error: --trace: the trace needs 1 EiB, more than the 8 GiB this process can allocate$"
    COMMAND $<TARGET_FILE:error_exit_program> every_rank)
endforeach()
# Other ranks writing to stdout and stderr while one fails: the error line stays whole.
suite_add_error_test(NAME instrument.error.noisy.np4 RANKS 4 ABORTS TIMEOUT 60
  EXPECT "(^|\n)error_exit_program: error \\(rank 1\\): out.h5: a writable path\n"
  COMMAND $<TARGET_FILE:error_exit_program> noisy)
suite_add_mpi_test(NAME instrument.error.ok.np2 TARGET error_exit_program RANKS 2 ARGS ok LABELS unit)
# The other tools' numbers: read whole, refused outside their range before anything is sized.
suite_add_error_test(NAME instrument.hook_overhead.bad_n ONE_LINE
  EXPECT "^hook-overhead: error: command line:--n: expected a whole number in \\[1, 10000000000\\], got \"-1\"$"
  COMMAND $<TARGET_FILE:hook-overhead> --n -1)
suite_add_error_test(NAME instrument.demo.cells_too_many RANKS 2 ONE_LINE TIMEOUT 60
  EXPECT "^instrument-demo: error: command line:--cells: expected a whole number in \\[1, 2147483648\\], got \"99999999999\"$"
  COMMAND $<TARGET_FILE:instrument-demo> --cells 99999999999)
suite_add_error_test(NAME instrument.demo.inf_latency RANKS 2 ONE_LINE TIMEOUT 60
  EXPECT "^instrument-demo: error: .*inf_latency.machine:loggp.L: expected a latency in \\[0, 1\\] s, got inf$"
  COMMAND $<TARGET_FILE:instrument-demo> --machine ${CMAKE_CURRENT_LIST_DIR}/inf_latency.machine)
