# Compiles a test program with the bspcc wrapper (no CMake target) and runs it on 2 processes.
set(exe ${CMAKE_CURRENT_BINARY_DIR}/bspcc_t_put)
set(flags -O2)
if(SANITIZE)
  list(APPEND flags -fsanitize=address,undefined)  # libbsp.a was built with them
endif()
execute_process(COMMAND ${BSPCC} ${flags} -I${INC} ${SRC} -o ${exe} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bspcc failed: ${rc}")
endif()
execute_process(COMMAND ${MPIEXEC} -n 2 ${exe} RESULT_VARIABLE rc TIMEOUT 60
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0 OR NOT "${out}" MATCHES "PASS t_put")
  message(FATAL_ERROR "the bspcc-built program failed: ${rc}")
endif()
