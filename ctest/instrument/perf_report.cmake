# perf-report end to end: instrument-demo at 1 and 2 ranks writes results files (and a trace
# at 2), perf-report reads both, prints the tables and the campaign error summary, writes a
# CSV and a PNG; a file that is not ours is refused with one line and exit status 1; a CSV
# path that is a symbolic link is refused and stale temporaries of dead processes go away.
# Also registers instrument.perf_report_bad_inputs (run_perf_report_bad.cmake): ~70 malformed
# or odd inputs and outputs, built by make_bad_results.py, some from this test's np1.h5.
#
# This file is both the registration (included by CMakeLists.txt) and the test script
# (run with cmake -P, when CMAKE_SCRIPT_MODE_FILE is set).
if(NOT CMAKE_SCRIPT_MODE_FILE)
  set(_perf_report ${PROJECT_SOURCE_DIR}/tools/perf-report)
  if(NOT EXISTS ${_perf_report})  # a wrapper project may build instrument alone
    get_filename_component(_perf_report ${CMAKE_CURRENT_LIST_DIR}/../../tools/perf-report ABSOLUTE)
  endif()
  add_test(NAME instrument.perf_report
           COMMAND ${CMAKE_COMMAND} -DMPIEXEC=${MPIEXEC_EXECUTABLE} -DNP_FLAG=${MPIEXEC_NUMPROC_FLAG}
                   -DDEMO=$<TARGET_FILE:instrument-demo> -DREPORT=${_perf_report}
                   -DWORK=${CMAKE_CURRENT_BINARY_DIR}/perf_report_work -P ${CMAKE_CURRENT_LIST_FILE})
  set_tests_properties(instrument.perf_report PROPERTIES LABELS "mpi;unit" TIMEOUT 120 PROCESSORS 2
                       FIXTURES_SETUP perf_report_demo)
  add_test(NAME instrument.perf_report_bad_inputs
           COMMAND ${CMAKE_COMMAND} -DREPORT=${_perf_report}
                   -DGENERATOR=${CMAKE_CURRENT_LIST_DIR}/make_bad_results.py
                   -DBASE=${CMAKE_CURRENT_BINARY_DIR}/perf_report_work/np1.h5
                   -DWORK=${CMAKE_CURRENT_BINARY_DIR}/perf_report_bad
                   -P ${CMAKE_CURRENT_LIST_DIR}/run_perf_report_bad.cmake)
  # ~70 starts of python with h5py: about 20 s on an idle core.
  set_tests_properties(instrument.perf_report_bad_inputs PROPERTIES LABELS unit TIMEOUT 900
                       FIXTURES_REQUIRED perf_report_demo)
  return()
endif()

function(run_checked)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
run_checked(${MPIEXEC} ${NP_FLAG} 1 ${DEMO} --cells 20000 --steps 5 --out ${WORK}/np1.h5)
run_checked(${MPIEXEC} ${NP_FLAG} 2 ${DEMO} --cells 20000 --steps 5 --out ${WORK}/np2.h5
            --trace ${WORK}/np2.json)
foreach(f np1.h5 np2.h5 np2.json)
  if(NOT EXISTS ${WORK}/${f})
    message(FATAL_ERROR "instrument-demo did not write ${f}")
  endif()
endforeach()
if(NOT last_output MATCHES "Measured vs modelled" OR NOT last_output MATCHES "T_compute")
  message(FATAL_ERROR "instrument-demo printed no side-by-side table:\n${last_output}")
endif()

run_checked(/usr/bin/python3 ${REPORT} --csv ${WORK}/campaign.csv --plot ${WORK}/campaign.png
            ${WORK}/np1.h5 ${WORK}/np2.h5)
if(NOT last_output MATCHES "Campaign error summary over 2 file" OR NOT last_output MATCHES "\ntoy +totals +2 +2 +0 ")
  message(FATAL_ERROR "perf-report printed no campaign summary for model toy:\n${last_output}")
endif()
file(STRINGS ${WORK}/campaign.csv csv_lines)
list(LENGTH csv_lines n)
if(NOT n EQUAL 3)
  message(FATAL_ERROR "campaign.csv: expected a header and 2 rows, got ${n} lines")
endif()
list(GET csv_lines 2 row)
if(NOT row MATCHES "np2.h5,instrument-demo,2,2,toy,total,T_compute,")
  message(FATAL_ERROR "campaign.csv: unexpected row: ${row}")
endif()
file(READ ${WORK}/campaign.png magic LIMIT 8 HEX)
if(NOT magic STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "campaign.png is not a PNG (starts ${magic})")
endif()

# Not ours: one line naming the file, exit status 1, and no CSV written.
file(WRITE ${WORK}/not_hdf5.h5 "plain text\n")
execute_process(COMMAND /usr/bin/python3 ${REPORT} --csv ${WORK}/bad.csv ${WORK}/np1.h5 ${WORK}/not_hdf5.h5
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT err MATCHES "^perf-report: error: [^\n]*not_hdf5.h5: not an HDF5 file[^\n]*\n$"
   OR EXISTS ${WORK}/bad.csv)
  message(FATAL_ERROR "perf-report should refuse not_hdf5.h5 with one line and exit 1 (rc ${rc}):\n${err}")
endif()

# The writer rules: a symbolic link, dangling or not, is refused (its target neither created
# nor written); a stale temporary of a process that cannot exist (pid above pid_max) is
# removed, one of a live process (pid 1) kept; a write that fails leaves no temporary.
file(MAKE_DIRECTORY ${WORK}/out)
file(REMOVE ${WORK}/link.csv ${WORK}/out/target.csv)
file(CREATE_LINK out/target.csv ${WORK}/link.csv SYMBOLIC)
execute_process(COMMAND /usr/bin/python3 ${REPORT} --quiet --csv ${WORK}/link.csv ${WORK}/np1.h5
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT err MATCHES "^perf-report: error: [^\n]*link.csv: cannot write CSV: it is a symbolic link \\(to out/target.csv\\); refusing to write through it; give the real path\n$"
   OR EXISTS ${WORK}/out/target.csv OR NOT IS_SYMLINK ${WORK}/link.csv)
  message(FATAL_ERROR "--csv through a dangling symlink: expected one line, exit 1, no target created (rc ${rc}):\n${err}")
endif()
file(WRITE ${WORK}/out/target.csv.tmp.2147483646 "stale")
file(WRITE ${WORK}/out/target.csv.tmp.1 "live")
run_checked(/usr/bin/python3 ${REPORT} --quiet --csv ${WORK}/out/target.csv ${WORK}/np1.h5)
file(STRINGS ${WORK}/out/target.csv csv_lines)
list(LENGTH csv_lines n)
if(NOT n EQUAL 2)
  message(FATAL_ERROR "--csv: expected 2 lines, got ${n}")
endif()
file(GLOB temps ${WORK}/out/target.csv.tmp.*)
if(NOT temps STREQUAL "${WORK}/out/target.csv.tmp.1")
  message(FATAL_ERROR "temporaries: expected only the live process's target.csv.tmp.1, found ${temps}")
endif()
execute_process(COMMAND /usr/bin/python3 ${REPORT} --plot ${WORK}/no_such_dir/p.png ${WORK}/np1.h5
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(GLOB temps ${WORK}/no_such_dir*)
if(NOT rc EQUAL 1 OR NOT err MATCHES "^perf-report: error: [^\n]*p.png: cannot write plot: [^\n]*\n$" OR temps)
  message(FATAL_ERROR "--plot into a missing directory: expected one line and exit 1 (rc ${rc}):\n${err}")
endif()
message(STATUS "perf-report end to end: ok")
