# The original's reference decks (golden/) on every grid that fits, at 1, 2 and 4 ranks; the
# 50^3 decks are labelled slow.
add_executable(sweep3d_golden_decks ${CMAKE_CURRENT_LIST_DIR}/golden_decks.cpp)
target_link_libraries(sweep3d_golden_decks PRIVATE sweep3d_core catch_mpi_main)
target_compile_definitions(sweep3d_golden_decks PRIVATE SWEEP3D_GOLDEN_DIR="${SWEEP3D_GOLDEN}")
foreach(n 1 2 4)
  suite_add_mpi_test(NAME sweep3d.golden_decks.np${n} TARGET sweep3d_golden_decks RANKS ${n} ARGS "~[slow]")
  suite_add_mpi_test(NAME sweep3d.golden_decks_50cubed.np${n} TARGET sweep3d_golden_decks RANKS ${n}
                     LABELS slow ARGS "[slow]" TIMEOUT 900)
endforeach()
