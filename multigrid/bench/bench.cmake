# The multigrid benchmark programs (run_benchmarks.sh runs them):
#
# stream_triad              STREAM's triad: the memory bandwidth the smoother is compared with
# multigrid_smoother_bench  the smoother's sweep alone on one process (or P at once), beside that bandwidth
add_executable(stream_triad ${CMAKE_CURRENT_LIST_DIR}/stream_triad.cpp)
target_link_libraries(stream_triad PRIVATE instrument suite_options OpenMP::OpenMP_CXX)
suite_register_program(TARGET stream_triad OPTIONS --n --reps --threads)

add_executable(multigrid_smoother_bench ${CMAKE_CURRENT_LIST_DIR}/smoother_bench.cpp)
target_link_libraries(multigrid_smoother_bench PRIVATE multigrid_core MPI::MPI_CXX)
suite_register_program(TARGET multigrid_smoother_bench MPI OPTIONS --cube --grids --reps --stream-gbs --kernel --threads)
