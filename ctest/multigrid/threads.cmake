# --threads T (OpenMP threads a process in the cell loop and the node passes): the same bits
# as one thread (mpi_threads.cpp checks them at 1, 2 and 4 processes), and T threads run.
#
# More threads than the machine's 2 cores: libgomp's idle threads would spin at the end of
# every parallel region for the cores the other processes need (3 minutes instead of 5 s at
# 2 processes of 3 threads), so these tests let them sleep.
foreach(_np 1 2 4)
  set_tests_properties(multigrid.mpi_threads.np${_np} PROPERTIES ENVIRONMENT OMP_WAIT_POLICY=passive)
endforeach()
# The program: at one process 2 threads converge as 1 does (the default cube's factor and L2
# error of a one-thread run) and say that 2 ran; at 2 processes each runs 2.
suite_add_mpi_test(NAME multigrid.run.threads2.np1 TARGET multigrid RANKS 1 TIMEOUT 120
  ARGS --threads 2 --no-machine --no-results
  EXPECT "1 process, 2 OpenMP threads a process in the cell loop.*Convergence factor per cycle: 0\\.2331 \\(the last cycle's. geometric mean 0\\.2008\\)\n L2 error against the exact solution: 6\\.3353e-03")
suite_add_mpi_test(NAME multigrid.run.threads2.np2 TARGET multigrid RANKS 2 TIMEOUT 120
  ARGS --threads 2 --no-machine --no-results
  EXPECT "2 processes, 2 OpenMP threads a process in the cell loop")
# multigrid_smoother_bench: a sweep on 2 threads gives the checksum of one on 1 (the value
# --threads 1 prints for the 4^3 cube over 3 grids), and 2 threads ran.
suite_add_mpi_test(NAME multigrid.smoother_bench.threads2 TARGET multigrid_smoother_bench RANKS 1 TIMEOUT 120
  ARGS --cube 4 --grids 3 --reps 1 --threads 2
  EXPECT "2 asked, 2 ran. 2 ranges, [1-9][0-9]* sums a sweep kept aside.*checksum of x after one sweep +3\\.740625169732036e\\+03\n.*the builds' checksums equal +yes")
set_tests_properties(multigrid.run.threads2.np1 multigrid.run.threads2.np2 multigrid.smoother_bench.threads2
  PROPERTIES ENVIRONMENT OMP_WAIT_POLICY=passive)
