# The performance models of Kerbyson, Hoisie & Pautz (include/tycho/model/): PCE (eq. 4),
# T_elem(E_p) (Table 1's piecewise form), the mesh-specific model (eq. 6), the general model
# (eq. 6, 8, 9), T_comm from the probe's machine file (eq. 7) and the trace model (section 4.2,
# replayed by instrument's engine). Pure functions of the sweep's per-step records and of
# numbers; tests ctest/tycho/unit_model_*.cpp.
target_sources(tycho_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/model/history_steps.cpp
  ${CMAKE_CURRENT_LIST_DIR}/model/pce.cpp
  ${CMAKE_CURRENT_LIST_DIR}/model/telem.cpp
  ${CMAKE_CURRENT_LIST_DIR}/model/msm.cpp
  ${CMAKE_CURRENT_LIST_DIR}/model/machine_comm.cpp
  ${CMAKE_CURRENT_LIST_DIR}/model/gm.cpp
  ${CMAKE_CURRENT_LIST_DIR}/model/trace_program.cpp)
