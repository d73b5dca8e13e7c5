# The wait/transfer split is checked against injected delays: keep those runs off a machine
# that ctest -j is loading with other MPI tests.
foreach(n 1 2 4)
  set_tests_properties(instrument.mpi_comm.np${n} PROPERTIES RUN_SERIAL TRUE)
endforeach()
