# An empty input file name ("") is an error naming the option, never "not given": sweep3d's
# --machine "" once ran without the models and exited 0 (issue 36); a deck of "" is named
# too. At 1 and 2 ranks. (An empty argument cannot pass through a CMake list: a shell adds it.)
foreach(n 1 2)
  suite_add_error_test(NAME sweep3d.empty_file_options.machine.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    EXPECT "^sweep3d: error: command line:--machine: expected a file name, got \"\"$"
    COMMAND sh -c "exec \"$0\" \"$@\" --machine ''" $<TARGET_FILE:sweep3d>
            ${PROJECT_SOURCE_DIR}/inputs/sweep3d/small.input --no-results)
  suite_add_error_test(NAME sweep3d.empty_file_options.deck.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    EXPECT "^sweep3d: error: command line:deck: expected a file name, got \"\"$"
    COMMAND sh -c "exec \"$0\" '' \"$@\"" $<TARGET_FILE:sweep3d> --no-results)
endforeach()
