# replay-bench refuses, before simulating, a wavefront whose replay needs more memory than
# the machine has (instrument/replay_memory.hpp; SUITE_MEMORY_AVAILABLE stands in for it) or
# more than 2^31 operations in all (replay-bench --help says why): `--ranks 16777216` hung
# at 3.6 GiB after 45 s, `--ranks 16 --blocks 100000000` took 8 GiB in 8 s.
set(_bench $<TARGET_FILE:replay-bench>)
suite_add_error_test(NAME instrument.replay_bench_limits.ranks_2^24 ONE_LINE TIMEOUT 20
  EXPECT "^replay-bench: error: command line:--ranks/--blocks: replaying 4096 x 4096 ranks, 600 blocks needs about [0-9.]+ GiB, more than the 4 GiB available$"
  COMMAND ${_bench} --ranks 16777216 --reps 1)
suite_add_error_test(NAME instrument.replay_bench_limits.blocks_1e8 ONE_LINE TIMEOUT 20
  EXPECT "^replay-bench: error: command line:--ranks/--blocks: replaying 4 x 4 ranks, 100000000 blocks needs about [0-9.]+ GiB, more than the 4 GiB available$"
  COMMAND ${_bench} --ranks 16 --blocks 100000000 --reps 1)
# In memory (about 400 MB) but 3.3e9 operations; and the default wavefront repeated 1000 times.
suite_add_error_test(NAME instrument.replay_bench_limits.operations ONE_LINE TIMEOUT 20
  EXPECT "^replay-bench: error: command line:--ranks/--blocks/--reps: expected at most 2\\^31 operations in all \\(one to three minutes. see --help\\), got 3266560000 \\(256 x 256 ranks, 10000 blocks, --reps 1\\)$"
  COMMAND ${_bench} --ranks 65536 --blocks 10000 --reps 1)
suite_add_error_test(NAME instrument.replay_bench_limits.repeats ONE_LINE TIMEOUT 20
  EXPECT "^replay-bench: error: command line:--ranks/--blocks/--reps: expected at most 2\\^31 operations in all \\(one to three minutes. see --help\\), got 12134400000 \\(64 x 64 ranks, 600 blocks, --reps 1000\\)$"
  COMMAND ${_bench} --reps 1000)
foreach(t ranks_2^24 blocks_1e8 operations repeats)
  set_property(TEST instrument.replay_bench_limits.${t} APPEND PROPERTY ENVIRONMENT SUITE_MEMORY_AVAILABLE=4GiB)
endforeach()
suite_add_error_test(NAME instrument.replay_bench_limits.unknown_option ONE_LINE TIMEOUT 20
  EXPECT "^replay-bench: error: command line:--bogus: unknown option \\(see replay-bench --help\\)$"
  COMMAND ${_bench} --bogus 1)
suite_add_expect_test(NAME instrument.replay_bench_limits.help
  EXPECT "At most 2\\^31 operations in all"
  COMMAND ${_bench} --help)
# What fits under a small stand-in runs.
suite_add_expect_test(NAME instrument.replay_bench_limits.fits
  EXPECT "ops simulated +3200"
  COMMAND ${_bench} --ranks 16 --blocks 50 --reps 1)
set_tests_properties(instrument.replay_bench_limits.fits PROPERTIES ENVIRONMENT SUITE_MEMORY_AVAILABLE=64MiB)
foreach(t help fits)
  set_tests_properties(instrument.replay_bench_limits.${t} PROPERTIES LABELS unit TIMEOUT 20)
endforeach()
