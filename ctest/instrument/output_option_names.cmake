# An empty file name after an output option is an error naming the option, at 1 and 2 ranks
# (loggps-probe runs at 2 only) (instrument-demo's --trace "" used to run without a trace,
# saying nothing).
foreach(n 1 2)
  foreach(case "instrument-demo|--out" "instrument-demo|--trace" "loggps-probe|--out")
    string(REPLACE "|" ";" fields "${case}")
    list(GET fields 0 tool)
    list(GET fields 1 opt)
    if(tool STREQUAL "loggps-probe" AND n EQUAL 1)
      continue()
    endif()
    string(REPLACE "-" "_" _name "${tool}${opt}")
    # (An empty argument cannot pass through a CMake list: a shell adds it.)
    suite_add_error_test(NAME instrument.output_option_names.${_name}.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
      EXPECT "^${tool}: error: command line:${opt}: expected a file name, got \"\"$"
      COMMAND sh -c "exec \"$0\" ${opt} ''" $<TARGET_FILE:${tool}>)
  endforeach()
endforeach()
