# An empty input file name ("") is an error naming the option, never "not given": multigrid's
# --partition "" and --machine "" once ran without them, and a MESH of "" (and
# multigrid-model's) ran the default cube, each exiting 0 (issue 36). multigrid at 1 and 2
# ranks; multigrid-model once. (An empty argument cannot pass through a CMake list: a shell
# adds it.)
foreach(n 1 2)
  foreach(opt --partition --machine)
    string(REPLACE "-" "" _name "${opt}")
    suite_add_error_test(NAME multigrid.empty_file_options.${_name}.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
      EXPECT "^multigrid: error: command line:${opt}: expected a file name, got \"\"$"
      COMMAND sh -c "exec \"$0\" \"$@\" ${opt} ''" $<TARGET_FILE:multigrid> --cube 1 --grids 2 --cycles 1 --no-results)
  endforeach()
  suite_add_error_test(NAME multigrid.empty_file_options.mesh.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    EXPECT "^multigrid: error: command line:MESH: expected a file name, got \"\"$"
    COMMAND sh -c "exec \"$0\" '' \"$@\"" $<TARGET_FILE:multigrid> --grids 2 --cycles 1 --no-results)
endforeach()
foreach(opt --machine --loggps)
  string(REPLACE "-" "" _name "${opt}")
  suite_add_error_test(NAME multigrid.empty_file_options.model_${_name} ONE_LINE TIMEOUT 30
    EXPECT "^multigrid-model: error: command line:${opt}: expected a file name, got \"\"$"
    COMMAND sh -c "exec \"$0\" \"$@\" ${opt} ''" $<TARGET_FILE:multigrid-model>
            --cube 1 --grids 2 --procs 1,2 --calibration c.h5 --loggps l.machine)
endforeach()
suite_add_error_test(NAME multigrid.empty_file_options.model_mesh ONE_LINE TIMEOUT 30
  EXPECT "^multigrid-model: error: command line:MESH: expected a file name, got \"\"$"
  COMMAND sh -c "exec \"$0\" '' \"$@\"" $<TARGET_FILE:multigrid-model>
          --grids 2 --procs 1,2 --calibration c.h5 --loggps l.machine)
