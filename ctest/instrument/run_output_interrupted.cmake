# One run of output_interrupted_program (registered by output_interrupted.cmake):
#   cmake -DPROGRAM=.. -DMPIEXEC=.. -DNPFLAG=.. -DRANKS=n -DMODE=m -DDIR=d -P run_output_interrupted.cmake
# Passes when rank 0 wrote its temporary (it says so), ended the way MODE ends it (the
# signal's 128 + number, or exit 3), and DIR holds no run.h5 and no run.h5.tmp.* afterwards.
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
set(_expected_status "")
if(MODE MATCHES "^wait:(.*)$")
  # Signalled from outside: mpiexec forwards it to the ranks it started (each rank is the
  # program itself here: a wrapping shell would take the signal instead of it).
  set(_signal ${CMAKE_MATCH_1})
  execute_process(COMMAND sh -c "\"$0\" $1 $2 \"$3\" \"$4\" wait & pid=$!
i=0
while [ ! -e \"$4/ready\" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
kill -${_signal} $pid
wait $pid
echo" ${MPIEXEC} ${NPFLAG} ${RANKS} ${PROGRAM} ${DIR}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 50)
  if(NOT EXISTS ${DIR}/ready)
    message(FATAL_ERROR "rank 0 never got to wait for the signal:\n${out}\n${err}")
  endif()
  # (mpiexec's own status says nothing here: MPICH's exits 0 after forwarding SIGTERM.)
  if("${out}${err}" MATCHES "no signal came")
    message(FATAL_ERROR "the run was not ended by SIG${_signal}:\n${out}\n${err}")
  endif()
  file(REMOVE ${DIR}/ready)
else()
  set(_codes SIGINT 130 SIGQUIT 131 abort 134 SIGTERM 143 exit 3)
  list(FIND _codes ${MODE} i)
  if(i LESS 0)
    message(FATAL_ERROR "unknown MODE ${MODE}")
  endif()
  math(EXPR i "${i} + 1")
  list(GET _codes ${i} _expected_status)
  # Each rank wrapped so that its own status is seen (mpiexec's alone would hide it).
  execute_process(COMMAND ${MPIEXEC} ${NPFLAG} ${RANKS} sh -c "\"$0\" \"$@\"\necho suite-rank-exit=$?"
                          ${PROGRAM} ${DIR} ${MODE}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 50)
  if(NOT out MATCHES "suite-rank-exit=${_expected_status}\n")
    message(FATAL_ERROR "expected rank 0 to end with status ${_expected_status} (${MODE}):\n${out}\n${err}")
  endif()
endif()
message(STATUS "${MODE} at ${RANKS} ranks (exit ${rc}):\n${out}\n${err}")
if(NOT out MATCHES "temporary written: [^\n]*/run.h5.tmp.[0-9]+\n")
  message(FATAL_ERROR "rank 0 did not write its temporary")
endif()
file(GLOB _left ${DIR}/*)
if(_left)
  message(FATAL_ERROR "left behind after ${MODE}: ${_left}")
endif()
