# tycho-model: the GM and the TM at rank counts never run (the paper's Figure 9), from the
# sweep's schedule made in lockstep rounds (schedule_projection.hpp). Tests:
# ctest/tycho/projection.cmake.
target_sources(tycho_core PRIVATE ${CMAKE_CURRENT_LIST_DIR}/src/schedule_projection.cpp)
add_executable(tycho-model ${CMAKE_CURRENT_LIST_DIR}/tools/tycho-model.cpp)
target_link_libraries(tycho-model PRIVATE tycho_core)
