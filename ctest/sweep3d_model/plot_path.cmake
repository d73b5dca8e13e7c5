# sweep3d-model --plot: a path the plot cannot be written to is refused up front, in one line
# and before any output (it printed the plotting script's refusal, then a line of its own, and
# the model table first): a directory, a device, a FIFO, a symbolic link of any kind (to a
# file, which must stay unchanged, a chain, dangling, a loop, to /dev/null). When the script
# still fails (an extension matplotlib does not write, a missing folder), its last line is
# folded into sweep3d-model's one line (stdout, the model table, is sent to /dev/null).
set(_dir ${CMAKE_CURRENT_BINARY_DIR}/sweep3d_model_plot_path)
set(_model $<TARGET_FILE:sweep3d-model> --machine ${PROJECT_SOURCE_DIR}/ctest/sweep3d_model/replay_test.machine
           --wg 1e-8 --grid 20x20x20 --procs 1,2)
add_test(NAME sweep3d_model.plot_path.setup
  COMMAND sh -c "rm -rf \"$0\" && mkdir -p \"$0/plotdir\" && cd \"$0\" && mkfifo fifo.png && echo precious > precious.txt && ln -s precious.txt link.png && ln -s link.png chain.png && ln -s missing.png dangling.png && ln -s loop.png loop.png && ln -s /dev/null devnull.png"
          ${_dir})
set_tests_properties(sweep3d_model.plot_path.setup PROPERTIES LABELS unit FIXTURES_SETUP sweep3d_model_plot_path)
# (The messages hold a semicolon, which a CMake list would split: "." stands for it.)
set(_refused "not a regular file. refusing to replace it")
set(_link "refusing to write through it. give the real path")
foreach(case "directory|plotdir|it is a directory, ${_refused}"
             "dev_null|/dev/null|it is a character device, ${_refused}"
             "dev_full|/dev/full|it is a character device, ${_refused}"
             "fifo|fifo.png|it is a FIFO, ${_refused}"
             "symlink|link.png|it is a symbolic link \\(to precious.txt\\). ${_link}"
             "symlink_chain|chain.png|it is a symbolic link \\(to link.png\\). ${_link}"
             "dangling_symlink|dangling.png|it is a symbolic link \\(to missing.png\\). ${_link}"
             "symlink_loop|loop.png|it is a symbolic link \\(to loop.png\\). ${_link}"
             "symlink_to_dev_null|devnull.png|it is a symbolic link \\(to /dev/null\\). ${_link}")
  string(REPLACE "|" ";" fields "${case}")
  list(GET fields 0 name)
  list(GET fields 1 path)
  list(GET fields 2 said)
  string(REPLACE "." "\\." path_rx "${path}")
  suite_add_error_test(NAME sweep3d_model.plot_path.${name} ONE_LINE TIMEOUT 20 WORKING_DIRECTORY ${_dir}
    EXPECT "^sweep3d-model: error: ${path_rx}: cannot write the plot: ${said}$"
    KEEP_FILE ${_dir}/precious.txt KEEP_TEXT precious
    COMMAND ${_model} --plot ${path})
  set_tests_properties(sweep3d_model.plot_path.${name} PROPERTIES FIXTURES_REQUIRED sweep3d_model_plot_path)
endforeach()
# No CSV beside a refused plot (it is written first when --csv is not given).
suite_add_error_test(NAME sweep3d_model.plot_path.no_csv_beside ONE_LINE TIMEOUT 20 WORKING_DIRECTORY ${_dir}
  EXPECT "^sweep3d-model: error: fifo\\.png: cannot write the plot: it is a FIFO, not a regular file. refusing to replace it$"
  NO_FILE ${_dir}/fifo.png.csv
  COMMAND ${_model} --plot fifo.png)
set_tests_properties(sweep3d_model.plot_path.no_csv_beside PROPERTIES FIXTURES_REQUIRED sweep3d_model_plot_path)
# The script's own refusals, folded: one line.
foreach(case "extension|out.xyz|suite-campaign plot sweep3d-model-scaling: out\\.xyz: expected a plot name ending in one of .*, found \"out\\.xyz\""
             "missing_folder|no/such/out.png|suite-campaign plot sweep3d-model-scaling: no/such/out\\.png: expected a path in an existing directory for the plot, found no directory \"no/such\"")
  string(REPLACE "|" ";" fields "${case}")
  list(GET fields 0 name)
  list(GET fields 1 path)
  list(GET fields 2 said)
  string(REPLACE "." "\\." path_rx "${path}")
  suite_add_error_test(NAME sweep3d_model.plot_path.script_${name} ONE_LINE TIMEOUT 30 WORKING_DIRECTORY ${_dir}
    EXPECT "^sweep3d-model: error: ${path_rx}: cannot write the plot: ${said}$"
    COMMAND sh -c "exec \"$@\" > /dev/null" sh ${_model} --csv script_${name}.csv --plot ${path})
  set_tests_properties(sweep3d_model.plot_path.script_${name} PROPERTIES FIXTURES_REQUIRED sweep3d_model_plot_path)
endforeach()
