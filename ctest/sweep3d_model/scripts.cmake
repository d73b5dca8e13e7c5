# The sweep3d model's Python tools on bad input (issue 36, finding 5): `suite-campaign plot
# sweep3d-model-scaling`, `plot kba-replay-scaling` and model/kba_replay_octants.py answer one line naming the file, the place and
# what was expected, a non-zero exit, no traceback and no plot. Inputs from
# ctest/make_script_inputs.py; its trace.json (one rank, 4 blocks of 2 us every 3 us an octant)
# gives the octant table and period worked by hand.
set(_in ${CMAKE_CURRENT_BINARY_DIR}/script_inputs)
set(_py /usr/bin/python3)
set(_scripts ${PROJECT_SOURCE_DIR}/sweep3d/model)
set(_campaign ${PROJECT_SOURCE_DIR}/tools/suite-campaign)
add_test(NAME sweep3d_model.scripts.inputs
  COMMAND ${_py} ${PROJECT_SOURCE_DIR}/ctest/make_script_inputs.py ${_in}
          ${SUITE_TEST_MESHES}/kuhn-3.smesh)
set_tests_properties(sweep3d_model.scripts.inputs PROPERTIES LABELS unit FIXTURES_SETUP sweep3d_model_script_inputs)
suite_uses_test_meshes(sweep3d_model.scripts.inputs)
foreach(_case
    "plot_model_scaling.garbage|sweep3d-model-scaling|${_in}/garbage.csv,${_in}/out/garbage.png|[^\n]*/garbage.csv: line 1: expected the header 'processes,npe_i,[^\n]*' .a sweep3d-model CSV., found \"this,is\""
    "kba_replay_plot.fifo|kba-replay-scaling|${_in}/fifo,${_in}/fifo,${_in}/out/fifo.png|[^\n]*/fifo: expected a regular file .a sweep3d-model CSV., found a FIFO"
    "kba_replay_octants.nan|kba_replay_octants.py|${_in}/nan_trace.json,1,1|[^\n]*/nan_trace.json: traceEvents.7.: expected ts and dur finite numbers >= 0, found 21.0, nan"
    "kba_replay_octants.dev_zero|kba_replay_octants.py|/dev/zero,1,1|/dev/zero: expected a regular file .a replay trace .JSON.., found a character device")
  string(REPLACE "|" ";" _f "${_case}")
  list(GET _f 0 _name)
  list(GET _f 1 _script)
  list(GET _f 2 _args)
  list(GET _f 3 _message)
  string(REPLACE "," ";" _args "${_args}")
  set(_command ${_scripts}/${_script})
  set(_said ${_script})
  if(NOT _script MATCHES "[.]py$")  # a figure of suite-campaign plot
    set(_command ${_campaign} plot ${_script})
    set(_said "suite-campaign plot ${_script}")
  endif()
  suite_add_error_test(NAME sweep3d_model.${_name} ONE_LINE NO_FILE ${_in}/out/${_name}.png
    EXPECT "^${_said}: ${_message}$"
    COMMAND ${_py} ${_command} ${_args})
  set_tests_properties(sweep3d_model.${_name} PROPERTIES FIXTURES_REQUIRED sweep3d_model_script_inputs TIMEOUT 60)
endforeach()
suite_add_expect_test(NAME sweep3d_model.kba_replay_octants.good
  EXPECT "\n +1 +3.0 +14.0 +11.0 \n +2 +15.0 +26.0 +11.0 +.1.0\n.*\nblock compute 2.000 us. period inside the grid .median. 3.000 us\n$"
  COMMAND ${_py} ${_scripts}/kba_replay_octants.py ${_in}/trace.json 1 1)
set_tests_properties(sweep3d_model.kba_replay_octants.good PROPERTIES LABELS unit
  FIXTURES_REQUIRED sweep3d_model_script_inputs)
# Fewer than 4 blocks an octant (a small grid's trace): the period from the pairs within each
# octant (the script read past the last block before, an IndexError).
suite_add_expect_test(NAME sweep3d_model.kba_replay_octants.short_octants
  EXPECT "1 ranks, 2 blocks per octant .*\nblock compute 2.000 us. period inside the grid .median. 3.000 us\n$"
  COMMAND ${_py} ${_scripts}/kba_replay_octants.py ${_in}/short_trace.json 1 1)
set_tests_properties(sweep3d_model.kba_replay_octants.short_octants PROPERTIES LABELS unit
  FIXTURES_REQUIRED sweep3d_model_script_inputs)
