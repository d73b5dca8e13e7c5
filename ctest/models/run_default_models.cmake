# One case of ctest/models (CASE): the apps' default runs against a per-user machine-file
# cache in a fresh HOME (WORK/home) with XDG_CACHE_HOME unset, unless the case says
# otherwise. Prints "models test CASE: every check passed" when every check held.
cmake_minimum_required(VERSION 3.16)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/home)
set(ENV{HOME} ${WORK}/home)
unset(ENV{XDG_CACHE_HOME})
set(cache ${WORK}/home/.cache/hpc-perfmodel-suite)

function(fail what)
  message(FATAL_ERROR "models test ${CASE}: ${what}")
endfunction()

# mpiexec -n RANKS ARGS..., in WORK; its stdout in `out_var`; a non-zero exit fails.
# A probe's fit that the models' readers refuse is the host's noise, not the code's (seen
# at load average 14 on these 2 cores): such a run is repeated, up to three times, and the
# test is skipped if every try is too noisy (as bsplib's bspprobe test), never passed. So is
# a probe that passed its time limit (SUITE_PROBE_TIME_LIMIT), but in the case that tests it.
set(noise "too noisy a measurement|fit breaks a constraint")
if(NOT CASE STREQUAL "probe_time_limit.np2")
  string(APPEND noise "|within the time limit|so the next run measures again")
endif()
function(run ranks out_var)
  foreach(try 1 2 3)
    execute_process(COMMAND ${MPIEXEC} -n ${ranks} ${ARGN} WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc
                    OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 200)
    if(NOT "${out}${err}" MATCHES "${noise}")
      break()
    elseif(try EQUAL 3)
      message(FATAL_ERROR "models test ${CASE}: skipped: every try too noisy on this host:\n${out}${err}")
    endif()
    message("models test ${CASE}: try ${try} too noisy, measuring again")
  endforeach()
  if(NOT rc EQUAL 0)
    fail("exit ${rc} from ${ARGN}:\n${out}${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

# The number of short-probe lines (instrument/machine_cache.cpp's one line) in `out`.
function(probe_lines out count_var)
  string(REPLACE ";" "," text "${out}")  # a ';' in a matched line would split it in two list items
  string(REGEX MATCHALL "machine: [^\n]*with a short probe" lines "${text}")
  list(LENGTH lines n)
  set(${count_var} ${n} PARENT_SCOPE)
endfunction()

function(expect_probe_lines out expected)
  probe_lines("${out}" n)
  if(NOT n EQUAL expected)
    fail("expected ${expected} short-probe line(s), got ${n}:\n${out}")
  endif()
endfunction()

# A model row "MODEL  TERM  measured  modelled ..." whose modelled figure is a positive number.
function(expect_row out model term)
  if(NOT "\n${out}" MATCHES "\n${model} +${term} +([0-9.e+-]+) +([0-9.e+-]+) ")
    fail("no model row '${model} ${term}' with two figures in:\n${out}")
  endif()
  set(modelled ${CMAKE_MATCH_2})
  if(NOT modelled MATCHES "^[0-9]" OR NOT modelled GREATER 0)
    fail("row '${model} ${term}': modelled ${modelled} is not a positive number")
  endif()
endfunction()

# No file in the cache (`by` names the run that must not have written one).
function(expect_nothing_cached by)
  file(GLOB cached ${cache}/*)
  if(cached)
    fail("${cached} written by ${by}")
  endif()
endfunction()

# The one cached file of a kind (glob), in `path_var`.
function(expect_cached dir pattern path_var)
  file(GLOB found ${dir}/${pattern})
  list(LENGTH found n)
  if(NOT n EQUAL 1)
    fail("expected one cache file ${dir}/${pattern}, found ${n}: ${found}")
  endif()
  file(STRINGS ${found} first LIMIT_COUNT 1)
  if(NOT first STREQUAL "format = suite-machine-1")
    fail("${found} does not start as a machine file: ${first}")
  endif()
  execute_process(COMMAND stat -c %a ${dir} OUTPUT_VARIABLE mode OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT mode STREQUAL "700")
    fail("the cache directory ${dir} has mode ${mode}, expected 700")
  endif()
  set(${path_var} ${found} PARENT_SCOPE)
endfunction()

set(sweep3d_run ${SWEEP3D} ${DECK} --grid 2x1 --no-results)
set(tycho_run ${TYCHO} ${WORK}/cube.smesh --no-results)
set(multigrid_run ${MULTIGRID} --cube 2 --grids 2 --no-results)
execute_process(COMMAND ${MESH_EXAMPLE} kuhn-cube ${WORK}/cube.smesh RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  fail("tycho-mesh-example kuhn-cube failed")
endif()

function(expect_tycho_rows out)
  foreach(model GM MSM TM)
    expect_row("${out}" ${model} T_sweep)
  endforeach()
endfunction()

# First run: one probe line naming the file it saved, the rows; second: no probe, the rows.
# Sets `saved` (the cached file) and `first` (the first run's output).
function(default_twice kind pattern)
  run(2 first ${${kind}_run})
  expect_probe_lines("${first}" 1)
  expect_cached(${cache} ${pattern} saved)
  if(NOT first MATCHES "saved it as ${saved}")
    fail("the probe line does not name ${saved}:\n${first}")
  endif()
  run(2 second ${${kind}_run})
  expect_probe_lines("${second}" 0)
  if(NOT second MATCHES "${saved}")
    fail("the second run does not name the cached ${saved}:\n${second}")
  endif()
  foreach(out first second)
    if(kind STREQUAL "sweep3d")
      expect_row("${${out}}" loggp T_total)
      expect_row("${${out}}" pipeline T_total)
    elseif(kind STREQUAL "tycho")
      expect_tycho_rows("${${out}}")
    else()
      foreach(model eq5 replay-eq3 replay-pattern)
        expect_row("${${out}}" ${model} T_cycle)
      endforeach()
    endif()
  endforeach()
  set(saved ${saved} PARENT_SCOPE)
  set(first "${first}" PARENT_SCOPE)
endfunction()

# `file`'s text without the costs of messages after a working set, as an earlier probe wrote
# it, in `out_var`.
set(outdated_why "from an earlier probe, without the costs of messages after a working set \\(loggp\\.cold\\.\\*\\)")
function(earlier_probe_text file out_var)
  file(READ ${file} text)
  string(REGEX REPLACE "\n(loggp\\.cold|loggp\\.after_stream|probe\\.cold|probe\\.after_stream)[^\n]*" "" earlier
         "${text}")
  if(earlier MATCHES "\nloggp\\.cold\\." OR NOT earlier MATCHES "\nloggp\\.L = ")
    fail("the cold keys were not taken out of ${file}, or more was")
  endif()
  set(${out_var} "${earlier}" PARENT_SCOPE)
endfunction()

if(CASE STREQUAL "sweep3d_default.np2")
  default_twice(sweep3d "loggps-*.machine")
  # The short probe measures the messages after a working set too (loggps_short_probe.hpp):
  # cold points from the warm reference up, and the after-stream series; or, on a loaded host,
  # says why not (probe.cold_omitted). The rows then name those costs, not the warm ones.
  file(STRINGS ${saved} cold_points REGEX "^loggp\\.cold\\.points = ")
  file(STRINGS ${saved} cold_omitted REGEX "^probe\\.cold_omitted = ")
  if(cold_points)
    if(NOT cold_points MATCHES "= [2-9]$")
      fail("the short probe's cold points: ${cold_points} (expected 2 or more: the warm reference and a working set)")
    endif()
    file(STRINGS ${saved} first_set REGEX "^loggp\\.cold\\.point\\.1\\.working_set_bytes = ")
    if(NOT first_set STREQUAL "loggp.cold.point.1.working_set_bytes = 0")
      fail("the first cold point is not the warm reference: ${first_set}")
    endif()
    if(first MATCHES "no cold figures in the machine file")
      fail("the rows price the sweeps' messages warm beside a file with cold figures:\n${first}")
    endif()
  elseif(NOT cold_omitted)
    fail("the short probe's ${saved} has neither loggp.cold.* keys nor probe.cold_omitted")
  endif()
  file(STRINGS ${saved} stream_points REGEX "^loggp\\.after_stream\\.points = ")
  file(STRINGS ${saved} stream_omitted REGEX "^probe\\.after_stream_omitted = ")
  if(NOT stream_points AND NOT stream_omitted)
    fail("the short probe's ${saved} has neither loggp.after_stream.* keys nor probe.after_stream_omitted")
  endif()
  # The after-stream reductions are the sweep's own pair (loggp_cold.hpp), and the file says so.
  file(STRINGS ${saved} stream_operations REGEX "^loggp\\.after_stream\\.operations = ")
  if(stream_points AND NOT stream_operations STREQUAL "loggp.after_stream.operations = MPI_LONG_LONG MPI_SUM, then MPI_DOUBLE MPI_MAX")
    fail("the short probe's after-stream series does not name the sweep's reductions: '${stream_operations}'")
  endif()
  # Given (--machine) an earlier probe's series, without the pair's name, the reductions row
  # says it is an earlier probe's and low; today's does not.
  if(stream_points)
    file(READ ${saved} text)
    string(REGEX REPLACE "\nloggp\\.after_stream\\.operations = [^\n]*" "" pairless "${text}")
    file(WRITE ${WORK}/pairless.machine "${pairless}")
    run(2 given ${sweep3d_run} --machine ${WORK}/pairless.machine)
    set(note "an earlier probe's series, two double sums, ~1.4x below the sweep's pair of reductions")
    if(NOT given MATCHES "\nloggp +reductions [^\n]*${note}")
      fail("the reductions row does not say the series is an earlier probe's:\n${given}")
    endif()
    if(first MATCHES "${note}")
      fail("the reductions row calls today's series an earlier probe's:\n${first}")
    endif()
  endif()
elseif(CASE STREQUAL "tycho_default.np2")
  default_twice(tycho "loggps-*.machine")
elseif(CASE STREQUAL "multigrid_default.np2")
  default_twice(multigrid "bsp-p2-*.machine")
elseif(CASE STREQUAL "damaged_cache.np2")
  # Writes `content` over the cached file ${saved} and runs tycho at 2 ranks into `out`, which
  # must say in one line why the file is not used and that it is measured again: `why` (a
  # regular expression) in the line of an unusable file ("ignoring ... (why); measured again"),
  # or, with a fourth argument "outdated", of a usable but outdated one ("... is why. measured
  # again").
  function(expect_measured_again content why out)
    set(line "ignoring the unusable cached machine file ${saved} \\(${why}\\); measured again")
    if(ARGC GREATER 3 AND ARGV3 STREQUAL "outdated")
      set(line "the cached machine file ${saved} is ${why}. measured again")
    endif()
    file(WRITE ${saved} "${content}")
    run(2 result ${tycho_run})
    expect_probe_lines("${result}" 1)
    if(NOT "\n${result}" MATCHES "\nmachine: ${line}")
      fail("no line saying the cached file is not used (${why}) and measured again:\n${result}")
    endif()
    set(${out} "${result}" PARENT_SCOPE)
  endfunction()
  run(2 first ${tycho_run})
  expect_cached(${cache} "loggps-*.machine" saved)
  # Damaged (not a machine file), then a symbolic link: each ignored in one line, measured
  # again, and replaced by a regular machine file; the link's target is left as it was.
  expect_measured_again("format = suite-machine-1\nloggp.L = nan\n" "[^\n]*" again)
  expect_tycho_rows("${again}")
  expect_cached(${cache} "loggps-*.machine" saved)
  file(WRITE ${WORK}/elsewhere.txt "not the cache's\n")
  file(REMOVE ${saved})
  file(CREATE_LINK ${WORK}/elsewhere.txt ${saved} SYMBOLIC)
  run(2 linked ${tycho_run})
  expect_probe_lines("${linked}" 1)
  if(NOT linked MATCHES "ignoring the unusable cached machine file ${saved} \\(a symbolic link\\)")
    fail("no line saying the symbolic link is ignored:\n${linked}")
  endif()
  if(IS_SYMLINK ${saved})
    fail("${saved} is still a symbolic link")
  endif()
  file(READ ${WORK}/elsewhere.txt kept)
  if(NOT kept STREQUAL "not the cache's\n")
    fail("the link's target was written: ${kept}")
  endif()
  expect_cached(${cache} "loggps-*.machine" saved)
  expect_tycho_rows("${linked}")
  # A file whose fit misses its own round trips (as the short probe's did before its warm-up,
  # by 80%): not used, measured again, and the new file's fits within the bound, 50%.
  file(READ ${saved} text)
  string(REGEX REPLACE "\nloggp\\.max_rel_error_rtt = [^\n]*" "\nloggp.max_rel_error_rtt = 0.83" text "${text}")
  expect_measured_again("${text}"
                        "loggp\\.max_rel_error_rtt = 0\\.83: the fit misses a measured round trip by 83\\.0%, more than 50%" misfit)
  expect_cached(${cache} "loggps-*.machine" saved)
  file(STRINGS ${saved} errors REGEX "^loggps?\\.max_rel_error_rtt = ")
  list(LENGTH errors n_errors)
  if(NOT n_errors EQUAL 2)
    fail("the measured file has ${n_errors} of the two round-trip error keys: ${errors}")
  endif()
  foreach(line IN LISTS errors)
    string(REGEX REPLACE "^.* = " "" e "${line}")
    if(e GREATER 0.5)
      fail("the short probe wrote a fit off by more than 50%: ${line}")
    endif()
  endforeach()
  expect_tycho_rows("${misfit}")
  # A file of an earlier probe (no costs of messages after a working set): measured again.
  earlier_probe_text(${saved} earlier)
  expect_measured_again("${earlier}" "${outdated_why}" stale outdated)
  expect_tycho_rows("${stale}")
  # One whose after-stream reductions were an earlier probe's (two double sums, no
  # loggp.after_stream.operations): measured again too. Only where the new file has the series
  # (a loaded host's short probe may say why not instead, probe.after_stream_omitted).
  expect_cached(${cache} "loggps-*.machine" saved)
  file(READ ${saved} text)
  if(NOT text MATCHES "\nloggp\\.after_stream\\.points = ")
    # The short probe left the series out (a loaded host): an earlier probe's series, written
    # here, in its place.
    string(REGEX REPLACE "\nprobe\\.after_stream_[a-z]+ = [^\n]*" "" text "${text}")
    string(APPEND text "\nloggp.after_stream.message_bytes = 12000\nloggp.after_stream.gap_seconds = 7e-05\n"
           "loggp.after_stream.points = 2\nloggp.after_stream.point.1.messages = 0\n"
           "loggp.after_stream.point.1.interval_seconds = 7e-05\nloggp.after_stream.point.1.allreduce8 = 1e-06\n"
           "loggp.after_stream.point.1.second_allreduce8 = 4e-07\nloggp.after_stream.point.2.messages = 20\n"
           "loggp.after_stream.point.2.interval_seconds = 0.0015\nloggp.after_stream.point.2.allreduce8 = 2e-06\n"
           "loggp.after_stream.point.2.second_allreduce8 = 4e-07\n")
  endif()
  string(REGEX REPLACE "\nloggp\\.after_stream\\.operations = [^\n]*" "" pairless "${text}")
  if(pairless MATCHES "after_stream\\.operations")
    fail("a loggp.after_stream.operations line left in the earlier probe's file:\n${pairless}")
  endif()
  expect_measured_again("${pairless}"
    "from an earlier probe, whose reductions after a stream were not the sweep's pair \\(loggp\\.after_stream\\.operations\\)" pair
    outdated)
  expect_tycho_rows("${pair}")
  file(READ ${saved} measured)
  if(NOT measured MATCHES "\n(loggp\\.after_stream\\.operations = MPI_LONG_LONG MPI_SUM, then MPI_DOUBLE MPI_MAX|probe\\.after_stream_omitted = )")
    fail("the file measured again names neither the sweep's pair nor probe.after_stream_omitted:\n${measured}")
  endif()
  # One whose cold points were measured with the working sets interleaved (an earlier probe:
  # no loggp.cold.order): measured again too. Where the new file has no points (a loaded host's
  # short probe may say why not instead, probe.cold_omitted), an earlier probe's, written here.
  expect_cached(${cache} "loggps-*.machine" saved)
  file(READ ${saved} text)
  if(NOT text MATCHES "\nloggp\\.cold\\.points = ")
    string(REGEX REPLACE "\nprobe\\.cold_[a-z]+ = [^\n]*" "" text "${text}")
    string(APPEND text "\nloggp.cold.small_bytes = 8\nloggp.cold.face_bytes = 8192\nloggp.cold.points = 1\n"
           "loggp.cold.point.1.working_set_bytes = 0\nloggp.cold.point.1.allreduce8 = 1e-06\n"
           "loggp.cold.point.1.receive_small = 5e-07\nloggp.cold.point.1.receive_face = 1e-06\n"
           "loggp.cold.point.1.send_small = 4e-07\nloggp.cold.point.1.send_face = 1.2e-06\n")
  endif()
  string(REGEX REPLACE "\nloggp\\.cold\\.order = [^\n]*" "" interleaved "${text}")
  if(interleaved MATCHES "cold\\.order")
    fail("a loggp.cold.order line left in the earlier probe's file:\n${interleaved}")
  endif()
  expect_measured_again("${interleaved}"
    "from an earlier probe, whose messages after a working set were measured with the working sets interleaved \\(loggp\\.cold\\.order\\)"
    reordered outdated)
  expect_tycho_rows("${reordered}")
  file(READ ${saved} measured)
  if(NOT measured MATCHES "\n(loggp\\.cold\\.order = increasing, 8 repetitions of a working set at a time|probe\\.cold_omitted = )")
    fail("the file measured again names neither the working sets' order nor probe.cold_omitted:\n${measured}")
  endif()
  # One whose probe ran out of time before the messages after a working set (a loaded host,
  # probe.cold_unfinished): used for its run, but measured again by the next.
  expect_measured_again("${earlier}\nprobe.cold_unfinished = the messages after a working set were not finished\n"
                        "incomplete: the messages after a working set were not finished" unfinished outdated)
  expect_tycho_rows("${unfinished}")
  expect_cached(${cache} "loggps-*.machine" saved)
  file(READ ${saved} measured)
  if(measured MATCHES "\nprobe\\.cold_unfinished")
    fail("the file measured again idle still says probe.cold_unfinished:\n${measured}")
  endif()
  # One whose probe tried and said why not (a loaded host): kept, no probe.
  file(WRITE ${saved}
       "${earlier}\nprobe.cold_omitted = 0 B (only 1 of 9 allreduces had rank 1 arriving about 20 us after rank 0)\n")
  run(2 kept ${tycho_run})
  expect_probe_lines("${kept}" 0)
  expect_tycho_rows("${kept}")
elseif(CASE STREQUAL "probe_time_limit.np2")
  # The short probe's time limit (SUITE_PROBE_TIME_LIMIT, loggps_short_probe.cpp): past it no
  # fit is tried again. A limit of 1 ms has passed at the first check, after the first round of
  # round trips: one line saying so, the run goes on without model rows, and nothing is
  # cached, so that the next run measures again.
  set(ENV{SUITE_PROBE_TIME_LIMIT} 0.001)
  # `kind`'s run (sweep3d: LogGP; multigrid: BSP) at the 1 ms limit: the line, no `row`.
  function(expect_out_of_time kind row)
    run(2 out ${${kind}_run})
    if(NOT "\n${out}" MATCHES "\nmachine: no machine file for [^\n]*; the short probe failed \\(no fit the models accept within the time limit, 0\\.001 s \\(SUITE_PROBE_TIME_LIMIT. a loaded host\\?\\). nothing written\\): models not shown")
      fail("${kind}: no line saying the probe passed its time limit:\n${out}")
    endif()
    if(out MATCHES "\n${row}")
      fail("${kind}: model rows without a machine file:\n${out}")
    endif()
    expect_nothing_cached("${kind}'s probe that passed its time limit")
  endfunction()
  expect_out_of_time(sweep3d "loggp +T_total")
  # The BSP probe stops inside its try too (between two repetitions, bsp_probe_measure.cpp):
  # a whole try (0.4 s idle) would have given a fit and a file.
  expect_out_of_time(multigrid "eq5 +T_cycle")
  # sweep3d given --calibration needs the models: it stops, every rank, with one line saying
  # why there are none.
  execute_process(COMMAND ${MPIEXEC} -n 1 ${SWEEP3D} ${DECK} --no-machine --results ${WORK}/cal.h5
                  WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    fail("the 1-rank calibration run failed: ${err}")
  endif()
  execute_process(COMMAND ${MPIEXEC} -n 2 ${sweep3d_run} --calibration ${WORK}/cal.h5 WORKING_DIRECTORY ${WORK}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 200)
  if(rc EQUAL 0 OR NOT err MATCHES "sweep3d: error: option --calibration: the models need a machine file as well, and there is none \\(the line above says why. or give --machine FILE\\)")
    fail("--calibration without a machine file: exit ${rc}, not the line expected:\n${out}${err}")
  endif()
  if(NOT out MATCHES "the short probe failed \\(no fit the models accept within the time limit")
    fail("--calibration: no line above saying why there is no machine file:\n${out}")
  endif()
  # A limit that is not a number of seconds above 0 is bad input: one line, every rank exits
  # non-zero, before any probe (and with a cached file as well: below).
  function(expect_limit_refused bad)
    set(ENV{SUITE_PROBE_TIME_LIMIT} ${bad})
    execute_process(COMMAND ${MPIEXEC} -n 2 ${sweep3d_run} WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc
                    OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 200)
    set(line "sweep3d: error: environment:SUITE_PROBE_TIME_LIMIT: expected a number of seconds above 0, got '${bad}'")
    string(REGEX MATCHALL "[^\n]*SUITE_PROBE_TIME_LIMIT[^\n]*" said "${out}${err}")
    if(rc EQUAL 0 OR NOT said STREQUAL line)
      fail("SUITE_PROBE_TIME_LIMIT=${bad}: exit ${rc}, expected the one line '${line}':\n${out}${err}")
    endif()
    if(out MATCHES "with a short probe")
      fail("SUITE_PROBE_TIME_LIMIT=${bad}: probed:\n${out}")
    endif()
  endfunction()
  foreach(bad abc 0 -1 nan 5s)
    expect_limit_refused(${bad})
  endforeach()
  # Where the limit is ample, the probe runs as without it.
  set(ENV{SUITE_PROBE_TIME_LIMIT} 600)
  run(2 out ${sweep3d_run})
  expect_probe_lines("${out}" 1)
  expect_row("${out}" loggp T_total)
  expect_limit_refused(abc)  # a cached file does not make a bad value good
  # An outdated cached file (usable) whose probe again passes the limit: used as it is, with
  # its rows, and left in the cache.
  expect_cached(${cache} "loggps-*.machine" saved)
  earlier_probe_text(${saved} earlier)
  file(WRITE ${saved} "${earlier}")
  set(ENV{SUITE_PROBE_TIME_LIMIT} 0.001)
  run(2 out ${sweep3d_run})
  if(NOT "\n${out}" MATCHES "\nmachine: the cached machine file ${saved} is ${outdated_why}. the short probe failed \\(no fit the models accept within the time limit[^\n]*\\): the cached file used as it is\n")
    fail("no line saying the outdated file is used as it is after the probe passed its limit:\n${out}")
  endif()
  expect_row("${out}" loggp T_total)
  file(READ ${saved} after)
  if(NOT after STREQUAL earlier)
    fail("the outdated ${saved} was changed by a probe that passed its time limit")
  endif()
elseif(CASE STREQUAL "input_first.np2")
  # Bad input is refused before a probe: on a fresh cache each app reads its input first
  # (sweep3d its deck, tycho its calibrations, mesh, partition and materials, multigrid its
  # calibrations and grids), so the error is one line with a non-zero exit, no probe line and
  # nothing cached.
  file(WRITE ${WORK}/bad.smesh "not a mesh\n")
  file(WRITE ${WORK}/bad.input "not a deck\n")
  file(WRITE ${WORK}/bad.materials "1 2 3\n")
  file(WRITE ${WORK}/bad.h5 "not a results file\n")
  function(expect_refused_unprobed what expected)
    execute_process(COMMAND ${MPIEXEC} -n 2 ${ARGN} WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc
                    OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 200)
    string(REPLACE ";" "," err_text "${err}")  # a ';' in a line would split it in two list items
    string(REGEX MATCHALL "[^\n]*: error: [^\n]*" said "${err_text}")
    list(REMOVE_DUPLICATES said)  # every rank may say it; one line in all
    list(LENGTH said lines)
    if(rc EQUAL 0 OR NOT lines EQUAL 1 OR NOT said MATCHES "${expected}")
      fail("${what}: exit ${rc}, not one line matching '${expected}':\n${out}${err}")
    endif()
    if("${out}" MATCHES "machine:|short probe")
      fail("${what}: the machine was looked for before the input was read:\n${out}")
    endif()
    expect_nothing_cached("${what}")
  endfunction()
  expect_refused_unprobed("tycho, a missing mesh" "^tycho: error: ${WORK}/missing.smesh" ${TYCHO} ${WORK}/missing.smesh --no-results)
  expect_refused_unprobed("tycho, a malformed mesh" "^tycho: error: ${WORK}/bad.smesh:" ${TYCHO} ${WORK}/bad.smesh --no-results)
  expect_refused_unprobed("tycho, a malformed materials file" "^tycho: error: ${WORK}/bad.materials:"
                          ${tycho_run} --materials ${WORK}/bad.materials)
  expect_refused_unprobed("tycho, a partition file that is not there" "^tycho: error: ${WORK}/missing.part"
                          ${tycho_run} --partition ${WORK}/missing.part)
  expect_refused_unprobed("tycho, a calibration that is not a results file" "^tycho: error: ${WORK}/bad.h5:"
                          ${tycho_run} --calibration ${WORK}/bad.h5)
  expect_refused_unprobed("tycho, octant with more than 512 directions" "^tycho: error: ${WORK}/cube.smesh:priority octant: at most 512"
                          ${tycho_run} --priority octant --product 32x32)
  set(ENV{SUITE_MEMORY_AVAILABLE} 16MiB)
  expect_refused_unprobed("tycho, steps' records beyond the memory" "^tycho: error: command line:--sn 8 --groups 2 --mcps 1 --iterations 100000: "
                          ${tycho_run} --mcps 1 --iterations 100000)
  unset(ENV{SUITE_MEMORY_AVAILABLE})
  expect_refused_unprobed("multigrid, a calibration that is not a results file" "^multigrid: error: ${WORK}/bad.h5:"
                          ${multigrid_run} --calibration ${WORK}/bad.h5)
  expect_refused_unprobed("multigrid, a malformed mesh" "^multigrid: error: ${WORK}/bad.smesh:" ${MULTIGRID} ${WORK}/bad.smesh --no-results)
  expect_refused_unprobed("multigrid, a cube too large for the node" "^multigrid: error: command line:--cube 200 --grids 3"
                          ${MULTIGRID} --cube 200 --grids 3 --no-results)
  expect_refused_unprobed("sweep3d, a malformed deck" "^sweep3d: error: ${WORK}/bad.input" ${SWEEP3D} ${WORK}/bad.input --no-results)
  # Good input after them: probed, as ever (the cache was left empty by the refusals).
  run(2 out ${tycho_run})
  expect_probe_lines("${out}" 1)
  expect_tycho_rows("${out}")
elseif(CASE STREQUAL "confined.np2")
  # Two ranks confined to one CPU (taskset on mpiexec: each rank's affinity mask is that one
  # CPU) on a node with more: they would take turns on it, so no probe, one line saying so
  # (the CPUs counted are those the ranks may run on, not the node's), nothing cached.
  execute_process(COMMAND ${TASKSET} -c 0 ${MPIEXEC} -n 2 ${sweep3d_run} WORKING_DIRECTORY ${WORK}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 200)
  if(NOT rc EQUAL 0)
    fail("exit ${rc} from 2 ranks on CPU 0:\n${out}${err}")
  endif()
  expect_probe_lines("${out}" 0)
  if(NOT "\n${out}" MATCHES "\nmachine: no machine file for [^\n]*; 2 ranks share 1 CPUs of this node, so a probe would time the scheduler")
    fail("no line saying the 2 ranks on one CPU are not probed:\n${out}")
  endif()
  expect_nothing_cached("2 ranks confined to one CPU")
elseif(CASE STREQUAL "xdg_cache_home.np2")
  set(ENV{XDG_CACHE_HOME} ${WORK}/xdg)
  run(2 out ${tycho_run})
  expect_probe_lines("${out}" 1)
  expect_cached(${WORK}/xdg/hpc-perfmodel-suite "loggps-*.machine" saved)
  if(EXISTS ${WORK}/home/.cache)
    fail("with XDG_CACHE_HOME set, ${WORK}/home/.cache was created")
  endif()
  expect_tycho_rows("${out}")
  # A relative XDG_CACHE_HOME is ignored (the XDG convention): HOME's .cache then.
  set(ENV{XDG_CACHE_HOME} relative-cache)
  run(2 out ${tycho_run})
  expect_probe_lines("${out}" 1)
  expect_cached(${cache} "loggps-*.machine" saved)
  if(EXISTS ${WORK}/relative-cache)
    fail("a relative XDG_CACHE_HOME was used")
  endif()
elseif(CASE STREQUAL "one_rank.np1")
  # One rank sends no messages: no probe, no line about machines, no rows, nothing cached.
  run(1 out ${SWEEP3D} ${DECK} --no-results)
  expect_probe_lines("${out}" 0)
  if("\n${out}" MATCHES "\nmachine:")
    fail("a line about the machine file at one rank:\n${out}")
  endif()
  if(out MATCHES "\nloggp +T_total")
    fail("model rows without a machine file:\n${out}")
  endif()
  if(EXISTS ${cache})
    fail("${cache} created at one rank")
  endif()
elseif(CASE STREQUAL "bspprobe_default_out.np2")
  # bspprobe without --out writes its full file where multigrid looks (a noisy fit is
  # refused by bspprobe: measured again, up to three times).
  foreach(try 1 2 3)
    execute_process(COMMAND ${MPIEXEC} -n 2 ${BSPPROBE} --reps 3 --hmax 16384 WORKING_DIRECTORY ${WORK}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 200)
    if(rc EQUAL 0)
      break()
    elseif(NOT err MATCHES "too noisy a measurement" OR try EQUAL 3)
      fail("bspprobe failed: ${rc}\n${out}${err}")
    endif()
  endforeach()
  expect_cached(${cache} "bsp-p2-*.machine" saved)
  if(NOT out MATCHES "wrote ${saved}")
    fail("bspprobe does not name ${saved}:\n${out}")
  endif()
  file(GLOB cwd_files ${WORK}/*.machine)
  if(cwd_files)
    fail("bspprobe wrote into the working directory: ${cwd_files}")
  endif()
  run(2 mg ${multigrid_run})
  expect_probe_lines("${mg}" 0)
  if(NOT mg MATCHES "${saved}")
    fail("multigrid does not use bspprobe's ${saved}:\n${mg}")
  endif()
  expect_row("${mg}" eq5 T_cycle)
elseif(CASE STREQUAL "loggps_probe_default_out.np2")
  # loggps-probe without --out writes its full file where sweep3d and tycho look.
  run(2 out ${LOGGPS_PROBE} --quick)
  expect_cached(${cache} "loggps-*.machine" saved)
  if(NOT out MATCHES "wrote ${saved}")
    fail("loggps-probe does not name ${saved}:\n${out}")
  endif()
  if(EXISTS ${WORK}/loggps.machine)
    fail("loggps-probe wrote loggps.machine into the working directory")
  endif()
  file(STRINGS ${saved} source REGEX "^source = ")
  if(NOT source STREQUAL "source = loggps-probe")
    fail("${saved} is not loggps-probe's: ${source}")
  endif()
  run(2 tycho_out ${tycho_run})
  expect_probe_lines("${tycho_out}" 0)
  if(NOT tycho_out MATCHES "${saved}")
    fail("tycho does not use loggps-probe's ${saved}:\n${tycho_out}")
  endif()
  expect_tycho_rows("${tycho_out}")
elseif(CASE STREQUAL "oversubscribed.np4")
  # More ranks than the node's cores (registered only on a node of at most 3): no probe (it
  # would time the scheduler), one line saying so, no eq. 5 rows, nothing cached.
  run(4 out ${multigrid_run})
  expect_probe_lines("${out}" 0)
  if(NOT "\n${out}" MATCHES "\nmachine: no machine file for [^\n]*; 4 ranks share [1-3] CPUs of this node, so a probe would time the scheduler")
    fail("no line saying 4 ranks on this node are not probed:\n${out}")
  endif()
  if(out MATCHES "\neq5 ")
    fail("eq. 5 rows without a machine file:\n${out}")
  endif()
  expect_nothing_cached("an oversubscribed run")
  # An earlier probe's file (usable, without the costs of messages after a working set) is
  # used as it is where no probe can run, not deleted.
  run(2 first ${tycho_run})
  expect_cached(${cache} "loggps-*.machine" saved)
  earlier_probe_text(${saved} earlier)
  file(WRITE ${saved} "${earlier}")
  run(4 out ${tycho_run})
  expect_probe_lines("${out}" 0)
  set(line "machine: the cached machine file ${saved} is ${outdated_why}. 4 ranks share [1-3] CPUs of this node")
  if(NOT "\n${out}" MATCHES "\n${line}, so a probe would time the scheduler, not the network: used as it is")
    fail("no line saying the earlier probe's file is used as it is:\n${out}")
  endif()
  expect_tycho_rows("${out}")
  file(READ ${saved} after)
  if(NOT after STREQUAL earlier)
    fail("the earlier probe's ${saved} was changed by an oversubscribed run")
  endif()
else()
  fail("unknown case")
endif()
message("models test ${CASE}: every check passed")
