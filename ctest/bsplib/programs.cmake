# One small C program per primitive and per interaction, each run at 1-4 processes
# (oversubscribed on small machines: correctness only), and the bad-usage program.
set(bsp_tests t_enquiry t_init_function t_put t_get t_put_get_order t_registration
              t_reg_sizes t_hp t_bsmp t_many_puts t_strided_puts t_large_puts t_large_gets t_get_put_mix
              t_conformance t_shared_puts)
foreach(t ${bsp_tests} t_bad_usage)
  add_executable(bsp_${t} ${CMAKE_CURRENT_LIST_DIR}/${t}.c)
  target_link_libraries(bsp_${t} PRIVATE bsp suite_options)
endforeach()
foreach(t ${bsp_tests})
  foreach(n 1 2 3 4)
    suite_add_mpi_test(NAME bsplib.${t}.np${n} TARGET bsp_${t} RANKS ${n} LABELS unit
                       TIMEOUT 60)
    # The exit status decides (a failed CHECK aborts every process); a BSP error message
    # fails the test even if the status were lost.
    set_tests_properties(bsplib.${t}.np${n} PROPERTIES FAIL_REGULAR_EXPRESSION "BSP error")
  endforeach()
endforeach()

# Large puts by MPI only (the route off-node, and the first superstep of each larger size):
# the same answers, call and source order included.
foreach(t t_large_puts t_shared_puts)
  foreach(n 2 4)
    suite_add_mpi_test(NAME bsplib.${t}.mpi_route.np${n} TARGET bsp_${t} RANKS ${n}
                       LABELS unit TIMEOUT 60)
    set_tests_properties(bsplib.${t}.mpi_route.np${n} PROPERTIES FAIL_REGULAR_EXPRESSION "BSP error")
    set_property(TEST bsplib.${t}.mpi_route.np${n} APPEND PROPERTY ENVIRONMENT BSP_SHARED_PUTS=0)
  endforeach()
endforeach()

# A 24 MiB /dev/shm (containers often have 64 MiB): the segments would not fit, so they
# must never grow (the rule wants room for them twice over and 64 MiB: here not even the
# first 1 MiB growth passes) and every large put goes by MPI, 12 MB ones too, rather than
# end in a SIGBUS. Skipped where no mount namespace can be made. With a PASS expression
# ctest ignores the exit status: the failure expressions catch a crash of any process.

foreach(n 2 4)
  add_test(NAME bsplib.t_shared_puts.small_shm.np${n}
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/small_shm.sh ${MPIEXEC_EXECUTABLE}
                   ${MPIEXEC_NUMPROC_FLAG} ${n} ${MPIEXEC_PREFLAGS} $<TARGET_FILE:bsp_t_shared_puts>
                   ${MPIEXEC_POSTFLAGS} big)
  set_tests_properties(bsplib.t_shared_puts.small_shm.np${n} PROPERTIES LABELS "mpi;unit"
                       TIMEOUT 120 PROCESSORS ${n} SKIP_RETURN_CODE 77
                       PASS_REGULAR_EXPRESSION "PASS t_shared_puts"
                       FAIL_REGULAR_EXPRESSION "BSP error|Bus error|BAD TERMINATION|signal")
endforeach()

# NULL registrations popped in any order (a pop pairs with the k-th pop of every process,
# NULL with whatever the others name), and large puts of sizes just off a power of two,
# byte for byte, by the shared segment and by MPI: at 2 and 4 processes, where they matter.
foreach(t t_null_registration t_put_sizes)
  add_executable(bsp_${t} ${CMAKE_CURRENT_LIST_DIR}/${t}.c)
  target_link_libraries(bsp_${t} PRIVATE bsp suite_options)
  foreach(n 2 4)
    suite_add_mpi_test(NAME bsplib.${t}.np${n} TARGET bsp_${t} RANKS ${n} LABELS unit
                       TIMEOUT 60 EXPECT "PASS ${t}")
    set_tests_properties(bsplib.${t}.np${n} PROPERTIES FAIL_REGULAR_EXPRESSION "BSP error")
  endforeach()
endforeach()
foreach(n 2 4)
  suite_add_mpi_test(NAME bsplib.t_put_sizes.mpi_route.np${n} TARGET bsp_t_put_sizes
                     RANKS ${n} LABELS unit TIMEOUT 60 EXPECT "PASS t_put_sizes")
  set_tests_properties(bsplib.t_put_sizes.mpi_route.np${n} PROPERTIES
                       FAIL_REGULAR_EXPRESSION "BSP error" ENVIRONMENT BSP_SHARED_PUTS=0)
endforeach()

# The in-memory profile and the BSP model's comparison rows, from C++ (bsp_profile.hpp).
add_executable(bsp_t_profile_in_memory ${CMAKE_CURRENT_LIST_DIR}/t_profile_in_memory.cpp)
target_link_libraries(bsp_t_profile_in_memory PRIVATE bsp bsp_model suite_options)
foreach(n 1 2 3 4)
  suite_add_mpi_test(NAME bsplib.t_profile_in_memory.np${n} TARGET bsp_t_profile_in_memory
                     RANKS ${n} LABELS unit TIMEOUT 60 EXPECT "PASS t_profile_in_memory .p = ${n}.")
endforeach()

# bsp_sync's headers through shared memory within a node, and by MPI when forced
# (BSP_SHARED_SYNC=0): the route taken in every sync, and streams around the inline limit.
add_executable(bsp_t_shared_sync ${CMAKE_CURRENT_LIST_DIR}/t_shared_sync.cpp)
target_link_libraries(bsp_t_shared_sync PRIVATE bsp suite_options)
foreach(n 1 2 3 4)
  if(n EQUAL 1)
    set(_route "not exchanged")
  else()
    set(_route "through shared memory")
  endif()
  suite_add_mpi_test(NAME bsplib.t_shared_sync.np${n} TARGET bsp_t_shared_sync RANKS ${n}
                     LABELS unit TIMEOUT 60 EXPECT "PASS t_shared_sync .p = ${n}, headers ${_route}.")
  set_tests_properties(bsplib.t_shared_sync.np${n} PROPERTIES FAIL_REGULAR_EXPRESSION "BSP error")
endforeach()
foreach(n 2 4)
  suite_add_mpi_test(NAME bsplib.t_shared_sync.mpi_headers.np${n} TARGET bsp_t_shared_sync
                     RANKS ${n} LABELS unit TIMEOUT 60
                     EXPECT "PASS t_shared_sync .p = ${n}, headers by MPI.")
  set_tests_properties(bsplib.t_shared_sync.mpi_headers.np${n} PROPERTIES
                       FAIL_REGULAR_EXPRESSION "BSP error" ENVIRONMENT BSP_SHARED_SYNC=0)
endforeach()
# The shared segment for large puts grows to the rule (a power of two from 64 KiB, whole MiB
# above 1 MiB) and not at p = 1 or with BSP_SHARED_PUTS=0.
add_executable(bsp_t_shared_put_growth ${CMAKE_CURRENT_LIST_DIR}/t_shared_put_growth.cpp)
target_link_libraries(bsp_t_shared_put_growth PRIVATE bsp suite_options)
suite_add_mpi_test(NAME bsplib.t_shared_put_growth.np1 TARGET bsp_t_shared_put_growth RANKS 1
                   LABELS unit TIMEOUT 60 EXPECT "PASS t_shared_put_growth .p = 1, half 0 bytes.")
foreach(n 2 4)
  suite_add_mpi_test(NAME bsplib.t_shared_put_growth.np${n} TARGET bsp_t_shared_put_growth RANKS ${n}
                     LABELS unit TIMEOUT 60 EXPECT "PASS t_shared_put_growth .p = ${n}, half 3145728 bytes.")
  suite_add_mpi_test(NAME bsplib.t_shared_put_growth.off.np${n} TARGET bsp_t_shared_put_growth RANKS ${n}
                     LABELS unit TIMEOUT 60 EXPECT "PASS t_shared_put_growth .p = ${n}, half 0 bytes, BSP_SHARED_PUTS=0.")
  set_tests_properties(bsplib.t_shared_put_growth.off.np${n} PROPERTIES ENVIRONMENT BSP_SHARED_PUTS=0)
endforeach()
# The primitives with the headers by MPI as well (the route across nodes): the programs above
# exchange them through shared memory within the node.
foreach(t t_put t_get t_bsmp t_conformance t_get_put_mix)
  foreach(n 2 4)
    suite_add_mpi_test(NAME bsplib.${t}.mpi_headers.np${n} TARGET bsp_${t} RANKS ${n}
                       LABELS unit TIMEOUT 60)
    set_tests_properties(bsplib.${t}.mpi_headers.np${n} PROPERTIES
                         FAIL_REGULAR_EXPRESSION "BSP error" ENVIRONMENT BSP_SHARED_SYNC=0)
  endforeach()
endforeach()
