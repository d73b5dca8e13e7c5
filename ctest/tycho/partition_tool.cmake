# tycho-partition on Kuhn's cube split by a partition file (tets 0-2 | 3-5: the ring of tets
# around the diagonal cut twice; worked in unit_partition_graph.cpp), METIS on the Kuhn cube 6^3,
# and bad arguments and files.
set(_meshes ${SUITE_TEST_MESHES})
set(_dir ${CMAKE_CURRENT_BINARY_DIR}/partition_tool)
file(MAKE_DIRECTORY ${_dir})
file(WRITE ${_dir}/kuhn-halves.part "0\n0\n0\n1\n1\n1\n")
file(WRITE ${_dir}/short.part "0\n1\n")
file(WRITE ${_dir}/bad.part "0\n0\nzero\n1\n1\n1\n")
add_test(NAME tycho.partition.kuhn_write COMMAND $<TARGET_FILE:tycho-mesh-example> kuhn-cube ${_dir}/kuhn.smesh)
set_tests_properties(tycho.partition.kuhn_write PROPERTIES LABELS unit FIXTURES_SETUP tycho_partition_kuhn)
# Each half: 3 cells, 1 neighbour, 2 faces shared (tets 1|4 and 2|3), 6 on the cube's faces.
# No path of cells crosses the cut twice (two arcs of 3 tets on a ring of 6): chain 2.
suite_add_expect_test(NAME tycho.partition.kuhn_file
  EXPECT "partition: read from .*kuhn-halves.part, 2 parts\n +part +cells +neighbours +shared faces +boundary faces +neighbour parts\n +0 +3 +1 +2 +6  1\n +1 +3 +1 +2 +6  0\nbalance: largest part 3 cells = 1.0000 x the mean 3.0. faces between parts 2\n.*pipeline length \\(eq. 8, chain - 1\\): 1 over the graph of parts, 1 along the cells\nwrote .*out.part\n"
  COMMAND $<TARGET_FILE:tycho-partition> ${_dir}/kuhn.smesh 2 --parts ${_dir}/kuhn-halves.part --out ${_dir}/out.part)
suite_add_expect_test(NAME tycho.partition.kuhn_6_metis
  EXPECT "partition: METIS k-way into 4 parts .*\nbalance: largest part 3[2-4][0-9] cells = 1.0[0-3][0-9]* x the mean 324.0"
  COMMAND $<TARGET_FILE:tycho-partition> ${_meshes}/kuhn-6.smesh 4)
set_tests_properties(tycho.partition.kuhn_file PROPERTIES LABELS unit FIXTURES_REQUIRED tycho_partition_kuhn)
set_tests_properties(tycho.partition.kuhn_6_metis PROPERTIES LABELS unit)
suite_add_error_test(NAME tycho.partition.short_file ONE_LINE
  EXPECT "^tycho-partition: error: .*short.part:line 3: expected 48 lines, one part per cell, found 2$"
  COMMAND $<TARGET_FILE:tycho-partition> ${_meshes}/kuhn-2.smesh 2 --parts ${_dir}/short.part)
suite_add_error_test(NAME tycho.partition.bad_part ONE_LINE
  EXPECT "^tycho-partition: error: .*bad.part:line 3: expected the part of cell 2, a whole number in .0, 2., found \"zero\"$"
  COMMAND $<TARGET_FILE:tycho-partition> ${_meshes}/kuhn-2.smesh 2 --parts ${_dir}/bad.part)
suite_add_error_test(NAME tycho.partition.too_many_parts ONE_LINE
  EXPECT "^tycho-partition: error: .*kuhn-2.smesh:P: expected a part count in \\[1, 48\\] \\(at most one part per cell\\), found 49$"
  COMMAND $<TARGET_FILE:tycho-partition> ${_meshes}/kuhn-2.smesh 49)
suite_add_error_test(NAME tycho.partition.p_not_a_number ONE_LINE
  EXPECT "^tycho-partition: error: command line:P: expected a whole number in \\[1, 2147483647\\] parts, got \"4x\"$"
  COMMAND $<TARGET_FILE:tycho-partition> ${_meshes}/kuhn-2.smesh 4x)
