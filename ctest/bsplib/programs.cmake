# One small C program per primitive and per interaction, each run at 1-4 processes
# (oversubscribed on small machines: correctness only), and the bad-usage program.
set(bsp_tests t_enquiry t_init_function t_put t_get t_put_get_order t_registration
              t_reg_sizes t_hp t_bsmp t_many_puts t_strided_puts t_large_puts t_large_gets t_get_put_mix)
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

