# Bad input to the multigrid program, at 2 ranks: every rank exits non-zero and stderr holds
# one line naming the file or option and what was expected (suite_add_error_test).
set(_dir ${CMAKE_CURRENT_BINARY_DIR}/multigrid_bad_input)
file(MAKE_DIRECTORY ${_dir})
# The default cube at --cube 1 has 6 cells: a partition file one short of them.
file(WRITE ${_dir}/short.part "0\n0\n0\n0\n0\n")
# More processes than coarse cells: the one-cell corner tetrahedron at 2 ranks.
set(_corner ${_dir}/corner-tet.smesh)
add_test(NAME multigrid.bad_input.write_corner_tet COMMAND $<TARGET_FILE:tycho-mesh-example> corner-tet ${_corner})
set_tests_properties(multigrid.bad_input.write_corner_tet PROPERTIES LABELS unit FIXTURES_SETUP multigrid_corner_tet)
set(_sp2 ${PROJECT_SOURCE_DIR}/inputs/bsp/ibm-sp2-switch-p2.machine)
set(_meshes ${SUITE_TEST_MESHES})

# (In the list below ";" and an unbalanced "[" would split or join entries: "." stands for them.)
set(_bad
  "missing_mesh|^multigrid: error: .*/no-such.msh: cannot open Gmsh mesh: No such file or directory$|${_dir}/no-such.msh"
  "more_ranks_than_cells|^multigrid: error: .*/corner-tet.smesh:P: at most one process per coarse cell: 2 processes for 1 cells$|${_corner}"
  "partition_short|^multigrid: error: .*/short.part:line 6: expected 6 lines, one part per cell, found 5$|--cube|1|--grids|1|--partition|${_dir}/short.part"
  "partition_short_refined|^multigrid: error: .*/short.part:line 6: expected 48 lines, one part per cell, found 5$|--cube|1|--grids|2|--partition|${_dir}/short.part"
  "grids_zero|^multigrid: error: command line:--grids: expected a whole number in \\[1, 8\\] \\(grids\\), got \"0\"$|--grids|0"
  "cycle_X|^multigrid: error: command line:--cycle: expected W or V, got \"X\"$|--cycle|X"
  "cell_kernel_bogus|^multigrid: error: command line:--cell-kernel: expected avx512, avx2 or portable, got \"sse9\"$|--cell-kernel|sse9"
  "smoothing_lower_range|^multigrid: error: command line:--smoothing-lower: expected a number in \\[0.01, 0.9\\] \\(of lambda_max\\), got \"1.5\"$|--smoothing-lower|1.5"
  "no_smoothing|^multigrid: error: command line:--pre/--post: at least one smoothing iteration per visit$|--pre|0|--post|0"
  "unknown_option|^multigrid: error: command line:--bogus: unknown option \\(see multigrid --help\\)$|--bogus"
  "sequence_not_nested|^multigrid: error: .*/kuhn-6.smesh:node 1: a point on the domain of the coarser grid .*/box.msh \\(the grids must nest\\). this one, at \\(16.6667, 0, 0\\), is outside it$|--mesh-sequence|${CMAKE_CURRENT_SOURCE_DIR}/gmsh_data/box.msh,${_meshes}/kuhn-6.smesh"
  "sequence_not_finer|^multigrid: error: .*/kuhn-3.smesh:cells: more cells than the coarser grid before it in the sequence \\(1296, .*/kuhn-6.smesh. coarsest first\\), got 162$|--mesh-sequence|${_meshes}/kuhn-6.smesh,${_meshes}/kuhn-3.smesh"
  "sequence_one|^multigrid: error: command line:--mesh-sequence: expected two meshes or more, coarsest first, separated by commas$|--mesh-sequence|a.msh"
  "sequence_and_grids|^multigrid: error: command line:--mesh-sequence: no --grids beside it \\(the sequence's length is the grid count\\)$|--grids|2|--mesh-sequence|a.msh,b.msh"
  "sequence_and_mesh|^multigrid: error: command line:--mesh-sequence: no MESH beside it \\(the sequence's first is the coarsest grid\\), got c.msh$|c.msh|--mesh-sequence|a.msh,b.msh"
  "two_meshes|^multigrid: error: command line:b.msh: expected one MESH only, already have \"a.msh\"$|a.msh|b.msh"
  "machine_missing|^multigrid: error: .*/no-such.machine: cannot open machine file: No such file or directory$|--machine|${_dir}/no-such.machine"
  "calibration_missing|^multigrid: error: .*/no-such.h5: cannot open results file: No such file or directory$|--machine|${_sp2}|--calibration|${_dir}/no-such.h5"
  "no_machine_with_calibration|^multigrid: error: command line:--no-machine: no --calibration beside it [(]the calibration feeds the models it turns off[)]$|--no-machine|--calibration|${_sp2}"
  "no_machine_with_machine|^multigrid: error: command line:--no-machine: no --machine beside it$|--no-machine|--machine|${_sp2}")
foreach(entry ${_bad})
  string(REPLACE "|" ";" fields "${entry}")
  list(POP_FRONT fields name regex)
  suite_add_error_test(NAME multigrid.bad_input.${name}.np2 RANKS 2 ONE_LINE LABELS mpi TIMEOUT 60
                       EXPECT "${regex}" COMMAND $<TARGET_FILE:multigrid> --no-results ${fields})
endforeach()
set_tests_properties(multigrid.bad_input.more_ranks_than_cells.np2 PROPERTIES FIXTURES_REQUIRED multigrid_corner_tet)
# The second of two calibration files missing: the error names it, not the first (run.cmake's
# calibration run writes the first).
suite_add_error_test(NAME multigrid.bad_input.calibration_second_missing.np2 RANKS 2 ONE_LINE LABELS mpi TIMEOUT 60
  EXPECT "^multigrid: error: .*/no-such-2.h5: cannot open results file: No such file or directory$"
  COMMAND $<TARGET_FILE:multigrid> --no-results --machine ${_sp2}
          --calibration ${CMAKE_CURRENT_BINARY_DIR}/multigrid_run/calibration.h5,${_dir}/no-such-2.h5)
set_tests_properties(multigrid.bad_input.calibration_second_missing.np2 PROPERTIES FIXTURES_REQUIRED multigrid_calibration)

# A mesh that passes the reader but one of whose refined children is degenerate
# (sliver_mesh.py: a flat cap beside a 4^3 Kuhn cube, 385 cells). At one process the finest
# grid's children are checked as they are refined; at two, METIS cuts the coarse grid (385 >=
# 2 x 128 cells) and each process checks the children of its own parents after the
# inheritance (check_finest_cells): either way one line naming the child, non-zero exit.
set(_sliver ${_dir}/sliver.msh)
add_test(NAME multigrid.bad_input.write_sliver COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/sliver_mesh.py ${_sliver})
set_tests_properties(multigrid.bad_input.write_sliver PROPERTIES LABELS unit FIXTURES_SETUP multigrid_sliver)
set(_sliver_error "^multigrid: error: .*/sliver.msh:cell 3076: degenerate: its volume 0.000000 must exceed 1e-12 x \\(longest edge 0.577350\\)\\^3$")
foreach(ranks 1 2)
  suite_add_error_test(NAME multigrid.bad_input.finest_child_degenerate.np${ranks} RANKS ${ranks} ONE_LINE LABELS mpi TIMEOUT 60
                       EXPECT "${_sliver_error}" COMMAND $<TARGET_FILE:multigrid> --no-results ${_sliver} --grids 2)
  set_tests_properties(multigrid.bad_input.finest_child_degenerate.np${ranks} PROPERTIES FIXTURES_REQUIRED multigrid_sliver)
endforeach()
