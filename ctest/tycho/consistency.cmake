# What the models take from the run without a calibration: the GM's PCE, 1 at one rank (no
# idle time by definition), the run's own (its scored sweeps', eq. 4) at two, not the paper's
# assumed 0.8, a --pce given still winning; at two ranks the messages' unpack and buffered
# send at the run's own figures (check_consistency.py reads /compare, /model/GM, /tycho's pce
# and /tycho/calibration).
foreach(_np 1 2)
  add_test(NAME tycho.models.consistency.np${_np}
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/check_consistency.py $<TARGET_FILE:tycho>
                   ${MPIEXEC_EXECUTABLE} ${_np} ${SUITE_TEST_MESHES}/kuhn-6.smesh
                   ${PROJECT_SOURCE_DIR}/ctest/sweep3d/replay_this_vm.machine
                   ${CMAKE_CURRENT_BINARY_DIR}/consistency_np${_np})
  set_tests_properties(tycho.models.consistency.np${_np} PROPERTIES LABELS mpi TIMEOUT 300 PROCESSORS ${_np})
endforeach()
