# An empty input file name ("") is an error naming the option, never "not given": tycho's
# --partition "" once ran METIS, --materials "" the default cross sections and --machine ""
# no models, each exiting 0 (issue 36). tycho at 1 and 2 ranks; its tools once.
# (An empty argument cannot pass through a CMake list: a shell adds it, after the others for
# an option and first for MESH.)
set(_cube12 ${SUITE_TEST_MESHES}/kuhn-2.smesh)
foreach(n 1 2)
  foreach(opt --partition --materials --machine)
    string(REPLACE "-" "" _name "${opt}")
    suite_add_error_test(NAME tycho.empty_file_options.${_name}.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
      EXPECT "^tycho: error: command line:${opt}: expected a file name, got \"\"$"
      COMMAND sh -c "exec \"$0\" \"$@\" ${opt} ''" $<TARGET_FILE:tycho> ${_cube12} --iterations 1 --no-results)
  endforeach()
  suite_add_error_test(NAME tycho.empty_file_options.mesh.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    EXPECT "^tycho: error: command line:MESH: expected a file name, got \"\"$"
    COMMAND sh -c "exec \"$0\" '' \"$@\"" $<TARGET_FILE:tycho> --iterations 1 --no-results)
endforeach()
# The tools: name|program|the option named|the words before the ""|the words after it.
set(_tools
  "partition_parts|tycho-partition|--parts|${_cube12} 2 --parts|"
  "partition_mesh|tycho-partition|MESH||2"
  "model_machine|tycho-model|--machine|${_cube12} --calibration c.h5 --ranks 2 --machine|"
  "model_mesh|tycho-model|MESH|--machine m --calibration c.h5 --ranks 2|"
  "mms_mesh|tycho-mms|MESH|--levels 1|"
  "refine_mesh|tycho-refine|MESH||out.smesh"
  "mesh_info|tycho-mesh-info|MESH||")
foreach(entry ${_tools})
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 name)
  list(GET fields 1 tool)
  list(GET fields 2 opt)
  list(GET fields 3 before)
  list(GET fields 4 after)
  suite_add_error_test(NAME tycho.empty_file_options.${name} ONE_LINE TIMEOUT 30
    EXPECT "^${tool}: error: command line:${opt}: expected a file name, got \"\"$"
    COMMAND sh -c "exec \"$0\" ${before} '' ${after}" $<TARGET_FILE:${tool}>)
endforeach()
