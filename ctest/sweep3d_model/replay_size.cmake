# sweep3d-model --replay: a replay the machine has not the memory for, or that would simulate
# for hours, is refused before any work, in one line with the GiB needed and available
# (instrument/replay_memory.hpp from KbaProgram::counts): `--procs 16777216 --per-rank
# 5x5x400 --replay` once reached 7.1 GiB in 45 s, still growing. SUITE_MEMORY_AVAILABLE stands
# in for the machine's free memory; a replay that fits under it still runs.
set(_model $<TARGET_FILE:sweep3d-model> --machine ${PROJECT_SOURCE_DIR}/ctest/sweep3d_model/replay_test.machine
           --wg 1e-8 --mmi 3)
set(_dir ${CMAKE_CURRENT_BINARY_DIR}/sweep3d_model_replay_size)
file(MAKE_DIRECTORY ${_dir})
suite_add_error_test(NAME sweep3d_model.replay_size.procs_2^24 ONE_LINE TIMEOUT 20
  EXPECT "^sweep3d-model: error: command line:--replay: the replay of 4096x4096 processes \\(53743714304 operations\\) needs about [0-9.]+ GiB, more than the 4 GiB available$"
  COMMAND ${_model} --per-rank 5x5x400 --procs 16777216 --mk 10 --replay)
# --replay-trace keeps every operation: 2e8 of them at 65536 processes.
suite_add_error_test(NAME sweep3d_model.replay_size.trace_kept ONE_LINE TIMEOUT 20 WORKING_DIRECTORY ${_dir}
  EXPECT "^sweep3d-model: error: command line:--replay: the replay of 256x256 processes \\(209321984 operations, each kept for --replay-trace\\) needs about [0-9.]+ GiB, more than the 4 GiB available$"
  NO_FILE ${_dir}/trace.json
  COMMAND ${_model} --per-rank 5x5x400 --procs 65536 --mk 10 --replay --replay-trace trace.json)
# Fits in memory (about 1 GB), but 5.9e10 operations: hours.
suite_add_error_test(NAME sweep3d_model.replay_size.hours ONE_LINE TIMEOUT 20
  EXPECT "^sweep3d-model: error: command line:--replay: at most 2\\^35 operations to replay \\(about 20 minutes at the engine's 3e7 a second\\), got 58972816384 for the process grids given. fewer processes, or a larger --mk$"
  COMMAND ${_model} --grid 4096x1x100000 --npe 4096x1 --mk 1 --mmi 1 --replay)
foreach(t procs_2^24 trace_kept hours)
  set_property(TEST sweep3d_model.replay_size.${t} APPEND PROPERTY ENVIRONMENT SUITE_MEMORY_AVAILABLE=4GiB)
endforeach()
# A replay that fits under a small stand-in runs (about 20 MB).
suite_add_expect_test(NAME sweep3d_model.replay_size.fits
  EXPECT "replay \\[s\\]"
  COMMAND ${_model} --per-rank 5x5x40 --procs 64 --mk 10 --replay)
set_tests_properties(sweep3d_model.replay_size.fits PROPERTIES LABELS unit TIMEOUT 60
                     ENVIRONMENT SUITE_MEMORY_AVAILABLE=64MiB)
