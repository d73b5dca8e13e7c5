# An empty input file name ("") is an error naming the option, never "not given":
# instrument-demo's and instrument-replay's --machine "" once ran without the machine file,
# and instrument-replay's --epoch "" (no phase) replayed the whole trace (issue 36).
# instrument-demo at 1 and 2 ranks; the others once. (An empty argument cannot pass through
# a CMake list: a shell adds it.)
set(_d ${CMAKE_CURRENT_BINARY_DIR}/empty_file_options)
file(MAKE_DIRECTORY ${_d})
file(WRITE ${_d}/run.h5 "not read: the command line is refused first\n")
foreach(n 1 2)
  suite_add_error_test(NAME instrument.empty_file_options.demo_machine.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    EXPECT "^instrument-demo: error: command line:--machine: expected a file name, got \"\"$"
    COMMAND sh -c "exec \"$0\" \"$@\" --machine ''" $<TARGET_FILE:instrument-demo> --cells 100 --out ${_d}/demo.h5)
endforeach()
foreach(opt --machine --costs)
  string(REPLACE "-" "" _name "${opt}")
  set(_source --self)
  if(opt STREQUAL "--costs")
    set(_source "")
  endif()
  suite_add_error_test(NAME instrument.empty_file_options.replay_${_name} ONE_LINE TIMEOUT 30
    EXPECT "^instrument-replay: error: command line:${opt}: expected a file name, got \"\"$"
    COMMAND sh -c "exec \"$0\" \"$@\" ${opt} ''" $<TARGET_FILE:instrument-replay> ${_d}/run.h5 ${_source})
endforeach()
suite_add_error_test(NAME instrument.empty_file_options.replay_epoch ONE_LINE TIMEOUT 30
  EXPECT "^instrument-replay: error: command line:--epoch: expected a phase name \\(e.g. iteration\\), got \"\"$"
  COMMAND sh -c "exec \"$0\" \"$@\" --epoch ''" $<TARGET_FILE:instrument-replay> ${_d}/run.h5 --self)
suite_add_error_test(NAME instrument.empty_file_options.replay_run ONE_LINE TIMEOUT 30
  EXPECT "^instrument-replay: error: command line:RUN.h5: expected a file name, got \"\"$"
  COMMAND sh -c "exec \"$0\" '' \"$@\"" $<TARGET_FILE:instrument-replay> --self)
suite_add_error_test(NAME instrument.empty_file_options.machine_check ONE_LINE TIMEOUT 30
  EXPECT "^machine-check: error: command line:FILE: expected a file name, got \"\"$"
  COMMAND sh -c "exec \"$0\" ''" $<TARGET_FILE:machine-check>)
