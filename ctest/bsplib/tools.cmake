

# The paper's four 500-relation supersteps (section 4.1), profiled: the profile must show
# h = 500 words (2000 bytes) in every superstep, the gets in superstep 3, the two pushes in
# superstep 0 and the two pops in bsp_end's.
add_test(NAME bsplib.five_hundred_relation.np4
         COMMAND ${CMAKE_COMMAND} -DMPIEXEC=${MPIEXEC_EXECUTABLE} -DNP=4
                 -DEXE=$<TARGET_FILE:five_hundred_relation> -DPREDICT=$<TARGET_FILE:bsp_predict>
                 -DMACHINE=${CMAKE_CURRENT_LIST_DIR}/../../inputs/bsp/ibm-sp2-switch-p4.machine
                 "-DEXPECT=h-relations in bytes: 0 2000 2000 1992 1992 0" -DGETS=3
                 -DPUSHES=2 -DPOPS=2
                 -P ${CMAKE_CURRENT_LIST_DIR}/run_profiled.cmake)
set_tests_properties(bsplib.five_hundred_relation.np4 PROPERTIES LABELS "mpi;unit" TIMEOUT 90
                     PROCESSORS 4)

# bspprobe runs (short) and writes a machine file that the predictor reads, merges into a
# LogGP machine file, and refuses to overwrite a file that is not one.
add_test(NAME bsplib.bspprobe.np2
         COMMAND ${CMAKE_COMMAND} -DMPIEXEC=${MPIEXEC_EXECUTABLE} -DPROBE=$<TARGET_FILE:bspprobe>
                 -DPREDICT=$<TARGET_FILE:bsp_predict>
                 -DLOGGP_MACHINE=${CMAKE_CURRENT_LIST_DIR}/../sweep3d_model/test.machine
                 -P ${CMAKE_CURRENT_LIST_DIR}/run_probe.cmake)
set_tests_properties(bsplib.bspprobe.np2 PROPERTIES LABELS "mpi;unit" TIMEOUT 300 PROCESSORS 2
                     PASS_REGULAR_EXPRESSION "bspprobe test: every check passed"
                     SKIP_REGULAR_EXPRESSION "bspprobe test: skipped")

# A user's program built outside CMake with the bspcc wrapper, as mpicc users would.
add_test(NAME bsplib.bspcc_wrapper
         COMMAND ${CMAKE_COMMAND} -DMPIEXEC=${MPIEXEC_EXECUTABLE}
                 -DBSPCC=${CMAKE_BINARY_DIR}/bsplib/bin/bspcc
                 -DSRC=${CMAKE_CURRENT_LIST_DIR}/t_put.c -DINC=${CMAKE_CURRENT_LIST_DIR}
                 -DSANITIZE=${SUITE_SANITIZE}
                 -P ${CMAKE_CURRENT_LIST_DIR}/run_bspcc.cmake)
set_tests_properties(bsplib.bspcc_wrapper PROPERTIES LABELS "mpi;unit" TIMEOUT 120 PROCESSORS 2)



# The predictor on a fixed profile and the paper's SP2 (switch, p = 4) parameters:
# l = 159.962 us, g = 74.0385 ns/B, N1/2 = 24 B; h = 2000 B gives l + h g = 308.04 us and
# l + (h + N1/2) g = 309.82 us; comm+sync measured = the last process's 280 us; w_max 20 us.
suite_add_expect_test(NAME bsplib.predict_table1
  EXPECT "0 1 cyclic shift +20.00 +2000 exchange +280.00 +308.04 +309.82 +- .*1 empty +10.00 +0 none +90.00 +159.96 +159.96 +- "
  COMMAND $<TARGET_FILE:bsp_predict> ${CMAKE_CURRENT_LIST_DIR}/fixed_profile.csv
          ${CMAKE_CURRENT_LIST_DIR}/../../inputs/bsp/ibm-sp2-switch-p4.machine)
set_tests_properties(bsplib.predict_table1 PROPERTIES LABELS unit)


# The probe's cache-line round trip (bsp.core_round_trip_seconds, core_round_trip.hpp): read
# from the machine file and printed with its table, so that a prediction says at which
# placement of the processes' CPUs its l and curves were measured (540 ns here).
suite_add_expect_test(NAME bsplib.predict_round_trip
  EXPECT "machine: round trip test [^\n]*\n  p = 2, l = 0.450 us[^\n]*\n  probed at a cache-line round trip of 540 ns between the processes' CPUs"
  COMMAND $<TARGET_FILE:bsp_predict> ${CMAKE_CURRENT_LIST_DIR}/fixed_profile.csv
          ${CMAKE_CURRENT_LIST_DIR}/round_trip-p2.machine)
set_tests_properties(bsplib.predict_round_trip PROPERTIES LABELS unit)

# A profile that carries its run's round trips (540 and 550 ns, fixed_profile_round_trip.csv):
# with a probe at 540 ns the run had the probe's placement; with one at 135 ns (550 / 135 =
# 4.07x) its comparison is flagged unreliable. The prediction's figures are the same either
# way: the run's round trip is never a cost term.
suite_add_expect_test(NAME bsplib.predict_same_placement
  EXPECT "cache-line round trip between the run's CPUs .bsp_begin, bsp_end.: 540 550 ns.*probed at a cache-line round trip of 540 ns[^\n]*\n  placement: the run had the probe's .the run's round trip is up to 1.02x the probe's."
  COMMAND $<TARGET_FILE:bsp_predict> ${CMAKE_CURRENT_LIST_DIR}/fixed_profile_round_trip.csv
          ${CMAKE_CURRENT_LIST_DIR}/round_trip-p2.machine)
set_tests_properties(bsplib.predict_same_placement PROPERTIES LABELS unit)
suite_add_expect_test(NAME bsplib.predict_other_placement
  EXPECT "probed at a cache-line round trip of 135 ns[^\n]*\n  placement: the run had ANOTHER than the probe's: its comparison is unreliable .the run's round trip is up to 4.07x the probe's."
  COMMAND $<TARGET_FILE:bsp_predict> ${CMAKE_CURRENT_LIST_DIR}/fixed_profile_round_trip.csv
          ${CMAKE_CURRENT_LIST_DIR}/round_trip-fast-p2.machine)
set_tests_properties(bsplib.predict_other_placement PROPERTIES LABELS unit)
