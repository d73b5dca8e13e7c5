# sweep3d_bench reads its options strictly (instrument/option_number.hpp): it took them with
# atoi, so --reps 0, -1, 1e300, nan, abc, "" and 2^63, --its 1e300 and --threads 0 ran (or
# ran nothing) without a word. Every bad value, a missing one and an unknown option are one
# line and exit 1 on every rank, before any run; at 1 and 2 ranks.
set(_range_reps "expected a whole number in \\[1, 100\\], got")
set(_range_its "expected a whole number in \\[1, 1000\\], got")
set(_range_threads "expected a whole number in \\[1, 64\\], got")
foreach(n 1 2)
  foreach(case "reps_0|--reps|0|${_range_reps} \"0\""
               "reps_negative|--reps|-1|${_range_reps} \"-1\""
               "reps_1e300|--reps|1e300|${_range_reps} \"1e300\""
               "reps_nan|--reps|nan|${_range_reps} \"nan\""
               "reps_abc|--reps|abc|${_range_reps} \"abc\""
               "reps_2^63|--reps|9223372036854775808|${_range_reps} \"9223372036854775808\""
               "its_1e300|--its|1e300|${_range_its} \"1e300\""
               "its_1001|--its|1001|${_range_its} \"1001\""
               "threads_0|--threads|0|${_range_threads} \"0\""
               "threads_65|--threads|65|${_range_threads} \"65\"")
    string(REPLACE "|" ";" fields "${case}")
    list(GET fields 0 name)
    list(GET fields 1 opt)
    list(GET fields 2 value)
    list(GET fields 3 said)
    suite_add_error_test(NAME sweep3d.bench_options.${name}.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 20
      EXPECT "^sweep3d_bench: error: command line:${opt}: ${said}$"
      COMMAND $<TARGET_FILE:sweep3d_bench> ${opt} ${value})
  endforeach()
  # (An empty argument cannot pass through a CMake list: a shell adds it.)
  suite_add_error_test(NAME sweep3d.bench_options.reps_empty.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 20
    EXPECT "^sweep3d_bench: error: command line:--reps: ${_range_reps} \"\"$"
    COMMAND sh -c "exec \"$0\" --reps ''" $<TARGET_FILE:sweep3d_bench>)
  suite_add_error_test(NAME sweep3d.bench_options.no_value.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 20
    EXPECT "^sweep3d_bench: error: command line:--its: expected a value after it$"
    COMMAND $<TARGET_FILE:sweep3d_bench> --its)
  suite_add_error_test(NAME sweep3d.bench_options.unknown.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 20
    EXPECT "^sweep3d_bench: error: command line:--bogus: unknown option \\(see sweep3d_bench --help\\)$"
    COMMAND $<TARGET_FILE:sweep3d_bench> --bogus)
endforeach()
