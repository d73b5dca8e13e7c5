# sweep3d-model, the projection command.
set(_machine ${CMAKE_CURRENT_LIST_DIR}/test.machine)
# The projection command: a weak-scaling table to 65536 processes and the best blocking.
suite_add_expect_test(NAME sweep3d_model.projection EXPECT "65536 +256x256 +6x6x100"
  COMMAND $<TARGET_FILE:sweep3d-model> --machine ${_machine} --wg 4e-9 --per-rank 6x6x100
          --procs 1,4,64,1024,65536 --mk 10 --mmi 3)
set_tests_properties(sweep3d_model.projection PROPERTIES LABELS unit)
# --mk auto with a fixed mmi keeps that mmi (each mmi has its own W_g).
suite_add_expect_test(NAME sweep3d_model.projection_auto_mk EXPECT "4 +2x2 +25x25x50 +[0-9]+ +3 "
  COMMAND $<TARGET_FILE:sweep3d-model> --machine ${_machine} --wg 1:1e-8,3:2e-9,6:1e-9 --grid 50x50x50
          --npe 2x2 --mk auto --mmi 3)
set_tests_properties(sweep3d_model.projection_auto_mk PROPERTIES LABELS unit)
suite_add_error_test(NAME sweep3d_model.projection_auto_mmi_one_wg ONE_LINE
  EXPECT "^sweep3d-model: error: command line:--wg: W_g per mmi"
  COMMAND $<TARGET_FILE:sweep3d-model> --machine ${_machine} --wg 2e-9 --grid 50x50x50 --npe 2x2 --mk auto --mmi auto)
suite_add_error_test(NAME sweep3d_model.projection_bad_option ONE_LINE
  EXPECT "^sweep3d-model: error: command line:--wg: a number of seconds in \\[1e-12, 1e-3\\] \\(W_g, per cell-angle\\), got \"-1\""
  COMMAND $<TARGET_FILE:sweep3d-model> --machine ${_machine} --wg -1 --grid 10x10x10 --npe 1x1)
# Every number of the command line has a range, named when refused; no model prints nan, inf
# or a negative time (the machine file's own ranges are the machine file reader's).
set(_bad_projection
  "wg_nan|--wg: a number of seconds in \\[1e-12, 1e-3\\] \\(W_g, per cell-angle\\), got \"nan\"|--wg nan --grid 10x10x10 --npe 1x1"
  "wg_inf|--wg: a number of seconds in \\[1e-12, 1e-3\\] .*, got \"inf\"|--wg inf --grid 10x10x10 --npe 1x1"
  "wg_huge|--wg: a number of seconds in \\[1e-12, 1e-3\\] .*, got \"1e308\"|--wg 1e308 --grid 10x10x10 --npe 1x1"
  "wg_pair_mmi|--wg: mmi 1, 2, 3 or 6 \\(a factor of mm\\), got \"4\"|--wg 4:1e-9 --mmi auto --grid 10x10x10 --npe 1x1"
  "grid_zero|--grid: an integer in \\[1, 16777216\\] \\(cells per axis\\), got \"0\"|--wg 1e-9 --grid 0x10x10 --npe 1x1"
  "procs_overflow|--procs: an integer in \\[1, 16777216\\] \\(processes\\), got \"4294967297\"|--wg 1e-9 --grid 10x10x10 --procs 4294967297"
  "npe_too_many|--npe: at most 16777216 processes, got \"65536x65536\"|--wg 1e-9 --grid 10x10x10 --npe 65536x65536"
  "per_rank_overflow|--per-rank: a global grid of at most 16777216 cells per axis. 16777216x1 per rank on 2x2 processes is more|--wg 1e-9 --per-rank 16777216x1x1 --procs 4"
  "iterations|--iterations: an integer in \\[1, 100000\\], got \"1000000\"|--wg 1e-9 --grid 10x10x10 --npe 1x1 --iterations 1000000"
  "w_before_nan|--w-before: a number of seconds in \\[0, 1e4\\] \\(per iteration\\), got \"nan\"|--wg 1e-9 --grid 10x10x10 --npe 1x1 --w-before nan"
  "mm|--mm: 3 \\(S4\\) or 6 \\(S6\\), got \"4\"|--wg 1e-9 --grid 10x10x10 --npe 1x1 --mm 4"
  "mk|--mk: an integer in \\[1, 16777216\\] or auto, got \"0\"|--wg 1e-9 --grid 10x10x10 --npe 1x1 --mk 0")
foreach(entry ${_bad_projection})
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 case)
  list(GET fields 1 regex)
  list(GET fields 2 args)
  separate_arguments(args UNIX_COMMAND "${args}")
  suite_add_error_test(NAME sweep3d_model.projection_bad.${case} ONE_LINE
    EXPECT "^sweep3d-model: error: command line:${regex}"
    COMMAND $<TARGET_FILE:sweep3d-model> --machine ${_machine} ${args})
endforeach()
# The CSV goes through the suite's writer: a device is refused before anything is printed.
suite_add_error_test(NAME sweep3d_model.projection_bad.csv_device ONE_LINE
  EXPECT "^sweep3d-model: error: /dev/null: cannot write the model's CSV: it is a character device, not a regular file"
  COMMAND $<TARGET_FILE:sweep3d-model> --machine ${_machine} --wg 1e-9 --grid 10x10x10 --npe 1x1 --csv /dev/null)
# A machine file whose latency is infinite is refused, never printed as nan.
set(_inf_machine ${CMAKE_CURRENT_BINARY_DIR}/inf_latency.machine)
file(READ ${_machine} _text)
string(REPLACE "loggp.L = 1e-06" "loggp.L = inf" _text "${_text}")
file(WRITE ${_inf_machine} "${_text}")
suite_add_error_test(NAME sweep3d_model.projection_bad.latency_inf ONE_LINE
  EXPECT "^sweep3d-model: error: .*inf_latency.machine:loggp.L: "
  COMMAND $<TARGET_FILE:sweep3d-model> --machine ${_inf_machine} --wg 1e-9 --grid 10x10x10 --npe 2x2)
# The CSV holds the table's rows (hand-checked: one rank computes 10^3 cells x 48 angles x 4e-9 s).
suite_add_expect_test(NAME sweep3d_model.projection_csv EXPECT "\nprocesses,npe_i[^\n]*\n1,1,1,10,10,10,10,3,0.000192,0.000192,0,0,0.000192\n"
  COMMAND sh -c "$<TARGET_FILE:sweep3d-model> --machine ${_machine} --wg 4e-9 --grid 10x10x10 --npe 1x1 --csv model_projection.csv && cat model_projection.csv")
set_tests_properties(sweep3d_model.projection_csv PROPERTIES LABELS unit)
