# The GM at one rank takes PCE = 1 (no idle time by definition), not the paper's assumed 0.8;
# a --pce given still wins (check_pce_one_rank.py reads /compare and /model/GM).
add_test(NAME tycho.models.pce_one_rank.np1
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/check_pce_one_rank.py $<TARGET_FILE:tycho>
                 ${MPIEXEC_EXECUTABLE} ${SUITE_TEST_MESHES}/kuhn-6.smesh
                 ${PROJECT_SOURCE_DIR}/ctest/sweep3d/replay_this_vm.machine ${CMAKE_CURRENT_BINARY_DIR}/pce_one_rank)
set_tests_properties(tycho.models.pce_one_rank.np1 PROPERTIES LABELS mpi TIMEOUT 300)
