# tycho-model: the GM and the TM projected to P never run, from the fixtures of models.cmake
# (a probed machine file, a 1-rank calibration on the Kuhn cube 6^3). At P = 1 both models are the
# same compute (no message, a schedule with PCE 1): TM / GM = 1.000. At P = 16 a row with
# finite times; bad arguments: one line.
set(_mesh ${SUITE_TEST_MESHES}/kuhn-6.smesh)
set(_machine ${CMAKE_CURRENT_BINARY_DIR}/tycho_models.machine)
set(_cal ${CMAKE_CURRENT_BINARY_DIR}/tycho_models_cal.h5)
set(_num "[0-9.]+(e[-+][0-9]+)?")
suite_add_expect_test(NAME tycho.model_tool.projection
  EXPECT "1296 cells. S8 \\(80 directions\\), 2 groups, MCPS 512\n.*\n +1 +1296\\.0 +[0-9]+ +[0-9]+ +1\\.0000 +${_num} +${_num} +1\\.000 +0\\.0% .*\n +16 +81\\.0 +[0-9]+ +[0-9]+ +0\\.[0-9]+ +${_num} +${_num} +[0-9.]+ +[0-9.]+% .*CSV: .*projection.csv"
  COMMAND $<TARGET_FILE:tycho-model> ${_mesh} --machine ${_machine} --calibration ${_cal} --ranks 1,16
          --csv ${CMAKE_CURRENT_BINARY_DIR}/projection.csv)
set_tests_properties(tycho.model_tool.projection PROPERTIES FIXTURES_REQUIRED "tycho_models_machine;tycho_models_cal")
suite_add_error_test(NAME tycho.model_tool.calibration_groups ONE_LINE
  EXPECT "tycho-model: error: .*tycho_models_cal.h5:/tycho/calibration/groups: the projection's 3"
  COMMAND $<TARGET_FILE:tycho-model> ${_mesh} --groups 3 --machine ${_machine} --calibration ${_cal} --ranks 4)
set_tests_properties(tycho.model_tool.calibration_groups PROPERTIES FIXTURES_REQUIRED "tycho_models_machine;tycho_models_cal")
# The octant order projected from an octant calibration (its 1-rank T_elem): at P = 1 the
# models agree; a band-octant calibration (the default) is refused for it.
set(_cal_octant ${CMAKE_CURRENT_BINARY_DIR}/tycho_models_cal_octant.h5)
suite_add_mpi_test(NAME tycho.model_tool.calibrate_octant TARGET tycho RANKS 1 TIMEOUT 120
  ARGS ${_mesh} --iterations 3 --priority octant --results ${_cal_octant} EXPECT " Results file: ")
set_tests_properties(tycho.model_tool.calibrate_octant PROPERTIES FIXTURES_SETUP tycho_models_cal_octant)
suite_add_expect_test(NAME tycho.model_tool.projection_octant
  EXPECT "1296 cells. S8 \\(80 directions\\), 2 groups, MCPS 512\n.*\n +1 +1296\\.0 +[0-9]+ +[0-9]+ +1\\.0000 +${_num} +${_num} +1\\.000 +0\\.0% .*\n +16 +81\\.0 +[0-9]+ +[0-9]+ +0\\.[0-9]+ +${_num} +${_num} +[0-9.]+ +[0-9.]+%"
  COMMAND $<TARGET_FILE:tycho-model> ${_mesh} --priority octant --machine ${_machine} --calibration ${_cal_octant} --ranks 1,16)
set_tests_properties(tycho.model_tool.projection_octant PROPERTIES FIXTURES_REQUIRED "tycho_models_machine;tycho_models_cal_octant")
suite_add_error_test(NAME tycho.model_tool.calibration_priority ONE_LINE
  EXPECT "tycho-model: error: .*tycho_models_cal.h5:/tycho/calibration/priority: the projection's octant \\(T_elem depends on it\\), found band-octant"
  COMMAND $<TARGET_FILE:tycho-model> ${_mesh} --priority octant --machine ${_machine} --calibration ${_cal} --ranks 4)
set_tests_properties(tycho.model_tool.calibration_priority PROPERTIES FIXTURES_REQUIRED "tycho_models_machine;tycho_models_cal")
suite_add_error_test(NAME tycho.model_tool.too_many_ranks ONE_LINE
  EXPECT "tycho-model: error: .*kuhn-6.smesh:P: expected a part count in \\[1, 1296\\]"
  COMMAND $<TARGET_FILE:tycho-model> ${_mesh} --machine ${_machine} --calibration ${_cal} --ranks 2,5000)
set_tests_properties(tycho.model_tool.too_many_ranks PROPERTIES FIXTURES_REQUIRED "tycho_models_machine;tycho_models_cal")
suite_add_error_test(NAME tycho.model_tool.ranks_zero ONE_LINE
  EXPECT "tycho-model: error: command line:--ranks: "
  COMMAND $<TARGET_FILE:tycho-model> ${_mesh} --machine m --calibration c --ranks 0)
suite_add_error_test(NAME tycho.model_tool.no_machine ONE_LINE
  EXPECT "tycho-model: error: command line:--machine: expected a machine file"
  COMMAND $<TARGET_FILE:tycho-model> ${_mesh} --calibration c --ranks 2)
# The plot of that CSV (matplotlib, installed by scripts/install-deps.sh): a PNG is written.
set_tests_properties(tycho.model_tool.projection PROPERTIES FIXTURES_SETUP tycho_projection_csv)
add_test(NAME tycho.model_tool.plot
  COMMAND ${CMAKE_COMMAND} -E env /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tools/suite-campaign plot tycho-projection
          ${CMAKE_CURRENT_BINARY_DIR}/projection.csv ${CMAKE_CURRENT_BINARY_DIR}/projection.png)
set_tests_properties(tycho.model_tool.plot PROPERTIES LABELS unit FIXTURES_REQUIRED tycho_projection_csv)
add_test(NAME tycho.model_tool.plot_written
  COMMAND ${CMAKE_COMMAND} -E cat ${CMAKE_CURRENT_BINARY_DIR}/projection.png)
set_tests_properties(tycho.model_tool.plot_written PROPERTIES LABELS unit DEPENDS tycho.model_tool.plot
  FIXTURES_REQUIRED tycho_projection_csv PASS_REGULAR_EXPRESSION "PNG")
