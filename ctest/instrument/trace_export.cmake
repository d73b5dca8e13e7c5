# instrument-trace-export (otf2/otf2_trace.hpp): a sweep3d run traced at 2 ranks on a small
# deck (~0.3 s), exported as OTF2 and Chrome JSON and read back (check_trace_export.py:
# otf2-print reads the archive, one location per rank, every traced phase entered and left as
# often as it has events, Enter/Leave nested with timestamps never decreasing per location,
# sends == receives == the trace's send events, the JSON parses); and bad input: one line,
# exit 1, no output directory and no temporary left.
set(_d ${CMAKE_CURRENT_BINARY_DIR}/trace_export)
file(MAKE_DIRECTORY ${_d})
find_program(SUITE_OTF2_PRINT otf2-print)  # otf2-tools; the check names it when missing
set(_exporter $<TARGET_FILE:instrument-trace-export>)
set(_deck ${PROJECT_SOURCE_DIR}/inputs/sweep3d/small.input)

suite_add_mpi_test(NAME instrument.trace_export.record.np2 TARGET sweep3d RANKS 2
                   ARGS ${_deck} --grid 1x2 --trace 100000 --no-machine --results ${_d}/traced_np2.h5)
set_tests_properties(instrument.trace_export.record.np2 PROPERTIES FIXTURES_SETUP trace_export_np2)
suite_add_mpi_test(NAME instrument.trace_export.untraced.np1 TARGET sweep3d RANKS 1 LABELS unit
                   ARGS ${_deck} --no-machine --results ${_d}/untraced.h5)
set_tests_properties(instrument.trace_export.untraced.np1 PROPERTIES FIXTURES_SETUP trace_export_untraced)

# Non-blocking messages: instrument-demo's halo exchange (irecv, isend, wait) at 2 ranks.
suite_add_mpi_test(NAME instrument.trace_export.record_nonblocking.np2 TARGET instrument-demo RANKS 2
                   ARGS --steps 20 --cells 1000 --out ${_d}/demo_np2.h5 --trace ${_d}/demo_np2.json)
set_tests_properties(instrument.trace_export.record_nonblocking.np2 PROPERTIES FIXTURES_SETUP trace_export_demo)

# check_trace_export.py EXPORTER OTF2_PRINT RUN.h5 WORK_DIR PHASES-THAT-MUST-BE-ENTERED...
foreach(case "sweep3d|traced_np2|trace_export_np2|sweep;iteration" "nonblocking|demo_np2|trace_export_demo|step;halo")
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 _name)
  list(GET case 1 _file)
  list(GET case 2 _fixture)
  list(SUBLIST case 3 -1 _phases)
  add_test(NAME instrument.trace_export.otf2_print.${_name}.np2
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/check_trace_export.py ${_exporter} ${SUITE_OTF2_PRINT}
                   ${_d}/${_file}.h5 ${_d}/check_${_file} ${_phases})
  set_tests_properties(instrument.trace_export.otf2_print.${_name}.np2 PROPERTIES LABELS mpi TIMEOUT 120
                       FIXTURES_REQUIRED ${_fixture})
endforeach()

file(WRITE ${_d}/not_results.h5 "not an HDF5 file\n")
file(MAKE_DIRECTORY ${_d}/someone_elses)
function(trace_export_error case regex fixtures)
  suite_add_error_test(NAME instrument.trace_export.bad.${case} ONE_LINE EXPECT "${regex}" ${ARGN})
  if(fixtures)
    set_tests_properties(instrument.trace_export.bad.${case} PROPERTIES FIXTURES_REQUIRED "${fixtures}")
  endif()
endfunction()
trace_export_error(missing_file
  "^instrument-trace-export: error: .*/no-such.h5: cannot open results file: No such file or directory$" ""
  NO_FILE ${_d}/out_missing COMMAND ${_exporter} ${_d}/no-such.h5 --otf2 ${_d}/out_missing)
trace_export_error(not_results
  "^instrument-trace-export: error: .*/not_results.h5: not a sealed suite results file" ""
  NO_FILE ${_d}/out_not_results
  COMMAND ${_exporter} ${_d}/not_results.h5 --otf2 ${_d}/out_not_results --chrome ${_d}/out_not_results.json)
trace_export_error(no_trace
  "^instrument-trace-export: error: .*/untraced.h5: no /trace \\(run the app with --trace N\\)$" trace_export_untraced
  NO_FILE ${_d}/out_no_trace_otf2 COMMAND ${_exporter} ${_d}/untraced.h5 --otf2 ${_d}/out_no_trace_otf2)
trace_export_error(no_trace_chrome
  "^instrument-trace-export: error: .*/untraced.h5: no /trace \\(run the app with --trace N\\)$" trace_export_untraced
  NO_FILE ${_d}/out_no_trace.json COMMAND ${_exporter} ${_d}/untraced.h5 --chrome ${_d}/out_no_trace.json)
# A directory that is not an earlier export is never replaced: refused before the run is read.
trace_export_error(other_directory
  "^instrument-trace-export: error: .*/someone_elses: cannot write OTF2 archive: it is a directory holding other files than an OTF2 export \\(no traces.otf2\\). refusing to replace it$"
  trace_export_np2 KEEP_FILE ${_d}/someone_elses/notes.txt KEEP_TEXT "keep me\n"
  COMMAND ${_exporter} ${_d}/traced_np2.h5 --otf2 ${_d}/someone_elses)
trace_export_error(no_output "^instrument-trace-export: error: command line: expected an output: --otf2 OUT_DIR, --chrome OUT.json or both$"
  "" COMMAND ${_exporter} ${_d}/traced_np2.h5)
