# sweep3d-model --replay: the generated KBA program replayed beside the models (a 2x2 grid of
# the canonical 5x5x400 per rank), and --replay-trace refused without --replay.
# test.machine has LogGP only; the replay needs LogGPS: a copy of the main job's probe file.
set(_machine ${CMAKE_CURRENT_LIST_DIR}/replay_test.machine)
suite_add_expect_test(NAME sweep3d_model.projection_replay
  EXPECT "4 +2x2 +5x5x400 +10 +3 +[0-9.e+-]+ .* [0-9.e+-]+ +[+-][0-9.]+% +[+-][0-9.]+% "
  COMMAND $<TARGET_FILE:sweep3d-model> --machine ${_machine} --wg 2e-9 --per-rank 5x5x400
          --npe 2x2 --mk 10 --mmi 3 --replay)
set_tests_properties(sweep3d_model.projection_replay PROPERTIES LABELS unit)
suite_add_error_test(NAME sweep3d_model.projection_replay_trace_alone ONE_LINE
  EXPECT "^sweep3d-model: error: command line:--replay-trace: --replay and exactly one process grid"
  COMMAND $<TARGET_FILE:sweep3d-model> --machine ${_machine} --wg 2e-9 --grid 10x10x10 --npe 1x1
          --replay-trace out.json)
