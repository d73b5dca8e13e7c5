# `suite-campaign plot tycho-projection` on bad input (issue 36, finding 5): one line naming the file, the
# place and what was expected, a non-zero exit, no traceback and no plot; on /dev/zero and a
# FIFO without reading. Inputs from ctest/make_script_inputs.py; a good CSV's plot is drawn and
# its last TM value printed.
set(_in ${CMAKE_CURRENT_BINARY_DIR}/script_inputs)
set(_plot /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tools/suite-campaign plot tycho-projection)
add_test(NAME tycho.plot_script.inputs
  COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/ctest/make_script_inputs.py ${_in}
          ${SUITE_TEST_MESHES}/kuhn-3.smesh)
set_tests_properties(tycho.plot_script.inputs PROPERTIES LABELS unit FIXTURES_SETUP tycho_script_inputs)
set(_header "ranks,cells_per_rank,steps,rounds,pce,gm_seconds,gm_compute,gm_comm,tm_seconds,tm_compute,tm_send,tm_receive,t_elem_seconds,records")
foreach(_case
    "garbage_csv|garbage.csv|line 1: expected the header '${_header}' .a tycho-model CSV., found \"this,is\""
    "nan_time|nan.csv|line 2 column tm_seconds: expected a finite number >= 0 s as tm_seconds, found \"nan\""
    "fifo|fifo|expected a regular file .a tycho-model CSV., found a FIFO")
  string(REPLACE "|" ";" _f "${_case}")
  list(GET _f 0 _name)
  list(GET _f 1 _file)
  list(GET _f 2 _message)
  suite_add_error_test(NAME tycho.plot_script.${_name} ONE_LINE NO_FILE ${_in}/out/${_name}.png
    EXPECT "^suite-campaign plot tycho-projection: [^\n]*/${_file}: ${_message}$"
    COMMAND ${_plot} ${_in}/${_file} ${_in}/out/${_name}.png)
  set_tests_properties(tycho.plot_script.${_name} PROPERTIES FIXTURES_REQUIRED tycho_script_inputs TIMEOUT 30)
endforeach()
suite_add_error_test(NAME tycho.plot_script.dev_zero ONE_LINE NO_FILE ${_in}/out/dev_zero.png
  EXPECT "^suite-campaign plot tycho-projection: /dev/zero: expected a regular file .a tycho-model CSV., found a character device$"
  COMMAND ${_plot} /dev/zero ${_in}/out/dev_zero.png)
set_tests_properties(tycho.plot_script.dev_zero PROPERTIES FIXTURES_REQUIRED tycho_script_inputs TIMEOUT 30)
suite_add_expect_test(NAME tycho.plot_script.good
  EXPECT "^[^\n]*/good.png: 2 rank counts, TM at P = 16: 0.0025 s\n$"
  COMMAND ${_plot} ${_in}/tycho.csv ${_in}/out/good.png)
add_test(NAME tycho.plot_script.good_written COMMAND ${CMAKE_COMMAND} -E cat ${_in}/out/good.png)
set_tests_properties(tycho.plot_script.good PROPERTIES LABELS unit FIXTURES_REQUIRED tycho_script_inputs)
set_tests_properties(tycho.plot_script.good_written PROPERTIES LABELS unit DEPENDS tycho.plot_script.good
  FIXTURES_REQUIRED tycho_script_inputs PASS_REGULAR_EXPRESSION "PNG")
