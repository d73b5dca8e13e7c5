# bspprobe on 2 processes with few repetitions, then bsp_predict reads what it wrote.
set(machine ${CMAKE_CURRENT_BINARY_DIR}/probe-test-p2.machine)
file(REMOVE ${machine})
execute_process(COMMAND ${MPIEXEC} -n 2 ${PROBE} --reps 3 --hmax 8192 --name "probe test"
                        --out ${machine} RESULT_VARIABLE rc TIMEOUT 100)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bspprobe failed: ${rc}")
endif()
# A one-superstep profile to predict with it.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/probe-test.profile.csv
     "superstep,pid,label,t_begin,t_enter,t_exit,compute_s,comm_sync_s,bytes_out,bytes_in,msgs_out,msgs_in\n"
     "0,0,x,0,0.001,0.002,0.001,0.001,800,800,1,1\n0,1,x,0,0.001,0.002,0.001,0.001,800,800,1,1\n")
execute_process(COMMAND ${PREDICT} ${CMAKE_CURRENT_BINARY_DIR}/probe-test.profile.csv ${machine}
                RESULT_VARIABLE rc TIMEOUT 60)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bsp_predict could not use the probe's machine file: ${rc}")
endif()
