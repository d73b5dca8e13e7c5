# One run of output_signal_race_program (registered by output_signal_race.cmake):
#   cmake -DPROGRAM=.. -DMPIEXEC=.. -DNPFLAG=.. -DRANKS=n -DSIGNAL=TERM|INT -DDIR=d -P run_output_signal_race.cmake
# Sends SIG<SIGNAL> to mpiexec (which forwards it to every rank) once rank 0 has written its
# temporary. Passes when rank 0 outlived its 2 s hold (no other rank died first, which would
# have had the launcher SIGKILL it) and DIR holds nothing afterwards: no run.h5, no run.h5.tmp.*.
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
execute_process(COMMAND sh -c "\"$0\" $1 $2 \"$3\" \"$4\" $5 & pid=$!
i=0
while [ ! -e \"$4/ready\" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
kill -${SIGNAL} $pid
wait $pid
echo" ${MPIEXEC} ${NPFLAG} ${RANKS} ${PROGRAM} ${DIR} ${SIGNAL}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 50)
message(STATUS "SIG${SIGNAL} at ${RANKS} ranks (mpiexec exit ${rc}):\n${out}\n${err}")
if(NOT EXISTS ${DIR}/ready OR NOT out MATCHES "temporary written: [^\n]*/run.h5.tmp.[0-9]+\n")
  message(FATAL_ERROR "rank 0 never wrote its temporary")
endif()
file(REMOVE ${DIR}/ready)
file(GLOB _left ${DIR}/*)
if(_left)
  message(FATAL_ERROR "left behind after SIG${SIGNAL}: ${_left}")
endif()
if(NOT out MATCHES "SIG${SIGNAL} pending at the writer\n" OR NOT out MATCHES "held 2 s\n")
  message(FATAL_ERROR "the writer did not outlive its 2 s hold of SIG${SIGNAL}: a waiting rank died first")
endif()
if("${out}${err}" MATCHES "did not end the writer")
  message(FATAL_ERROR "SIG${SIGNAL} did not end the writer")
endif()
