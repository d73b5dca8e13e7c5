# loggps-probe's experiment 7 (probe_pending.hpp, the loggp.pending.* keys): a run at 2 ranks
# whose file holds sane figures (run_probe_pending_keys.cmake), and a bad --pending-bytes
# refused in one line with no file written.
if(NOT TARGET loggps-probe)
  return()
endif()
set(_pending_dir ${CMAKE_CURRENT_BINARY_DIR})
add_test(NAME instrument.probe.pending_clean COMMAND ${CMAKE_COMMAND} -E rm -f ${_pending_dir}/probe_pending.machine)
set_tests_properties(instrument.probe.pending_clean PROPERTIES LABELS "mpi" FIXTURES_SETUP probe_pending_clean)
add_test(NAME instrument.probe.pending_np2
         COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${MPIEXEC_PREFLAGS} $<TARGET_FILE:loggps-probe>
                 ${MPIEXEC_POSTFLAGS} --quick --reps 9 --max-bytes 16384 --working-sets 4096 --stream-messages 2
                 --pending-bytes 64,512,2048 --out ${_pending_dir}/probe_pending.machine
         WORKING_DIRECTORY ${_pending_dir})
set_tests_properties(instrument.probe.pending_np2 PROPERTIES LABELS "mpi" PROCESSORS 2 TIMEOUT 180 RUN_SERIAL TRUE
                     FIXTURES_REQUIRED probe_pending_clean FIXTURES_SETUP probe_pending
                     PASS_REGULAR_EXPRESSION "pending messages: a send with the peer's message waiting")
add_test(NAME instrument.probe.pending_keys
         COMMAND ${CMAKE_COMMAND} -DFILE=${_pending_dir}/probe_pending.machine
                 -P ${CMAKE_CURRENT_LIST_DIR}/run_probe_pending_keys.cmake)
set_tests_properties(instrument.probe.pending_keys PROPERTIES LABELS "mpi" FIXTURES_REQUIRED probe_pending)
suite_add_error_test(NAME instrument.probe.pending_bytes_order RANKS 2 ONE_LINE LABELS mpi
  EXPECT "^loggps-probe: error: command line:--pending-bytes: expected increasing sizes, got \"512,64\"$"
  NO_FILE ${_pending_dir}/pending_order.machine
  COMMAND $<TARGET_FILE:loggps-probe> --quick --pending-bytes 512,64 --out ${_pending_dir}/pending_order.machine)
# A size past 2^24 B would overflow the attached buffer's int size: refused before any MPI call.
suite_add_error_test(NAME instrument.probe.pending_bytes_too_large RANKS 2 ONE_LINE LABELS mpi
  EXPECT "^loggps-probe: error: command line:--pending-bytes: expected a whole number in \\[1, 16777216\\] B, got \"268435456\"$"
  NO_FILE ${_pending_dir}/pending_large.machine
  COMMAND $<TARGET_FILE:loggps-probe> --quick --pending-bytes 64,268435456 --out ${_pending_dir}/pending_large.machine)
