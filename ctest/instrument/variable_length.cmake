# Results files with variable-length data are refused before libhdf5 reads them (libhdf5 1.10
# crashed in H5HG_read on damaged ones, however well sealed): a sealed file in the writer's
# format whose root attribute `app` is a variable-length string (make_vlen_results.py), given
# to every program that reads results files, gives one line naming the file and the attribute
# and a non-zero exit of every rank. And the files the suite's programs write hold no
# variable-length data at all, in the checksummed format (check_fixed_strings.py).
set(_vlen_py /usr/bin/python3)  # Debian's, with python3-h5py (scripts/install-deps.sh)
set(_vlen_file ${CMAKE_CURRENT_BINARY_DIR}/variable_length/vlen-app.h5)
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/variable_length)
add_test(NAME instrument.variable_length.make
         COMMAND ${_vlen_py} ${CMAKE_CURRENT_LIST_DIR}/make_vlen_results.py ${_vlen_file})
set_tests_properties(instrument.variable_length.make PROPERTIES LABELS unit FIXTURES_SETUP vlen_results)

set(_vlen_says ".*/vlen-app.h5:/@app: expected a fixed-length string, found a variable-length string \\(not read: the suite stores fixed-length strings. files written before 2026-12-01 must be written again\\)$")
set(_vlen_mesh ${SUITE_TEST_MESHES}/kuhn-2.smesh)
set(_vlen_machine ${PROJECT_SOURCE_DIR}/ctest/sweep3d/replay_this_vm.machine)
foreach(n 1 2)
  suite_add_error_test(NAME instrument.variable_length.tycho.np${n} RANKS ${n} ONE_LINE TIMEOUT 60
    EXPECT "^tycho: error: ${_vlen_says}"
    COMMAND $<TARGET_FILE:tycho> ${_vlen_mesh} --iterations 1 --no-results --machine ${_vlen_machine}
            --calibration ${_vlen_file})
  suite_add_error_test(NAME instrument.variable_length.multigrid.np${n} RANKS ${n} ONE_LINE TIMEOUT 60
    EXPECT "^multigrid: error: ${_vlen_says}"
    COMMAND $<TARGET_FILE:multigrid> --cube 2 --no-results
            --machine ${PROJECT_SOURCE_DIR}/inputs/bsp/ibm-sp2-switch-p2.machine --calibration ${_vlen_file})
  set_tests_properties(instrument.variable_length.tycho.np${n} instrument.variable_length.multigrid.np${n}
                       PROPERTIES FIXTURES_REQUIRED vlen_results)
  suite_uses_test_meshes(instrument.variable_length.tycho.np${n})
endforeach()
suite_add_error_test(NAME instrument.variable_length.replay ONE_LINE TIMEOUT 60
  EXPECT "^instrument-replay: error: ${_vlen_says}"
  COMMAND $<TARGET_FILE:instrument-replay> ${_vlen_file} --self)
suite_add_error_test(NAME instrument.variable_length.replay_costs ONE_LINE TIMEOUT 60
  EXPECT "^instrument-replay: error: ${_vlen_says}"
  COMMAND $<TARGET_FILE:instrument-replay> ${CMAKE_BINARY_DIR}/ctest/sweep3d/replay_np2.h5 --costs ${_vlen_file})
set_tests_properties(instrument.variable_length.replay PROPERTIES FIXTURES_REQUIRED vlen_results)
set_tests_properties(instrument.variable_length.replay_costs PROPERTIES FIXTURES_REQUIRED "vlen_results;replay_np2")

# What the programs write: instrument-demo at 1 and 2 ranks (traced), sweep3d (traced),
# tycho and multigrid calibration runs: the fixtures of their own tests.
add_test(NAME instrument.variable_length.none_written
         COMMAND ${_vlen_py} ${CMAKE_CURRENT_LIST_DIR}/check_fixed_strings.py
                 ${CMAKE_CURRENT_BINARY_DIR}/perf_report_work/np1.h5
                 ${CMAKE_CURRENT_BINARY_DIR}/perf_report_work/np2.h5
                 ${CMAKE_BINARY_DIR}/ctest/sweep3d/replay_np2.h5
                 ${CMAKE_BINARY_DIR}/ctest/tycho/tycho_models_cal.h5
                 ${CMAKE_BINARY_DIR}/ctest/multigrid/multigrid_run/calibration.h5)
set_tests_properties(instrument.variable_length.none_written PROPERTIES LABELS unit TIMEOUT 60
  FIXTURES_REQUIRED "perf_report_demo;replay_np2;tycho_models_cal;multigrid_calibration")
