# The executable end to end: the original's report, byte for byte up to the timing lines.
function(sweep3d_report_test name ranks)
  add_test(NAME sweep3d.report.${name}
           COMMAND ${CMAKE_COMMAND} -DMPIEXEC=${MPIEXEC_EXECUTABLE} -DNPFLAG=${MPIEXEC_NUMPROC_FLAG}
                   -DNP=${ranks} -DEXE=$<TARGET_FILE:sweep3d> -DGOLDEN=${SWEEP3D_GOLDEN}/${name}
                   -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/report_${name} -DARGS=${ARGN}
                   -P ${CMAKE_CURRENT_LIST_DIR}/run_compare_output.cmake)
  set(labels mpi)
  if(name MATCHES "input50")
    list(APPEND labels slow)
  endif()
  set_tests_properties(sweep3d.report.${name} PROPERTIES LABELS "${labels}" PROCESSORS ${ranks} TIMEOUT 600)
endfunction()
sweep3d_report_test(a_s4p0_vac_nofix_1x1 1)
sweep3d_report_test(a_s4p0_vac_nofix_2x2 4)
sweep3d_report_test(g_input50_canonical_1x1 1)
sweep3d_report_test(g_input50_canonical_2x2 4)
