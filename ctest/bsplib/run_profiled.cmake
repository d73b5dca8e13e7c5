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
# With -DGETS=<superstep>: the profile's gets_out column is 1 on every process but 0 in that
# superstep (each gets once from process 0; a copy to itself is not a get of another) and 0
# everywhere else.
if(DEFINED GETS)
  file(STRINGS ${profile} rows REGEX "^[0-9]")
  foreach(row ${rows})
    string(REGEX MATCH "^([0-9]+),([0-9]+),.*,([0-9]+)$" m "${row}")
    set(want 0)
    if(CMAKE_MATCH_1 EQUAL GETS AND NOT CMAKE_MATCH_2 EQUAL 0)
      set(want 1)
    endif()
    if(NOT CMAKE_MATCH_3 EQUAL want)
      message(FATAL_ERROR "gets_out is '${CMAKE_MATCH_3}', expected ${want}, in: ${row}")
    endif()
  endforeach()
endif()
# The predictor's run and its check are run_expect.cmake's (exit 0 and EXPECT matched).
set(CMD "${PREDICT}|${profile}|${MACHINE}")
include(${CMAKE_CURRENT_LIST_DIR}/../run_expect.cmake)
