# The order of a sweep direction (include/tycho/sweep_dag.hpp): face area normals, the
# upwind-downwind graph of cells with its cycles lagged, b-levels, a topological order and
# the boundary-first depth; the benchmark tycho_sweep_dag_bench.
target_sources(tycho_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/src/sweep_dag.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/sweep_dag_depth.cpp)
add_executable(tycho_sweep_dag_bench ${CMAKE_CURRENT_LIST_DIR}/bench/bench_sweep_dag.cpp)
target_link_libraries(tycho_sweep_dag_bench PRIVATE tycho_core)
