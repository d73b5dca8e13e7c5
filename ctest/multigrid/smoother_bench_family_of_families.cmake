# multigrid_smoother_bench --family-of-families (multigrid/bench/family_of_families.hpp): the
# bench's loop on families of families (a batch the 64 cells of one grandparent, its scatter
# scheduled at compile time) covers the 4^3 cube's finest grid, its portable loop gives the
# AVX-512 loop's bits, and it runs beside the builds, which still give the checksum the cube
# gives (threads.cmake). Skipped where the CPU has no AVX-512.
suite_add_mpi_test(NAME multigrid.smoother_bench.family_of_families TARGET multigrid_smoother_bench RANKS 1 TIMEOUT 120
  ARGS --cube 4 --grids 3 --reps 1 --kernel avx512 --family-of-families
  EXPECT "families of families \\(set-up\\) +384 batches of 64 cells.*\n.*largest \\|difference\\| from the program's [0-9.]+e-(1[6-9]|2[0-9]) [^\n]*\n.*portable loop the same bits +yes\n.*avx512, families\n.*checksum of x after one sweep +3\\.740625169732036e\\+03\n.*avx512, families of families \\(bench loop\\)\n.*families of families against avx512 families +[0-9]+\\.[0-9]+ \\(ratio of medians\\)")
set_tests_properties(multigrid.smoother_bench.family_of_families PROPERTIES
  SKIP_REGULAR_EXPRESSION "the AVX-512 build does not run here")
