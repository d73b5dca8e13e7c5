# A recorded sweep3d run replayed by instrument-replay (instrument/replay_trace.hpp): the
# canonical deck (input50, 12 iterations, ~0.2 s at 2 ranks) at 1 rank (the calibration) and
# at 2 ranks (1x2), both traced, on this VM's probed machine file (replay_this_vm.machine).
#   replay.self        --self (the run's own compute gaps: the simulator's consistency check):
#                      every rank's replayed compute equals its measured compute, the replay
#                      is not slower than the run by more than 5%, and T_total within 5%;
#   replay.calibrated  compute from the 1-rank run (a prediction): every compute piece has a
#                      cost in the calibration; T_total within a loose 50% (the 10% target is
#                      a benchmark figure on an idle machine, /work/notes/issue10-doc-trace.md).
# Timing on a loaded 2-core host: a rank preempted inside an MPI call makes the run slower than
# any model of the machine, so a T_total outside its bound is retried on fresh runs (best of 3)
# and, if the host's load average exceeds its cores, reported as skipped, not passed
# (run_replay_check.cmake). The other assertions hold under any load.
set(_deck ${PROJECT_SOURCE_DIR}/inputs/sweep3d/input50)
set(_machine ${CMAKE_CURRENT_LIST_DIR}/replay_this_vm.machine)
set(_blocking --mk 10 --mmi 3)  # the deck's, also at 1 rank (where it would be forced to mk = kt)
set(_np2_args ${_deck} --grid 1x2 ${_blocking} --trace 100000 --machine ${_machine})
set(_np1_args ${_deck} ${_blocking} --trace 100000)
suite_add_mpi_test(NAME sweep3d.replay.record.np2 TARGET sweep3d RANKS 2 LABELS unit
                   ARGS ${_np2_args} --results replay_np2.h5)
set_tests_properties(sweep3d.replay.record.np2 PROPERTIES FIXTURES_SETUP replay_np2)
suite_add_mpi_test(NAME sweep3d.replay.calibration.np1 TARGET sweep3d RANKS 1 LABELS unit
                   ARGS ${_np1_args} --results replay_np1.h5)
set_tests_properties(sweep3d.replay.calibration.np1 PROPERTIES FIXTURES_SETUP replay_np1)
suite_add_mpi_test(NAME sweep3d.replay.untraced.np1 TARGET sweep3d RANKS 1 LABELS unit
                   ARGS ${PROJECT_SOURCE_DIR}/inputs/sweep3d/small.input --results replay_untraced.h5)
set_tests_properties(sweep3d.replay.untraced.np1 PROPERTIES FIXTURES_SETUP replay_untraced)

# sweep3d_replay_check(mode max_error_percent replay-args...)
function(sweep3d_replay_check mode max_error)
  string(REPLACE ";" "|" _args "${ARGN}")
  string(REPLACE ";" "|" _record "${MPIEXEC_EXECUTABLE};${MPIEXEC_NUMPROC_FLAG};2;$<TARGET_FILE:sweep3d>;${_np2_args}")
  add_test(NAME sweep3d.replay.${mode}
           COMMAND ${CMAKE_COMMAND} -DREPLAY=$<TARGET_FILE:instrument-replay> -DMODE=${mode}
                   -DMAX_ERROR=${max_error} "-DARGS=${_args}" "-DRECORD=${_record}"
                   -P ${CMAKE_CURRENT_LIST_DIR}/run_replay_check.cmake
           WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(sweep3d.replay.${mode} PROPERTIES LABELS mpi TIMEOUT 300 PROCESSORS 2
                       SKIP_REGULAR_EXPRESSION "replay check skipped: loaded host")
endfunction()
sweep3d_replay_check(self 5 replay_np2.h5 --self --trace-out replay_np2_replayed.json)
set_tests_properties(sweep3d.replay.self PROPERTIES FIXTURES_REQUIRED replay_np2)
sweep3d_replay_check(calibrated 50 replay_np2.h5 --costs replay_np1.h5)
set_tests_properties(sweep3d.replay.calibrated PROPERTIES FIXTURES_REQUIRED "replay_np2;replay_np1")

# Bad input: one line naming the file and what was expected, exit 1.
function(sweep3d_replay_error case regex fixtures)
  suite_add_error_test(NAME sweep3d.replay.bad.${case} ONE_LINE EXPECT "${regex}"
                       COMMAND $<TARGET_FILE:instrument-replay> ${ARGN})
  if(fixtures)
    set_tests_properties(sweep3d.replay.bad.${case} PROPERTIES FIXTURES_REQUIRED "${fixtures}")
  endif()
endfunction()
sweep3d_replay_error(no_trace
  "instrument-replay: error: replay_untraced.h5:/trace: a trace of the run [(]none recorded: was it run with --trace N[?][)]"
  replay_untraced replay_untraced.h5 --self --machine ${_machine})
sweep3d_replay_error(calibration_no_trace
  "instrument-replay: error: replay_untraced.h5:/trace: a trace of the run"
  "replay_np2;replay_untraced" replay_np2.h5 --costs replay_untraced.h5)
sweep3d_replay_error(no_machine_recorded
  "instrument-replay: error: replay_np1.h5:/machine: machine parameters recorded by the run [(]it was made without --machine[)]; give --machine FILE"
  replay_np1 replay_np1.h5 --self)
sweep3d_replay_error(no_cost_source
  "instrument-replay: error: command line: exactly one source of compute costs: --self"
  replay_np2 replay_np2.h5)
sweep3d_replay_error(missing_file "instrument-replay: error: no-such.h5" "" no-such.h5 --self)
