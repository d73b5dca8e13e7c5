# Options in range that need more memory than the machine has are refused before the work, in
# a second, with the GiB needed and available (run_memory.hpp), on every rank: `--cube 200`
# once ran for 111 s to a bare std::bad_alloc at 7.3 GB a rank, `--cube 100 --grids 2` was
# refused only after 60 s of building, `multigrid-model --cube 2 --grids 8` ran into a
# bad_alloc. SUITE_MEMORY_AVAILABLE stands in for the machine's free memory, so the verdicts
# do not depend on the machine; a run that fits under it still runs.
set(_dir ${CMAKE_CURRENT_BINARY_DIR}/multigrid_run)
foreach(ranks 1 2)
  if(ranks EQUAL 1)
    set(_share "")
    set(_procs "1 process")
  else()
    set(_share " \\([0-9.]+ [GT]iB a rank at 2 ranks on this node\\)")
    set(_procs "2 processes")
  endif()
  # `--cube 100 --grids 2` needs about 2.4 GiB at one process (measured 2538948 kB, estimated
  # 2.5 GiB): refused under 2 GiB, where the verdict does not hang on the estimate's last 10%.
  foreach(case "cube200|--cube 200|--cube 200 --grids 3|3072000000|[GT]iB|3"
               "cube100_grids2|--cube 100 --grids 2|--cube 100 --grids 2|48000000|GiB|2")
    string(REPLACE "|" ";" fields "${case}")
    list(GET fields 0 name)
    list(GET fields 1 args)
    list(GET fields 2 said)
    list(GET fields 3 cells)
    list(GET fields 4 unit)
    list(GET fields 5 available)
    separate_arguments(args)
    suite_add_error_test(NAME multigrid.memory_check.${name}.np${ranks} RANKS ${ranks} ONE_LINE LABELS mpi TIMEOUT 20
      EXPECT "^multigrid: error: command line:${said}: a run of ${cells} finest cells at ${_procs} needs about [0-9.]+ ${unit}${_share}, more than the ${available} GiB available$"
      COMMAND $<TARGET_FILE:multigrid> ${args} --no-results)
    set_property(TEST multigrid.memory_check.${name}.np${ranks} APPEND PROPERTY ENVIRONMENT SUITE_MEMORY_AVAILABLE=${available}GiB)
  endforeach()
endforeach()
# What fits under the same stand-in runs (about 40 MB a process).
suite_add_mpi_test(NAME multigrid.memory_check.fits.np2 TARGET multigrid RANKS 2 TIMEOUT 120
  ARGS --cube 8 --grids 3 --cycles 1 --no-results EXPECT "cycle  1  residual")
set_property(TEST multigrid.memory_check.fits.np2 APPEND PROPERTY ENVIRONMENT SUITE_MEMORY_AVAILABLE=1GiB)
# multigrid-model: 100663296 finest cells projected (about 12.6 GiB).
suite_add_error_test(NAME multigrid.memory_check.model_grids8 ONE_LINE TIMEOUT 20
  EXPECT "^multigrid-model: error: command line:--cube 2 --grids 8: projecting 100663296 finest cells needs about [0-9.]+ GiB, more than the 3 GiB available$"
  COMMAND $<TARGET_FILE:multigrid-model> --cube 2 --grids 8 --procs 2,16 --calibration ${_dir}/calibration.h5
          --loggps ${PROJECT_SOURCE_DIR}/ctest/sweep3d_model/replay_test.machine)
set_tests_properties(multigrid.memory_check.model_grids8 PROPERTIES FIXTURES_REQUIRED multigrid_calibration)
set_property(TEST multigrid.memory_check.model_grids8 APPEND PROPERTY ENVIRONMENT SUITE_MEMORY_AVAILABLE=3GiB)
