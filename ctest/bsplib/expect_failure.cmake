# Runs a bad-usage program and passes only if it exits non-zero AND prints the expected
# message: ctest's PASS_REGULAR_EXPRESSION alone ignores the exit status.
# cmake -DMPIEXEC=... -DNP=... -DEXE=... -DMODE=... -DEXPECT=<regex> -P expect_failure.cmake
execute_process(COMMAND ${MPIEXEC} -n ${NP} ${EXE} ${MODE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
message("exit status: ${rc}\nstdout:\n${out}\nstderr:\n${err}")
if(rc EQUAL 0)
  message(FATAL_ERROR "expected a non-zero exit status")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "expected a message matching: ${EXPECT}")
endif()
