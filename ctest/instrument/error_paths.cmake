# Failure paths of run_mpi_main: one line, non-zero exit of every rank, never a hang.
add_executable(error_exit_program ${CMAKE_CURRENT_LIST_DIR}/error_exit_program.cpp)
target_link_libraries(error_exit_program PRIVATE instrument)
foreach(n 1 2 4)
  suite_add_mpi_test(NAME instrument.error.collective.np${n} TARGET error_exit_program RANKS ${n}
                     ARGS collective LABELS unit TIMEOUT 60)
  set_tests_properties(instrument.error.collective.np${n} PROPERTIES WILL_FAIL TRUE)
  suite_add_mpi_test(NAME instrument.error.collective_message.np${n} TARGET error_exit_program
                     RANKS ${n} ARGS collective LABELS unit TIMEOUT 60)
  set_tests_properties(instrument.error.collective_message.np${n} PROPERTIES
    PASS_REGULAR_EXPRESSION "error_exit_program: error: deck.txt:line 3: a positive number for dx, got -1")
  suite_add_mpi_test(NAME instrument.error.local.np${n} TARGET error_exit_program RANKS ${n}
                     ARGS local LABELS unit TIMEOUT 60)
  set_tests_properties(instrument.error.local.np${n} PROPERTIES WILL_FAIL TRUE)
endforeach()
suite_add_mpi_test(NAME instrument.error.ok.np2 TARGET error_exit_program RANKS 2 ARGS ok LABELS unit)
