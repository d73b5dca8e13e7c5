# The multigrid scripts on bad input (issue 36, findings 4 and 5): `suite-campaign plot
# multigrid-projection` and `plot multigrid-cycle` (tools/suite_campaign/figures/) and
# scripts/two_grid.py answer one line naming the file, the place and what was
# expected, a non-zero exit, no traceback and no plot: a garbage CSV; a results file that is
# not HDF5 (unsealed, or sealed over other bytes); one whose supersteps table has 10^9 rows
# (40 GB if read; refused before reading); a machine file with l = nan; a mesh with a NaN
# coordinate (.smesh and .msh); /dev/zero and a FIFO, without reading them. Inputs from
# ctest/make_script_inputs.py. Good inputs give the values worked by hand there.
set(_in ${CMAKE_CURRENT_BINARY_DIR}/script_inputs)
set(_out ${_in}/out)
set(_py /usr/bin/python3)
set(_scripts ${PROJECT_SOURCE_DIR}/multigrid/scripts)
set(_campaign ${PROJECT_SOURCE_DIR}/tools/suite-campaign)
add_test(NAME multigrid.scripts.inputs
  COMMAND ${_py} ${PROJECT_SOURCE_DIR}/ctest/make_script_inputs.py ${_in}
          ${SUITE_TEST_MESHES}/kuhn-3.smesh)
set_tests_properties(multigrid.scripts.inputs PROPERTIES LABELS unit FIXTURES_SETUP multigrid_script_inputs)

# name | script or figure | input | the line after "<script>: " ("suite-campaign plot <figure>: ")
set(_header "procs,cells_per_proc,imbalance,h_grid1_bytes,replay_seconds,replay_work,replay_comm_sync,eq5_seconds,eq5_work,eq5_comm_sync")
set(_results "a regular file .a results file., found")
foreach(_case
    "plot_projection.garbage_csv|multigrid-projection|${_in}/garbage.csv|[^\n]*/garbage.csv: line 1: expected the header '${_header}' .a multigrid-model CSV., found \"this,is\""
    "plot_projection.dev_zero|multigrid-projection|/dev/zero|/dev/zero: expected a regular file .a multigrid-model CSV., found a character device"
    "plot_projection.fifo|multigrid-projection|${_in}/fifo|[^\n]*/fifo: expected a regular file .a multigrid-model CSV., found a FIFO"
    "plot_cycle.not_hdf5|multigrid-cycle|${_in}/not_hdf5.h5|[^\n]*/not_hdf5.h5: seal: expected a sealed suite results file .written by one of the suite's programs., found no seal in its first 512 bytes"
    "plot_cycle.sealed_not_hdf5|multigrid-cycle|${_in}/sealed_not_hdf5.h5|[^\n]*/sealed_not_hdf5.h5: expected an HDF5 file .a suite results file., found bytes HDF5 cannot open [^\n]*"
    "plot_cycle.sparse|multigrid-cycle|${_in}/sparse.h5|[^\n]*/sparse.h5: /multigrid/supersteps: expected at most 1000000 supersteps, found 1000000000 rows .not read."
    "plot_cycle.nan_machine|multigrid-cycle|${_in}/run.h5|[^\n]*/nan.machine: line 3: expected a finite number in .0, 100. s as bsp.l_seconds, found \"nan\""
    "plot_cycle.dev_zero|multigrid-cycle|/dev/zero|/dev/zero: expected ${_results} a character device"
    "plot_cycle.fifo|multigrid-cycle|${_in}/fifo|[^\n]*/fifo: expected ${_results} a FIFO"
    "two_grid.nan_smesh|two_grid.py|${_in}/nan.smesh|[^\n]*/nan.smesh: node 5: expected finite coordinates within .-1e30, found .33.33333333333333, nan, 0.0."
    "two_grid.nan_msh|two_grid.py|${_in}/nan.msh|[^\n]*/nan.msh: line 8: expected a finite number in .-1e.30, 1e.30. as a coordinate, found \"nan\""
    "two_grid.dev_zero|two_grid.py|/dev/zero|/dev/zero: expected a regular file .a Gmsh mesh., found a character device"
    "two_grid.fifo|two_grid.py|${_in}/fifo.smesh|[^\n]*/fifo.smesh: expected a regular file .a Tycho2 serial mesh., found a FIFO")
  string(REPLACE "|" ";" _f "${_case}")
  list(GET _f 0 _name)
  list(GET _f 1 _script)
  list(GET _f 2 _input)
  list(GET _f 3 _message)
  set(_args ${_input})
  set(_command ${_scripts}/${_script})
  set(_said ${_script})
  if(_script STREQUAL "multigrid-projection")
    list(APPEND _args ${_out}/${_name}.png)
  elseif(_script STREQUAL "multigrid-cycle")
    set(_machine ${_in}/good.machine)
    if(_name MATCHES "nan_machine")
      set(_machine ${_in}/nan.machine)
    endif()
    list(APPEND _args ${_out}/${_name}.png ${_machine})
  endif()
  if(NOT _script STREQUAL "two_grid.py")
    set(_command ${_campaign} plot ${_script})
    set(_said "suite-campaign plot ${_script}")
  endif()
  suite_add_error_test(NAME multigrid.${_name} ONE_LINE NO_FILE ${_out}/${_name}.png
    EXPECT "^${_said}: ${_message}$"
    COMMAND ${_py} ${_command} ${_args})
  set_tests_properties(multigrid.${_name} PROPERTIES FIXTURES_REQUIRED multigrid_script_inputs TIMEOUT 60)
endforeach()

# Good inputs: the values the figures and two_grid.py print, worked by hand in make_script_inputs.py.
suite_add_expect_test(NAME multigrid.plot_projection.good
  EXPECT "^[^\n]*/good.png: 2 process counts, replay at P = 2: 0.006 s\n$"
  COMMAND ${_py} ${_campaign} plot multigrid-projection ${_in}/multigrid.csv ${_out}/good.png)
suite_add_expect_test(NAME multigrid.plot_cycle.good
  EXPECT "^measured: 3.3000 ms over 2 supersteps\ntest machine: 3.4000 ms over 2 supersteps\nwrote [^\n]*/cycle.png\n$"
  COMMAND ${_py} ${_campaign} plot multigrid-cycle ${_in}/run.h5 ${_out}/cycle.png ${_in}/good.machine)
# The two-grid factor of Tycho2's cube-208 (BENCHMARKS.md, convergence; disabled without it).
suite_add_expect_test(NAME multigrid.two_grid.good
  EXPECT "two-grid factor .largest .eigenvalues. of E.: 0.1272 0.1149 0.1011 0.0999\n"
  COMMAND ${_py} ${_scripts}/two_grid.py ${SUITE_TYCHO2_MESHES}/cube-208.smesh)
set_tests_properties(multigrid.plot_projection.good multigrid.plot_cycle.good multigrid.two_grid.good
  PROPERTIES LABELS unit FIXTURES_REQUIRED multigrid_script_inputs)
suite_uses_tycho2_meshes(multigrid.two_grid.good)
# A results file the program wrote (run.cmake's calibration run) is accepted as it is.
suite_add_expect_test(NAME multigrid.plot_cycle.real_run
  EXPECT "^measured: [0-9.]+ ms over [0-9]+ supersteps\nIBM SP2 .using switch., 2 processes: [0-9.]+ ms over [0-9]+ supersteps\nwrote "
  COMMAND ${_py} ${_campaign} plot multigrid-cycle ${CMAKE_CURRENT_BINARY_DIR}/multigrid_run/calibration.h5
          ${_out}/real_run.png ${PROJECT_SOURCE_DIR}/inputs/bsp/ibm-sp2-switch-p2.machine)
set_tests_properties(multigrid.plot_cycle.real_run PROPERTIES LABELS unit
  FIXTURES_REQUIRED "multigrid_script_inputs;multigrid_calibration")
