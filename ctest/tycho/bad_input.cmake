# Bad input to the tycho program, at 2 ranks: every rank exits non-zero, stdout empty and
# stderr one line naming the file or option and what was expected (suite_add_error_test).
set(_meshes ${PROJECT_SOURCE_DIR}/../shared/meshes/tycho2)
set(_cube12 ${_meshes}/cube-12.smesh)
set(_dir ${CMAKE_CURRENT_BINARY_DIR}/tycho_bad_input)
file(MAKE_DIRECTORY ${_dir})
# A truncated mesh: cube-12's first 500 of its 2344 bytes. A .vtk name on a good mesh.
execute_process(COMMAND head -c 500 ${_cube12} OUTPUT_FILE ${_dir}/truncated.smesh)
configure_file(${_cube12} ${_dir}/cube-12.vtk COPYONLY)
# (In the list below ";" and an unbalanced "[" would split or join entries: "." stands for them.)
# Partition files for cube-12 (12 cells): one line short; a part 5 at 2 ranks.
string(REPEAT "0\n" 11 _eleven)
file(WRITE ${_dir}/short.part "${_eleven}")
file(WRITE ${_dir}/out_of_range.part "${_eleven}5\n")
# More ranks than cells: the one-cell corner tetrahedron at 2 ranks.
set(_corner ${_dir}/corner-tet.smesh)
add_test(NAME tycho.bad_input.write_corner_tet COMMAND $<TARGET_FILE:tycho-mesh-example> corner-tet ${_corner})
set_tests_properties(tycho.bad_input.write_corner_tet PROPERTIES LABELS unit FIXTURES_SETUP tycho_corner_tet)

set(_bad
  "missing_mesh|^tycho: error: .*/no-such.smesh: cannot open serial mesh: No such file or directory$|${_dir}/no-such.smesh"
  "vtk_extension|^tycho: error: .*/cube-12.vtk: expected a mesh named \\*.smesh \\(Tycho2 serial mesh\\) or \\*.msh \\(Gmsh 4.1 or 2.2\\)$|${_dir}/cube-12.vtk"
  "truncated_smesh|^tycho: error: .*/truncated.smesh:header: the counts \\(12 cells, 30 faces, 9 nodes\\) need 64 \\+ 72\\*C \\+ 40\\*F \\+ 24\\*N = 2344 bytes. the file has 500 \\(truncated\\)$|${_dir}/truncated.smesh"
  "partition_short|^tycho: error: .*/short.part:line 12: expected 12 lines, one part per cell, found 11$|${_cube12}|--partition|${_dir}/short.part"
  "partition_out_of_range|^tycho: error: .*/out_of_range.part:line 12: expected the part of cell 11, a whole number in .0, 2\\), found \"5\"$|${_cube12}|--partition|${_dir}/out_of_range.part"
  "partition_missing|^tycho: error: .*/no-such.part: cannot open partition file: No such file or directory$|${_cube12}|--partition|${_dir}/no-such.part"
  "mcps_zero|^tycho: error: command line:--mcps: expected a whole number in \\[1, 1099511627776\\] \\(tasks a step\\) or auto, got \"0\"$|${_cube12}|--mcps|0"
  "sn_odd|^tycho: error: --sn: the level-symmetric order must be one of 2, 4, 6, 8, 10, 12, 14, 16, found 7$|${_cube12}|--sn|7"
  "sn_18|^tycho: error: command line:--sn: expected a whole number in \\[2, 16\\] \\(the S_N order, even\\), got \"18\"$|${_cube12}|--sn|18"
  "scheme_foo|^tycho: error: command line:--scheme: expected ld or step, got \"foo\"$|${_cube12}|--scheme|foo"
  "priority_foo|^tycho: error: command line:--priority: expected blevel, boundary, direction, octant or fifo, got \"foo\"$|${_cube12}|--priority|foo"
  "groups_zero|^tycho: error: command line:--groups: expected a whole number in \\[1, 64\\] \\(energy groups\\), got \"0\"$|${_cube12}|--groups|0"
  "unknown_option|^tycho: error: command line:--bogus: unknown option \\(see tycho --help\\)$|${_cube12}|--bogus"
  "results_without_file|^tycho: error: command line:--results: expected a value after it$|${_cube12}|--results"
  "no_mesh|^tycho: error: command line:MESH: expected the MESH argument \\(see tycho --help\\)$|--iterations|2")
foreach(entry ${_bad})
  string(REPLACE "|" ";" fields "${entry}")
  list(POP_FRONT fields name regex)
  suite_add_error_test(NAME tycho.bad_input.${name}.np2 RANKS 2 ONE_LINE LABELS mpi TIMEOUT 60
                       EXPECT "${regex}" COMMAND $<TARGET_FILE:tycho> --no-results ${fields})
endforeach()
suite_add_error_test(NAME tycho.bad_input.more_ranks_than_cells.np2 RANKS 2 ONE_LINE LABELS mpi TIMEOUT 60
  EXPECT "^tycho: error: .*/corner-tet.smesh on 2 ranks:P: expected a part count in \\[1, 1\\] \\(at most one part per cell\\), found 2$"
  COMMAND $<TARGET_FILE:tycho> ${_corner} --no-results)
set_tests_properties(tycho.bad_input.more_ranks_than_cells.np2 PROPERTIES FIXTURES_REQUIRED tycho_corner_tet)
# A results file that cannot be written: every rank fails after the run (its report is on
# stdout, so not ONE_LINE) and no file or temporary is left.
suite_add_error_test(NAME tycho.bad_input.results_unwritable.np2 RANKS 2 LABELS mpi TIMEOUT 60
  EXPECT "tycho: error: .*/no-such-dir/run.h5: cannot write results file: cannot create temporary file .*/no-such-dir/run.h5.tmp.[0-9]+: No such file or directory"
  NO_FILE ${_dir}/no-such-dir/run.h5
  COMMAND $<TARGET_FILE:tycho> ${_cube12} --iterations 1 --results ${_dir}/no-such-dir/run.h5)
