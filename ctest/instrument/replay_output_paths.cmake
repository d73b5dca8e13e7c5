# instrument-replay's paths (suite_add_error_test): a symbolic link given as --trace-out is
# refused before anything is read, its target left byte for byte; an empty --trace-out is an
# error naming the option; a symbolic link loop given as the run is named in one line.
set(_d ${CMAKE_CURRENT_BINARY_DIR}/replay_output_paths)
file(MAKE_DIRECTORY ${_d})
foreach(l link loop_a loop_b)
  file(REMOVE ${_d}/${l})
endforeach()
file(CREATE_LINK victim.json ${_d}/link SYMBOLIC)
file(CREATE_LINK loop_b ${_d}/loop_a SYMBOLIC)
file(CREATE_LINK loop_a ${_d}/loop_b SYMBOLIC)
suite_add_error_test(NAME instrument.replay_output_paths.trace_out_symlink ONE_LINE
  EXPECT "^instrument-replay: error: .*/link: cannot write trace: it is a symbolic link \\(to victim.json\\). refusing to write through it. give the real path$"
  KEEP_FILE ${_d}/victim.json KEEP_TEXT "someone else's trace\n"
  COMMAND $<TARGET_FILE:instrument-replay> ${_d}/no-such-run.h5 --self --trace-out ${_d}/link)
# (An empty argument cannot pass through a CMake list: a shell adds it.)
suite_add_error_test(NAME instrument.replay_output_paths.trace_out_empty ONE_LINE
  EXPECT "^instrument-replay: error: command line:--trace-out: expected a file name, got \"\"$"
  COMMAND sh -c "exec \"$0\" \"$@\" --trace-out ''" $<TARGET_FILE:instrument-replay> ${_d}/no-such-run.h5 --self)
suite_add_error_test(NAME instrument.replay_output_paths.run_loop ONE_LINE
  EXPECT "^instrument-replay: error: .*/loop_a: cannot open results file: Too many levels of symbolic links$"
  COMMAND $<TARGET_FILE:instrument-replay> ${_d}/loop_a --self)
