# The registry of the suite's programs: every program calls suite_register_program where it
# is defined, and ctest/programs checks each one registered (--help lists every option and
# exits 0; an unknown option is one line naming it and a non-zero exit), so a program added
# without the app shell (instrument/run_app.hpp) fails a test instead of passing unseen.
#
# The tests are registered once every program is defined: at the end of the top-level
# CMakeLists.txt (a deferred call), so no part's order matters.
#
# suite_register_program(TARGET name [MPI] OPTIONS --opt ...)
#   MPI      the program starts MPI (run under mpiexec, also at 2 ranks); else it is run directly
#   OPTIONS  every option it accepts: its --help must list each one
function(suite_register_program)
  cmake_parse_arguments(P "MPI" "TARGET" "OPTIONS" ${ARGN})
  if(NOT P_TARGET OR NOT TARGET ${P_TARGET})
    message(FATAL_ERROR "suite_register_program: TARGET '${P_TARGET}' is not a target defined before it")
  endif()
  set_property(GLOBAL APPEND PROPERTY SUITE_PROGRAMS ${P_TARGET})
  set_property(GLOBAL PROPERTY SUITE_PROGRAM_${P_TARGET}_MPI ${P_MPI})
  set_property(GLOBAL PROPERTY SUITE_PROGRAM_${P_TARGET}_OPTIONS "${P_OPTIONS}")
endfunction()

# programs.<name>.help_and_unknown_option at one rank (run directly when the program never
# starts MPI), and .np2 for MPI programs (help printed once, every rank's exit status seen).
function(suite_add_program_tests)
  if(NOT SUITE_TESTS)
    return()
  endif()
  get_property(_programs GLOBAL PROPERTY SUITE_PROGRAMS)
  foreach(program ${_programs})
    get_property(_mpi GLOBAL PROPERTY SUITE_PROGRAM_${program}_MPI)
    get_property(_options GLOBAL PROPERTY SUITE_PROGRAM_${program}_OPTIONS)
    string(REPLACE ";" "|" _options "${_options}")
    set(_ranks_list 0)
    if(_mpi)
      set(_ranks_list 1 2)
    endif()
    foreach(ranks ${_ranks_list})
      set(_name programs.${program}.help_and_unknown_option)
      set(_labels unit)
      if(ranks GREATER 1)
        set(_name ${_name}.np${ranks})
        set(_labels mpi)
      endif()
      add_test(NAME ${_name}
               COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${program}> -DNAME=${program}
                       "-DOPTIONS=${_options}" -DRANKS=${ranks} -DMPIEXEC=${MPIEXEC_EXECUTABLE}
                       -DNPFLAG=${MPIEXEC_NUMPROC_FLAG}
                       -P ${PROJECT_SOURCE_DIR}/ctest/programs/run_help_and_unknown_option.cmake)
      set_tests_properties(${_name} PROPERTIES LABELS "${_labels}" TIMEOUT 60)
      if(ranks GREATER 1)
        set_tests_properties(${_name} PROPERTIES PROCESSORS ${ranks})
      endif()
    endforeach()
  endforeach()
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL suite_add_program_tests)
