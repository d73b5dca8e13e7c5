# multigrid_smoother_bench --without-parts (multigrid/bench/cell_loop_parts.hpp): the AVX-512
# loop with each part left out runs beside the builds, each reported against the loop whole
# (1.000 for the loop with nothing left out), and the builds still give the checksum the 4^3
# cube over 3 grids gives (threads.cmake): the parts' loop shares the builds' node loads.
# Skipped where the CPU has no AVX-512.
suite_add_mpi_test(NAME multigrid.smoother_bench.without_parts TARGET multigrid_smoother_bench RANKS 1 TIMEOUT 120
  ARGS --cube 4 --grids 3 --reps 1 --without-parts
  EXPECT "avx512, families\n.*checksum of x after one sweep +3\\.740625169732036e\\+03\n.*left out: nothing\n.*time against the loop whole +1\\.000\n.*left out: the prefetch\n.*left out: the loads of u\n.*left out: the product\n.*left out: the scatter\n.*time against the loop whole +[0-9]+\\.[0-9]+\n.*left out: all but the loads\n.*the builds' checksums equal +yes")
set_tests_properties(multigrid.smoother_bench.without_parts PROPERTIES
  SKIP_REGULAR_EXPRESSION "the AVX-512 build does not run here")
# It takes one thread (the parts' loop sweeps the one-thread range): one error line, every rank.
suite_add_error_test(NAME multigrid.smoother_bench.without_parts_threads.np2 RANKS 2 ONE_LINE LABELS mpi TIMEOUT 60
  EXPECT "^multigrid_smoother_bench: error: command line:--without-parts: takes --threads 1$"
  COMMAND $<TARGET_FILE:multigrid_smoother_bench> --cube 2 --grids 2 --reps 1 --without-parts --threads 2)
