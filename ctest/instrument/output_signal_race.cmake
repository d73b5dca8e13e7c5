# A signal sent to the job while rank 0 writes an output, which rank 0 cannot act on before
# the waiting ranks act on theirs (output_signal_race_program.cpp): no run.h5.tmp.* may stay.
# At 2 ranks (the harness's case) and 3 (more than one waiting rank); SIGTERM (a batch
# system's time limit) and SIGINT (Ctrl-C). run_output_signal_race.cmake.
add_executable(output_signal_race_program ${CMAKE_CURRENT_LIST_DIR}/output_signal_race_program.cpp)
target_link_libraries(output_signal_race_program PRIVATE instrument)
foreach(n 2 3)
  foreach(sig TERM INT)
    set(_name instrument.output_signal_race.SIG${sig}.np${n})
    add_test(NAME ${_name}
             COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:output_signal_race_program>
                     -DMPIEXEC=${MPIEXEC_EXECUTABLE} -DNPFLAG=${MPIEXEC_NUMPROC_FLAG} -DRANKS=${n}
                     -DSIGNAL=${sig} -DDIR=${CMAKE_CURRENT_BINARY_DIR}/output_signal_race_${sig}_np${n}
                     -P ${CMAKE_CURRENT_LIST_DIR}/run_output_signal_race.cmake)
    set_tests_properties(${_name} PROPERTIES LABELS "mpi;unit" TIMEOUT 60 PROCESSORS ${n})
  endforeach()
endforeach()
