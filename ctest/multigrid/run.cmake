# The multigrid program end to end: a calibration run at one process writes its results
# file; a run at two processes reads its C1 and prints eq. 5 and the replay beside the
# measured W-cycle, naming the run C1 came from (and that it ran at another p). The first
# checks a value (the L2 error); the second the row's form and its source (its error is a
# timing, not testable). With two calibration runs of different sizes C1(N/p) is a fit over
# both, named point by point, each with the C1 of its coarsest grid's cells (in no family).
set(_dir ${CMAKE_CURRENT_BINARY_DIR}/multigrid_run)
file(MAKE_DIRECTORY ${_dir})
set(_sp2 ${PROJECT_SOURCE_DIR}/inputs/bsp/ibm-sp2-switch-p2.machine)
# The 3^3 cube over 3 grids: the L2 error mpi_solve's reference holds (1.1164e-02).
suite_add_mpi_test(NAME multigrid.run.calibrate TARGET multigrid RANKS 1 TIMEOUT 120
  ARGS --cube 3 --results ${_dir}/calibration.h5
  EXPECT "L2 error against the exact solution: 1\\.1164e-02")
set_tests_properties(multigrid.run.calibrate PROPERTIES FIXTURES_SETUP multigrid_calibration)
suite_add_mpi_test(NAME multigrid.run.predict.np2 TARGET multigrid RANKS 2 TIMEOUT 120
  ARGS --cube 3 --machine ${_sp2} --calibration ${_dir}/calibration.h5 --replay-on ${_sp2} --no-results
  EXPECT "eq5 +T_cycle +[0-9.e-]+ +[0-9.e-]+ +[-+][0-9.]+% +C1 = [0-9.e+-]+ s \\(constant\\) from .*/calibration.h5 \\(p = 1, N/p 1.04e\\+04, [a-z0-9]+: [0-9.e+-]+ s, in no family [0-9.e+-]+ s. NOT this run's p = 2\\). cells in no family of 8 at C1 = [0-9.e+-]+ s \\(the points' coarsest grids, mean\\). n_i, C3, C2")
set_tests_properties(multigrid.run.predict.np2 PROPERTIES FIXTURES_REQUIRED multigrid_calibration)
suite_add_mpi_test(NAME multigrid.run.calibrate_cube4 TARGET multigrid RANKS 1 TIMEOUT 120
  ARGS --cube 4 --cycles 2 --results ${_dir}/calibration4.h5
  EXPECT "L2 error against the exact solution: 8\\.7181e-03")
set_tests_properties(multigrid.run.calibrate_cube4 PROPERTIES FIXTURES_SETUP multigrid_calibration)
# A calibration whose own run was marked unreliable marks the runs that price with it
# (check_calibration_marks.py).
add_test(NAME multigrid.run.calibration_marked.np2
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/ctest/instrument/check_calibration_marks.py run
                 ${_dir}/calibration.h5 ${_dir}/calibration_marks --
                 ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 $<TARGET_FILE:multigrid> --cube 3 --machine ${_sp2}
                 --calibration @CAL@)
set_tests_properties(multigrid.run.calibration_marked.np2 PROPERTIES LABELS mpi TIMEOUT 300 PROCESSORS 2
                     FIXTURES_REQUIRED multigrid_calibration)
# The speed check: kept in the results file, and a run whose CPU was at another speed than its
# calibration's (a doctored copy of the fixture's: 3x) says so in one line and in its results
# file (check_speed_marks.py).
add_test(NAME multigrid.run.speed_marks.np1
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/ctest/instrument/check_speed_marks.py multigrid
                 ${_dir}/speed_marks ${_dir}/calibration.h5 --
                 ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 1 $<TARGET_FILE:multigrid> --cube 3 --machine ${_sp2})
set_tests_properties(multigrid.run.speed_marks.np1 PROPERTIES LABELS mpi TIMEOUT 300 PROCESSORS 1
                     FIXTURES_REQUIRED multigrid_calibration)
add_test(NAME multigrid.run.calibration_marked_projection
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/ctest/instrument/check_calibration_marks.py projection
                 ${_dir}/calibration.h5 ${_dir}/calibration_marks_projection --
                 $<TARGET_FILE:multigrid-model> --cube 3 --grids 3 --procs 1,2 --calibration @CAL@
                 --loggps ${PROJECT_SOURCE_DIR}/ctest/sweep3d_model/replay_test.machine --machine ${_sp2})
set_tests_properties(multigrid.run.calibration_marked_projection PROPERTIES LABELS unit TIMEOUT 120
                     FIXTURES_REQUIRED multigrid_calibration)
suite_add_mpi_test(NAME multigrid.run.predict_two_calibrations TARGET multigrid RANKS 1 TIMEOUT 120
  ARGS --cube 3 --machine ${_sp2} --calibration ${_dir}/calibration.h5,${_dir}/calibration4.h5 --no-results
  EXPECT "eq5 +T_cycle +[0-9.e-]+ +[0-9.e-]+ +[-+][0-9.]+% +C1 = [0-9.e+-]+ (s \\(constant\\)|ln\\(N/p\\) [-+] [0-9.e+-]+ s for 1.04e\\+04 <= N/p <= 2.46e\\+04, flat outside), least squares over 2 points: .*/calibration.h5 \\(p = 1, N/p 1.04e\\+04, [a-z0-9]+: [0-9.e+-]+ s, in no family [0-9.e+-]+ s\\), .*/calibration4.h5 \\(p = 1, N/p 2.46e\\+04, ")
set_tests_properties(multigrid.run.predict_two_calibrations PROPERTIES FIXTURES_REQUIRED multigrid_calibration)
# With no --calibration, eq. 5 runs on the run's own C1 (a consistency check) and prices the
# coarsest grid's cells, in no family of 8, at the run's own C1 of such cells, as a
# calibration file's point does (check_own_c1.py compares the printed figures).
foreach(_np 1 2)
  add_test(NAME multigrid.run.own_c1.np${_np}
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/check_own_c1.py $<TARGET_FILE:multigrid>
                   ${MPIEXEC_EXECUTABLE} ${_np} ${_sp2})
  set_tests_properties(multigrid.run.own_c1.np${_np} PROPERTIES LABELS mpi TIMEOUT 120 PROCESSORS ${_np})
endforeach()
# The replay prices each grid's sync after a sweep by the grid's working set (after_stream.hpp):
# with after-stream costs of ~1 s per MiB, the 3^3 cube's working sets (tens of KB a process)
# make the modelled comm+sync of the cycles at least 1 ms (as printed: no exponent, 0.001 or
# more), where the measured one is microseconds; the row names the max(gap, working set) term.
suite_add_mpi_test(NAME multigrid.run.after_stream.np2 TARGET multigrid RANKS 2 TIMEOUT 120
  ARGS --cube 3 --machine ${CMAKE_CURRENT_SOURCE_DIR}/after_stream-p2.machine --no-results
  EXPECT "replay-eq3 +comm\\+sync +[0-9.e-]+ +(0\\.00[1-9]|0\\.0[1-9]|0\\.[1-9]|[1-9])[0-9.]* +[-+][0-9.]+% +the cycles' supersteps: measured comm\\+sync against l \\+ h g\\(h\\) \\+ max\\(after_gap\\(w\\) - after_gap\\(0\\), after_stream\\(W_i\\) - after_stream\\(0\\)\\)")
# The convergence factor, printed: the W-cycle's on the default cube at 2 processes.
suite_add_mpi_test(NAME multigrid.run.default.np2 TARGET multigrid RANKS 2 TIMEOUT 120 ARGS --no-results
  EXPECT "Convergence factor per cycle: 0\\.2331 \\(the last cycle's. geometric mean 0\\.2008\\)")
# --cell-kernel portable runs the portable build to the same factor (the same bits are
# unit_operator's to check).
suite_add_mpi_test(NAME multigrid.run.portable.np2 TARGET multigrid RANKS 2 TIMEOUT 120
  ARGS --no-results --cell-kernel portable
  EXPECT "Convergence factor per cycle: 0\\.2331 \\(the last cycle's. geometric mean 0\\.2008\\)")
# A gmsh mesh of the unit cube (gmsh_data/box.msh, 390 cells, refined to 24960): the default
# smoothing interval [lambda_max / 4, lambda_max] with 2 + 2 iterations converges at 0.34
# there, 3 + 3 over [lambda_max / 10, lambda_max] at 0.13, the same at 1, 2 and 4 processes
# (the residuals agree to round-off, so the printed factors to all their digits).
set(_gmsh_box ${CMAKE_CURRENT_SOURCE_DIR}/gmsh_data/box.msh)
suite_add_mpi_test(NAME multigrid.run.gmsh_box_default.np2 TARGET multigrid RANKS 2 TIMEOUT 120
  ARGS ${_gmsh_box} --no-results
  EXPECT "Chebyshev \\(Jacobi-preconditioned\\) over \\[0.25, 1\\] lambda_max.*Convergence factor per cycle: 0\\.3342 \\(the last cycle's. geometric mean 0\\.2476\\)")
foreach(_np 1 2 4)
  suite_add_mpi_test(NAME multigrid.run.gmsh_box_wide_interval.np${_np} TARGET multigrid RANKS ${_np} TIMEOUT 120
    ARGS ${_gmsh_box} --pre 3 --post 3 --smoothing-lower 0.1 --no-results
    EXPECT "Chebyshev \\(Jacobi-preconditioned\\) over \\[0.1, 1\\] lambda_max.*Convergence factor per cycle: 0\\.1331 \\(the last cycle's. geometric mean 0\\.1163\\)")
endforeach()
# Independent meshes (--mesh-sequence): Tycho2's cubes of 208, 1374 and 10717 cells, which
# do not nest, transfers by point location. The default smoothing converges at 0.16, the
# same at 1, 2 and 4 processes. The figures are Tycho2's meshes' (disabled without them).
set(_t2 ${SUITE_TYCHO2_MESHES})
foreach(_np 1 2 4)
  suite_add_mpi_test(NAME multigrid.run.mesh_sequence.np${_np} TARGET multigrid RANKS ${_np} TIMEOUT 120
    ARGS --mesh-sequence ${_t2}/cube-208.smesh,${_t2}/cube-1374.smesh,${_t2}/cube-10717.smesh --no-results
    EXPECT "on sequence .*/cube-208.smesh, .*/cube-1374.smesh, .*/cube-10717.smesh.* 1 +10717 +2620 .* 2 +1374 +369 .* 3 +208 +67 .*Convergence factor per cycle: 0\\.1732 \\(the last cycle's. geometric mean 0\\.1369\\)")
  suite_uses_tycho2_meshes(multigrid.run.mesh_sequence.np${_np})
endforeach()
# Damped Jacobi takes omega = 2 / (a + b) from the same interval: on the default cube
# omega = 2 / (1.1 lambda_max) with --smoothing-lower 0.1, a different factor from
# omega = 2 / (1.25 lambda_max).
suite_add_mpi_test(NAME multigrid.run.jacobi_interval.np2 TARGET multigrid RANKS 2 TIMEOUT 120
  ARGS --smoother jacobi --smoothing-lower 0.1 --no-results
  EXPECT "damped Jacobi over \\[0.1, 1\\] lambda_max.*Convergence factor per cycle: 0\\.3330 \\(the last cycle's. geometric mean 0\\.2448\\)")

# multigrid-model on the 3^3 cube: the partition figures at P = 3 (cells per process,
# imbalance, h on the finest grid) are the run's own (deterministic: METIS's fixed seed; the
# run's `mpiexec -n 3 multigrid --cube 3` prints 1.025 and 1920 on grid 1, METIS on grid 2);
# the replayed time depends on the calibration's C1, so only its presence is checked.
suite_add_expect_test(NAME multigrid.model.project
  EXPECT "\n +3 +3456 +1\\.025 +1920 +[0-9.e-]+ +[0-9.e-]+ +[0-9.]+\n"
  COMMAND $<TARGET_FILE:multigrid-model> --cube 3 --grids 3 --procs 1,2,3 --calibration ${_dir}/calibration.h5
          --loggps ${PROJECT_SOURCE_DIR}/ctest/sweep3d_model/replay_test.machine --machine ${_sp2}
          --csv ${_dir}/projection.csv)
set_tests_properties(multigrid.model.project PROPERTIES FIXTURES_REQUIRED multigrid_calibration LABELS unit
  FIXTURES_SETUP multigrid_projection_csv)
# multigrid-model on a sequence of independent meshes (Tycho2's cubes): its P = 2 partition
# figures are those the run prints (multigrid.run.mesh_sequence.np2: imbalance 1.021, h 1384).
suite_add_expect_test(NAME multigrid.model.project_sequence
  EXPECT "sequence .*/cube-208.smesh .. .*/cube-10717.smesh, 3 grids .finest 10717 cells.*\n +2 +5358 +1\\.021 +1384 "
  COMMAND $<TARGET_FILE:multigrid-model> --mesh-sequence ${_t2}/cube-208.smesh,${_t2}/cube-1374.smesh,${_t2}/cube-10717.smesh
          --procs 1,2,3 --calibration ${_dir}/calibration.h5
          --loggps ${PROJECT_SOURCE_DIR}/ctest/sweep3d_model/replay_test.machine --machine ${_sp2})
suite_uses_tycho2_meshes(multigrid.model.project_sequence)
set_tests_properties(multigrid.model.project_sequence PROPERTIES FIXTURES_REQUIRED multigrid_calibration LABELS unit)
# Its CSV: at P = 1 the replay is all work (its comm+sync exactly 0: no message, no other
# process to wait for), and the P = 3 row holds the printed partition figures.
add_test(NAME multigrid.model.project_csv COMMAND ${CMAKE_COMMAND} -E cat ${_dir}/projection.csv)
set_tests_properties(multigrid.model.project_csv PROPERTIES LABELS unit FIXTURES_REQUIRED multigrid_projection_csv
  PASS_REGULAR_EXPRESSION "^procs,cells_per_proc,imbalance,h_grid1_bytes,replay_seconds,replay_work,replay_comm_sync,eq5_seconds,eq5_work,eq5_comm_sync\n1,10368,1,0,[0-9.e-]+,[0-9.e-]+,0,[0-9.e-]+,[0-9.e-]+,[0-9.e-]+\n2,.*\n3,3456,1\\.02[0-9]*,1920,")
# The plot of that CSV (matplotlib, installed by scripts/install-deps.sh): a PNG is written.
add_test(NAME multigrid.model.plot
  COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tools/suite-campaign plot multigrid-projection ${_dir}/projection.csv
          ${_dir}/projection.png)
set_tests_properties(multigrid.model.plot PROPERTIES LABELS unit FIXTURES_REQUIRED multigrid_projection_csv
  PASS_REGULAR_EXPRESSION "projection.png: 3 process counts")
suite_add_error_test(NAME multigrid.model.no_calibration ONE_LINE
  EXPECT "^multigrid-model: error: command line:--calibration: expected a multigrid results file for C1$"
  COMMAND $<TARGET_FILE:multigrid-model> --procs 4 --loggps x.machine)
suite_add_error_test(NAME multigrid.model.too_many_procs ONE_LINE
  EXPECT "^multigrid-model: error: the default cube:P: expected a part count in \\[1, 162\\] \\(at most one part per cell\\), found 163$"
  COMMAND $<TARGET_FILE:multigrid-model> --cube 3 --procs 163 --calibration ${_dir}/calibration.h5
          --loggps ${PROJECT_SOURCE_DIR}/ctest/sweep3d_model/replay_test.machine)
set_tests_properties(multigrid.model.too_many_procs PROPERTIES FIXTURES_REQUIRED multigrid_calibration)
