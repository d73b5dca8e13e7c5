# The models beside a run, calibrate-then-predict: the probe measures the machine, a 1-rank
# run on the Kuhn cube 6^3 gives T_elem, a 2-rank run prints GM, MSM and TM rows with finite
# modelled times and errors; a calibration whose groups differ from the run's is refused.
set(_mesh ${SUITE_TEST_MESHES}/kuhn-6.smesh)
set(_machine ${CMAKE_CURRENT_BINARY_DIR}/tycho_models.machine)
set(_cal ${CMAKE_CURRENT_BINARY_DIR}/tycho_models_cal.h5)
suite_add_mpi_test(NAME tycho.models.probe TARGET loggps-probe RANKS 2 TIMEOUT 300
  ARGS --quick --out ${_machine} EXPECT "wrote ")
suite_add_mpi_test(NAME tycho.models.calibrate TARGET tycho RANKS 1 TIMEOUT 120
  ARGS ${_mesh} --iterations 3 --results ${_cal} EXPECT " Results file: ")
set_tests_properties(tycho.models.probe PROPERTIES FIXTURES_SETUP tycho_models_machine)
set_tests_properties(tycho.models.calibrate PROPERTIES FIXTURES_SETUP tycho_models_cal)
set(_num "[0-9.]+(e[-+][0-9]+)?")
foreach(m GM MSM TM)
  suite_add_mpi_test(NAME tycho.models.${m}.np2 TARGET tycho RANKS 2 TIMEOUT 120
    ARGS ${_mesh} --iterations 3 --no-results --machine ${_machine} --calibration ${_cal}
    EXPECT "${m} +T_sweep +${_num} +${_num} +[-+][0-9]+\\.[0-9]%")
  set_tests_properties(tycho.models.${m}.np2 PROPERTIES FIXTURES_REQUIRED "tycho_models_machine;tycho_models_cal")
endforeach()
# A calibration whose own run was marked unreliable marks the runs that price with it
# (check_calibration_marks.py).
add_test(NAME tycho.models.calibration_marked.np2
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/ctest/instrument/check_calibration_marks.py run ${_cal}
                 ${CMAKE_CURRENT_BINARY_DIR}/tycho_calibration_marks --
                 ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 $<TARGET_FILE:tycho> ${_mesh} --iterations 3
                 --machine ${_machine} --calibration @CAL@)
set_tests_properties(tycho.models.calibration_marked.np2 PROPERTIES LABELS mpi TIMEOUT 300 PROCESSORS 2
                     FIXTURES_REQUIRED "tycho_models_machine;tycho_models_cal")
# The speed check: kept in the results file, and a run whose CPU was at another speed than its
# calibration's (a doctored copy: 3x) says so in one line and in its results file
# (check_speed_marks.py).
add_test(NAME tycho.models.speed_marks.np1
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/ctest/instrument/check_speed_marks.py tycho
                 ${CMAKE_CURRENT_BINARY_DIR}/tycho_speed_marks - --
                 ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 1 $<TARGET_FILE:tycho> ${_mesh} --iterations 3
                 --machine ${_machine})
set_tests_properties(tycho.models.speed_marks.np1 PROPERTIES LABELS mpi TIMEOUT 300 PROCESSORS 1
                     FIXTURES_REQUIRED tycho_models_machine)
add_test(NAME tycho.models.calibration_marked_projection
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/ctest/instrument/check_calibration_marks.py projection ${_cal}
                 ${CMAKE_CURRENT_BINARY_DIR}/tycho_calibration_marks_projection --
                 $<TARGET_FILE:tycho-model> ${_mesh} --machine ${_machine} --calibration @CAL@ --ranks 2)
set_tests_properties(tycho.models.calibration_marked_projection PROPERTIES LABELS unit TIMEOUT 120
                     FIXTURES_REQUIRED "tycho_models_machine;tycho_models_cal")
suite_add_error_test(NAME tycho.models.calibration_groups RANKS 2 ONE_LINE
  EXPECT "tycho_models_cal.h5:/tycho/calibration/groups: the same as this run's 3"
  COMMAND $<TARGET_FILE:tycho> ${_mesh} --groups 3 --no-results --machine ${_machine} --calibration ${_cal})
set_tests_properties(tycho.models.calibration_groups PROPERTIES FIXTURES_REQUIRED "tycho_models_machine;tycho_models_cal")
# The order of ready tasks decides what a task finds in cache: a band-octant calibration does not
# price an octant run.
suite_add_error_test(NAME tycho.models.calibration_priority RANKS 2 ONE_LINE
  EXPECT "tycho_models_cal.h5:/tycho/calibration/priority: the same as this run's octant \\(T_elem depends on it\\), found band-octant"
  COMMAND $<TARGET_FILE:tycho> ${_mesh} --priority octant --no-results --machine ${_machine} --calibration ${_cal})
set_tests_properties(tycho.models.calibration_priority PROPERTIES FIXTURES_REQUIRED "tycho_models_machine;tycho_models_cal")
# --no-machine turns the models off: nothing that feeds them may stand beside it.
suite_add_error_test(NAME tycho.models.no_machine_with_calibration RANKS 2 ONE_LINE
  EXPECT "--no-machine: no --calibration beside it"
  COMMAND $<TARGET_FILE:tycho> ${_mesh} --no-results --no-machine --calibration ${_cal})
suite_add_error_test(NAME tycho.models.no_machine_with_machine RANKS 2 ONE_LINE
  EXPECT "--no-machine: no --machine beside it"
  COMMAND $<TARGET_FILE:tycho> ${_mesh} --no-results --no-machine --machine ${_machine})
suite_add_error_test(NAME tycho.models.no_machine_with_mcps_auto RANKS 2 ONE_LINE
  EXPECT "--no-machine: no --mcps auto beside it"
  COMMAND $<TARGET_FILE:tycho> ${_mesh} --no-results --no-machine --mcps auto)
set_tests_properties(tycho.models.no_machine_with_calibration tycho.models.no_machine_with_machine
  PROPERTIES FIXTURES_REQUIRED "tycho_models_machine;tycho_models_cal")
# --mcps auto: the GM's choice from the calibration and the machine file, printed with its reason.
suite_add_mpi_test(NAME tycho.models.mcps_auto.np2 TARGET tycho RANKS 2 TIMEOUT 120
  ARGS ${_mesh} --iterations 2 --no-results --mcps auto --machine ${_machine} --calibration ${_cal}
  EXPECT "MCPS [1-9][0-9]* \\(auto: GM comm share [0-9.]+%, MCPS [1-9][0-9]*: ")
set_tests_properties(tycho.models.mcps_auto.np2 PROPERTIES FIXTURES_REQUIRED "tycho_models_machine;tycho_models_cal")
suite_add_error_test(NAME tycho.models.mcps_auto_needs_models RANKS 2 ONE_LINE
  EXPECT "--mcps auto: expected --calibration too"
  COMMAND $<TARGET_FILE:tycho> ${_mesh} --no-results --mcps auto)
# Calibrations at two MCPS: T_elem gains the MCPS factor (ratios at the same E_p; the smaller
# MCPS is the reference on a tie), and the run says so in its models' source.
set(_cal64 ${CMAKE_CURRENT_BINARY_DIR}/tycho_models_cal64.h5)
suite_add_mpi_test(NAME tycho.models.calibrate_mcps64 TARGET tycho RANKS 1 TIMEOUT 120
  ARGS ${_mesh} --iterations 3 --mcps 64 --results ${_cal64} EXPECT " Results file: ")
set_tests_properties(tycho.models.calibrate_mcps64 PROPERTIES FIXTURES_SETUP tycho_models_cal64)
suite_add_mpi_test(NAME tycho.models.mcps_factor.np2 TARGET tycho RANKS 2 TIMEOUT 120
  ARGS ${_mesh} --iterations 2 --mcps 256 --no-results --machine ${_machine} --calibration ${_cal},${_cal64}
  EXPECT "times rho\\(MCPS\\) = 1 at 64, ${_num} at [0-9]+ \\(ratios to MCPS 64 at the same E_p")
set_tests_properties(tycho.models.mcps_factor.np2 PROPERTIES
  FIXTURES_REQUIRED "tycho_models_machine;tycho_models_cal;tycho_models_cal64")
# The comm part rows price a message as the path holds it (tycho/model/machine_comm.hpp's
# T_msg): the send call, the receive call and the records' unpack at the T_unpack the 1-rank
# calibration run measured and wrote (/tycho/calibration/unpack_s_per_record, its fixed part a
# message unpack_s_per_message), and the send call with what MPI_Bsend adds to an isend
# (bsend_extra_s_per_call, _per_byte); the rows name the figures and the file.
set(_n "[0-9.e+-]+")  # a number without a group: CMake's regex holds at most 9 of them
foreach(m GM MSM)
  suite_add_mpi_test(NAME tycho.models.${m}_comm_unpack.np2 TARGET tycho RANKS 2 TIMEOUT 120
    ARGS ${_mesh} --iterations 3 --no-results --machine ${_machine} --calibration ${_cal}
    EXPECT "${m} +comm +${_n} +${_n} +[-+][0-9]+\\.[0-9]% .*T_msg.* at [0-9]+ B: send call ${_n} us \\+ receive call ${_n} us \\+ ${_n} records x T_unpack ${_n} us \\+ T_unpack a message ${_n} us \\(T_unpack measured by [^ ]*tycho_models_cal\\.h5\\). the send call holds MPI_Bsend's extra ${_n} us \\(${_n} us a call \\+ ${_n} ns a byte\\) \\(measured by [^ ]*tycho_models_cal\\.h5\\)")
  set_tests_properties(tycho.models.${m}_comm_unpack.np2 PROPERTIES FIXTURES_REQUIRED "tycho_models_machine;tycho_models_cal")
endforeach()
# A send that finds the peer's message waiting (issue 39): the comm part rows price each step's
# first send and the receive after it by the machine file's loggp.pending.* figures for the
# share 1 - 2^-receives of the step (machine_comm.hpp, msm.hpp) and name them. A probe on a
# host too loaded to keep any repetition writes no such keys: the row then says so.
# ("." stands for ";", which would split the expression into a list)
foreach(m GM MSM)
  suite_add_mpi_test(NAME tycho.models.${m}_comm_waiting.np2 TARGET tycho RANKS 2 TIMEOUT 120
    ARGS ${_mesh} --iterations 3 --no-results --machine ${_machine} --calibration ${_cal}
    EXPECT "${m} +comm +${_n} +${_n} +[-+][0-9]+\\.[0-9]% .*(. ${_n}% of sends find the peer's message waiting \\(1 - 2\\^-receives of a step's first send\\): MPI_Bsend ${_n} us \\+ receive ${_n} us there \\(loggp\\.pending at [0-9]+ B. nothing waiting: MPI_Bsend ${_n} us, receive ${_n} us\\)|. a send that finds the peer's message waiting is priced as any \\(no loggp\\.pending\\.\\* keys\\)). T_msg")
  set_tests_properties(tycho.models.${m}_comm_waiting.np2 PROPERTIES FIXTURES_REQUIRED "tycho_models_machine;tycho_models_cal")
endforeach()
# The same rows on a machine file whose loggp.pending.* keys are fixed (64 B and 8192 B: plain
# 0.4 / 0.8 us, waiting 0.8 / 1.2 us), so the waiting-send price is always taken, never the
# "no keys" text a loaded probe host may give.
set(_machine_pending ${CMAKE_CURRENT_BINARY_DIR}/tycho_models_pending.machine)
add_test(NAME tycho.models.machine_with_pending
         COMMAND ${CMAKE_COMMAND} -DIN=${_machine} -DOUT=${_machine_pending}
                 -P ${CMAKE_CURRENT_LIST_DIR}/run_machine_with_pending.cmake)
set_tests_properties(tycho.models.machine_with_pending PROPERTIES
  FIXTURES_REQUIRED tycho_models_machine FIXTURES_SETUP tycho_models_machine_pending)
foreach(m GM MSM)
  suite_add_mpi_test(NAME tycho.models.${m}_comm_waiting_priced.np2 TARGET tycho RANKS 2 TIMEOUT 120
    ARGS ${_mesh} --iterations 3 --no-results --machine ${_machine_pending} --calibration ${_cal}
    EXPECT "${m} +comm +${_n} +${_n} +[-+][0-9]+\\.[0-9]% .*. ${_n}% of sends find the peer's message waiting \\(1 - 2\\^-receives of a step's first send\\): MPI_Bsend ${_n} us \\+ receive ${_n} us there \\(loggp\\.pending at [0-9]+ B. nothing waiting: MPI_Bsend ${_n} us, receive ${_n} us\\). T_msg")
  set_tests_properties(tycho.models.${m}_comm_waiting_priced.np2 PROPERTIES
    FIXTURES_REQUIRED "tycho_models_machine_pending;tycho_models_cal")
endforeach()
# Repeated calibration runs of one configuration (a campaign's calibration_scope "all"): T_elem
# and the GM's PCE take their median, and the source names every run.
foreach(k a b)
  suite_add_mpi_test(NAME tycho.models.calibrate_np2_${k} TARGET tycho RANKS 2 TIMEOUT 120
    ARGS ${_mesh} --iterations 3 --results ${CMAKE_CURRENT_BINARY_DIR}/tycho_models_cal2${k}.h5
    EXPECT " Results file: ")
  set_tests_properties(tycho.models.calibrate_np2_${k} PROPERTIES FIXTURES_SETUP tycho_models_cal2)
endforeach()
suite_add_mpi_test(NAME tycho.models.repeated_calibrations.np2 TARGET tycho RANKS 2 TIMEOUT 120
  ARGS ${_mesh} --iterations 2 --no-results --machine ${_machine}
       --calibration ${CMAKE_CURRENT_BINARY_DIR}/tycho_models_cal2a.h5,${CMAKE_CURRENT_BINARY_DIR}/tycho_models_cal2b.h5
  EXPECT "GM +T_sweep .*through 1 point \\(each the median of the runs at its E_p and MCPS. 2 runs\\): E_p 648: [0-9.e-]+ s of 2. from [^ ]*/\\{tycho_models_cal2a.h5,tycho_models_cal2b.h5\\}.*PCE measured on [^ ]*/\\{tycho_models_cal2a.h5,tycho_models_cal2b.h5\\} \\(median\\)")
set_tests_properties(tycho.models.repeated_calibrations.np2 PROPERTIES
  FIXTURES_REQUIRED "tycho_models_machine;tycho_models_cal2")
# Calibrations at two E_p (the 1-rank run's 1296 cells, the 2-rank runs' 648): by default
# T_elem goes through each E_p's median (--telem-fit points), with --telem-fit line it is the
# paper's least squares; each row names its curve.
set(_cal_two_ep ${_cal},${CMAKE_CURRENT_BINARY_DIR}/tycho_models_cal2a.h5,${CMAKE_CURRENT_BINARY_DIR}/tycho_models_cal2b.h5)
suite_add_mpi_test(NAME tycho.models.telem_fit_points.np2 TARGET tycho RANKS 2 TIMEOUT 120
  ARGS ${_mesh} --iterations 2 --no-results --machine ${_machine} --calibration ${_cal_two_ep}
  EXPECT "GM +T_sweep .*T_elem through the measured E_p: ${_num} s at E_p 648, ${_num} s at E_p 1296 \\(linear in ln E_p between, constant outside\\), through 2 points \\(each the median")
suite_add_mpi_test(NAME tycho.models.telem_fit_line.np2 TARGET tycho RANKS 2 TIMEOUT 120
  ARGS ${_mesh} --iterations 2 --no-results --machine ${_machine} --calibration ${_cal_two_ep} --telem-fit line
  EXPECT "GM +T_sweep .*T_elem = -?${_num} ln\\(E_p\\) [-+] ${_num} s for 648 <= E_p <= 1296, constant outside, least squares over 2 points \\(each the median")
set_tests_properties(tycho.models.telem_fit_points.np2 tycho.models.telem_fit_line.np2 PROPERTIES
  FIXTURES_REQUIRED "tycho_models_machine;tycho_models_cal;tycho_models_cal2")
