# bsplib's Python scripts on bad input (issue 36, finding 5): plot_profile.py and
# superstep_kinds.py read profiles as the C++ reader does (bsp_profile_file.py), machine files
# as bsp_machine_file.py does: one line naming the file, the place and what was expected, a
# non-zero exit, no traceback and no plot. Inputs from ctest/make_script_inputs.py; the good
# profile is fixed_profile.csv, whose medians superstep_kinds.py prints.
set(_in ${CMAKE_CURRENT_BINARY_DIR}/script_inputs)
set(_py /usr/bin/python3)
set(_scripts ${PROJECT_SOURCE_DIR}/bsplib/scripts)
set(_good ${CMAKE_CURRENT_LIST_DIR}/fixed_profile.csv)
add_test(NAME bsplib.scripts.inputs
  COMMAND ${_py} ${PROJECT_SOURCE_DIR}/ctest/make_script_inputs.py ${_in}
          ${PROJECT_SOURCE_DIR}/../shared/meshes/tycho2/cube-208.smesh)
set_tests_properties(bsplib.scripts.inputs PROPERTIES LABELS unit FIXTURES_SETUP bsplib_script_inputs)
foreach(_case
    "plot_profile.garbage|plot_profile.py|${_in}/garbage.csv|[^\n]*/garbage.csv: line 1: expected 13 comma-separated fields .superstep,pid,label,[^\n]*., found 2"
    "plot_profile.nan_machine|plot_profile.py|${_good},${_in}/nan.machine|[^\n]*/nan.machine: line 3: expected a finite number in .0, 100. s as bsp.l_seconds, found \"nan\""
    "plot_profile.fifo|plot_profile.py|${_in}/fifo|[^\n]*/fifo: expected a regular file .a bsplib profile., found a FIFO"
    "superstep_kinds.nan|superstep_kinds.py|${_in}/nan_profile.csv|[^\n]*/nan_profile.csv: line 3: expected a finite number in .0, 1e.07. s as t_exit, found \"nan\""
    "superstep_kinds.dev_zero|superstep_kinds.py|/dev/zero|/dev/zero: expected a regular file .a bsplib profile., found a character device")
  string(REPLACE "|" ";" _f "${_case}")
  list(GET _f 0 _name)
  list(GET _f 1 _script)
  list(GET _f 2 _input)
  list(GET _f 3 _message)
  string(REPLACE "," ";" _input "${_input}")
  set(_args ${_input})
  if(_script STREQUAL "plot_profile.py")
    list(APPEND _args -o ${_in}/out/${_name})
  endif()
  suite_add_error_test(NAME bsplib.${_name} ONE_LINE NO_FILE ${_in}/out/${_name}
    EXPECT "^${_script}: ${_message}$"
    COMMAND ${_py} ${_scripts}/${_script} ${_args})
  set_tests_properties(bsplib.${_name} PROPERTIES FIXTURES_REQUIRED bsplib_script_inputs TIMEOUT 60)
endforeach()
suite_add_expect_test(NAME bsplib.superstep_kinds.good
  EXPECT "^1 cyclic shift +median  280.00 us over 1 supersteps\nempty +median   90.00 us over 1 supersteps\n[^\n]*/fixed_profile.csv: 2 of 2 within 25% of their kind's median\n$"
  COMMAND ${_py} ${_scripts}/superstep_kinds.py ${_good} --steps 0 5)
set_tests_properties(bsplib.superstep_kinds.good PROPERTIES LABELS unit)
suite_add_expect_test(NAME bsplib.plot_profile.good
  EXPECT "^wrote [^\n]*/good-communication.png\nwrote [^\n]*/good-predicted.png\n$"
  COMMAND ${_py} ${_scripts}/plot_profile.py ${_good} ${PROJECT_SOURCE_DIR}/inputs/bsp/ibm-sp2-switch-p2.machine
          -o ${_in}/out/good)
set_tests_properties(bsplib.plot_profile.good PROPERTIES LABELS unit FIXTURES_REQUIRED bsplib_script_inputs)
