# The machine's load during a run (instrument/machine_load.hpp) and the pinning of a one-rank
# run (instrument/cpu_pinning.hpp), end to end on sweep3d (the input50 deck at 60 iterations,
# 2 ranks, with this VM's machine file so that the measured-vs-modelled table is printed):
#   busy      one spinning process per CPU beside the run: the file says busy, the one line is
#             printed under the table, /compare says reliable = 0, and instrument-replay
#             --self prints the line above its last (check_machine_load.py);
#   busy_short  the same with the deck's 12 iterations (~0.2 s, too short for jiffies): busy
#             by /proc/pressure/cpu's CPU wait alone where the kernel keeps it;
#   beside    a 1-rank run beside a spinning process on each other CPU: idle when told so
#             with --beside N, busy when not (companions, machine_load.hpp);
#   idle      nothing beside it: the record is consistent (others and steal fractions, the line
#             and reliable = 0 if and only if busy); "not busy" itself is not asserted, as
#             other builds and tests share the machine;
#   pinning   a 1-rank run records pinned_cpu = the lowest CPU of its mask; --no-pin and a
#             process already bound to one CPU record none; --pin-cpu N records N, bound or
#             not, and its refusals are one line (check_cpu_pinning.py; at 2 ranks below).
# RUN_SERIAL: the busy case loads every CPU on purpose, and would slow the tests beside it.
set(_d ${CMAKE_CURRENT_BINARY_DIR}/machine_load)
set(_deck ${PROJECT_SOURCE_DIR}/inputs/sweep3d/input50)
set(_machine ${PROJECT_SOURCE_DIR}/ctest/sweep3d/replay_this_vm.machine)
foreach(case busy busy_short idle)
  add_test(NAME instrument.machine_load.${case}.np2
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/check_machine_load.py ${case} $<TARGET_FILE:sweep3d>
                   $<TARGET_FILE:instrument-replay> ${MPIEXEC_EXECUTABLE} ${_deck} ${_machine} ${_d}/${case})
  set_tests_properties(instrument.machine_load.${case}.np2 PROPERTIES LABELS mpi TIMEOUT 300 PROCESSORS 2)
endforeach()
# One-rank runs beside a spinning process on each other CPU (all the CPUs: PROCESSORS 2).
add_test(NAME instrument.machine_load.beside.np1
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/check_machine_load.py beside $<TARGET_FILE:sweep3d>
                 $<TARGET_FILE:instrument-replay> ${MPIEXEC_EXECUTABLE} ${_deck} ${_machine} ${_d}/beside)
set_tests_properties(instrument.machine_load.beside.np1 PROPERTIES LABELS mpi TIMEOUT 300 PROCESSORS 2)
set_tests_properties(instrument.machine_load.busy.np2 instrument.machine_load.busy_short.np2
                     instrument.machine_load.beside.np1 PROPERTIES RUN_SERIAL TRUE)
add_test(NAME instrument.cpu_pinning.np1
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/check_cpu_pinning.py $<TARGET_FILE:sweep3d>
                 ${MPIEXEC_EXECUTABLE} ${PROJECT_SOURCE_DIR}/inputs/sweep3d/small.input ${_d}/pinning)
set_tests_properties(instrument.cpu_pinning.np1 PROPERTIES LABELS "mpi;unit" TIMEOUT 120)
suite_add_error_test(NAME instrument.pin_cpu_ranks.np2 RANKS 2 ONE_LINE LABELS mpi TIMEOUT 60
  EXPECT "--pin-cpu: expected a one-rank run \\(2 ranks: the launcher binds them\\)"
  COMMAND $<TARGET_FILE:sweep3d> ${PROJECT_SOURCE_DIR}/inputs/sweep3d/small.input --no-machine --no-results --pin-cpu 0)
suite_add_error_test(NAME instrument.beside_ranks.np2 RANKS 2 ONE_LINE LABELS mpi TIMEOUT 60
  EXPECT "--beside: expected a one-rank run \\(2 ranks: run the companions beside a one-rank calibration\\)"
  COMMAND $<TARGET_FILE:sweep3d> ${PROJECT_SOURCE_DIR}/inputs/sweep3d/small.input --no-machine --no-results --beside 1)
# The CPUs' placement against the probe's (instrument/core_round_trip.hpp, check_placement.py):
# a 2-rank run's round trips recorded; a probe 1 ms away marks the table and /compare.
add_test(NAME instrument.placement.np2
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/check_placement.py $<TARGET_FILE:sweep3d>
                 ${MPIEXEC_EXECUTABLE} ${PROJECT_SOURCE_DIR}/inputs/sweep3d/small.input ${_machine} ${_d}/placement)
set_tests_properties(instrument.placement.np2 PROPERTIES LABELS mpi TIMEOUT 300 PROCESSORS 2)
