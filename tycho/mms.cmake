# Verification by a manufactured solution (include/tycho/mms.hpp): the serial sweep of a
# known smooth psi and its L2 error; tycho-mms prints the observed order under refinement.
target_sources(tycho_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/src/tet_quadrature.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/mms.cpp)
add_executable(tycho-mms ${CMAKE_CURRENT_LIST_DIR}/tools/tycho-mms.cpp)
target_link_libraries(tycho-mms PRIVATE tycho_core)
