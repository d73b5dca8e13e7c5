# tycho-refine: cube-12 refined twice (768 cells, the quality kept) and its bad arguments.
set(_meshes ${PROJECT_SOURCE_DIR}/../shared/meshes/tycho2)
suite_add_expect_test(NAME tycho.refine.cube_12_twice
  EXPECT "read .*cube-12.smesh: cells 12, faces 30, nodes 9, min quality 0.6651 .*\nlevel 1: cells 96, faces 216, nodes 35, min quality 0.6651 .*\nlevel 2: cells 768, faces 1632, nodes 189, min quality 0.6651 .*\nwrote .*cube-12x2.smesh"
  COMMAND $<TARGET_FILE:tycho-refine> ${_meshes}/cube-12.smesh ${CMAKE_CURRENT_BINARY_DIR}/cube-12x2.smesh --times 2)
set_tests_properties(tycho.refine.cube_12_twice PROPERTIES LABELS unit)
suite_add_error_test(NAME tycho.refine.times_zero ONE_LINE
  EXPECT "^tycho-refine: error: command line:--times: expected a whole number in \\[1, 8\\] levels, got \"0\"$"
  COMMAND $<TARGET_FILE:tycho-refine> ${_meshes}/cube-12.smesh ${CMAKE_CURRENT_BINARY_DIR}/never.smesh --times 0)
suite_add_error_test(NAME tycho.refine.no_output ONE_LINE
  EXPECT "^tycho-refine: error: command line: expected an input and an output mesh; usage: tycho-refine IN.smesh OUT.smesh \\[--times N\\]$"
  COMMAND $<TARGET_FILE:tycho-refine> ${_meshes}/cube-12.smesh)
suite_add_error_test(NAME tycho.refine.not_a_mesh ONE_LINE
  EXPECT "^tycho-refine: error: .*/meshes/tycho2/README.md:header: expected the format name"
  COMMAND $<TARGET_FILE:tycho-refine> ${_meshes}/README.md ${CMAKE_CURRENT_BINARY_DIR}/never.smesh)
