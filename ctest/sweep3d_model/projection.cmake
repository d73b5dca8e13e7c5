# sweep3d-model, the projection command.
set(_machine ${CMAKE_CURRENT_LIST_DIR}/test.machine)
# The projection command: a weak-scaling table to 65536 processes and the best blocking.
suite_add_expect_test(NAME sweep3d_model.projection EXPECT "65536 +256x256 +6x6x100"
  COMMAND $<TARGET_FILE:sweep3d-model> --machine ${_machine} --wg 4e-9 --per-rank 6x6x100
          --procs 1,4,64,1024,65536 --mk 10 --mmi 3)
set_tests_properties(sweep3d_model.projection PROPERTIES LABELS unit)
# --mk auto with a fixed mmi keeps that mmi (each mmi has its own W_g).
suite_add_expect_test(NAME sweep3d_model.projection_auto_mk EXPECT "4 +2x2 +25x25x50 +[0-9]+ +3 "
  COMMAND $<TARGET_FILE:sweep3d-model> --machine ${_machine} --wg 1:1e-8,3:2e-9,6:1e-9 --grid 50x50x50
          --npe 2x2 --mk auto --mmi 3)
set_tests_properties(sweep3d_model.projection_auto_mk PROPERTIES LABELS unit)
suite_add_error_test(NAME sweep3d_model.projection_auto_mmi_one_wg ONE_LINE
  EXPECT "^sweep3d-model: error: command line:--wg: W_g per mmi"
  COMMAND $<TARGET_FILE:sweep3d-model> --machine ${_machine} --wg 2e-9 --grid 50x50x50 --npe 2x2 --mk auto --mmi auto)
suite_add_error_test(NAME sweep3d_model.projection_bad_option ONE_LINE
  EXPECT "^sweep3d-model: error: command line:--wg: a non-negative number"
  COMMAND $<TARGET_FILE:sweep3d-model> --machine ${_machine} --wg -1 --grid 10x10x10 --npe 1x1)
