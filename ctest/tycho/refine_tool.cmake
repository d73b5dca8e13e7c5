# tycho-refine: the Kuhn cube 2^3 refined twice (3072 cells, the quality kept) and its bad
# arguments.
set(_meshes ${SUITE_TEST_MESHES})
set(_not_a_mesh ${CMAKE_CURRENT_BINARY_DIR}/refine-notes.md)
file(WRITE ${_not_a_mesh} "# not a mesh\n")
suite_add_expect_test(NAME tycho.refine.kuhn_2_twice
  EXPECT "read .*kuhn-2.smesh: cells 48, faces 120, nodes 27, min quality 0.6573 .*\nlevel 1: cells 384, faces 864, nodes 125, min quality 0.6573 .*\nlevel 2: cells 3072, faces 6528, nodes 729, min quality 0.6573 .*\nwrote .*kuhn-2x2.smesh"
  COMMAND $<TARGET_FILE:tycho-refine> ${_meshes}/kuhn-2.smesh ${CMAKE_CURRENT_BINARY_DIR}/kuhn-2x2.smesh --times 2)
set_tests_properties(tycho.refine.kuhn_2_twice PROPERTIES LABELS unit)
suite_add_error_test(NAME tycho.refine.times_zero ONE_LINE
  EXPECT "^tycho-refine: error: command line:--times: expected a whole number in \\[1, 8\\] levels, got \"0\"$"
  COMMAND $<TARGET_FILE:tycho-refine> ${_meshes}/kuhn-2.smesh ${CMAKE_CURRENT_BINARY_DIR}/never.smesh --times 0)
suite_add_error_test(NAME tycho.refine.no_output ONE_LINE
  EXPECT "^tycho-refine: error: command line:OUT.smesh: expected the OUT.smesh argument \\(see tycho-refine --help\\)$"
  COMMAND $<TARGET_FILE:tycho-refine> ${_meshes}/kuhn-2.smesh)
set(_short ${CMAKE_CURRENT_BINARY_DIR}/refine-short.smesh)
file(WRITE ${_short} "Tycho 2 Serial Mesh")
suite_add_error_test(NAME tycho.refine.short_mesh ONE_LINE
  EXPECT "^tycho-refine: error: .*refine-short.smesh:header: a Tycho2 serial mesh starts with a 64-byte header. the file has 19 bytes$"
  COMMAND $<TARGET_FILE:tycho-refine> ${_short} ${CMAKE_CURRENT_BINARY_DIR}/never.smesh)
suite_add_error_test(NAME tycho.refine.not_a_mesh ONE_LINE
  EXPECT "^tycho-refine: error: .*/refine-notes.md: expected a mesh named \\*.smesh \\(Tycho2 serial mesh\\) or \\*.msh"
  COMMAND $<TARGET_FILE:tycho-refine> ${_not_a_mesh} ${CMAKE_CURRENT_BINARY_DIR}/never.smesh)
# A Gmsh file in (the two-material cube of ctest/mesh/gmsh_data/, 48 cells): 384 cells out, each
# material's 192 cells keeping its volume 0.5.
set(_gmsh_cube ${PROJECT_SOURCE_DIR}/ctest/mesh/gmsh_data/cube-4.1-binary.msh)
suite_add_expect_test(NAME tycho.refine.gmsh_cube
  EXPECT "read .*cube-4.1-binary.msh: cells 48, faces 116, nodes 23, .*\nlevel 1: cells 384, faces 848, nodes 113, "
  COMMAND $<TARGET_FILE:tycho-refine> ${_gmsh_cube} ${CMAKE_CURRENT_BINARY_DIR}/gmsh-cube-x1.smesh)
set_tests_properties(tycho.refine.gmsh_cube PROPERTIES LABELS unit FIXTURES_SETUP tycho_refine_gmsh)
suite_add_expect_test(NAME tycho.refine.gmsh_cube_materials
  EXPECT "total volume 1 .*\nsurface area 6 .*\nmaterial 1: cells 192, volume 0.5\nmaterial 2: cells 192, volume 0.5\n"
  COMMAND $<TARGET_FILE:tycho-mesh-info> ${CMAKE_CURRENT_BINARY_DIR}/gmsh-cube-x1.smesh)
set_tests_properties(tycho.refine.gmsh_cube_materials PROPERTIES LABELS unit FIXTURES_REQUIRED tycho_refine_gmsh)
