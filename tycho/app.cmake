# The tycho program: main -> driver (src/driver.cpp) -> sweep -> models; the run's report.
target_sources(tycho_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/src/driver.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/run_memory.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/run_report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/model_report.cpp)
add_executable(tycho ${CMAKE_CURRENT_LIST_DIR}/app/main.cpp)
target_link_libraries(tycho PRIVATE tycho_core)
