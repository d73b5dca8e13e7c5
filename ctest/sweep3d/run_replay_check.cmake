# Runs instrument-replay on a recorded sweep3d run and checks its figures (replay.cmake).
# cmake -DREPLAY=exe -DMODE=self|calibrated -DMAX_ERROR=<percent> "-DARGS=a|b|..."
#       "-DRECORD=mpiexec|-n|2|sweep3d|args..." -P run_replay_check.cmake
# ARGS' first item is the recorded run; RECORD remakes it (as replay_retry.h5) for a retry.
#   always:     exit 0; the last line is `replay T_total measured <s> replayed <s> error <pct>%`;
#   self:       every rank's replayed compute equals its measured compute (the program is the
#               run's own gaps: a simulator that loses or adds compute fails, whatever T_total
#               does); replayed T_total <= measured x (1 + MAX_ERROR) (a preempted run is only
#               ever slower than the model, so a replay slower than the run is the engine's);
#               the --trace-out file is a Chrome trace;
#   calibrated: no compute left without a cost ("compute not in the calibration");
#   T_total:    |error| <= MAX_ERROR on the best of up to 3 runs; else a failure, or "skipped"
#               when the host's 1-minute load average exceeds its cores (other jobs preempt
#               the ranks inside MPI calls, which no machine model reproduces).
string(REPLACE "|" ";" args "${ARGS}")
string(REPLACE "|" ";" record "${RECORD}")
set(num "[-+]?[0-9.]+(e[-+]?[0-9]+)?")

# Replays `file`; sets error_pct in the caller, checks what holds under any load.
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
  set(error ${CMAKE_MATCH_5})
  if(MODE STREQUAL "self")
    if(error GREATER ${MAX_ERROR})
      message(FATAL_ERROR "--self: the replay is ${error}% slower than the run it replays (bound ${MAX_ERROR}%)")
    endif()
    string(REGEX MATCHALL "\n +[0-9]+  compute +[^\n]*" rows "${out}")
    list(LENGTH rows n)
    if(n LESS 2)
      message(FATAL_ERROR "expected a compute row per rank, found ${n}")
    endif()
    foreach(r ${rows})
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
  string(REGEX REPLACE "^[-+]" "" abs "${error}")
  set(error_pct ${abs} PARENT_SCOPE)
endfunction()

list(GET args 0 recorded)
replay_once(${recorded})
set(best ${error_pct})
foreach(retry 1 2)
  if(NOT best GREATER ${MAX_ERROR})
    break()
  endif()
  message(STATUS "T_total off by ${best}% (bound ${MAX_ERROR}%): retry ${retry} on a fresh 2-rank run")
  execute_process(COMMAND ${record} --results replay_retry.h5 RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the retry run failed (${rc}): ${err}")
  endif()
  replay_once(replay_retry.h5)
  if(error_pct LESS best)
    set(best ${error_pct})
  endif()
endforeach()
if(best GREATER ${MAX_ERROR})
  cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
  file(READ /proc/loadavg loadavg)
  string(REGEX MATCH "^[0-9.]+" load "${loadavg}")
  if(load GREATER ${cores})
    message("replay check skipped: loaded host (1-minute load average ${load} on ${cores} cores): "
            "the best T_total error of 3 runs was ${best}%, bound ${MAX_ERROR}%")
    return()
  endif()
  message(FATAL_ERROR "${MODE}: replayed T_total off by ${best}% at best over 3 runs, bound ${MAX_ERROR}% "
                      "(load average ${load} on ${cores} cores)")
endif()
message(STATUS "${MODE}: replayed T_total within ${best}% (bound ${MAX_ERROR}%)")
