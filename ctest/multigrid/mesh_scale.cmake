# A mesh too small for the solver's arithmetic: the Kuhn cube 2^3 (edge 100) scaled by 1e-90
# once passed every mesh check, then printed "residual -nan" and exited 0. It is refused at
# every rank with its extent; the same cube at 1e-31 (extent 1e-29) solves with finite
# residuals that fall (the solve is scale-free above the limit).
set(_dir ${CMAKE_CURRENT_BINARY_DIR}/multigrid_mesh_scale)
file(MAKE_DIRECTORY ${_dir})
set(_cube12 ${SUITE_TEST_MESHES}/kuhn-2.smesh)
foreach(pair "tiny|1e-90" "small|1e-31")
  string(REPLACE "|" ";" fields "${pair}")
  list(GET fields 0 name)
  list(GET fields 1 factor)
  add_test(NAME multigrid.mesh_scale.write_${name}
           COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/scaled_mesh.py ${_cube12} ${factor} ${_dir}/${name}.smesh)
  set_tests_properties(multigrid.mesh_scale.write_${name} PROPERTIES LABELS unit FIXTURES_SETUP multigrid_scaled_${name})
endforeach()
suite_add_error_test(NAME multigrid.mesh_scale.tiny_refused.np2 RANKS 2 ONE_LINE LABELS mpi TIMEOUT 60
  EXPECT "^multigrid: error: .*/tiny.smesh:nodes: a domain whose largest extent is between 1e-30 and 1e30 \\(rescale its unit\\), found 1e-88$"
  COMMAND $<TARGET_FILE:multigrid> ${_dir}/tiny.smesh --no-results)
set_tests_properties(multigrid.mesh_scale.tiny_refused.np2 PROPERTIES FIXTURES_REQUIRED multigrid_scaled_tiny)
# Finite residuals falling by at least 10 over the first cycle (a NaN or inf would not match).
suite_add_expect_test(NAME multigrid.mesh_scale.small_solves
  EXPECT "cycle  0  residual [0-9]\\.[0-9]+e-[0-9]+\n cycle  1  residual [0-9]\\.[0-9]+e-[0-9]+  factor 0\\.0[0-9]+"
  COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 $<TARGET_FILE:multigrid> ${_dir}/small.smesh --grids 2 --cycles 2 --no-results)
# PROCESSORS 2: its two ranks run alone, as every other 2-rank run (its short probe fills the
# tests' machine-file cache for the later ones).
set_tests_properties(multigrid.mesh_scale.small_solves PROPERTIES LABELS mpi PROCESSORS 2
                     FIXTURES_REQUIRED multigrid_scaled_small)
