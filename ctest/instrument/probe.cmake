# Tests of loggps-probe at 2 ranks (included by ctest/instrument/CMakeLists.txt).
#
# This file has two roles. Included at configure time it registers the tests. Run as a
# script (cmake -DMODE=... -P probe.cmake) it is the checker those tests call:
#   MODE=check_files  run CHECKER (machine-check) on FILES ('|'-separated); pass iff it exits 0
#                     and says "loggp ok" and "loggps ok" for every file (the models' own
#                     constraint checks, as every app's --machine applies them).
#   MODE=check_S      read the machine files the probe wrote under UCX_RNDV_THRESH=LOW_THRESH
#                     and =HIGH_THRESH; pass iff the measured first waiting size of each lies
#                     within a factor 2 of its threshold (so S moved with the library setting).
#
# Why not timing-flaky: S is decided per size by the median of three MPI_Send calls towards a
# receiver that posts 20 ms late, against 10 ms: eager sends return in microseconds, waiting
# ones take >= 20 ms. Intra-node here, MPICH ch4:ucx sends tagged messages through UCX (sysv
# shared memory for eager, cma for rendezvous; MPICH's own POSIX shm is not on the path), so
# UCX_RNDV_THRESH governs the switch (measured: 4096 -> waits from 4096 B, 65536 -> 65536 B,
# default -> 8256 B).
if(CMAKE_SCRIPT_MODE_FILE)
  if(MODE STREQUAL "check_files")
    string(REPLACE "|" ";" _files "${FILES}")
    execute_process(COMMAND ${CHECKER} ${_files} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    message(STATUS "exit code: ${rc}\n${out}${err}")
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "machine-check refused a file the probe wrote")
    endif()
    string(REPLACE "\n" ";" lines "${out}")
    foreach(f ${_files})
      set(found FALSE)
      foreach(l ${lines})
        string(FIND "${l}" "${f}: loggp ok (" at_gp)
        string(FIND "${l}" " loggps ok (" at_gps)
        if(at_gp EQUAL 0 AND at_gps GREATER 0)
          set(found TRUE)
        endif()
      endforeach()
      if(NOT found)
        message(FATAL_ERROR "${f}: expected a line '${f}: loggp ok (...), loggps ok (...)'")
      endif()
      # The placement its figures are true of (instrument/core_round_trip.hpp): a round trip in
      # (1 ns, 10 ms), or the two samples when the CPUs moved during the probe; neither only
      # where the two ranks could not have a CPU each.
      file(STRINGS "${f}" rt REGEX "^loggp\\.core_round_trip_seconds = ")
      file(STRINGS "${f}" moved REGEX "^probe\\.core_round_trip_moved = [0-9]+ ns, [0-9]+ ns$")
      set(value "")
      if(rt MATCHES "= ([0-9.eE+-]+)$")
        set(value "${CMAKE_MATCH_1}")  # copied before another MATCHES clears it
      endif()
      # (The CPUs this process may run on, as LinePairs counts them: not the host's.)
      execute_process(COMMAND nproc OUTPUT_VARIABLE cpus OUTPUT_STRIP_TRAILING_WHITESPACE)
      if(value)
        if(value LESS 1e-9 OR value GREATER 1e-2)
          message(FATAL_ERROR "${f}: ${rt}: expected a round trip in (1 ns, 10 ms)")
        endif()
      elseif(NOT moved AND cpus GREATER 1)
        message(FATAL_ERROR "${f}: expected loggp.core_round_trip_seconds or probe.core_round_trip_moved (${cpus} CPUs)")
      endif()
    endforeach()
  elseif(MODE STREQUAL "check_S")
    foreach(which LOW HIGH)
      if(NOT EXISTS "${${which}_FILE}")
        message(FATAL_ERROR "missing ${${which}_FILE}: the probe run did not write it")
      endif()
      file(STRINGS "${${which}_FILE}" lines REGEX "^(loggps\\.S|probe\\.first_waiting_bytes|ucx_rndv_thresh) =")
      set(first "")
      set(S "")
      foreach(l ${lines})
        if(l MATCHES "^probe\\.first_waiting_bytes = (-?[0-9]+)$")
          set(first ${CMAKE_MATCH_1})
        elseif(l MATCHES "^loggps\\.S = ([0-9]+)$")
          set(S ${CMAKE_MATCH_1})
        endif()
      endforeach()
      set(th ${${which}_THRESH})
      message(STATUS "UCX_RNDV_THRESH=${th}: S = ${S} B, MPI_Send waits from ${first} B")
      math(EXPR lo "${th} / 2")
      math(EXPR hi "${th} * 2")
      if(first STREQUAL "" OR first LESS lo OR first GREATER hi)
        message(FATAL_ERROR "UCX_RNDV_THRESH=${th}: first waiting size '${first}' not within [${lo}, ${hi}]")
      endif()
      math(EXPR expect_S "${first} - 1")
      if(NOT S EQUAL expect_S)
        message(FATAL_ERROR "loggps.S = ${S} but the first waiting size is ${first}")
      endif()
      set(first_${which} ${first})
    endforeach()
    if(NOT first_HIGH GREATER first_LOW)
      message(FATAL_ERROR "S did not move up with UCX_RNDV_THRESH")
    endif()
  else()
    message(FATAL_ERROR "probe.cmake: unknown MODE '${MODE}'")
  endif()
  return()
endif()

if(NOT TARGET loggps-probe)
  return()
endif()

set(_probe_dir ${CMAKE_CURRENT_BINARY_DIR})

# S follows the MPI library's eager/rendezvous threshold.
add_test(NAME instrument.probe.clean
         COMMAND ${CMAKE_COMMAND} -E rm -f ${_probe_dir}/probe_rndv4096.machine
                 ${_probe_dir}/probe_rndv65536.machine)
set_tests_properties(instrument.probe.clean PROPERTIES LABELS "mpi" FIXTURES_SETUP probe_clean)
foreach(th 4096 65536)
  add_test(NAME instrument.probe.rndv${th}
           COMMAND ${CMAKE_COMMAND} -E env UCX_RNDV_THRESH=${th}
                   ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${MPIEXEC_PREFLAGS}
                   $<TARGET_FILE:loggps-probe> ${MPIEXEC_POSTFLAGS}
                   --quick --out ${_probe_dir}/probe_rndv${th}.machine
           WORKING_DIRECTORY ${_probe_dir})
  # RUN_SERIAL: a probe shares the 2 cores with nothing else from this test run.
  set_tests_properties(instrument.probe.rndv${th} PROPERTIES LABELS "mpi" PROCESSORS 2 TIMEOUT 180
                       RUN_SERIAL TRUE FIXTURES_REQUIRED probe_clean FIXTURES_SETUP probe_rndv)
endforeach()
add_test(NAME instrument.probe.S_follows_ucx_rndv_thresh
         COMMAND ${CMAKE_COMMAND} -DMODE=check_S
                 -DLOW_FILE=${_probe_dir}/probe_rndv4096.machine -DLOW_THRESH=4096
                 -DHIGH_FILE=${_probe_dir}/probe_rndv65536.machine -DHIGH_THRESH=65536
                 -P ${CMAKE_CURRENT_LIST_FILE})
set_tests_properties(instrument.probe.S_follows_ucx_rndv_thresh PROPERTIES LABELS "mpi"
                     FIXTURES_REQUIRED probe_rndv)

# Every file the probe wrote passes the constraints of both models, read as the apps read it.
add_test(NAME instrument.probe.files_pass_validation
         COMMAND ${CMAKE_COMMAND} -DMODE=check_files -DCHECKER=$<TARGET_FILE:machine-check>
                 "-DFILES=${_probe_dir}/probe_rndv4096.machine|${_probe_dir}/probe_rndv65536.machine"
                 -P ${CMAKE_CURRENT_LIST_FILE})
set_tests_properties(instrument.probe.files_pass_validation PROPERTIES LABELS "mpi"
                     FIXTURES_REQUIRED probe_rndv)
# ... and the checker refuses what the probe wrote before its fits were constrained.
suite_add_error_test(NAME instrument.probe.check_refuses_negative_o RANKS 1 ONE_LINE LABELS mpi TIMEOUT 60
  EXPECT "^machine-check: error: .*refused_negative_o.machine:loggp.band.6.o: expected an overhead in \\[0, 1\\] s, got -4.43153e-06$"
  COMMAND $<TARGET_FILE:machine-check> ${CMAKE_CURRENT_LIST_DIR}/refused_negative_o.machine)

# Bad input: wrong number of ranks, unwritable output, a bad option, a file that is not ours.
# One line, non-zero exit of every rank, no file written or clobbered.
foreach(np 1 3)
  suite_add_error_test(NAME instrument.probe.refuses_np${np} RANKS ${np} ONE_LINE LABELS mpi
    EXPECT "loggps-probe: error: needs exactly 2 ranks, got ${np}"
    COMMAND $<TARGET_FILE:loggps-probe> --quick)
endforeach()
suite_add_error_test(NAME instrument.probe.unwritable_out RANKS 2 ONE_LINE LABELS mpi
  EXPECT "loggps-probe: error: .*no_such_dir/x.machine: cannot write" NO_FILE ${_probe_dir}/no_such_dir/x.machine
  COMMAND $<TARGET_FILE:loggps-probe> --quick --out ${_probe_dir}/no_such_dir/x.machine)
suite_add_error_test(NAME instrument.probe.bad_option RANKS 2 ONE_LINE LABELS mpi
  EXPECT "^loggps-probe: error: command line:--reps: expected a whole number in \\[1, 100000\\], got \"zero\"$"
  COMMAND $<TARGET_FILE:loggps-probe> --reps zero)
# Numbers read whole and refused outside their range, never wrapped or clamped.
suite_add_error_test(NAME instrument.probe.reps_too_many RANKS 2 ONE_LINE LABELS mpi
  EXPECT "^loggps-probe: error: command line:--reps: expected a whole number in \\[1, 100000\\], got \"99999999999\"$"
  COMMAND $<TARGET_FILE:loggps-probe> --reps 99999999999)
suite_add_error_test(NAME instrument.probe.max_bytes_junk RANKS 2 ONE_LINE LABELS mpi
  EXPECT "^loggps-probe: error: command line:--max-bytes: expected a whole number in \\[1024, 1073741824\\] B, got \"2000abc\"$"
  COMMAND $<TARGET_FILE:loggps-probe> --max-bytes 2000abc)
# --out naming a device: refused by the shared writer, the device untouched (as root it
# would have become a machine file).
suite_add_error_test(NAME instrument.probe.out_device RANKS 2 ONE_LINE LABELS mpi
  EXPECT "^loggps-probe: error: /dev/null: cannot write machine file: .*character device, not a regular file"
  COMMAND $<TARGET_FILE:loggps-probe> --quick --out /dev/null)
suite_add_error_test(NAME instrument.probe.refuses_foreign_out RANKS 2 ONE_LINE LABELS mpi
  EXPECT "loggps-probe: error: .*foreign.txt: exists and is not a machine file"
  KEEP_FILE ${_probe_dir}/foreign.txt KEEP_TEXT "precious data, not ours"
  COMMAND $<TARGET_FILE:loggps-probe> --quick --out ${_probe_dir}/foreign.txt)
