# sweep3d's output and file-list options (suite_add_error_test), at 1 and 2 ranks: a results
# path that is a symbolic link is refused before the run, its target left byte for byte; an
# empty --results and an empty entry of --calibration are errors naming the option.
set(_deck ${PROJECT_SOURCE_DIR}/inputs/sweep3d/small.input)
foreach(n 1 2)
  set(_d ${CMAKE_CURRENT_BINARY_DIR}/sweep3d_output_paths_np${n})
  file(MAKE_DIRECTORY ${_d})
  file(REMOVE ${_d}/link)
  file(CREATE_LINK victim ${_d}/link SYMBOLIC)
  suite_add_error_test(NAME sweep3d.output_paths.results_symlink.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    EXPECT "^sweep3d: error: .*/link: cannot write results file: it is a symbolic link \\(to victim\\). refusing to write through it. give the real path$"
    KEEP_FILE ${_d}/victim KEEP_TEXT "someone else's file\n"
    COMMAND $<TARGET_FILE:sweep3d> ${_deck} --grid 1x${n} --results ${_d}/link)
  # (An empty argument cannot pass through a CMake list: a shell adds it.)
  suite_add_error_test(NAME sweep3d.output_paths.results_empty.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    EXPECT "^sweep3d: error: command line:--results: expected a file name, got \"\"$"
    COMMAND sh -c "exec \"$0\" \"$@\" --results ''" $<TARGET_FILE:sweep3d> ${_deck} --grid 1x${n})
  suite_add_error_test(NAME sweep3d.output_paths.calibration_gap.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    EXPECT "^sweep3d: error: command line:--calibration: expected file names separated by commas, got an empty name \\(entry 2 of 2\\) in \"a.h5,\"$"
    COMMAND $<TARGET_FILE:sweep3d> ${_deck} --grid 1x${n} --no-results --calibration a.h5,)
endforeach()
