# Bad input to the tycho program, at 2 ranks: every rank exits non-zero, stdout empty and
# stderr one line naming the file or option and what was expected (suite_add_error_test).
set(_cube12 ${SUITE_TEST_MESHES}/kuhn-2.smesh)
set(_dir ${CMAKE_CURRENT_BINARY_DIR}/tycho_bad_input)
file(MAKE_DIRECTORY ${_dir})
# A truncated mesh: the Kuhn cube 2^3's first 500 of its 8968 bytes. A .vtk name on a good
# mesh. Made when the tests run, from the mesh made then (SuiteTestMeshes.cmake).
add_test(NAME tycho.bad_input.write_damaged
         COMMAND sh -c "head -c 500 \"$0\" > \"$1\" && cp \"$0\" \"$2\"" ${_cube12} ${_dir}/truncated.smesh ${_dir}/kuhn-2.vtk)
set_tests_properties(tycho.bad_input.write_damaged PROPERTIES LABELS unit FIXTURES_SETUP tycho_bad_input_damaged)
# (In the list below ";" and an unbalanced "[" would split or join entries: "." stands for them.)
# Partition files for the Kuhn cube 2^3 (48 cells): one line short; a part 5 at 2 ranks.
string(REPEAT "0\n" 47 _one_short)
file(WRITE ${_dir}/short.part "${_one_short}")
file(WRITE ${_dir}/out_of_range.part "${_one_short}5\n")
# More ranks than cells: the one-cell corner tetrahedron at 2 ranks.
set(_corner ${_dir}/corner-tet.smesh)
add_test(NAME tycho.bad_input.write_corner_tet COMMAND $<TARGET_FILE:tycho-mesh-example> corner-tet ${_corner})
set_tests_properties(tycho.bad_input.write_corner_tet PROPERTIES LABELS unit FIXTURES_SETUP tycho_corner_tet)

set(_bad
  "missing_mesh|^tycho: error: .*/no-such.smesh: cannot open serial mesh: No such file or directory$|${_dir}/no-such.smesh"
  "vtk_extension|^tycho: error: .*/kuhn-2.vtk: expected a mesh named \\*.smesh \\(Tycho2 serial mesh\\) or \\*.msh \\(Gmsh 4.1 or 2.2\\)$|${_dir}/kuhn-2.vtk"
  "truncated_smesh|^tycho: error: .*/truncated.smesh:header: the counts \\(48 cells, 120 faces, 27 nodes\\) need 64 \\+ 72\\*C \\+ 40\\*F \\+ 24\\*N = 8968 bytes. the file has 500 \\(truncated\\)$|${_dir}/truncated.smesh"
  "partition_short|^tycho: error: .*/short.part:line 48: expected 48 lines, one part per cell, found 47$|${_cube12}|--partition|${_dir}/short.part"
  "partition_out_of_range|^tycho: error: .*/out_of_range.part:line 48: expected the part of cell 47, a whole number in .0, 2\\), found \"5\"$|${_cube12}|--partition|${_dir}/out_of_range.part"
  "partition_missing|^tycho: error: .*/no-such.part: cannot open partition file: No such file or directory$|${_cube12}|--partition|${_dir}/no-such.part"
  "mcps_zero|^tycho: error: command line:--mcps: expected a whole number in \\[1, 1099511627776\\] \\(tasks a step\\) or auto, got \"0\"$|${_cube12}|--mcps|0"
  "sn_odd|^tycho: error: --sn: the level-symmetric order must be one of 2, 4, 6, 8, 10, 12, 14, 16, found 7$|${_cube12}|--sn|7"
  "sn_18|^tycho: error: command line:--sn: expected a whole number in \\[2, 16\\] \\(the S_N order, even\\), got \"18\"$|${_cube12}|--sn|18"
  "scheme_foo|^tycho: error: command line:--scheme: expected ld or step, got \"foo\"$|${_cube12}|--scheme|foo"
  "priority_foo|^tycho: error: command line:--priority: expected band-octant, blevel, boundary, direction, octant or fifo, got \"foo\"$|${_cube12}|--priority|foo"
  "telem_fit_curve|^tycho: error: command line:--telem-fit: expected points or line, got \"curve\"$|${_cube12}|--telem-fit|curve"
  "telem_fit_alone|^tycho: error: command line:--telem-fit: expected --calibration too: it draws T_elem from the calibration runs$|${_cube12}|--telem-fit|line"
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
set_property(TEST tycho.bad_input.truncated_smesh.np2 tycho.bad_input.vtk_extension.np2
             APPEND PROPERTY FIXTURES_REQUIRED tycho_bad_input_damaged)
