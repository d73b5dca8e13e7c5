# The results file (include/tycho/results_output.hpp): the suite's layout plus /tycho (run,
# steps, messages, calibration) and /solution; and the calibration reader of --calibration.
target_sources(tycho_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/src/results_output.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/results_calibration.cpp)
