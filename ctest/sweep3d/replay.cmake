# A recorded sweep3d run replayed by instrument-replay (instrument/replay_trace.hpp): the
# canonical deck (input50, 12 iterations, ~0.1 s at 2 ranks) at 1 rank (the calibration) and
# at 2 ranks (1x2), both traced, on this VM's probed machine file (replay_this_vm.machine).
#   replay.self        --self (the run's own compute gaps: the simulator's consistency check):
#                      every rank's replayed compute equals its measured compute;
#   replay.calibrated  compute from the 1-rank run (a prediction): every compute piece has a
#                      cost in the calibration.
# The T_total errors are printed, not asserted (run_replay_check.cmake): they are timing
# figures, measured on an idle machine in BENCHMARKS.md.
set(_deck ${PROJECT_SOURCE_DIR}/inputs/sweep3d/input50)
set(_machine ${CMAKE_CURRENT_LIST_DIR}/replay_this_vm.machine)
set(_blocking --mk 10 --mmi 3)  # the deck's, also at 1 rank (where it would be forced to mk = kt)
set(_np2_args ${_deck} --grid 1x2 ${_blocking} --trace 100000 --machine ${_machine})
set(_np1_args ${_deck} ${_blocking} --trace 100000 --no-machine)  # no models: no machine recorded
suite_add_mpi_test(NAME sweep3d.replay.record.np2 TARGET sweep3d RANKS 2 LABELS unit
                   ARGS ${_np2_args} --results replay_np2.h5)
set_tests_properties(sweep3d.replay.record.np2 PROPERTIES FIXTURES_SETUP replay_np2)
suite_add_mpi_test(NAME sweep3d.replay.calibration.np1 TARGET sweep3d RANKS 1 LABELS unit
                   ARGS ${_np1_args} --results replay_np1.h5)
set_tests_properties(sweep3d.replay.calibration.np1 PROPERTIES FIXTURES_SETUP replay_np1)
suite_add_mpi_test(NAME sweep3d.replay.untraced.np1 TARGET sweep3d RANKS 1 LABELS unit
                   ARGS ${PROJECT_SOURCE_DIR}/inputs/sweep3d/small.input --no-machine --results replay_untraced.h5)
set_tests_properties(sweep3d.replay.untraced.np1 PROPERTIES FIXTURES_SETUP replay_untraced)

# sweep3d_replay_check(mode replay-args...)
function(sweep3d_replay_check mode)
  string(REPLACE ";" "|" _args "${ARGN}")
  add_test(NAME sweep3d.replay.${mode}
           COMMAND ${CMAKE_COMMAND} -DREPLAY=$<TARGET_FILE:instrument-replay> -DMODE=${mode}
                   "-DARGS=${_args}" -P ${CMAKE_CURRENT_LIST_DIR}/run_replay_check.cmake
           WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(sweep3d.replay.${mode} PROPERTIES LABELS unit TIMEOUT 120)
endfunction()
sweep3d_replay_check(self replay_np2.h5 --self --trace-out replay_np2_replayed.json)
set_tests_properties(sweep3d.replay.self PROPERTIES FIXTURES_REQUIRED replay_np2)
sweep3d_replay_check(calibrated replay_np2.h5 --costs replay_np1.h5)
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
  "instrument-replay: error: replay_np1.h5:/machine: machine parameters recorded by the run [(]it was made without --machine[)]. give --machine FILE"
  replay_np1 replay_np1.h5 --self)
sweep3d_replay_error(no_cost_source
  "instrument-replay: error: command line: exactly one source of compute costs: --self"
  replay_np2 replay_np2.h5)
sweep3d_replay_error(missing_file "instrument-replay: error: no-such.h5" "" no-such.h5 --self)
