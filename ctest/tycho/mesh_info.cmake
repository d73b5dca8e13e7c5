# tycho-mesh-info on a good mesh (the totals, checked) and on bad files (one error line).
# Two of Tycho2's meshes as shipped (disabled without them: SuiteTestMeshes.cmake).
set(_meshes ${SUITE_TYCHO2_MESHES})
suite_add_expect_test(NAME tycho.mesh_info.cube_12
  EXPECT "cells 12, faces 30 \\(12 on the boundary, 18 interior\\), nodes 9\ntotal volume 1000000 \\(sum of the cell volumes\\)\nsurface area 60000 \\(sum of the boundary face areas\\)\ncell volume min 83333.333[0-9]*, max 83333.333[0-9]*\nmaterial 1: cells 12, volume 1000000\n"
  COMMAND $<TARGET_FILE:tycho-mesh-info> ${_meshes}/cube-12.smesh)
suite_add_expect_test(NAME tycho.mesh_info.cube_10717
  EXPECT "cells 10717, faces 22904 \\(2940 on the boundary, 19964 interior\\), nodes 2620\ntotal volume 1000000 .*\nsurface area 60000 .*\nmaterial 1: cells 10717, volume 1000000\n"
  COMMAND $<TARGET_FILE:tycho-mesh-info> ${_meshes}/cube-10717.smesh)
set_tests_properties(tycho.mesh_info.cube_12 tycho.mesh_info.cube_10717 PROPERTIES LABELS unit)
suite_uses_tycho2_meshes(tycho.mesh_info.cube_12 tycho.mesh_info.cube_10717)
# The main job's mesh: the Kuhn cube 12^3 of side 100.
suite_add_expect_test(NAME tycho.mesh_info.kuhn_12
  EXPECT "cells 10368, faces 21600 \\(1728 on the boundary, 19872 interior\\), nodes 2197\ntotal volume 1000000 .*\nsurface area 60000 .*\nmaterial 1: cells 10368, volume 1000000\n"
  COMMAND $<TARGET_FILE:tycho-mesh-info> ${SUITE_TEST_MESHES}/kuhn-12.smesh)
set_tests_properties(tycho.mesh_info.kuhn_12 PROPERTIES LABELS unit)
# The example meshes, written then read: the hand-worked totals.
set(_kuhn ${CMAKE_CURRENT_BINARY_DIR}/kuhn-cube.smesh)
add_test(NAME tycho.mesh_example.write COMMAND $<TARGET_FILE:tycho-mesh-example> kuhn-cube ${_kuhn})
suite_add_expect_test(NAME tycho.mesh_info.kuhn_cube
  EXPECT "cells 6, faces 18 \\(12 on the boundary, 6 interior\\), nodes 8\ntotal volume 1 .*\nsurface area 6 .*\ncell volume min 0.166666666667, max 0.166666666667\n"
  COMMAND $<TARGET_FILE:tycho-mesh-info> ${_kuhn})
set_tests_properties(tycho.mesh_example.write PROPERTIES LABELS unit FIXTURES_SETUP tycho_kuhn)
set_tests_properties(tycho.mesh_info.kuhn_cube PROPERTIES LABELS unit FIXTURES_REQUIRED tycho_kuhn)
# Bad files: a text file, a file shorter than the header, a missing file, no argument.
set(_short ${CMAKE_CURRENT_BINARY_DIR}/short.smesh)
file(WRITE ${_short} "Tycho 2 Serial Mesh")
set(_notes ${CMAKE_CURRENT_BINARY_DIR}/notes.md)
file(WRITE ${_notes} "# not a mesh\n")
set(_text ${CMAKE_CURRENT_BINARY_DIR}/text.smesh)
file(WRITE ${_text} "# Tetrahedral cube meshes, as text, and long enough to hold a 64-byte header.\n")
suite_add_error_test(NAME tycho.mesh_info.not_a_mesh ONE_LINE
  EXPECT "^tycho-mesh-info: error: .*/text.smesh:header: expected the format name \"Tycho 2 Serial Mesh\" zero-padded to 32 bytes, found \"# Tetrahedral cube meshe\\.\\.\\.\"$"
  COMMAND $<TARGET_FILE:tycho-mesh-info> ${_text})
suite_add_error_test(NAME tycho.mesh_info.other_extension ONE_LINE
  EXPECT "^tycho-mesh-info: error: .*/notes.md: expected a mesh named \\*.smesh \\(Tycho2 serial mesh\\) or \\*.msh \\(Gmsh 4.1 or 2.2\\)$"
  COMMAND $<TARGET_FILE:tycho-mesh-info> ${_notes})
# A Gmsh mesh (binary 4.1) of the two-material unit cube: two halves of volume 0.5.
suite_add_expect_test(NAME tycho.mesh_info.gmsh_two_materials
  EXPECT "cells 48, faces 116 \\(40 on the boundary, 76 interior\\), nodes 23\ntotal volume 1 .*\nsurface area 6 .*\nmaterial 1: cells 24, volume 0.5\nmaterial 2: cells 24, volume 0.5\n"
  COMMAND $<TARGET_FILE:tycho-mesh-info> ${PROJECT_SOURCE_DIR}/ctest/mesh/gmsh_data/cube-4.1-binary.msh)
set_tests_properties(tycho.mesh_info.gmsh_two_materials PROPERTIES LABELS unit)
suite_add_error_test(NAME tycho.mesh_info.short ONE_LINE
  EXPECT "^tycho-mesh-info: error: .*short.smesh:header: a Tycho2 serial mesh starts with a 64-byte header. the file has 19 bytes$"
  COMMAND $<TARGET_FILE:tycho-mesh-info> ${_short})
suite_add_error_test(NAME tycho.mesh_info.missing ONE_LINE
  EXPECT "^tycho-mesh-info: error: .*no-such.smesh: "
  COMMAND $<TARGET_FILE:tycho-mesh-info> ${CMAKE_CURRENT_BINARY_DIR}/no-such.smesh)
suite_add_error_test(NAME tycho.mesh_info.no_argument ONE_LINE
  EXPECT "^tycho-mesh-info: error: command line:MESH: expected the MESH argument \\(see tycho-mesh-info --help\\)$"
  COMMAND $<TARGET_FILE:tycho-mesh-info>)
# The slab a rank of two holds of the Kuhn cube 12^3 (its lowest 6 layers), the main job's
# tycho calibration mesh: half the cube's cells and volume.
set(_slab ${CMAKE_CURRENT_BINARY_DIR}/kuhn-slab-12-6.smesh)
add_test(NAME tycho.mesh_example.write_slab
         COMMAND $<TARGET_FILE:tycho-mesh-example> kuhn-cube ${_slab} --cube 12 --layers 6 --side 100)
suite_add_expect_test(NAME tycho.mesh_info.kuhn_slab
  EXPECT "cells 5184, faces 10944 \\(1152 on the boundary, 9792 interior\\), nodes 1183\ntotal volume 500000 .*\nsurface area 40000 .*\nmaterial 1: cells 5184, volume 500000\n"
  COMMAND $<TARGET_FILE:tycho-mesh-info> ${_slab})
set_tests_properties(tycho.mesh_example.write_slab PROPERTIES LABELS unit FIXTURES_SETUP tycho_kuhn_slab)
set_tests_properties(tycho.mesh_info.kuhn_slab PROPERTIES LABELS unit FIXTURES_REQUIRED tycho_kuhn_slab)
suite_add_error_test(NAME tycho.mesh_example.layers_beyond_cube ONE_LINE
  EXPECT "^tycho-mesh-example: error: command line:--layers: at most the cube's 4 layers \\(--cube\\), got 6$"
  NO_FILE ${CMAKE_CURRENT_BINARY_DIR}/slab-too-thick.smesh
  COMMAND $<TARGET_FILE:tycho-mesh-example> kuhn-cube ${CMAKE_CURRENT_BINARY_DIR}/slab-too-thick.smesh --cube 4 --layers 6)
suite_add_error_test(NAME tycho.mesh_example.layers_not_kuhn ONE_LINE
  EXPECT "^tycho-mesh-example: error: command line:--layers: expected it after kuhn-cube only, got corner-tet$"
  NO_FILE ${CMAKE_CURRENT_BINARY_DIR}/corner-layers.smesh
  COMMAND $<TARGET_FILE:tycho-mesh-example> corner-tet ${CMAKE_CURRENT_BINARY_DIR}/corner-layers.smesh --layers 2)
