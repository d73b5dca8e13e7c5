# The GM's and MSM's compute and comm parts beside the sweeps' measured critical path, whose
# categories add up to the walked sweep; no comm on one rank's path; no trace without the
# models (check_path_parts.py reads /compare, /tycho/critical_path and /solution/iterations).
foreach(n 1 2)
  add_test(NAME tycho.models.path_parts.np${n}
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/check_path_parts.py $<TARGET_FILE:tycho>
                   ${MPIEXEC_EXECUTABLE} ${n} ${SUITE_TEST_MESHES}/kuhn-6.smesh
                   ${PROJECT_SOURCE_DIR}/ctest/sweep3d/replay_this_vm.machine ${CMAKE_CURRENT_BINARY_DIR}/path_parts)
  set_tests_properties(tycho.models.path_parts.np${n} PROPERTIES LABELS mpi TIMEOUT 300 PROCESSORS ${n})
endforeach()
