# The sweep (include/tycho/sweep_plan.hpp, sweep_engine.hpp, source_iteration.hpp): the
# problem, a rank's plan, the priority-scheduled step loop with its messages, and source
# iteration around it.
target_sources(tycho_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/src/problem.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/materials_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/sweep_plan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/sweep_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/sweep_messages.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/source_iteration.cpp)
