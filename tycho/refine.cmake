# Uniform refinement (include/tycho/refine.hpp): each tetrahedron into eight; the tool
# tycho-refine writes a refined .smesh (the benchmarks' large meshes from the small ones).
target_sources(tycho_core PRIVATE ${CMAKE_CURRENT_LIST_DIR}/src/refine.cpp ${CMAKE_CURRENT_LIST_DIR}/src/refine_quality.cpp
                                  ${CMAKE_CURRENT_LIST_DIR}/src/tool_memory.cpp)  # the tools' memory up front
add_executable(tycho-refine ${CMAKE_CURRENT_LIST_DIR}/tools/tycho-refine.cpp)
target_link_libraries(tycho-refine PRIVATE tycho_core)
