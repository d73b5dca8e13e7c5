# tycho --materials FILE on the Kuhn cube 6^3 (every cell material 1):
#   same_as_default  a file restating the default problem's data for material 1 gives the
#                    default run's scalar flux bit for bit, at 1 and 2 ranks
#   balance          other data (a denser, more scattering material 1): the sweep still
#                    balances to round-off
#   bad files        one line naming the file and the place, every rank exits non-zero
set(_mesh ${SUITE_TEST_MESHES}/kuhn-6.smesh)
set(_dir ${CMAKE_CURRENT_BINARY_DIR}/tycho_materials)
file(MAKE_DIRECTORY ${_dir})
# default_material(2): sigma_t 0.05 (g+1), scatter half of it, 0.2 x 0.05 down into group 1
# (0.010000000000000002 as a double), Q = 1 in group 0.
file(WRITE ${_dir}/default.materials
  "# the default problem, written out\nmaterial 1 sigma_t 0.05 0.1\nmaterial 1 scatter 0.025 0.05\n"
  "material 1 downscatter 0 0.010000000000000002\nmaterial 1 source 1 0   # fast source only\n")
file(WRITE ${_dir}/dense.materials
  "material 1 sigma_t 0.2 0.4\nmaterial 1 scatter 0.18 0.3\nmaterial 1 downscatter 0 0.015\nmaterial 1 source 2 0.5\n")
file(WRITE ${_dir}/missing.materials "material 1 sigma_t 0.2 0.4\nmaterial 1 scatter 0.18 0.3\nmaterial 1 source 2 0.5\n")
file(WRITE ${_dir}/typo.materials
  "material 1 sigma_t 0.2 0.4\nmaterial 1 scatter 0.18 0.3\nmaterial 1 downscatter 0 0.015\nmaterial 1 source 2 0.5\n"
  "material 11 sigma_t 0.2 0.4\nmaterial 11 scatter 0.18 0.3\nmaterial 11 downscatter 0 0.015\nmaterial 11 source 2 0.5\n")
file(WRITE ${_dir}/scatter_above_total.materials
  "material 1 sigma_t 0.2 0.4\nmaterial 1 scatter 0.3 0.3\nmaterial 1 downscatter 0 0.015\nmaterial 1 source 2 0.5\n")
add_test(NAME tycho.materials.same_as_default
         COMMAND ${CMAKE_COMMAND} -DMPIEXEC=${MPIEXEC_EXECUTABLE} -DNPFLAG=${MPIEXEC_NUMPROC_FLAG}
                 -DEXE=$<TARGET_FILE:tycho> -DMESH=${_mesh}
                 "-DRUNS=1|1 --materials ${_dir}/default.materials|2 --materials ${_dir}/default.materials"
                 "-DARGS=--iterations 3" -P ${CMAKE_CURRENT_LIST_DIR}/run_tycho_digest.cmake)
set_tests_properties(tycho.materials.same_as_default PROPERTIES LABELS mpi PROCESSORS 2 TIMEOUT 300)
suite_add_mpi_test(NAME tycho.materials.balance.np2 TARGET tycho RANKS 2 TIMEOUT 120
  ARGS ${_mesh} --iterations 3 --no-results --materials ${_dir}/dense.materials
  EXPECT "sweep balance residual -?(0\\.00e\\+00|[0-9]\\.[0-9][0-9]e-(1[3-9]|[2-9][0-9]))")
set(_bad
  "missing|^tycho: error: .*/missing.materials:material 1: expected all of sigma_t, scatter, downscatter and source, missing downscatter$"
  "typo|^tycho: error: .*/typo.materials:material 11: a material number some cell of .*kuhn-6.smesh has \\(a typo would silently leave the default data\\), found none$"
  "scatter_above_total|^tycho: error: .*/scatter_above_total.materials:material 1 group 0: scattering in \\[0, sigma_t\\]$"
  "no_such_file|^tycho: error: .*/no_such_file.materials: cannot open materials file: No such file or directory$")
foreach(entry ${_bad})
  string(REPLACE "|" ";" fields "${entry}")
  list(POP_FRONT fields name regex)
  suite_add_error_test(NAME tycho.materials.bad_${name}.np2 RANKS 2 ONE_LINE LABELS mpi TIMEOUT 60
                       EXPECT "${regex}" COMMAND $<TARGET_FILE:tycho> ${_mesh} --no-results --materials ${_dir}/${name}.materials)
endforeach()
