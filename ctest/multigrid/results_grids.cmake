# The working_set column of the results file's /multigrid/grids table (the replay prices each
# grid's sync after a sweep by it), read back by instrument's reader at 1 and 2 processes
# (results_grids_check.cpp): positive, growing from the coarsest grid to the finest, and within
# the bytes of the node vectors, coordinates and cell batches working_set_bytes counts. The
# 3^3 cube over 3 grids, one cycle, no machine (no probe).
add_executable(multigrid_results_grids_check ${CMAKE_CURRENT_LIST_DIR}/results_grids_check.cpp)
target_link_libraries(multigrid_results_grids_check PRIVATE multigrid_core catch_mpi_main)
target_compile_options(multigrid_results_grids_check PRIVATE -O1)  # a test driver (SuiteTests.cmake)
foreach(n 1 2)
  set(_file ${CMAKE_CURRENT_BINARY_DIR}/multigrid_results_grids_np${n}.h5)
  suite_add_mpi_test(NAME multigrid.results.grids_write.np${n} TARGET multigrid RANKS ${n} TIMEOUT 120
    ARGS --cube 3 --cycles 1 --no-machine --results ${_file} EXPECT " Results file: ${_file}")
  suite_add_mpi_test(NAME multigrid.results.grids_read.np${n} TARGET multigrid_results_grids_check RANKS 1 TIMEOUT 60)
  set_tests_properties(multigrid.results.grids_write.np${n} PROPERTIES FIXTURES_SETUP multigrid_results_grids_np${n})
  set_tests_properties(multigrid.results.grids_read.np${n} PROPERTIES FIXTURES_REQUIRED multigrid_results_grids_np${n})
  set_property(TEST multigrid.results.grids_read.np${n} APPEND PROPERTY ENVIRONMENT
    MG_RESULTS_FILE=${_file} MG_RESULTS_RANKS=${n})
endforeach()
