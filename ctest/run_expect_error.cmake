# The suite's error promise, checked: a bad input ends the program with ONE clear line and a
# non-zero exit of every rank, never a hang, a crash or a partial output file.
# Registered by suite_add_error_test (cmake/SuiteTests.cmake), which passes:
#   CMD        the command, '|'-separated
#   RANKS      run under MPIEXEC NPFLAG RANKS, each rank wrapped so that its own exit status
#              is seen (mpiexec's alone would hide a rank that exited 0); empty: one process
#   EXPECT     regex the output (stderr, then stdout) must match
#   ONE_LINE   stderr is exactly one line (matching EXPECT) and stdout is empty
#   ABORTS     the program ends by MPI_Abort (a failure local to one rank): only the overall
#              status is checked, since the other ranks are killed, not exited
#   NO_FILE    this path (and its temporaries) must not exist afterwards
#   KEEP_FILE  filled with KEEP_TEXT before the run; must hold exactly that afterwards
if(EXPECT STREQUAL "")
  message(FATAL_ERROR "run_expect_error.cmake: EXPECT (the message the failure must print) is required")
endif()
string(REPLACE "|" ";" cmd "${CMD}")
if(NO_FILE)
  file(REMOVE "${NO_FILE}")
endif()
if(KEEP_FILE)
  file(WRITE "${KEEP_FILE}" "${KEEP_TEXT}")
endif()
if(RANKS)
  # (a newline, not ";", ends the first command: ";" would split the CMake list)
  set(cmd ${MPIEXEC} ${NPFLAG} ${RANKS} sh -c "\"$0\" \"$@\"\necho suite-rank-exit=$?" ${cmd})
endif()
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
# A rank's own exit status: 1..125 is a program that ended itself on an error; 0 is success;
# 126 and up a crash (128 + the signal, as sh reports it), which is never what a test of bad
# input wants.
string(REGEX MATCHALL "suite-rank-exit=[0-9]+" rank_exits "${out}")
set(n_failed 0)
set(n_ok 0)
set(n_crashed 0)
foreach(e ${rank_exits})
  string(REGEX REPLACE "suite-rank-exit=" "" code "${e}")
  if(code EQUAL 0)
    math(EXPR n_ok "${n_ok} + 1")
  elseif(code LESS 126)
    math(EXPR n_failed "${n_failed} + 1")
  else()
    math(EXPR n_crashed "${n_crashed} + 1")
  endif()
endforeach()
string(REGEX REPLACE "suite-rank-exit=[0-9]+\n?" "" out "${out}")
string(STRIP "${out}" out)
string(STRIP "${err}" err)
message(STATUS "exit status ${rc}; ranks that exited 1..125: ${n_failed} of ${RANKS}\nstderr:\n${err}\nstdout:\n${out}")
# Under the wrapper mpiexec's own status is the wrappers' (0): the ranks' are in the output.
if(NOT RANKS AND NOT rc MATCHES "^[0-9]+$")
  message(FATAL_ERROR "the program crashed (${rc}) instead of refusing its input")
endif()
if(NOT RANKS AND (rc EQUAL 0 OR NOT rc LESS 126))
  message(FATAL_ERROR "expected an exit status 1..125 (an error the program reports), got ${rc}")
endif()
if(RANKS AND n_crashed GREATER 0)
  message(FATAL_ERROR "${n_crashed} rank(s) crashed (exit status 126 or more) instead of refusing the input")
endif()
if(RANKS AND n_ok GREATER 0)
  message(FATAL_ERROR "${n_ok} rank(s) exited 0 on bad input")
endif()
if(RANKS AND NOT ABORTS AND NOT n_failed EQUAL RANKS)
  message(FATAL_ERROR "expected every one of the ${RANKS} ranks to exit non-zero, got ${n_failed}")
endif()
if(RANKS AND ABORTS AND rc EQUAL 0 AND n_failed EQUAL 0)
  message(FATAL_ERROR "expected the run to end in failure (MPI_Abort)")
endif()
if(ONE_LINE)
  string(REGEX MATCHALL "\n" newlines "${err}")  # messages may hold ';': no lists
  list(LENGTH newlines n)
  if(err STREQUAL "" OR NOT n EQUAL 0)
    message(FATAL_ERROR "expected exactly one line on stderr")
  endif()
  # The one line stdout may hold before an error found after set-up: an app given no
  # --machine says it measured this host's machine file (a fresh cache: which test runs
  # first decides). Anything else on stdout fails.
  string(REGEX REPLACE "^machine: [^\n]*\n?" "" out_but_probe "${out}")
  if(NOT out_but_probe STREQUAL "")
    message(FATAL_ERROR "expected nothing on stdout")
  endif()
endif()
set(text "${err}")
if(NOT ONE_LINE AND NOT out STREQUAL "")
  set(text "${err}\n${out}")
endif()
if(NOT text MATCHES "${EXPECT}")
  message(FATAL_ERROR "the output does not match '${EXPECT}'")
endif()
if(KEEP_FILE)
  file(READ "${KEEP_FILE}" kept)
  if(NOT kept STREQUAL "${KEEP_TEXT}")
    message(FATAL_ERROR "${KEEP_FILE} was modified")
  endif()
  file(GLOB leftovers "${KEEP_FILE}.tmp.*")
  if(leftovers)
    message(FATAL_ERROR "files left behind: ${leftovers}")
  endif()
endif()
if(NO_FILE)
  file(GLOB leftovers "${NO_FILE}*")
  if(leftovers)
    message(FATAL_ERROR "files left behind: ${leftovers}")
  endif()
endif()
