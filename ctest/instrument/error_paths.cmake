# Failure paths of run_mpi_main: one line, non-zero exit of every rank, never a hang.
add_executable(error_exit_program ${CMAKE_CURRENT_LIST_DIR}/error_exit_program.cpp)
target_link_libraries(error_exit_program PRIVATE instrument)
foreach(n 1 2 4)
  # Every rank learns of rank 1's bad input: rank 0 prints the one line, all exit 1.
  suite_add_error_test(NAME instrument.error.collective.np${n} RANKS ${n} ONE_LINE TIMEOUT 60
    EXPECT "^error_exit_program: error: deck.txt:line 3: a positive number for dx, got -1$"
    COMMAND $<TARGET_FILE:error_exit_program> collective)
  # One rank fails alone while the others wait in a collective: MPI_Abort ends them all.
  suite_add_error_test(NAME instrument.error.local.np${n} RANKS ${n} ABORTS TIMEOUT 60
    EXPECT "error_exit_program: error( \\(rank [0-9]\\))?: out.h5: a writable path"
    COMMAND $<TARGET_FILE:error_exit_program> local)
endforeach()
suite_add_mpi_test(NAME instrument.error.ok.np2 TARGET error_exit_program RANKS 2 ARGS ok LABELS unit)
