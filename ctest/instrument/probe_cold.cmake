# loggps-probe's cold-message and after-stream experiments (probe_cold.hpp, the loggp.cold.*
# and loggp.after_stream.* keys): a smoke run at 2 ranks at a tiny working set and a short
# stream whose file holds the keys as the models read them, and the refusals (1 rank, bad
# --working-sets, bad --stream-messages) in one line with no file written.
if(NOT TARGET loggps-probe)
  return()
endif()
set(_cold_dir ${CMAKE_CURRENT_BINARY_DIR})

add_test(NAME instrument.probe.cold_clean COMMAND ${CMAKE_COMMAND} -E rm -f ${_cold_dir}/probe_cold.machine)
set_tests_properties(instrument.probe.cold_clean PROPERTIES LABELS "mpi" FIXTURES_SETUP probe_cold_clean)
add_test(NAME instrument.probe.cold_np2
         COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${MPIEXEC_PREFLAGS} $<TARGET_FILE:loggps-probe>
                 ${MPIEXEC_POSTFLAGS} --quick --reps 3 --max-bytes 1024 --working-sets 4096
                 --stream-messages 2 --out ${_cold_dir}/probe_cold.machine
         WORKING_DIRECTORY ${_cold_dir})
set_tests_properties(instrument.probe.cold_np2 PROPERTIES LABELS "mpi" PROCESSORS 2 TIMEOUT 180 RUN_SERIAL TRUE
                     FIXTURES_REQUIRED probe_cold_clean FIXTURES_SETUP probe_cold
                     PASS_REGULAR_EXPRESSION "cold messages: the first MPI call")
add_test(NAME instrument.probe.cold_keys
         COMMAND ${CMAKE_COMMAND} -DFILE=${_cold_dir}/probe_cold.machine
                 -P ${CMAKE_CURRENT_LIST_DIR}/run_probe_cold_keys.cmake)
set_tests_properties(instrument.probe.cold_keys PROPERTIES LABELS "mpi" FIXTURES_REQUIRED probe_cold)
add_test(NAME instrument.probe.after_stream_keys
         COMMAND ${CMAKE_COMMAND} -DFILE=${_cold_dir}/probe_cold.machine
                 -P ${CMAKE_CURRENT_LIST_DIR}/run_probe_after_stream_keys.cmake)
set_tests_properties(instrument.probe.after_stream_keys PROPERTIES LABELS "mpi" FIXTURES_REQUIRED probe_cold)

# The rendezvous sizes (messages above the eager limit, each call from its partner's arrival).
add_test(NAME instrument.probe.cold_rendezvous_clean COMMAND ${CMAKE_COMMAND} -E rm -f ${_cold_dir}/probe_rendezvous.machine)
set_tests_properties(instrument.probe.cold_rendezvous_clean PROPERTIES LABELS "mpi" FIXTURES_SETUP probe_rendezvous_clean)
add_test(NAME instrument.probe.cold_rendezvous_np2
         COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${MPIEXEC_PREFLAGS} $<TARGET_FILE:loggps-probe>
                 ${MPIEXEC_POSTFLAGS} --quick --reps 3 --max-bytes 32768 --working-sets 4096
                 --rendezvous-bytes 16384,32768 --stream-messages 2 --out ${_cold_dir}/probe_rendezvous.machine
         WORKING_DIRECTORY ${_cold_dir})
set_tests_properties(instrument.probe.cold_rendezvous_np2 PROPERTIES LABELS "mpi" PROCESSORS 2 TIMEOUT 180 RUN_SERIAL TRUE
                     FIXTURES_REQUIRED probe_rendezvous_clean FIXTURES_SETUP probe_rendezvous
                     PASS_REGULAR_EXPRESSION "cold messages: the first MPI call")
add_test(NAME instrument.probe.cold_rendezvous_keys
         COMMAND ${CMAKE_COMMAND} -DFILE=${_cold_dir}/probe_rendezvous.machine
                 -P ${CMAKE_CURRENT_LIST_DIR}/run_probe_rendezvous_keys.cmake)
set_tests_properties(instrument.probe.cold_rendezvous_keys PROPERTIES LABELS "mpi" FIXTURES_REQUIRED probe_rendezvous)
# The default working sets (those around the L2 included), each streamed from several buffers.
add_test(NAME instrument.probe.cold_default_sets_clean COMMAND ${CMAKE_COMMAND} -E rm -f ${_cold_dir}/probe_default_sets.machine)
set_tests_properties(instrument.probe.cold_default_sets_clean PROPERTIES LABELS "mpi" FIXTURES_SETUP probe_default_sets_clean)
add_test(NAME instrument.probe.cold_default_sets_np2
         COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${MPIEXEC_PREFLAGS} $<TARGET_FILE:loggps-probe>
                 ${MPIEXEC_POSTFLAGS} --quick --reps 3 --max-bytes 32768 --stream-messages 2
                 --out ${_cold_dir}/probe_default_sets.machine
         WORKING_DIRECTORY ${_cold_dir})
set_tests_properties(instrument.probe.cold_default_sets_np2 PROPERTIES LABELS "mpi" PROCESSORS 2 TIMEOUT 180 RUN_SERIAL TRUE
                     FIXTURES_REQUIRED probe_default_sets_clean FIXTURES_SETUP probe_default_sets
                     PASS_REGULAR_EXPRESSION "cold messages: the first MPI call")
add_test(NAME instrument.probe.cold_default_sets_keys
         COMMAND ${CMAKE_COMMAND} -DFILE=${_cold_dir}/probe_default_sets.machine
                 -P ${CMAKE_CURRENT_LIST_DIR}/run_probe_default_sets.cmake)
set_tests_properties(instrument.probe.cold_default_sets_keys PROPERTIES LABELS "mpi" FIXTURES_REQUIRED probe_default_sets)
suite_add_error_test(NAME instrument.probe.rendezvous_bytes_order RANKS 2 ONE_LINE LABELS mpi
  EXPECT "^loggps-probe: error: command line:--rendezvous-bytes: expected increasing sizes, got \"24000,12000\"$"
  NO_FILE ${_cold_dir}/rndv_order.machine
  COMMAND $<TARGET_FILE:loggps-probe> --quick --rendezvous-bytes 24000,12000 --out ${_cold_dir}/rndv_order.machine)
suite_add_error_test(NAME instrument.probe.rendezvous_bytes_zero RANKS 2 ONE_LINE LABELS mpi
  EXPECT "^loggps-probe: error: command line:--rendezvous-bytes: expected a whole number in \\[1, 1073741824\\] B, got \"0\"$"
  COMMAND $<TARGET_FILE:loggps-probe> --quick --rendezvous-bytes 0)

suite_add_error_test(NAME instrument.probe.cold_np1 RANKS 1 ONE_LINE LABELS mpi
  EXPECT "^loggps-probe: error: needs exactly 2 ranks, got 1" NO_FILE ${_cold_dir}/cold_np1.machine
  COMMAND $<TARGET_FILE:loggps-probe> --quick --working-sets 4096 --out ${_cold_dir}/cold_np1.machine)
suite_add_error_test(NAME instrument.probe.working_sets_order RANKS 2 ONE_LINE LABELS mpi
  EXPECT "^loggps-probe: error: command line:--working-sets: expected increasing sizes, got \"4096,1024\"$"
  NO_FILE ${_cold_dir}/cold_order.machine
  COMMAND $<TARGET_FILE:loggps-probe> --quick --working-sets 4096,1024 --out ${_cold_dir}/cold_order.machine)
suite_add_error_test(NAME instrument.probe.working_sets_junk RANKS 2 ONE_LINE LABELS mpi
  EXPECT "^loggps-probe: error: command line:--working-sets: expected a whole number in \\[0, 1073741824\\] B, got \"4k\"$"
  COMMAND $<TARGET_FILE:loggps-probe> --quick --working-sets 0,4k)
suite_add_error_test(NAME instrument.probe.stream_messages_order RANKS 2 ONE_LINE LABELS mpi
  EXPECT "^loggps-probe: error: command line:--stream-messages: expected increasing counts, got \"10,5\"$"
  NO_FILE ${_cold_dir}/stream_order.machine
  COMMAND $<TARGET_FILE:loggps-probe> --quick --stream-messages 10,5 --out ${_cold_dir}/stream_order.machine)
suite_add_error_test(NAME instrument.probe.stream_messages_range RANKS 2 ONE_LINE LABELS mpi
  EXPECT "^loggps-probe: error: command line:--stream-messages: expected a whole number in \\[0, 1000\\], got \"5000\"$"
  COMMAND $<TARGET_FILE:loggps-probe> --quick --stream-messages 5,5000)
