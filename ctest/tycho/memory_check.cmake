# Options in range that need more memory than the machine has are refused before the work, in
# a second, with the GiB needed and available (tool_memory.hpp): `tycho-refine cube-12
# --times 7` once ran for 121 s to a bad_alloc that named no file, `tycho-model ... --refine
# 3` for more than 400 s. SUITE_MEMORY_AVAILABLE stands in for the machine's free memory, so
# the verdicts do not depend on the machine (here both fit: 9 and 4.1 GiB).
set(_t2 ${PROJECT_SOURCE_DIR}/../shared/meshes/tycho2)
set(_out ${CMAKE_CURRENT_BINARY_DIR}/memory_check_refined.smesh)
suite_add_error_test(NAME tycho.memory_check.refine_times7 ONE_LINE TIMEOUT 20 NO_FILE ${_out}
  EXPECT "^tycho-refine: error: command line:--times 7: refining .*/cube-12.smesh \\(12 cells\\) into .*memory_check_refined.smesh \\(25165824 cells\\) needs about [0-9.]+ GiB, more than the 4 GiB available$"
  COMMAND $<TARGET_FILE:tycho-refine> ${_t2}/cube-12.smesh ${_out} --times 7)
set_property(TEST tycho.memory_check.refine_times7 APPEND PROPERTY ENVIRONMENT SUITE_MEMORY_AVAILABLE=4GiB)
# Refused before the calibration and the machine file are read (they are not needed to say so).
suite_add_error_test(NAME tycho.memory_check.model_refine3 ONE_LINE TIMEOUT 20
  EXPECT "^tycho-model: error: command line:--refine 3 --sn 8: projecting .*/cube-10717.smesh \\(10717 cells\\) refined to 5487104 cells x 80 directions needs about [0-9.]+ GiB, more than the 2 GiB available$"
  COMMAND $<TARGET_FILE:tycho-model> ${_t2}/cube-10717.smesh --refine 3 --machine m --calibration c --ranks 16)
set_property(TEST tycho.memory_check.model_refine3 APPEND PROPERTY ENVIRONMENT SUITE_MEMORY_AVAILABLE=2GiB)
# The schedule numbers its tasks in 32 bits: more than 2^32 is refused, not wrapped
# (cube-10717 refined once, 85736 cells, refined 3 more times at S16).
set(_fine ${CMAKE_CURRENT_BINARY_DIR}/memory_check_cube-85736.smesh)
add_test(NAME tycho.memory_check.make_85736 COMMAND $<TARGET_FILE:tycho-refine> ${_t2}/cube-10717.smesh ${_fine})
set_tests_properties(tycho.memory_check.make_85736 PROPERTIES LABELS unit FIXTURES_SETUP tycho_memory_check_85736)
suite_add_error_test(NAME tycho.memory_check.model_tasks ONE_LINE TIMEOUT 20
  EXPECT "^tycho-model: error: command line:--refine 3 --sn 16: at most 2\\^32 cell-direction tasks in the schedule, got 43896832 cells x 288 directions$"
  COMMAND $<TARGET_FILE:tycho-model> ${_fine} --refine 3 --sn 16 --machine m --calibration c --ranks 16)
set_tests_properties(tycho.memory_check.model_tasks PROPERTIES FIXTURES_REQUIRED tycho_memory_check_85736)
