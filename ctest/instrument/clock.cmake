# The clock tests: unit_clock again with the steady_clock fallback forced (both sources are
# tested on a machine with an invariant TSC), and mpi_clock's cross-process time checks kept
# off a machine that ctest -j is loading with other MPI tests.
suite_add_mpi_test(NAME instrument.unit_clock.steady TARGET instrument_unit_clock RANKS 1
                   LABELS unit)
set_property(TEST instrument.unit_clock.steady APPEND PROPERTY ENVIRONMENT SUITE_CLOCK=steady)
foreach(n 1 2 4)
  set_tests_properties(instrument.mpi_clock.np${n} PROPERTIES RUN_SERIAL TRUE)
endforeach()
