# Partitions (include/tycho/partition.hpp): the cell dual graph, METIS k-way or a partition
# file, the per-part report and the sweep's chain of parts (eq. 8's pipeline length);
# the tool tycho-partition prints the table.
target_sources(tycho_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/src/dual_graph.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/partition.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/partition_report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/sweep_chain.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/sweep_chain_parts.cpp)
target_link_libraries(tycho_core PRIVATE suite_metis)
add_executable(tycho-partition ${CMAKE_CURRENT_LIST_DIR}/tools/tycho-partition.cpp)
target_link_libraries(tycho-partition PRIVATE tycho_core)
