# Runs a command and passes only if it exits 0 AND its output matches EXPECT (ctest's
# PASS_REGULAR_EXPRESSION alone would pass a run that printed the line and then failed).
# cmake "-DCMD=exe|arg|..." "-DEXPECT=<regex>" -P run_expect.cmake
string(REPLACE "|" ";" cmd "${CMD}")
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "exit status ${rc}, expected 0")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "no output matched: ${EXPECT}")
endif()
