# Angular quadratures (include/tycho/quadrature.hpp): level-symmetric S2-S16 and product sets.
target_sources(tycho_core PRIVATE ${CMAKE_CURRENT_LIST_DIR}/src/quadrature.cpp)
