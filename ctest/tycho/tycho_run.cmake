# End-to-end runs of the tycho program on the Kuhn cube 6^3 (no cycles, so no lagged faces):
#   digest      the scalar flux bitwise the same at 1, 2, 3, 4 ranks, any MCPS, priority,
#               send mode and threads (run_tycho_digest.cmake)
#   balance     the sweep's balance residual below 1e-12, no lagged face, at 1, 2, 4 ranks
#   results     the results file read back by instrument's reader (results_file_check.cpp):
#               steps, messages, PCE, calibration and solution consistent with the run
set(_mesh ${SUITE_TEST_MESHES}/kuhn-6.smesh)
set(_runs "1|2|4 --mcps 7 --priority fifo|3 --nonblocking --priority boundary --mcps 33|2 --threads 2 --nonblocking|2 --priority direction --mcps 100000|3 --priority octant --mcps 64|1 --priority octant|2 --priority blevel --mcps 64")
add_test(NAME tycho.run.digest_invariant
         COMMAND ${CMAKE_COMMAND} -DMPIEXEC=${MPIEXEC_EXECUTABLE} -DNPFLAG=${MPIEXEC_NUMPROC_FLAG}
                 -DEXE=$<TARGET_FILE:tycho> -DMESH=${_mesh} "-DRUNS=${_runs}" "-DARGS=--iterations 3"
                 -P ${CMAKE_CURRENT_LIST_DIR}/run_tycho_digest.cmake)
# OMP_WAIT_POLICY=passive: 2 ranks x 2 threads on 2 cores spin 40x slower in the per-step barrier.
set_tests_properties(tycho.run.digest_invariant PROPERTIES LABELS mpi PROCESSORS 4 TIMEOUT 600)
set_property(TEST tycho.run.digest_invariant APPEND PROPERTY ENVIRONMENT OMP_WAIT_POLICY=passive)

add_executable(tycho_results_file_check ${CMAKE_CURRENT_LIST_DIR}/results_file_check.cpp)
target_link_libraries(tycho_results_file_check PRIVATE tycho_core catch_mpi_main)
foreach(n 1 2 4)
  # %.2e of a residual below 1e-12: 0.00e+00 or an exponent of -13 or less.
  suite_add_mpi_test(NAME tycho.run.balance.np${n} TARGET tycho RANKS ${n} TIMEOUT 120
    ARGS ${_mesh} --iterations 3 --no-results
    EXPECT "sweep balance residual -?(0\\.00e\\+00|[0-9]\\.[0-9][0-9]e-(1[3-9]|[2-9][0-9]|[0-9][0-9][0-9])) \\(emission = collision \\+ leakage. lagged faces: 0\\)")
  set(_file ${CMAKE_CURRENT_BINARY_DIR}/tycho_run_np${n}.h5)
  suite_add_mpi_test(NAME tycho.run.results_write.np${n} TARGET tycho RANKS ${n} TIMEOUT 120
    ARGS ${_mesh} --iterations 3 --results ${_file} EXPECT " Results file: ${_file}")
  suite_add_mpi_test(NAME tycho.run.results_read.np${n} TARGET tycho_results_file_check RANKS 1 TIMEOUT 60)
  set_tests_properties(tycho.run.results_write.np${n} PROPERTIES FIXTURES_SETUP tycho_results_np${n})
  set_tests_properties(tycho.run.results_read.np${n} PROPERTIES FIXTURES_REQUIRED tycho_results_np${n})
  set_property(TEST tycho.run.results_read.np${n} APPEND PROPERTY ENVIRONMENT
    TYCHO_RESULTS_FILE=${_file} TYCHO_RESULTS_RANKS=${n} TYCHO_RESULTS_ITERATIONS=3)
endforeach()
# T_elem split in the summary: the gathers and solves, and the rest of the steps' compute (the
# batches chosen, downwind tasks released, outflow packed), each at least 1 ns a task: both
# timed, the first not more than T_elem ("-" or 0.x would not match). The results file's
# attribute is checked against T_elem by tycho.run.results_read.
foreach(n 1 2)
  suite_add_mpi_test(NAME tycho.run.t_elem_parts.np${n} TARGET tycho RANKS ${n} TIMEOUT 120
    ARGS ${_mesh} --iterations 3 --no-results
    EXPECT "T_elem's parts: the inflow gathers and cell solves [1-9][0-9]*\\.[0-9] ns a task \\([0-9]+\\.[0-9] ns per group\\), choosing the batches, releasing downwind tasks, packing outflow and resetting the ready queue [1-9][0-9]*\\.[0-9] ns")
endforeach()
# PCE (eq. 4) printed: exactly 1 at one rank (the sum of the steps' work is the rank's work).
suite_add_mpi_test(NAME tycho.run.pce_one_rank TARGET tycho RANKS 1 TIMEOUT 120
  ARGS ${_mesh} --iterations 2 --no-results
  EXPECT "last sweep: [1-9][0-9]* steps \\(max over ranks\\) of at most 512 tasks. PCE \\(eq. 4\\) 1.0000")
# The scored sweeps' PCE, the one a calibration hands the GM: 1 at one rank; of sweeps 2-3 of 3
# (the first, which pays the first touches, left out as the measured rows leave it).
suite_add_mpi_test(NAME tycho.run.pce_scored_one_rank TARGET tycho RANKS 1 TIMEOUT 120
  ARGS ${_mesh} --iterations 3 --no-results
  EXPECT "scored sweeps \\(2-3\\): [1-9][0-9]* steps a sweep \\(mean\\). PCE \\(eq. 4\\) 1.0000")
