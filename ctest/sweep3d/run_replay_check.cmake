# Runs instrument-replay on a recorded sweep3d run and checks what does not depend on the
# host's timing (replay.cmake). The T_total error is printed, never asserted: timing figures
# are benchmarks (BENCHMARKS.md, measured on an idle machine), not tests.
# cmake -DREPLAY=exe -DMODE=self|calibrated "-DARGS=a|b|..." -P run_replay_check.cmake
#   always:     exit 0; the last line is `replay T_total measured <s> replayed <s> error <pct>%`;
#               the replayed T_total is at least every rank's replayed compute;
#   self:       every rank's replayed compute equals its measured compute (the program is the
#               run's own gaps: a simulator that loses or adds compute fails); the --trace-out
#               file is a Chrome trace;
#   calibrated: no compute left without a cost ("compute not in the calibration").
string(REPLACE "|" ";" args "${ARGS}")
set(num "[-+]?[0-9.]+(e[-+]?[0-9]+)?")

# Replays `file` and checks what holds under any load.
function(replay_once file)
  set(a ${args})
  list(REMOVE_AT a 0)
  execute_process(COMMAND ${REPLAY} ${file} ${a} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "instrument-replay exited ${rc}, expected 0")
  endif()
  string(STRIP "${out}" stripped)
  string(REGEX MATCH "[^\n]*$" last "${stripped}")
  if(NOT last MATCHES "^replay T_total measured (${num}) replayed (${num}) error ([-+]?[0-9.]+)%$")
    message(FATAL_ERROR "the last line is not `replay T_total measured <s> replayed <s> error <pct>%`: ${last}")
  endif()
  set(replayed ${CMAKE_MATCH_3})
  set(error ${CMAKE_MATCH_5})
  string(REGEX MATCHALL "\n +[0-9]+  compute +[^\n]*" compute_rows "${out}")
  foreach(r ${compute_rows})
    if(r MATCHES "compute +(${num}) +(${num}) +" AND CMAKE_MATCH_3 GREATER replayed)
      message(FATAL_ERROR "a rank's replayed compute ${CMAKE_MATCH_3} s exceeds the replayed T_total ${replayed} s: ${r}")
    endif()
  endforeach()
  if(MODE STREQUAL "self")
    list(LENGTH compute_rows n)
    if(n LESS 2)
      message(FATAL_ERROR "expected a compute row per rank, found ${n}")
    endif()
    foreach(r ${compute_rows})
      if(NOT r MATCHES "compute +(${num}) +(${num}) +")
        message(FATAL_ERROR "unreadable row: ${r}")
      endif()
      if(NOT CMAKE_MATCH_1 STREQUAL CMAKE_MATCH_3)
        message(FATAL_ERROR "--self: replayed compute ${CMAKE_MATCH_3} s differs from the measured ${CMAKE_MATCH_1} s: ${r}")
      endif()
    endforeach()
    list(FIND a --trace-out at)
    math(EXPR at "${at} + 1")
    list(GET a ${at} json)
    file(READ ${json} text LIMIT 200)
    if(NOT text MATCHES "traceEvents")
      message(FATAL_ERROR "${json} is not a Chrome trace: ${text}")
    endif()
  else()
    if(out MATCHES "compute not in the calibration")
      message(FATAL_ERROR "--costs: compute without a cost in the calibration (see above)")
    endif()
  endif()
  message(STATUS "${MODE}: replayed T_total error ${error}% (a timing figure: reported, not asserted)")
endfunction()

list(GET args 0 recorded)
replay_once(${recorded})
