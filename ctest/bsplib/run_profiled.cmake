# Runs a BSPlib program with the profiler on, then the predictor on its profile.
# Passes only if both exit 0 and the predictor's output matches EXPECT.
# cmake -DMPIEXEC=... -DNP=... -DEXE=... -DPREDICT=... -DMACHINE=... -DEXPECT=... -P run_profiled.cmake
get_filename_component(name ${EXE} NAME)
set(profile ${CMAKE_CURRENT_BINARY_DIR}/${name}.np${NP}.profile.csv)
file(REMOVE ${profile})
set(ENV{BSP_PROFILE} ${profile})
execute_process(COMMAND ${MPIEXEC} -n ${NP} ${EXE} RESULT_VARIABLE rc TIMEOUT 60)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} failed: ${rc}")
endif()
unset(ENV{BSP_PROFILE})
# The predictor's run and its check are run_expect.cmake's (exit 0 and EXPECT matched).
set(CMD "${PREDICT}|${profile}|${MACHINE}")
include(${CMAKE_CURRENT_LIST_DIR}/../run_expect.cmake)
