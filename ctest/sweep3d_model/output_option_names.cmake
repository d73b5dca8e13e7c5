# sweep3d-model's file options: an empty --csv, --plot or --replay-trace and an empty entry of
# --calibration are errors naming the option (they were taken as "no such output").
foreach(opt --csv --plot --replay-trace)
  string(REPLACE "-" "_" _name "${opt}")
  # (An empty argument cannot pass through a CMake list: a shell adds it.)
  suite_add_error_test(NAME sweep3d_model.output_option_names${_name} ONE_LINE
    EXPECT "^sweep3d-model: error: command line:${opt}: expected a file name, got \"\"$"
    COMMAND sh -c "exec \"$0\" ${opt} ''" $<TARGET_FILE:sweep3d-model>)
endforeach()
suite_add_error_test(NAME sweep3d_model.output_option_names.calibration_gap ONE_LINE
  EXPECT "^sweep3d-model: error: command line:--calibration: expected file names separated by commas, got an empty name \\(entry 1 of 2\\) in \",a.h5\"$"
  COMMAND $<TARGET_FILE:sweep3d-model> --calibration ,a.h5)
