# Bad usage must end every process with a message naming the call, the process and the
# superstep, and a non-zero exit.
# bad usage: mode, process count, the message expected (call, process, superstep named)
set(bad_cases
  "outside_begin|1|bsp_put: called outside bsp_begin/bsp_end"
  "begin_bad_count|2|bsp_begin on process 0 in superstep 0: asked for 0 processes"
  "init_after_begin|1|bsp_init: must be called once"
  "begin_twice|2|bsp_begin on process [0-9] in superstep 1: called again"
  "put_unregistered|2|bsp_put on process [0-9] in superstep 1: address .* is not registered"
  "put_outside_area|2|bsp_put on process [0-9] in superstep 1: bytes .12, 20. are outside"
  "get_outside_area|2|bsp_get on process [0-9] in superstep 1: negative offset"
  "negative_size|3|bsp_put on process [0-9] in superstep 1: negative size"
  "bad_pid|2|bsp_put on process [0-9] in superstep 1: process id 2 is not in 0..1"
  "put_same_superstep_as_push|2|bsp_put on process [0-9] in superstep 1: address .* is not registered"
  "registration_order|2|bsp_pop_reg on process 1 in superstep 2: its bsp_pop_reg calls of this superstep pop other registrations than process 0's"
  "null_ambiguous_put|2|bsp_put on process 0 in superstep 2: NULL names 2 registrations of this process, so which remote area is meant is ambiguous"
  "null_ambiguous_put|4|bsp_put on process 0 in superstep 2: NULL names 2 registrations of this process, so which remote area is meant is ambiguous"
  "null_ambiguous_get|2|bsp_get on process 0 in superstep 2: NULL names 2 registrations of this process"
  "null_ambiguous_get|4|bsp_get on process 0 in superstep 2: NULL names 2 registrations of this process"
  "put_into_null|2|bsp_put on process 1 in superstep 2: process 0 registered NULL for the area this process registered as .*: it has nothing to share, so bytes .0, 4. cannot be written there"
  "pop_null_of_array|2|bsp_pop_reg on process 0 in superstep 2: its 1st bsp_pop_reg of this superstep names NULL, but the registration that process 1's 1st pop removes is not NULL on process 0"
  "pop_null_everywhere|2|bsp_pop_reg on process 0 in superstep 2: every process's 1st bsp_pop_reg of this superstep names NULL, but no registration is NULL on every process"
  "pop_different_with_null|3|bsp_pop_reg on process 2 in superstep 2: its 1st bsp_pop_reg of this superstep pops another registration than process 1's 1st"
  "pop_null_unregistered|2|bsp_pop_reg on process [0-9] in superstep 1: address .nil. is not registered"
  "registration_count|3|bsp_push_reg/bsp_pop_reg on process 2 in superstep 1"
  "end_while_sync|2|bsp_sync on process 1 in superstep 1: process 0 called bsp_end while process 1 calls bsp_sync"
  "exit_without_end|2|exit on process 1 in superstep 1: the process ended without calling bsp_end"
  "abort|2|bsp_abort on process 1 in superstep 1: user abort from process 1"
  "move_empty|1|bsp_move on process 0 in superstep 1: the message queue is empty"
  "tagsize_mismatch|3|bsp_set_tagsize on process 2 in superstep 1: tag size 8 differs"
  "tagsize_not_all|2|bsp_set_tagsize on process 1 in superstep 1: it called bsp_set_tagsize 0 times in this superstep, process 0 1 times"
  "null_qsize|2|bsp_qsize on process [0-9] in superstep 1: the message count .first argument. is a null pointer"
  "null_get_tag|2|bsp_get_tag on process [0-9] in superstep 1: the status .first argument. is a null pointer"
  "null_hpmove|1|bsp_hpmove on process 0 in superstep 1: the tag pointer's address .first argument. is a null pointer"
  "null_move|2|bsp_move on process [0-9] in superstep 2: the payload buffer is a null pointer"
  "null_put_source|2|bsp_put on process [0-9] in superstep 1: the source is a null pointer"
  "null_get_destination|2|bsp_get on process [0-9] in superstep 1: the destination is a null pointer"
  "null_send_tag|2|bsp_send on process [0-9] in superstep 2: the tag is a null pointer")
foreach(c ${bad_cases})
  string(REPLACE "|" ";" parts "${c}")
  list(GET parts 0 mode)
  list(GET parts 1 np)
  list(GET parts 2 expect)
  # The library ends every process by MPI_Abort after its message (a usage error is local to
  # the process that made it).
  set(name bsplib.bad_usage.${mode})
  if(mode MATCHES "^null_ambiguous")  # at 2 and 4 processes
    set(name ${name}.np${np})
  endif()
  suite_add_error_test(NAME ${name} RANKS ${np} ABORTS LABELS "mpi;unit" TIMEOUT 90
                       EXPECT "BSP error: ${expect}" COMMAND $<TARGET_FILE:bsp_t_bad_usage> ${mode})
endforeach()
# The checks that compare header words across processes, with the headers by MPI as well
# (BSP_SHARED_SYNC=0): the cases above exchange them through shared memory within the node.
foreach(c ${bad_cases})
  string(REPLACE "|" ";" parts "${c}")
  list(GET parts 0 mode)
  if(NOT mode MATCHES "^(registration_order|registration_count|pop_different_with_null|end_while_sync|exit_without_end|tagsize_mismatch|tagsize_not_all)$")
    continue()
  endif()
  list(GET parts 1 np)
  list(GET parts 2 expect)
  suite_add_error_test(NAME bsplib.bad_usage.${mode}.mpi_headers RANKS ${np} ABORTS
                       LABELS "mpi;unit" TIMEOUT 90 EXPECT "BSP error: ${expect}"
                       COMMAND $<TARGET_FILE:bsp_t_bad_usage> ${mode})
  set_property(TEST bsplib.bad_usage.${mode}.mpi_headers APPEND PROPERTY ENVIRONMENT
               BSP_SHARED_SYNC=0)
endforeach()
