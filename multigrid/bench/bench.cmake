# The multigrid benchmark programs (run_benchmarks.sh runs them):
#
# stream_triad              STREAM's triad: the memory bandwidth the smoother is compared with
# multigrid_smoother_bench  the smoother's sweep alone on one process (or P at once), beside that bandwidth
# multigrid_setup_bench     the set-up's phases built again and again in one process (each rank its share)
add_executable(stream_triad ${CMAKE_CURRENT_LIST_DIR}/stream_triad.cpp)
target_link_libraries(stream_triad PRIVATE instrument suite_options OpenMP::OpenMP_CXX)
suite_register_program(TARGET stream_triad OPTIONS --n --reps --threads)

add_executable(multigrid_smoother_bench ${CMAKE_CURRENT_LIST_DIR}/smoother_bench.cpp
               ${CMAKE_CURRENT_LIST_DIR}/family_of_families.cpp)
target_link_libraries(multigrid_smoother_bench PRIVATE multigrid_core MPI::MPI_CXX)
suite_register_program(TARGET multigrid_smoother_bench MPI OPTIONS --cube --grids --reps --stream-gbs --kernel --threads
  --without-parts --slot-by-slot --family-of-families)
# --without-parts: the AVX-512 loop with a part left out (cell_loop_parts.hpp), and --family-of-families:
# the loop on families of families (family_of_families.hpp), where that build is.
if(TARGET multigrid_cells_avx512)
  add_library(multigrid_bench_parts_avx512 OBJECT ${CMAKE_CURRENT_LIST_DIR}/cell_loop_parts_avx512.cpp
              ${CMAKE_CURRENT_LIST_DIR}/family_of_families_avx512.cpp)
  target_compile_options(multigrid_bench_parts_avx512 PRIVATE -mavx512f
                         $<$<CXX_COMPILER_ID:GNU>:-Wno-maybe-uninitialized>)  # as multigrid_cells_avx512
  target_link_libraries(multigrid_bench_parts_avx512 PRIVATE suite_options suite_mesh)
  target_include_directories(multigrid_bench_parts_avx512 PRIVATE ${CMAKE_CURRENT_LIST_DIR}/../include)
  target_sources(multigrid_smoother_bench PRIVATE $<TARGET_OBJECTS:multigrid_bench_parts_avx512>)
  target_compile_definitions(multigrid_smoother_bench PRIVATE MULTIGRID_HAVE_AVX512=1)
endif()

add_executable(multigrid_setup_bench ${CMAKE_CURRENT_LIST_DIR}/setup_bench.cpp)
target_link_libraries(multigrid_setup_bench PRIVATE multigrid_core MPI::MPI_CXX)
suite_register_program(TARGET multigrid_setup_bench MPI OPTIONS --cube --grids --reps)
