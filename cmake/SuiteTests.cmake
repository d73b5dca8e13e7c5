# How every part registers its tests.
#
# Folder convention (suite_add_test_folder, called by each ctest/<part>/CMakeLists.txt):
#   unit_<name>.cpp   a Catch2 program run at 1 rank, test <part>.unit_<name> (label unit)
#   mpi_<name>.cpp    a Catch2 program run at 1, 2 and 4 ranks, tests <part>.mpi_<name>.np<N>
#                     (label mpi)
#   <name>.cmake      included for whatever needs a registration of its own (golden decks,
#                     programs run at their own process counts, end-to-end scripts)
#   run_<name>.cmake  a test script run by `cmake -P` (never included)
# Names: <part>.<test>[.<case>], and .np<N> at the end of a test registered at several rank
# counts. Labels: unit (seconds), mpi (several ranks), slow (minutes; `ctest -LE slow`).
#
# The four ways to register, by what must hold:
#   suite_add_mpi_test     a program under mpiexec that must exit 0 (optionally EXPECT output)
#   suite_add_catch_mpi_tests  a Catch2 program at several rank counts
#   suite_add_expect_test  a command that must exit 0 and print a line matching a regex
#   suite_add_error_test   a command that must FAIL: non-zero exit of every rank and the
#                          expected message (see ctest/run_expect_error.cmake)

# suite_add_expect_test(NAME name EXPECT regex COMMAND exe args...): passes only if the
# command exits 0 and its output matches the regex (see ctest/run_expect.cmake).
function(suite_add_expect_test)
  cmake_parse_arguments(T "" "NAME;EXPECT;WORKING_DIRECTORY" "COMMAND" ${ARGN})
  if(T_UNPARSED_ARGUMENTS)
    # A ";" inside a quoted EXPECT splits it here and the rest would be dropped silently,
    # leaving a weaker test: write "." for ";" in the regex.
    message(SEND_ERROR "suite_add_expect_test(${T_NAME}): unexpected arguments ${T_UNPARSED_ARGUMENTS} (a ';' in EXPECT? write '.' for it)")
  endif()
  if(NOT T_WORKING_DIRECTORY)
    set(T_WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  string(REPLACE ";" "|" _cmd "${T_COMMAND}")
  add_test(NAME ${T_NAME}
           COMMAND ${CMAKE_COMMAND} "-DCMD=${_cmd}" "-DEXPECT=${T_EXPECT}"
                   -P ${PROJECT_SOURCE_DIR}/ctest/run_expect.cmake
           WORKING_DIRECTORY ${T_WORKING_DIRECTORY})
endfunction()

# suite_add_error_test(NAME name EXPECT regex COMMAND exe args... [RANKS n] [ONE_LINE]
#                      [ABORTS] [LABELS ...] [TIMEOUT s] [WORKING_DIRECTORY dir]
#                      [NO_FILE path] [KEEP_FILE path KEEP_TEXT text])
# The one way to register a test of bad input: passes only if the command exits non-zero
# (under mpiexec at RANKS ranks: every rank by itself, unless ABORTS says one rank ends all
# by MPI_Abort) and prints a message matching EXPECT; ONE_LINE also requires that message to
# be the only line, on stderr, with nothing on stdout. NO_FILE / KEEP_FILE: no partial or
# clobbered output file.
function(suite_add_error_test)
  cmake_parse_arguments(T "ONE_LINE;ABORTS" "NAME;EXPECT;RANKS;TIMEOUT;WORKING_DIRECTORY;NO_FILE;KEEP_FILE;KEEP_TEXT"
                        "COMMAND;LABELS" ${ARGN})
  if(T_UNPARSED_ARGUMENTS)
    # A ";" inside a quoted EXPECT splits it here and the rest would be dropped silently,
    # leaving a weaker test: write "." for ";" in the regex.
    message(SEND_ERROR "suite_add_error_test(${T_NAME}): unexpected arguments ${T_UNPARSED_ARGUMENTS} (a ';' in EXPECT? write '.' for it)")
  endif()
  if(NOT T_EXPECT)
    message(FATAL_ERROR "suite_add_error_test(${T_NAME}): EXPECT, the message the failure must print, is required")
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  if(NOT T_WORKING_DIRECTORY)
    set(T_WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  string(REPLACE ";" "|" _cmd "${T_COMMAND}")
  add_test(NAME ${T_NAME}
           COMMAND ${CMAKE_COMMAND} "-DCMD=${_cmd}" "-DEXPECT=${T_EXPECT}" -DRANKS=${T_RANKS}
                   -DMPIEXEC=${MPIEXEC_EXECUTABLE} -DNPFLAG=${MPIEXEC_NUMPROC_FLAG}
                   -DONE_LINE=${T_ONE_LINE} -DABORTS=${T_ABORTS} "-DNO_FILE=${T_NO_FILE}"
                   "-DKEEP_FILE=${T_KEEP_FILE}" "-DKEEP_TEXT=${T_KEEP_TEXT}"
                   -P ${PROJECT_SOURCE_DIR}/ctest/run_expect_error.cmake
           WORKING_DIRECTORY ${T_WORKING_DIRECTORY})
  set(_labels ${T_LABELS})
  if(NOT _labels)
    set(_labels unit)
  endif()
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${_labels}" TIMEOUT ${T_TIMEOUT})
  if(T_RANKS)
    set_tests_properties(${T_NAME} PROPERTIES PROCESSORS ${T_RANKS})
  endif()
  if(SUITE_SANITIZE)
    set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
  endif()
  # Tests that share a KEEP_FILE (or a NO_FILE) must not run at once: each rewrites the file
  # before its run, so a parallel one could read it half-written and call it modified.
  # (Absolute, so that two spellings of one file share the lock.)
  foreach(_shared ${T_KEEP_FILE} ${T_NO_FILE})
    get_filename_component(_shared "${_shared}" ABSOLUTE BASE_DIR "${T_WORKING_DIRECTORY}")
    set_property(TEST ${T_NAME} APPEND PROPERTY RESOURCE_LOCK "${_shared}")
  endforeach()
endfunction()

# suite_add_mpi_test(NAME name TARGET exe RANKS n [LABELS ...] [ARGS ...] [TIMEOUT s]
#                    [EXPECT regex])
# Registers one test run under ${MPIEXEC_EXECUTABLE} at n ranks. Oversubscription is allowed
# so 4-rank tests run on a 2-core machine (correctness only: never time them). With EXPECT
# the run must exit 0 and print a line matching the regex.
function(suite_add_mpi_test)
  cmake_parse_arguments(T "" "NAME;TARGET;RANKS;TIMEOUT;WORKING_DIRECTORY;EXPECT" "LABELS;ARGS"
                        ${ARGN})
  if(T_UNPARSED_ARGUMENTS)
    # A ";" inside a quoted EXPECT splits it here and the rest would be dropped silently,
    # leaving a weaker test: write "." for ";" in the regex.
    message(SEND_ERROR "suite_add_mpi_test(${T_NAME}): unexpected arguments ${T_UNPARSED_ARGUMENTS} (a ';' in EXPECT? write '.' for it)")
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  if(NOT T_WORKING_DIRECTORY)
    set(T_WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  set(_cmd ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${T_RANKS} ${MPIEXEC_PREFLAGS}
           $<TARGET_FILE:${T_TARGET}> ${MPIEXEC_POSTFLAGS} ${T_ARGS})
  if(DEFINED T_EXPECT)
    suite_add_expect_test(NAME ${T_NAME} EXPECT "${T_EXPECT}" COMMAND ${_cmd}
                          WORKING_DIRECTORY ${T_WORKING_DIRECTORY})
  else()
    add_test(NAME ${T_NAME} COMMAND ${_cmd} WORKING_DIRECTORY ${T_WORKING_DIRECTORY})
  endif()
  set(_labels mpi ${T_LABELS})
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${_labels}" TIMEOUT ${T_TIMEOUT}
                       PROCESSORS ${T_RANKS})
  if(SUITE_SANITIZE)
    # MPICH 4.0 with UCX leaks a few hundred bytes at MPI_Finalize even in an empty program;
    # leak checking would fail every MPI test for the library's leak, not ours.
    set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
  endif()
endfunction()

# suite_add_catch_mpi_tests(PART part NAME name TARGET exe RANKS 1 2 4 [LABELS ...] [ARGS ...]):
# the Catch2 program at each rank count, tests <part>.<name>.np<n>.
function(suite_add_catch_mpi_tests)
  cmake_parse_arguments(T "" "PART;NAME;TARGET;TIMEOUT" "RANKS;LABELS;ARGS" ${ARGN})
  foreach(n ${T_RANKS})
    suite_add_mpi_test(NAME ${T_PART}.${T_NAME}.np${n} TARGET ${T_TARGET} RANKS ${n}
                       LABELS ${T_LABELS} ARGS ${T_ARGS} TIMEOUT ${T_TIMEOUT})
  endforeach()
endfunction()

# suite_add_test_folder(PART part LIBRARIES libs... [DEFINITIONS defs...]): the folder
# convention above, for the folder of the calling CMakeLists.txt.
function(suite_add_test_folder)
  cmake_parse_arguments(T "" "PART" "LIBRARIES;DEFINITIONS" ${ARGN})
  set(_dir ${CMAKE_CURRENT_SOURCE_DIR})
  file(GLOB _units CONFIGURE_DEPENDS ${_dir}/unit_*.cpp)
  file(GLOB _mpis CONFIGURE_DEPENDS ${_dir}/mpi_*.cpp)
  foreach(src ${_units} ${_mpis})
    get_filename_component(name ${src} NAME_WE)
    add_executable(${T_PART}_${name} ${src})
    target_link_libraries(${T_PART}_${name} PRIVATE ${T_LIBRARIES} catch_mpi_main)
    # The test driver only: Catch2's single header makes each of these ~90 files cost 3.4 s
    # at -O3 and 2.4 s at -O1, while what the tests exercise is in the libraries, built
    # with the build's own flags (-O3 in Release). A later -O wins over the build type's.
    target_compile_options(${T_PART}_${name} PRIVATE -O1)
    if(T_DEFINITIONS)
      target_compile_definitions(${T_PART}_${name} PRIVATE ${T_DEFINITIONS})
    endif()
  endforeach()
  foreach(src ${_units})
    get_filename_component(name ${src} NAME_WE)
    suite_add_mpi_test(NAME ${T_PART}.${name} TARGET ${T_PART}_${name} RANKS 1 LABELS unit)
    # One that reads Tycho2's meshes (their folder is compiled in) is disabled without them.
    file(STRINGS ${src} _tycho2 REGEX "TYCHO_MESH_DIR|MG_TYCHO2_MESHES")
    if(_tycho2)
      suite_uses_tycho2_meshes(${T_PART}.${name})
    endif()
  endforeach()
  foreach(src ${_mpis})
    get_filename_component(name ${src} NAME_WE)
    suite_add_catch_mpi_tests(PART ${T_PART} NAME ${name} TARGET ${T_PART}_${name} RANKS 1 2 4)
  endforeach()
  file(GLOB _extra CONFIGURE_DEPENDS ${_dir}/*.cmake)
  list(FILTER _extra EXCLUDE REGEX "/run_[^/]*\\.cmake$")
  foreach(f ${_extra})
    # A registration file that is also a test script guards its script part with
    # CMAKE_SCRIPT_MODE_FILE; here it registers.
    include(${f})
  endforeach()
endfunction()

# Every program registers its command line for ctest/programs (suite_register_program).
include(SuitePrograms)
