# The cell solve (include/tycho/cell_solve.hpp, ld_tet.hpp): the LD element on a tetrahedron
# and the step scheme, one cell-angle at a time; the benchmark tycho_cell_solve_bench.
target_sources(tycho_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/src/ld_tet.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cell_solve.cpp)
add_executable(tycho_cell_solve_bench ${CMAKE_CURRENT_LIST_DIR}/bench/bench_cell_solve.cpp)
target_link_libraries(tycho_cell_solve_bench PRIVATE tycho_core)
