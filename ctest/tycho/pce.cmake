# The GM's PCE without a calibration: 1 at one rank (no idle time by definition), the run's
# own (its last sweep's, eq. 4) at two, not the paper's assumed 0.8; a --pce given still wins
# (check_pce.py reads /compare, /model/GM and /tycho's pce).
foreach(_np 1 2)
  add_test(NAME tycho.models.pce.np${_np}
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/check_pce.py $<TARGET_FILE:tycho>
                   ${MPIEXEC_EXECUTABLE} ${_np} ${SUITE_TEST_MESHES}/kuhn-6.smesh
                   ${PROJECT_SOURCE_DIR}/ctest/sweep3d/replay_this_vm.machine ${CMAKE_CURRENT_BINARY_DIR}/pce_np${_np})
  set_tests_properties(tycho.models.pce.np${_np} PROPERTIES LABELS mpi TIMEOUT 300 PROCESSORS ${_np})
endforeach()
