# Runs the sweep3d executable under mpiexec on a bad input and checks the contract:
# every rank exits non-zero, stdout is empty, stderr is exactly one line
# "sweep3d: error: ..." matching REGEX.
# -D MPIEXEC= -D NPFLAG= -D NP= -D EXE= -D ARGS=(;-list) -D REGEX= -D WORKDIR= [-D DECK=]
# DECK is copied to WORKDIR/<name>.input, its grid "1 1" made "1 NP" so that the grid check
# passes and the deck's own error is the one reported; its path is appended to ARGS.
file(MAKE_DIRECTORY ${WORKDIR})
if(DECK)
  get_filename_component(deck_name ${DECK} NAME)
  file(READ ${DECK} text)
  string(REGEX REPLACE "^1 1 " "1 ${NP} " text "${text}")
  file(WRITE ${WORKDIR}/${deck_name} "${text}")
  list(APPEND ARGS ${deck_name})
endif()
execute_process(
  COMMAND ${MPIEXEC} ${NPFLAG} ${NP} sh -c "\"$0\" \"$@\"; echo sweep3d-exit=$?" ${EXE} ${ARGS}
  WORKING_DIRECTORY ${WORKDIR}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
string(REGEX MATCHALL "sweep3d-exit=[1-9][0-9]*" failed "${out}")
list(LENGTH failed nfailed)
string(REGEX REPLACE "sweep3d-exit=[0-9]+\n?" "" rest "${out}")
string(STRIP "${rest}" rest)
string(STRIP "${err}" err_stripped)
string(REGEX MATCHALL "\n" newlines "${err_stripped}")  # messages may hold ';': no lists
list(LENGTH newlines nerr)
math(EXPR nerr "${nerr} + 1")
message(STATUS "stderr: ${err_stripped}")
if(NOT nfailed EQUAL NP)
  message(FATAL_ERROR "expected all ${NP} ranks to exit non-zero, got: ${out}")
endif()
if(NOT rest STREQUAL "")
  message(FATAL_ERROR "expected nothing on stdout, got: ${rest}")
endif()
if(NOT nerr EQUAL 1)
  message(FATAL_ERROR "expected exactly one line on stderr, got ${nerr}: ${err}")
endif()
if(NOT err_stripped MATCHES "^sweep3d: error: ")
  message(FATAL_ERROR "expected 'sweep3d: error: ...', got: ${err}")
endif()
if(NOT err_stripped MATCHES "${REGEX}")
  message(FATAL_ERROR "stderr does not match '${REGEX}': ${err}")
endif()
