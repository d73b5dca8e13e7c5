# suite_add_expect_test(NAME name EXPECT regex COMMAND exe args...): passes only if the
# command exits 0 and its output matches the regex (see ctest/run_expect.cmake).
function(suite_add_expect_test)
  cmake_parse_arguments(T "" "NAME;EXPECT;WORKING_DIRECTORY" "COMMAND" ${ARGN})
  if(NOT T_WORKING_DIRECTORY)
    set(T_WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  string(REPLACE ";" "|" _cmd "${T_COMMAND}")
  add_test(NAME ${T_NAME}
           COMMAND ${CMAKE_COMMAND} "-DCMD=${_cmd}" "-DEXPECT=${T_EXPECT}"
                   -P ${PROJECT_SOURCE_DIR}/ctest/run_expect.cmake
           WORKING_DIRECTORY ${T_WORKING_DIRECTORY})
endfunction()

# suite_add_mpi_test(NAME name TARGET exe RANKS n [LABELS ...] [ARGS ...] [TIMEOUT s]
#                    [EXPECT regex])
# Registers one test run under ${MPIEXEC_EXECUTABLE} at n ranks. Oversubscription is allowed
# so 4-rank tests run on a 2-core machine (correctness only: never time them). With EXPECT
# the run must exit 0 and print a line matching the regex.
function(suite_add_mpi_test)
  cmake_parse_arguments(T "" "NAME;TARGET;RANKS;TIMEOUT;WORKING_DIRECTORY;EXPECT" "LABELS;ARGS"
                        ${ARGN})
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

# suite_add_catch_mpi_tests(TARGET exe RANKS 1 2 4 [LABELS ...]): a Catch2 binary at each count.
function(suite_add_catch_mpi_tests)
  cmake_parse_arguments(T "" "TARGET;TIMEOUT" "RANKS;LABELS;ARGS" ${ARGN})
  foreach(n ${T_RANKS})
    suite_add_mpi_test(NAME ${T_TARGET}.np${n} TARGET ${T_TARGET} RANKS ${n}
                       LABELS ${T_LABELS} ARGS ${T_ARGS} TIMEOUT ${T_TIMEOUT})
  endforeach()
endfunction()
