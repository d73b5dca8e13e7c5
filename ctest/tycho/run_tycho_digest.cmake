# The scalar flux is bitwise the same for any P, MCPS, priority scheme, send mode and thread
# count (sweep_engine.hpp's promise): runs tycho once per configuration and fails unless every
# run exits 0 and prints the same "scalar flux digest HEX" line.
# cmake -DMPIEXEC= -DNPFLAG= -DEXE= -DMESH= "-DRUNS=N args...|N args...|..." [-DARGS=common args] -P
string(REPLACE "|" ";" runs "${RUNS}")
separate_arguments(common UNIX_COMMAND "${ARGS}")
set(first "")
set(report "")
foreach(run ${runs})
  separate_arguments(words UNIX_COMMAND "${run}")
  list(POP_FRONT words np)
  list(JOIN words " " shown)
  execute_process(COMMAND ${MPIEXEC} ${NPFLAG} ${np} ${EXE} ${MESH} --no-results ${common} ${words}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 240)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "np ${np} ${shown}: exit status ${rc}\n${out}${err}")
  endif()
  if(NOT out MATCHES "scalar flux digest ([0-9a-f]+)\n")
    message(FATAL_ERROR "np ${np} ${shown}: no \"scalar flux digest HEX\" line\n${out}${err}")
  endif()
  set(digest ${CMAKE_MATCH_1})
  string(APPEND report "  np ${np} ${shown}: ${digest}\n")
  if(first STREQUAL "")
    set(first ${digest})
  elseif(NOT digest STREQUAL first)
    message(FATAL_ERROR "the scalar flux differs between runs:\n${report}")
  endif()
endforeach()
message(STATUS "the same scalar flux digest in every run:\n${report}")
