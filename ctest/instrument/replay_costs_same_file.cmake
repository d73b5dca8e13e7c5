# instrument-replay --costs naming the replayed run itself is refused in one line (its costs
# would be the run's own timings, a --self under another name; once it exited 0), whatever
# the spelling: the same path, another spelling of it, a symbolic link and a hard link (the
# check compares device and inode). A copy is another file: not refused here, by design.
set(_d ${CMAKE_CURRENT_BINARY_DIR}/replay_costs_same_file)
file(MAKE_DIRECTORY ${_d})
file(WRITE ${_d}/run.h5 "not read: the same file is refused first\n")
foreach(l sym.h5 hard.h5)
  file(REMOVE ${_d}/${l})
endforeach()
file(CREATE_LINK run.h5 ${_d}/sym.h5 SYMBOLIC)
file(CREATE_LINK ${_d}/run.h5 ${_d}/hard.h5)
foreach(case "same_path|${_d}/run.h5" "other_spelling|${_d}/./run.h5" "symlink|${_d}/sym.h5" "hard_link|${_d}/hard.h5")
  string(REPLACE "|" ";" fields "${case}")
  list(GET fields 0 name)
  list(GET fields 1 costs)
  string(REGEX REPLACE "([.+?*()])" "\\\\\\1" costs_regex "${costs}")
  suite_add_error_test(NAME instrument.replay_costs_same_file.${name} ONE_LINE TIMEOUT 30
    EXPECT "^instrument-replay: error: command line:--costs: expected an earlier calibration run, not the replayed one \\(${costs_regex} is the same file as .*/run.h5. --self replays with the run's own gaps\\)$"
    COMMAND $<TARGET_FILE:instrument-replay> ${_d}/run.h5 --costs ${costs})
endforeach()
