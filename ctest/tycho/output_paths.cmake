# Output paths and file lists of tycho and its tools (suite_add_error_test), at 1 and 2 ranks
# for tycho: a symbolic link given as the output is refused before any work, its target left
# byte for byte (KEEP_FILE); a dangling link's target is not created (NO_FILE); an empty file
# name is an error naming the option; an empty entry of --calibration's list and a symbolic
# link loop in it are named in one line; a machine file with a non-finite number tycho does
# not use (loggp.L = nan) is refused naming file, line and key.
set(_cube12 ${SUITE_TEST_MESHES}/kuhn-2.smesh)
set(_keep "someone else's file: must stay as it is\n")
# The round machine of unit_model_machine_comm.cpp, and the same with an unused loggp.L = nan.
set(_round "format = suite-machine-1\nloggps.L = 1e-6\nloggps.o_prime = 1e-7\nloggps.O_s = 1e-10\nloggps.O_r = 1e-10\nloggps.G_s = 1e-9\nloggps.G_l = 1e-9\nloggps.s = 64\nloggps.S = 1024\n")

# Each test's own folder: <name>/victim (KEEP_FILE), link -> victim, dangling -> never,
# loop_a <-> loop_b.
function(_tycho_output_dir name out)
  set(d ${CMAKE_CURRENT_BINARY_DIR}/tycho_output_paths/${name})
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
  _tycho_output_dir(tycho_np${n} _d)
  file(WRITE ${_d}/round.machine "${_round}")
  file(WRITE ${_d}/nan.machine "${_round}loggp.L = nan\n")
  suite_add_error_test(NAME tycho.output_paths.results_symlink.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    EXPECT "^tycho: error: .*/link: cannot write results file: it is a symbolic link \\(to victim\\). refusing to write through it. give the real path$"
    KEEP_FILE ${_d}/victim KEEP_TEXT "${_keep}"
    COMMAND $<TARGET_FILE:tycho> ${_cube12} --iterations 1 --results ${_d}/link)
  suite_add_error_test(NAME tycho.output_paths.results_dangling.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    EXPECT "^tycho: error: .*/dangling: cannot write results file: it is a symbolic link \\(to never\\). refusing to write through it. give the real path$"
    NO_FILE ${_d}/never
    COMMAND $<TARGET_FILE:tycho> ${_cube12} --iterations 1 --results ${_d}/dangling)
  # (An empty argument cannot pass through a CMake list: a shell adds it.)
  suite_add_error_test(NAME tycho.output_paths.results_empty.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    EXPECT "^tycho: error: command line:--results: expected a file name, got \"\"$"
    COMMAND sh -c "exec \"$0\" \"$@\" --results ''" $<TARGET_FILE:tycho> ${_cube12} --iterations 1)
  suite_add_error_test(NAME tycho.output_paths.calibration_comma.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    EXPECT "^tycho: error: command line:--calibration: expected file names separated by commas, got an empty name \\(entry 1 of 2\\) in \",\"$"
    COMMAND $<TARGET_FILE:tycho> ${_cube12} --no-results --machine ${_d}/round.machine --calibration ,)
  suite_add_error_test(NAME tycho.output_paths.calibration_loop.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    EXPECT "^tycho: error: .*/loop_a: cannot open the calibration results file: Too many levels of symbolic links$"
    COMMAND $<TARGET_FILE:tycho> ${_cube12} --no-results --machine ${_d}/round.machine --calibration ${_d}/loop_a)
  suite_add_error_test(NAME tycho.output_paths.machine_unused_nan.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    EXPECT "^tycho: error: .*/nan.machine:line 10: expected a finite number for 'loggp.L', got \"nan\"$"
    COMMAND $<TARGET_FILE:tycho> ${_cube12} --no-results --machine ${_d}/nan.machine)
endforeach()

# The tools (one process): the output checked before the mesh is even read.
_tycho_output_dir(tools _d)
file(WRITE ${_d}/round.machine "${_round}")
foreach(case
    "model_csv_symlink|tycho-model|the model's CSV|${_cube12}|--machine|${_d}/round.machine|--calibration|x.h5|--ranks|2|--csv|${_d}/link"
    "refine_out_symlink|tycho-refine|serial mesh|${_cube12}|${_d}/link"
    "partition_out_symlink|tycho-partition|partition file|${_cube12}|2|--out|${_d}/link")
  string(REPLACE "|" ";" fields "${case}")
  list(POP_FRONT fields name tool what)
  suite_add_error_test(NAME tycho.output_paths.${name} ONE_LINE
    EXPECT "^${tool}: error: .*/link: cannot write ${what}: it is a symbolic link \\(to victim\\). refusing to write through it. give the real path$"
    KEEP_FILE ${_d}/victim KEEP_TEXT "${_keep}"
    COMMAND $<TARGET_FILE:${tool}> ${fields})
endforeach()
# Not in the loop: each leaves the shared victim alone, and runs in parallel with the above.
suite_add_error_test(NAME tycho.output_paths.model_csv_empty ONE_LINE
  EXPECT "^tycho-model: error: command line:--csv: expected a file name, got \"\"$"
  COMMAND sh -c "exec \"$0\" \"$@\" --csv ''" $<TARGET_FILE:tycho-model> ${_cube12} --machine ${_d}/round.machine --calibration x.h5 --ranks 2)
suite_add_error_test(NAME tycho.output_paths.model_calibration_gap ONE_LINE
  EXPECT "^tycho-model: error: command line:--calibration: expected file names separated by commas, got an empty name \\(entry 2 of 3\\) in \"a.h5,,b.h5\"$"
  COMMAND $<TARGET_FILE:tycho-model> ${_cube12} --machine ${_d}/round.machine --calibration a.h5,,b.h5 --ranks 2)
suite_add_error_test(NAME tycho.output_paths.refine_out_empty ONE_LINE
  EXPECT "^tycho-refine: error: command line:OUT.smesh: expected a file name, got \"\"$"
  COMMAND sh -c "exec \"$0\" \"$@\" ''" $<TARGET_FILE:tycho-refine> ${_cube12})
suite_add_error_test(NAME tycho.output_paths.partition_out_empty ONE_LINE
  EXPECT "^tycho-partition: error: command line:--out: expected a file name, got \"\"$"
  COMMAND sh -c "exec \"$0\" \"$@\" --out ''" $<TARGET_FILE:tycho-partition> ${_cube12} 2)
