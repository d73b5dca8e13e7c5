# Output paths and file lists of multigrid and multigrid-model (suite_add_error_test), at 1
# and 2 ranks for multigrid: a symbolic link given as the output is refused before any work,
# its target left byte for byte (KEEP_FILE); a dangling link's target is not created
# (NO_FILE); an empty file name is an error naming the option; an empty entry of a file list
# and a symbolic link loop in --calibration are named in one line.
set(_sp2 ${PROJECT_SOURCE_DIR}/inputs/bsp/ibm-sp2-switch-p2.machine)
set(_loggps ${PROJECT_SOURCE_DIR}/ctest/sweep3d_model/replay_test.machine)
set(_keep "someone else's file: must stay as it is\n")

# Each test group's own folder: victim (KEEP_FILE), link -> victim, dangling -> never,
# loop_a <-> loop_b.
function(_multigrid_output_dir name out)
  set(d ${CMAKE_CURRENT_BINARY_DIR}/multigrid_output_paths/${name})
  file(MAKE_DIRECTORY ${d})
  foreach(l link dangling loop_a loop_b)
    file(REMOVE ${d}/${l})
  endforeach()
  file(CREATE_LINK victim ${d}/link SYMBOLIC)
  file(CREATE_LINK never ${d}/dangling SYMBOLIC)
  file(CREATE_LINK loop_b ${d}/loop_a SYMBOLIC)
  file(CREATE_LINK loop_a ${d}/loop_b SYMBOLIC)
  set(${out} ${d} PARENT_SCOPE)
endfunction()

foreach(n 1 2)
  _multigrid_output_dir(multigrid_np${n} _d)
  suite_add_error_test(NAME multigrid.output_paths.results_symlink.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    EXPECT "^multigrid: error: .*/link: cannot write results file: it is a symbolic link \\(to victim\\). refusing to write through it. give the real path$"
    KEEP_FILE ${_d}/victim KEEP_TEXT "${_keep}"
    COMMAND $<TARGET_FILE:multigrid> --cube 2 --grids 2 --results ${_d}/link)
  suite_add_error_test(NAME multigrid.output_paths.results_dangling.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    EXPECT "^multigrid: error: .*/dangling: cannot write results file: it is a symbolic link \\(to never\\). refusing to write through it. give the real path$"
    NO_FILE ${_d}/never
    COMMAND $<TARGET_FILE:multigrid> --cube 2 --grids 2 --results ${_d}/dangling)
  # (An empty argument cannot pass through a CMake list: a shell adds it.)
  suite_add_error_test(NAME multigrid.output_paths.results_empty.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    EXPECT "^multigrid: error: command line:--results: expected a file name, got \"\"$"
    COMMAND sh -c "exec \"$0\" \"$@\" --results ''" $<TARGET_FILE:multigrid> --cube 2 --grids 2)
  suite_add_error_test(NAME multigrid.output_paths.calibration_comma.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    EXPECT "^multigrid: error: command line:--calibration: expected file names separated by commas, got an empty name \\(entry 1 of 2\\) in \",\"$"
    COMMAND $<TARGET_FILE:multigrid> --cube 2 --no-results --machine ${_sp2} --calibration ,)
  suite_add_error_test(NAME multigrid.output_paths.calibration_loop.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    EXPECT "^multigrid: error: .*/loop_a: cannot open results file: Too many levels of symbolic links$"
    COMMAND $<TARGET_FILE:multigrid> --cube 2 --no-results --machine ${_sp2} --calibration ${_d}/loop_a)
  suite_add_error_test(NAME multigrid.output_paths.replay_on_gap.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    EXPECT "^multigrid: error: command line:--replay-on: expected file names separated by commas, got an empty name \\(entry 2 of 2\\) in \".*\"$"
    COMMAND $<TARGET_FILE:multigrid> --cube 2 --no-results --machine ${_sp2} --replay-on ${_sp2},)
endforeach()

# multigrid-model (one process): the CSV checked before any work.
_multigrid_output_dir(model _d)
suite_add_error_test(NAME multigrid.output_paths.model_csv_symlink ONE_LINE
  EXPECT "^multigrid-model: error: .*/link: cannot write the projection's CSV: it is a symbolic link \\(to victim\\). refusing to write through it. give the real path$"
  KEEP_FILE ${_d}/victim KEEP_TEXT "${_keep}"
  COMMAND $<TARGET_FILE:multigrid-model> --procs 2 --calibration x.h5 --loggps ${_loggps} --csv ${_d}/link)
suite_add_error_test(NAME multigrid.output_paths.model_csv_empty ONE_LINE
  EXPECT "^multigrid-model: error: command line:--csv: expected a file name, got \"\"$"
  COMMAND sh -c "exec \"$0\" \"$@\" --csv ''" $<TARGET_FILE:multigrid-model> --procs 2 --calibration x.h5 --loggps ${_loggps})
suite_add_error_test(NAME multigrid.output_paths.model_calibration_loop ONE_LINE
  EXPECT "^multigrid-model: error: .*/loop_a: cannot open results file: Too many levels of symbolic links$"
  COMMAND $<TARGET_FILE:multigrid-model> --procs 2 --calibration ${_d}/loop_a --loggps ${_loggps})
suite_add_error_test(NAME multigrid.output_paths.model_sequence_gap ONE_LINE
  EXPECT "^multigrid-model: error: command line:--mesh-sequence: expected file names separated by commas, got an empty name \\(entry 2 of 3\\) in \"a.msh,,b.msh\"$"
  COMMAND $<TARGET_FILE:multigrid-model> --procs 2 --calibration x.h5 --loggps ${_loggps} --mesh-sequence a.msh,,b.msh)
