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
  EXPECT "^tycho-refine: error: command line: expected an input and an output mesh; usage: tycho-refine MESH OUT.smesh \\[--times N\\] \\(MESH: .smesh or .msh\\)$"
  COMMAND $<TARGET_FILE:tycho-refine> ${_meshes}/cube-12.smesh)
set(_short ${CMAKE_CURRENT_BINARY_DIR}/refine-short.smesh)
file(WRITE ${_short} "Tycho 2 Serial Mesh")
suite_add_error_test(NAME tycho.refine.short_mesh ONE_LINE
  EXPECT "^tycho-refine: error: .*refine-short.smesh:header: a Tycho2 serial mesh starts with a 64-byte header; the file has 19 bytes$"
  COMMAND $<TARGET_FILE:tycho-refine> ${_short} ${CMAKE_CURRENT_BINARY_DIR}/never.smesh)
suite_add_error_test(NAME tycho.refine.not_a_mesh ONE_LINE
  EXPECT "^tycho-refine: error: .*/meshes/tycho2/README.md: expected a mesh named \\*.smesh \\(Tycho2 serial mesh\\) or \\*.msh"
  COMMAND $<TARGET_FILE:tycho-refine> ${_meshes}/README.md ${CMAKE_CURRENT_BINARY_DIR}/never.smesh)
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
