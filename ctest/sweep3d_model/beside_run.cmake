# The models beside a real run: sweep3d with --machine prints both models; a 1-rank run's
# results file calibrates a 2-rank run (--calibration); --mk/--mmi auto picks a blocking.
set(_deck ${PROJECT_SOURCE_DIR}/inputs/sweep3d/small.input)
set(_machine ${CMAKE_CURRENT_LIST_DIR}/test.machine)
suite_add_mpi_test(NAME sweep3d_model.beside_run.np1 TARGET sweep3d RANKS 1 LABELS unit
                   ARGS ${_deck} --mk 4 --mmi 3 --machine ${_machine} --results model_cal.h5
                   EXPECT "Inputs of every row: .*calibrated on this run itself, a consistency check, not a prediction \\(1 rank, mmi = 3, mk = 4.*. machine: .*test.machine")
set_tests_properties(sweep3d_model.beside_run.np1 PROPERTIES FIXTURES_SETUP model_cal)
suite_add_mpi_test(NAME sweep3d_model.calibrated.np2 TARGET sweep3d RANKS 2 LABELS unit
                   ARGS ${_deck} --grid 1x2 --mk 4 --mmi 3 --machine ${_machine}
                        --calibration model_cal.h5 --no-results
                   EXPECT "Inputs of every row: W_g, W_before, W_after calibrated on model_cal.h5 \\(1 rank, mmi = 3, mk = 4, [a-z0-9]+, 1 thread\\)")
set_tests_properties(sweep3d_model.calibrated.np2 PROPERTIES FIXTURES_REQUIRED model_cal)
# The breakdown rows are measured on the critical path of every iteration.
suite_add_mpi_test(NAME sweep3d_model.critical_path.np2 TARGET sweep3d RANKS 2 LABELS unit
                   ARGS ${_deck} --grid 1x2 --mk 4 --mmi 3 --machine ${_machine} --calibration model_cal.h5 --no-results
                   EXPECT "loggp +sweeps: computation .*per iteration on the measured critical path, the median of the iterations \\(measured mean [0-9.e+-]+ s\\): local work")
set_tests_properties(sweep3d_model.critical_path.np2 PROPERTIES FIXTURES_REQUIRED model_cal)
# The first iteration beside the later ones, part by part (the part rows are medians).
suite_add_mpi_test(NAME sweep3d_model.first_iteration.np2 TARGET sweep3d RANKS 2 LABELS unit
                   ARGS ${_deck} --grid 1x2 --mk 4 --mmi 3 --machine ${_machine} --calibration model_cal.h5 --no-results
                   EXPECT "The first iteration's critical path was [0-9.e+-]+ s \\([-+][0-9.]+%\\) beside the later iterations' median [0-9.e+-]+ s. its parts over theirs \\(us\\): W_before [-+][0-9]+, computation [-+][0-9]+, comm . sync [-+][0-9]+, W_after [-+][0-9]+, reductions [-+][0-9]+")
set_tests_properties(sweep3d_model.first_iteration.np2 PROPERTIES FIXTURES_REQUIRED model_cal)
# Non-blocking sends get their own variant of the LogGP model.
suite_add_mpi_test(NAME sweep3d_model.nonblocking.np2 TARGET sweep3d RANKS 2 LABELS unit
                   ARGS ${_deck} --grid 1x2 --mk 4 --mmi 3 --nonblocking --machine ${_machine}
                        --calibration model_cal.h5 --no-results
                   EXPECT "loggp +T_iter .*non-blocking variant of eq. 6-8")
set_tests_properties(sweep3d_model.nonblocking.np2 PROPERTIES FIXTURES_REQUIRED model_cal)
# With a calibration at mmi = 3 only, auto searches mmi = 3 and says which it could not.
suite_add_mpi_test(NAME sweep3d_model.auto_blocking.np2 TARGET sweep3d RANKS 2 LABELS unit
                   ARGS ${_deck} --grid 1x2 --mk auto --mmi auto --machine ${_machine}
                        --calibration model_cal.h5 --no-results
                   EXPECT "Blocking chosen by the LogGP model: mk = [0-9]+, mmi = 3 .*calibration: mmi = 1 2 6")
set_tests_properties(sweep3d_model.auto_blocking.np2 PROPERTIES FIXTURES_REQUIRED model_cal)
# Bad model inputs: one line, every rank exits non-zero, before the run.
set(_bad_models
  "missing_machine|sweep3d: error: no-such.machine: cannot open machine file|--machine no-such.machine"
  "auto_without_calibration|--mk: auto: the blocking is chosen by the LogGP model, which needs --calibration|--mk auto"
  "auto_without_models|--no-machine: no --mk/--mmi auto beside it|--mk auto --no-machine"
  "no_machine_with_machine|--no-machine: no --machine beside it|--no-machine --machine ${_machine}"
  "no_machine_with_calibration|--no-machine: no --calibration beside it|--no-machine --calibration model_cal.h5"
  "calibration_not_ours|sweep3d: error: .*test.machine: not a sealed suite results file|--machine ${_machine} --calibration ${_machine}"
  "calibration_other_mmi|--calibration: no calibration at mmi = 6 .*have: model_cal.h5 \\(1 rank, mmi = 3.*--mmi 6|--mk 4 --mmi 6 --machine ${_machine} --calibration model_cal.h5")
foreach(entry ${_bad_models})
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 case)
  list(GET fields 1 regex)
  list(GET fields 2 args)
  separate_arguments(args UNIX_COMMAND "${args}")
  suite_add_error_test(NAME sweep3d_model.bad.${case}.np2 RANKS 2 ONE_LINE EXPECT "${regex}"
                       COMMAND $<TARGET_FILE:sweep3d> ${_deck} ${args} --no-results --grid 1x2)
  set_tests_properties(sweep3d_model.bad.${case}.np2 PROPERTIES FIXTURES_REQUIRED model_cal)
endforeach()
# A calibration whose own run was marked unreliable (its /compare says reliable = 0) marks the
# runs that price with it, in one line naming it and its first reason (check_calibration_marks.py).
add_test(NAME sweep3d_model.calibration_marked.np2
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/ctest/instrument/check_calibration_marks.py run
                 ${CMAKE_CURRENT_BINARY_DIR}/model_cal.h5 ${CMAKE_CURRENT_BINARY_DIR}/calibration_marks --
                 ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 $<TARGET_FILE:sweep3d> ${_deck} --grid 1x2 --mk 4 --mmi 3
                 --machine ${_machine} --calibration @CAL@)
set_tests_properties(sweep3d_model.calibration_marked.np2 PROPERTIES LABELS "mpi;unit" TIMEOUT 300 PROCESSORS 2
                     FIXTURES_REQUIRED model_cal)
# The speed check: kept in the results file, and a run whose CPU was at another speed than its
# calibration's (a doctored copy of its own file: 3x) says so in one line and in its results
# file (check_speed_marks.py).
add_test(NAME sweep3d_model.speed_marks.np1
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/ctest/instrument/check_speed_marks.py sweep3d
                 ${CMAKE_CURRENT_BINARY_DIR}/speed_marks - --
                 ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 1 $<TARGET_FILE:sweep3d> ${_deck} --mk 4 --mmi 3
                 --machine ${_machine})
set_tests_properties(sweep3d_model.speed_marks.np1 PROPERTIES LABELS "mpi;unit" TIMEOUT 300 PROCESSORS 1)
# The same calibration in sweep3d-model's projection: one line above its table.
add_test(NAME sweep3d_model.calibration_marked_projection
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/ctest/instrument/check_calibration_marks.py projection
                 ${CMAKE_CURRENT_BINARY_DIR}/model_cal.h5 ${CMAKE_CURRENT_BINARY_DIR}/calibration_marks_projection --
                 $<TARGET_FILE:sweep3d-model> --machine ${_machine} --calibration @CAL@ --grid 20x20x20 --procs 4)
set_tests_properties(sweep3d_model.calibration_marked_projection PROPERTIES LABELS unit TIMEOUT 120
                     FIXTURES_REQUIRED model_cal)
# The faces priced apart from W_g (sweep3d/model/face_work.hpp): a one-rank vacuum run's
# calibration holds them, and a 1x2 run's models say what they took; a reflective deck's
# calibration does not (its W_g holds the reflection's loops), and says why.
suite_add_mpi_test(NAME sweep3d_model.faces_apart.np2 TARGET sweep3d RANKS 2 LABELS unit
                   ARGS ${_deck} --grid 1x2 --mk 4 --mmi 3 --machine ${_machine} --calibration model_cal.h5 --no-results
                   EXPECT "Inputs of every row: .*. W = W_g less its faces' [0-9.e+-]+ ns a cell-angle, plus the block's faces: I / J a value zeroed [0-9.e+-]+ / [0-9.e+-]+ ns, leakage [0-9.e+-]+ / [0-9.e+-]+, unpacked [0-9.e+-]+ / [0-9.e+-]+, packed [0-9.e+-]+ / [0-9.e+-]+ ns \\([0-9.e+-]+ us a block on rank 0\\)")
set_tests_properties(sweep3d_model.faces_apart.np2 PROPERTIES FIXTURES_REQUIRED model_cal)
suite_add_mpi_test(NAME sweep3d_model.faces_reflective_calibration TARGET sweep3d RANKS 1 LABELS unit
                   ARGS ${PROJECT_SOURCE_DIR}/inputs/sweep3d/reflective_converged.input --machine ${_machine}
                        --results faces_reflective_cal.h5
                   EXPECT "faces in W_g per cell-angle, not apart \\(a reflective I or J face \\(its W_g holds the reflection's loops\\)\\)")
