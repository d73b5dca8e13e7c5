# Options in range that need more memory than the machine has are refused before the work, in
# a second, with the GiB needed and available (tool_memory.hpp): `tycho-refine cube-12
# --times 7` once ran for 121 s to a bad_alloc that named no file, `tycho-model ... --refine
# 3` for more than 400 s. SUITE_MEMORY_AVAILABLE stands in for the machine's free memory, so
# the verdicts do not depend on the machine (here both fit: 9 and 4.1 GiB).
set(_t2 ${SUITE_TEST_MESHES})
set(_out ${CMAKE_CURRENT_BINARY_DIR}/memory_check_refined.smesh)
suite_add_error_test(NAME tycho.memory_check.refine_times7 ONE_LINE TIMEOUT 20 NO_FILE ${_out}
  EXPECT "^tycho-refine: error: command line:--times 7: refining .*/kuhn-2.smesh \\(48 cells\\) into .*memory_check_refined.smesh \\(100663296 cells\\) needs about [0-9.]+ GiB, more than the 4 GiB available$"
  COMMAND $<TARGET_FILE:tycho-refine> ${_t2}/kuhn-2.smesh ${_out} --times 7)
set_property(TEST tycho.memory_check.refine_times7 APPEND PROPERTY ENVIRONMENT SUITE_MEMORY_AVAILABLE=4GiB)
# Refused before the calibration and the machine file are read (they are not needed to say so).
suite_add_error_test(NAME tycho.memory_check.model_refine3 ONE_LINE TIMEOUT 20
  EXPECT "^tycho-model: error: command line:--refine 3 --sn 8: projecting .*/kuhn-12.smesh \\(10368 cells\\) refined to 5308416 cells x 80 directions needs about [0-9.]+ GiB, more than the 2 GiB available$"
  COMMAND $<TARGET_FILE:tycho-model> ${_t2}/kuhn-12.smesh --refine 3 --machine m --calibration c --ranks 16)
set_property(TEST tycho.memory_check.model_refine3 APPEND PROPERTY ENVIRONMENT SUITE_MEMORY_AVAILABLE=2GiB)
# The schedule numbers its tasks in 32 bits: more than 2^32 is refused, not wrapped
# (the Kuhn cube 12^3 refined once, 82944 cells, refined 3 more times at S16).
set(_fine ${CMAKE_CURRENT_BINARY_DIR}/memory_check_kuhn-12x1.smesh)
add_test(NAME tycho.memory_check.make_85736 COMMAND $<TARGET_FILE:tycho-refine> ${_t2}/kuhn-12.smesh ${_fine})
set_tests_properties(tycho.memory_check.make_85736 PROPERTIES LABELS unit FIXTURES_SETUP tycho_memory_check_85736)
suite_add_error_test(NAME tycho.memory_check.model_tasks ONE_LINE TIMEOUT 20
  EXPECT "^tycho-model: error: command line:--refine 3 --sn 16: at most 2\\^32 cell-direction tasks in the schedule, got 42467328 cells x 288 directions$"
  COMMAND $<TARGET_FILE:tycho-model> ${_fine} --refine 3 --sn 16 --machine m --calibration c --ranks 16)
set_tests_properties(tycho.memory_check.model_tasks PROPERTIES FIXTURES_REQUIRED tycho_memory_check_85736)
# tycho itself (run_memory.hpp): checked once the mesh is partitioned, before the plan and the
# sweep. `--product 64x256 --groups 64` on the main job's mesh (16384 directions: psi alone is 343 GiB)
# once planned for 39 s, then ended in an out-of-memory line; now refused in a second on
# every rank, naming the options, the GiB needed (a rank's share times the ranks of the node)
# and the GiB available.
foreach(ranks 1 2)
  if(ranks EQUAL 1)
    set(_cells "10368 cells")
    set(_share "")
  else()
    set(_cells "10368 cells, [0-9]+ on the largest of 2 ranks")
    set(_share " \\([0-9.]+ GiB a rank at 2 ranks on this node\\)")
  endif()
  suite_add_error_test(NAME tycho.memory_check.product_groups.np${ranks} RANKS ${ranks} ONE_LINE LABELS mpi TIMEOUT 20
    EXPECT "^tycho: error: command line:--product 64x256 --groups 64: sweeping .*/kuhn-12.smesh \\(${_cells}\\) in 16384 directions x 64 groups needs about [0-9.]+ GiB${_share}, more than the 4 GiB available$"
    COMMAND $<TARGET_FILE:tycho> ${_t2}/kuhn-12.smesh --product 64x256 --groups 64 --no-results)
  set_property(TEST tycho.memory_check.product_groups.np${ranks} APPEND PROPERTY ENVIRONMENT SUITE_MEMORY_AVAILABLE=4GiB)
endforeach()
# When the steps' records fill it (a step a task, 100000 sweeps: 1.9 TiB a rank), the line
# names --mcps and --iterations too.
suite_add_error_test(NAME tycho.memory_check.history.np2 RANKS 2 ONE_LINE LABELS mpi TIMEOUT 20
  EXPECT "^tycho: error: command line:--sn 8 --groups 2 --mcps 1 --iterations 100000: sweeping .*/kuhn-6.smesh \\(1296 cells, [0-9]+ on the largest of 2 ranks\\) in 80 directions x 2 groups needs about [0-9.]+ TiB \\([0-9.]+ TiB a rank at 2 ranks on this node\\), more than the 4 GiB available$"
  COMMAND $<TARGET_FILE:tycho> ${_t2}/kuhn-6.smesh --mcps 1 --iterations 100000 --no-results)
set_property(TEST tycho.memory_check.history.np2 APPEND PROPERTY ENVIRONMENT SUITE_MEMORY_AVAILABLE=4GiB)
# What fits runs under a modest stand-in: the main job's run (10368 cells, S8, 2 groups, about
# 70 MB a rank) at 2 ranks under 256 MiB.
suite_add_mpi_test(NAME tycho.memory_check.fits.np2 TARGET tycho RANKS 2 TIMEOUT 120
  ARGS ${_t2}/kuhn-12.smesh --iterations 1 --no-results EXPECT " iteration 1: change ")
set_property(TEST tycho.memory_check.fits.np2 APPEND PROPERTY ENVIRONMENT SUITE_MEMORY_AVAILABLE=256MiB)
