# multigrid_smoother_bench --slot-by-slot: each build's loop with its sums added slot by slot
# (without the batch tables, batch_node_sums.hpp) runs beside the same build node by node;
# both give the checksum the 4^3 cube over 3 grids gives (threads.cmake), every build the
# same bits, and the ratio of the two is printed per build.
suite_add_mpi_test(NAME multigrid.smoother_bench.slot_by_slot TARGET multigrid_smoother_bench RANKS 1 TIMEOUT 120
  ARGS --cube 4 --grids 3 --reps 1 --kernel all --slot-by-slot
  EXPECT "portable, families\n.*checksum of x after one sweep +3\\.740625169732036e\\+03\n.*portable, families, slot by slot\n.*checksum of x after one sweep +3\\.740625169732036e\\+03\n.*node by node against slot by slot, portable +[0-9]+\\.[0-9]+ \\(ratio of medians\\)\n.*the builds' checksums equal +yes \\(bit for bit\\)")
