# bsplib's Python tools on bad input (issue 36, finding 5): `suite-campaign plot bsp-profile`
# and `suite-campaign superstep-kinds` (tools/suite_campaign/) read profiles as the C++ reader
# does (bsp_profile_file.py), machine files as bsp_machine_file.py does: one line naming the
# file, the place and what was expected, a non-zero exit, no traceback and no plot. Inputs
# from ctest/make_script_inputs.py; the good profile is fixed_profile.csv, whose medians
# superstep-kinds prints.
set(_in ${CMAKE_CURRENT_BINARY_DIR}/script_inputs)
set(_py /usr/bin/python3)
set(_campaign ${PROJECT_SOURCE_DIR}/tools/suite-campaign)
set(_good ${CMAKE_CURRENT_LIST_DIR}/fixed_profile.csv)
add_test(NAME bsplib.scripts.inputs
  COMMAND ${_py} ${PROJECT_SOURCE_DIR}/ctest/make_script_inputs.py ${_in}
          ${SUITE_TEST_MESHES}/kuhn-3.smesh)
set_tests_properties(bsplib.scripts.inputs PROPERTIES LABELS unit FIXTURES_SETUP bsplib_script_inputs)
suite_uses_test_meshes(bsplib.scripts.inputs)
foreach(_case
    "plot_profile.garbage|plot bsp-profile|${_in}/garbage.csv|[^\n]*/garbage.csv: line 1: expected 13 comma-separated fields .superstep,pid,label,[^\n]*., found 2"
    "plot_profile.nan_machine|plot bsp-profile|${_good},${_in}/nan.machine|[^\n]*/nan.machine: line 3: expected a finite number in .0, 100. s as bsp.l_seconds, found \"nan\""
    "plot_profile.fifo|plot bsp-profile|${_in}/fifo|[^\n]*/fifo: expected a regular file .a bsplib profile., found a FIFO"
    "superstep_kinds.nan|superstep-kinds|${_in}/nan_profile.csv|[^\n]*/nan_profile.csv: line 3: expected a finite number in .0, 1e.07. s as t_exit, found \"nan\""
    "superstep_kinds.dev_zero|superstep-kinds|/dev/zero|/dev/zero: expected a regular file .a bsplib profile., found a character device"
    "superstep_kinds.short_row_3|superstep-kinds|${_in}/short_row_3.csv|[^\n]*/short_row_3.csv: line 3: expected 15 comma-separated fields .superstep,pid,label,[^\n]*,gets_out,pushes,pops., found 13"
    "superstep_kinds.negative_pops|superstep-kinds|${_in}/negative_pops.csv|[^\n]*/negative_pops.csv: line 3: expected a whole number in .0, 9007199254740992. as pops, found -1")
  string(REPLACE "|" ";" _f "${_case}")
  list(GET _f 0 _name)
  list(GET _f 1 _script)
  list(GET _f 2 _input)
  list(GET _f 3 _message)
  string(REPLACE "," ";" _input "${_input}")
  set(_args ${_input})
  if(_script STREQUAL "plot bsp-profile")
    list(APPEND _args -o ${_in}/out/${_name})
  endif()
  string(REPLACE " " ";" _command "${_script}")
  suite_add_error_test(NAME bsplib.${_name} ONE_LINE NO_FILE ${_in}/out/${_name}
    EXPECT "^suite-campaign ${_script}: ${_message}$"
    COMMAND ${_py} ${_campaign} ${_command} ${_args})
  set_tests_properties(bsplib.${_name} PROPERTIES FIXTURES_REQUIRED bsplib_script_inputs TIMEOUT 60)
endforeach()
suite_add_expect_test(NAME bsplib.superstep_kinds.good
  EXPECT "^1 cyclic shift +median  280.00 us over 1 supersteps\nempty +median   90.00 us over 1 supersteps\n[^\n]*/fixed_profile.csv: 2 of 2 within 25% of their kind's median\n$"
  COMMAND ${_py} ${_campaign} superstep-kinds ${_good} --steps 0 5)
set_tests_properties(bsplib.superstep_kinds.good PROPERTIES LABELS unit)
suite_add_expect_test(NAME bsplib.plot_profile.good
  EXPECT "^wrote [^\n]*/good-communication.png\nwrote [^\n]*/good-predicted.png\n$"
  COMMAND ${_py} ${_campaign} plot bsp-profile ${_good} ${PROJECT_SOURCE_DIR}/inputs/bsp/ibm-sp2-switch-p2.machine
          -o ${_in}/out/good)
set_tests_properties(bsplib.plot_profile.good PROPERTIES LABELS unit FIXTURES_REQUIRED bsplib_script_inputs)

# Numbers and names on the command line (issue 36): --steps read as the profile reader reads
# a superstep number (whole, in [0, 2^31 - 1], LAST >= FIRST; "-1" and 2^63 once ran and
# exited 0), and an empty file name refused, never taken for "no machine file" (plot bsp-profile
# PROFILE '' once drew the plot without the prediction and exited 0). An empty argument cannot
# pass through a CMake list: a shell adds it.
foreach(_case
    "superstep_kinds.steps_negative|0|-1|LAST, found -1"
    "superstep_kinds.steps_2_63|9223372036854775808|1|FIRST, found 9223372036854775808"
    "superstep_kinds.steps_junk|1x|3|FIRST, found \"1x\"")
  string(REPLACE "|" ";" _f "${_case}")
  list(GET _f 0 _name)
  list(GET _f 1 _first)
  list(GET _f 2 _last)
  list(GET _f 3 _message)
  suite_add_error_test(NAME bsplib.${_name} ONE_LINE
    EXPECT "^suite-campaign superstep-kinds: command line: --steps: expected a whole number in .0, 2147483647. as ${_message}$"
    COMMAND ${_py} ${_campaign} superstep-kinds ${_good} --steps ${_first} ${_last})
endforeach()
suite_add_error_test(NAME bsplib.superstep_kinds.steps_reversed ONE_LINE
  EXPECT "^suite-campaign superstep-kinds: command line: --steps: expected LAST >= FIRST = 5, found 2$"
  COMMAND ${_py} ${_campaign} superstep-kinds ${_good} --steps 5 2)
suite_add_error_test(NAME bsplib.superstep_kinds.empty_name ONE_LINE
  EXPECT "^suite-campaign superstep-kinds: .empty path.: expected a bsplib profile's file name, found an empty path$"
  COMMAND sh -c "exec \"$0\" \"$1\" superstep-kinds \"$2\" ''" ${_py} ${_campaign} ${_good})
foreach(_case
    "empty_machine|PROFILE ''|a BSP machine file's name .or no second argument."
    "empty_profile|''|a bsplib profile's file name"
    "empty_out|PROFILE -o ''|a prefix for the plots' names .-o.")
  string(REPLACE "|" ";" _f "${_case}")
  list(GET _f 0 _name)
  list(GET _f 1 _args)
  list(GET _f 2 _message)
  string(REPLACE "PROFILE" "\"$1\"" _args "${_args}")
  suite_add_error_test(NAME bsplib.plot_profile.${_name} ONE_LINE NO_FILE ${_in}/out/${_name}
    EXPECT "^suite-campaign plot bsp-profile: .empty path.: expected ${_message}, found an empty path$"
    COMMAND sh -c "exec \"$0\" \"$2\" plot bsp-profile -o \"$3\" ${_args}" ${_py} ${_good}
            ${_campaign} ${_in}/out/${_name})
  set_tests_properties(bsplib.plot_profile.${_name} PROPERTIES FIXTURES_REQUIRED bsplib_script_inputs)
endforeach()

# Without matplotlib (python3 -S: no site packages): one line naming the package, no plot.
suite_add_error_test(NAME bsplib.plot_profile.without_matplotlib ONE_LINE NO_FILE ${_in}/out/no_mpl
  EXPECT "^suite-campaign plot bsp-profile: cannot import matplotlib .No module named 'matplotlib'.: run under /usr/bin/python3 with Debian's python3-matplotlib$"
  COMMAND ${_py} -S ${_campaign} plot bsp-profile ${_good} -o ${_in}/out/no_mpl)
set_tests_properties(bsplib.plot_profile.without_matplotlib PROPERTIES FIXTURES_REQUIRED bsplib_script_inputs)
