# Bad input to bsp_predict and bspprobe: one line naming the file (or option), the place
# (line, superstep, key) and the range expected; non-zero exit of every process; no output
# file left. The profiles and machine files are the good ones (fixed_profile.csv, the SP2
# machine file) with one edit each, written at configure time.
set(bad_dir ${CMAKE_CURRENT_BINARY_DIR}/bad_tool_inputs)
file(MAKE_DIRECTORY ${bad_dir})
file(READ ${CMAKE_CURRENT_LIST_DIR}/fixed_profile.csv good_profile)
set(good_machine_path ${CMAKE_CURRENT_LIST_DIR}/../../inputs/bsp/ibm-sp2-switch-p4.machine)
file(READ ${good_machine_path} good_machine)
set(good_profile_path ${CMAKE_CURRENT_LIST_DIR}/fixed_profile.csv)

# profile cases: name|text replaced|replacement|message expected (after "<file>:")
set(row_1_1 "1,1,empty,0.000300000,0.000310000,0.000400000,0.000010000,0.000090000,0,0,0,0,0\n")
set(profile_cases
  "nan_time|0.000020000,0.000300000,0.000020000|0.000020000,nan,0.000020000|line 5: t_exit must be a finite number in \\[0, 1e7\\] s. got .nan."
  "nan_measured|0.000090000,0,0,0,0,0|nan,0,0,0,0,0|line 7: comm_sync_s must be a finite number in \\[0, 1e7\\] s. got .nan."
  "trailing_junk|2000,2000,1,1,0|2000abc,2000,1,1,0|line 4: bytes_out must be an integer in \\[0, 9007199254740992\\] bytes. got .2000abc."
  "negative_bytes|0,0,0,0,0\n1,1|0,-8,0,0,0\n1,1|line 6: bytes_in must be an integer in \\[0, 9007199254740992\\] bytes. got .-8."
  "missing_row|${row_1_1}||superstep 1: no row for process 1 .every superstep 0..1 needs one row for each process 0..1."
  "missing_superstep|\n1,0,empty|\n2,0,empty|superstep 1: no row for process 0"
  "pid_out_of_range|\n1,1,empty|\n1,2,empty|line 7: pid must be an integer in \\[0, 1\\] .nprocs = 2.. got .2."
  "superstep_overflow|\n1,1,empty|\n4294967296,1,empty|line 7: superstep must be an integer in \\[0, 2147483647\\]. got .4294967296."
  "duplicate_row|${row_1_1}|${row_1_1}${row_1_1}|line 8: a second row for superstep 1, process 1 .the first is on line 7."
  "time_order|0.000300000,0.000400000,0.000000000|0.000400000,0.000300000,0.000000000|line 6: expected t_begin <= t_enter <= t_exit"
  "short_row|,0,0,0,0,0\n1,1|,0,0,0,0\n1,1|line 6: expected 13 comma-separated fields"
  "other_format|bsplib-profile-2|bsplib-profile-7|line 1: expected '# format = bsplib-profile-3' .or bsplib-profile-2., got format .bsplib-profile-7."
  "format_before_gets|bsplib-profile-2|bsplib-profile-1|line 1: format bsplib-profile-1 has no gets_out column, which the model needs"
  "negative_gets|2000,1,1,0\n0,1|2000,1,1,-1\n0,1|line 4: gets_out must be an integer in \\[0, 9007199254740992\\] gets. got .-1."
  "empty|superstep,pid|superstep,pid| no supersteps: expected one row per superstep and process")
foreach(c ${profile_cases})
  string(REPLACE "|" ";" parts "${c}")
  list(GET parts 0 name)
  list(GET parts 1 from)
  list(GET parts 2 to)
  list(GET parts 3 expect)
  string(FIND "${good_profile}" "${from}" at)
  if(at LESS 0)
    message(FATAL_ERROR "tool_errors.cmake: case ${name}: '${from}' is not in fixed_profile.csv")
  endif()
  string(REPLACE "${from}" "${to}" text "${good_profile}")
  if(name STREQUAL "empty")  # the comment and header lines only
    string(REGEX REPLACE "\n[0-9][^\n]*" "" text "${good_profile}")
  endif()
  set(path ${bad_dir}/${name}.profile.csv)
  file(WRITE ${path} "${text}")
  # --h5 too: an empty profile used to give an HDF5 file with nranks = 0; none may be left.
  suite_add_error_test(NAME bsplib.bad_profile.${name} ONE_LINE NO_FILE ${bad_dir}/${name}.h5
                       EXPECT "^bsp_predict: .*/${name}.profile.csv:${expect}"
                       COMMAND $<TARGET_FILE:bsp_predict> ${path} ${good_machine_path}
                               --h5 ${bad_dir}/${name}.h5)
endforeach()

# machine-file cases: name|line replaced|replacement|message expected
set(machine_cases
  "negative_l|bsp.l_seconds = 0.000159962|bsp.l_seconds = -1e-6|bsp.l_seconds: bsp.l_seconds must be a finite number in \\[0, 100\\] s. got -1e-6"
  "negative_g|bsp.g_seconds_per_byte = 7.40385e-08|bsp.g_seconds_per_byte = -7e-8|bsp.g_seconds_per_byte: bsp.g_seconds_per_byte must be a finite number in \\[0, 1\\] s/byte. got -7e-8"
  "negative_n_half|bsp.n_half_bytes = 24|bsp.n_half_bytes = -24|bsp.n_half_bytes: bsp.n_half_bytes must be a finite number in \\[0, 1e12\\] bytes. got -24"
  "infinite_l|bsp.l_seconds = 0.000159962|bsp.l_seconds = inf|bsp.l_seconds: bsp.l_seconds must be a finite number in \\[0, 100\\] s. got inf"
  "zero_p|bsp.p = 4|bsp.p = 0|bsp.p: bsp.p must be a finite number in \\[1, 2147483647\\] processes. got 0"
  "fractional_word|bsp.word_bytes = 4|bsp.word_bytes = 4.5|bsp.word_bytes: bsp.word_bytes must be an integer in \\[1, 64\\] bytes. got .4.5."
  "after_gap_partial|bsp.word_bytes = 4|bsp.word_bytes = 4\nbsp.after_gap.gap_seconds = 0 1e-3\nbsp.after_gap.empty_seconds = 1e-6 2e-6|bsp.after_gap.\\*: the after-gap costs need all of bsp.after_gap.gap_seconds"
  "after_gap_falling|bsp.word_bytes = 4|bsp.word_bytes = 4\nbsp.after_gap.gap_seconds = 0 1e-3 1e-4\nbsp.after_gap.empty_seconds = 1e-6 2e-6 3e-6\nbsp.after_gap.one_way_64_seconds = 1e-6 2e-6 3e-6\nbsp.after_gap.one_way_2048_seconds = 1e-6 2e-6 3e-6|bsp.after_gap.gap_seconds item 3: bsp.after_gap.gap_seconds must be numbers in \\[0, 100\\] s, 0 first, strictly rising. got 1e-04")
foreach(c ${machine_cases})
  string(REPLACE "|" ";" parts "${c}")
  list(GET parts 0 name)
  list(GET parts 1 from)
  list(GET parts 2 to)
  list(GET parts 3 expect)
  string(FIND "${good_machine}" "${from}" at)
  if(at LESS 0)
    message(FATAL_ERROR "tool_errors.cmake: case ${name}: '${from}' is not in the SP2 machine file")
  endif()
  string(REPLACE "${from}" "${to}" text "${good_machine}")
  set(path ${bad_dir}/${name}.machine)
  file(WRITE ${path} "${text}")
  suite_add_error_test(NAME bsplib.bad_machine.${name} ONE_LINE
                       EXPECT "^bsp_predict: .*/${name}.machine:${expect}"
                       COMMAND $<TARGET_FILE:bsp_predict> ${good_profile_path} ${path})
endforeach()

# bsp_predict's arguments and files that are not regular files.
execute_process(COMMAND mkfifo ${bad_dir}/fifo.profile.csv ERROR_QUIET)
set(predict_cases
  "csv_without_file|--csv|command line:--csv: expected a value after it$"
  "unknown_option|--bogus|command line:--bogus: unknown option .see bsp_predict --help.$"
  "fifo_profile|${bad_dir}/fifo.profile.csv|fifo.profile.csv: BSP profile is a FIFO, not a regular file"
  "csv_to_device|--csv,/dev/null|/dev/null: cannot write prediction CSV: it is a character device, not a regular file. refusing to replace it"
  "h5_to_directory|--h5,${bad_dir}|bad_tool_inputs: cannot write results file: it is a directory, not a regular file")
foreach(c ${predict_cases})
  string(REPLACE "|" ";" parts "${c}")
  list(GET parts 0 name)
  list(GET parts 1 args)
  list(GET parts 2 expect)
  string(REPLACE "," ";" args "${args}")
  if(name STREQUAL "fifo_profile")
    set(cmd ${args} ${good_machine_path})
  else()
    set(cmd ${good_profile_path} ${good_machine_path} ${args})
  endif()
  suite_add_error_test(NAME bsplib.bad_predict.${name} ONE_LINE TIMEOUT 30
                       EXPECT "^bsp_predict: .*${expect}"
                       COMMAND $<TARGET_FILE:bsp_predict> ${cmd})
endforeach()

# bspprobe's options, checked on both processes before measuring: one line (process 0's),
# both exit 1, nothing written. The memory case lowers RLIMIT_AS to 3 GB: ASan's shadow
# memory needs far more address space, so not under the sanitizers.
set(probe_cases
  "hmax_bad_alloc|--reps,1,--hmax,2000000000|--hmax: the value must be an integer in \\[1024, 1073741824\\] bytes. got .2000000000."
  "hmax_wraps|--hmax,99999999999|--hmax: the value must be an integer in \\[1024, 1073741824\\] bytes. got .99999999999."
  "hmax_trailing_junk|--hmax,2000abc|--hmax: the value must be an integer in \\[1024, 1073741824\\] bytes. got .2000abc."
  "hmax_for_p|--hmax,1073741800|--hmax: the value must be in \\[1024, 1073741791\\] bytes at p = 2"
  "accuracy_nan|--accuracy,nan|--accuracy: the value must be a finite number in \\[0.001, 100\\] percent. got .nan."
  "reps_zero|--reps,0|--reps: the value must be an integer in \\[1, 10000\\] repetitions. got .0."
  "reps_twice|--reps,2,--reps,3|command line:--reps: given twice. expected it once$"
  "name_newline|--name,a\nb|--name: expected 1 to 256 bytes without control characters. got .a.x0ab."
  "out_device|--out,/dev/null|/dev/null: cannot write machine file: it is a character device"
  "unknown_option|--repz,3|command line:--repz: unknown option .see bspprobe --help.$")
foreach(c ${probe_cases})
  string(REPLACE "|" ";" parts "${c}")
  list(GET parts 0 name)
  list(GET parts 1 args)
  list(GET parts 2 expect)
  string(REPLACE "," ";" args "${args}")
  if(NOT name STREQUAL "out_device")
    list(APPEND args --out ${bad_dir}/${name}.machine)
  endif()
  suite_add_error_test(NAME bsplib.bad_probe.${name} RANKS 2 ONE_LINE LABELS "mpi;unit" TIMEOUT 60
                       NO_FILE ${bad_dir}/${name}.machine
                       EXPECT "^bspprobe: error: ${expect}"
                       COMMAND $<TARGET_FILE:bspprobe> ${args})
endforeach()
if(NOT SUITE_SANITIZE)
  suite_add_error_test(NAME bsplib.bad_probe.hmax_memory RANKS 2 ONE_LINE LABELS "mpi;unit" TIMEOUT 60
                       NO_FILE ${bad_dir}/hmax_memory.machine
                       EXPECT "^bspprobe: error: --hmax: measuring h-relations of 536870912 bytes .* needs [0-9.]+ GiB, more than the [0-9.]+ GiB this process can allocate"
                       COMMAND sh -c "ulimit -v 3000000 && exec \"$0\" \"$@\"" $<TARGET_FILE:bspprobe>
                               --reps 1 --hmax 536870912 --out ${bad_dir}/hmax_memory.machine)
endif()
