# hooks_clock_reads: the instrument's hook sources built twice with a counted clock
# (INSTRUMENT_COUNT_CLOCK_READS=1), once with hooks on and once compiled out, whatever
# SUITE_INSTRUMENT says for the rest of the build; tests instrument.hooks_clock_reads.on.npN
# and .off.npN, at 1 and 2 ranks (Comm with a peer).
set(_hook_sources ${PROJECT_SOURCE_DIR}/instrument/src/clock.cpp
                  ${PROJECT_SOURCE_DIR}/instrument/src/recorder.cpp
                  ${PROJECT_SOURCE_DIR}/instrument/src/comm.cpp
                  ${PROJECT_SOURCE_DIR}/instrument/src/memory_budget.cpp)  # the trace's memory check
foreach(_state on off)
  set(_t instrument_hooks_clock_reads_${_state})
  add_executable(${_t} ${CMAKE_CURRENT_SOURCE_DIR}/hooks_clock_reads.cpp ${_hook_sources})
  target_include_directories(${_t} PRIVATE ${PROJECT_SOURCE_DIR}/instrument/include)
  target_link_libraries(${_t} PRIVATE catch_mpi_main MPI::MPI_CXX suite_options)
  target_compile_definitions(${_t} PRIVATE INSTRUMENT_COUNT_CLOCK_READS=1
                                           INSTRUMENT_ENABLED=$<STREQUAL:${_state},on>)
  suite_add_catch_mpi_tests(PART instrument NAME hooks_clock_reads.${_state} TARGET ${_t}
                            RANKS 1 2 LABELS unit)
endforeach()
