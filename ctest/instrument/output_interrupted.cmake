# A rank writing an output through OutputFile whose process ends without unwinding (a signal,
# std::abort, std::exit): its temporary must not stay behind (output_file.hpp). At 1 and 2
# ranks (at 2, rank 1 waits in write_on_root, as the apps' ranks wait while rank 0 writes
# the results file).
# MODE SIGTERM..abort raise on rank 0 itself; "wait" sends SIGTERM or SIGINT to mpiexec, which
# forwards it to every rank (Ctrl-C, a batch system's time limit). run_output_interrupted.cmake.
add_executable(output_interrupted_program ${CMAKE_CURRENT_LIST_DIR}/output_interrupted_program.cpp)
target_link_libraries(output_interrupted_program PRIVATE instrument)
foreach(n 1 2)
  foreach(mode SIGTERM SIGINT SIGQUIT abort exit wait:TERM wait:INT)
    string(REPLACE ":" "_" _name ${mode})
    add_test(NAME instrument.output_interrupted.${_name}.np${n}
             COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:output_interrupted_program>
                     -DMPIEXEC=${MPIEXEC_EXECUTABLE} -DNPFLAG=${MPIEXEC_NUMPROC_FLAG} -DRANKS=${n}
                     -DMODE=${mode} -DDIR=${CMAKE_CURRENT_BINARY_DIR}/output_interrupted_${_name}_np${n}
                     -P ${CMAKE_CURRENT_LIST_DIR}/run_output_interrupted.cmake)
    set_tests_properties(instrument.output_interrupted.${_name}.np${n} PROPERTIES
                         LABELS "mpi;unit" TIMEOUT 60 PROCESSORS ${n})
    if(SUITE_SANITIZE)  # std::exit without MPI_Finalize: MPICH's leaks, not ours (exit 3 kept)
      set_tests_properties(instrument.output_interrupted.${_name}.np${n} PROPERTIES
                           ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
    endif()
  endforeach()
endforeach()
