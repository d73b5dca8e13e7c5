# two_grid.py imported numpy and scipy when loaded, outside tools/suite_inputs.py's run(): with
# them missing (python3 -S: no site packages) the refusal was a 7-line traceback. Now main()
# imports them inside run(): one line naming the package (issue 36).
suite_add_error_test(NAME multigrid.two_grid.without_numpy ONE_LINE
  EXPECT "^two_grid.py: cannot import numpy .No module named 'numpy'.: run under /usr/bin/python3 with Debian's python3-numpy$"
  COMMAND /usr/bin/python3 -S ${PROJECT_SOURCE_DIR}/multigrid/scripts/two_grid.py
          ${SUITE_TEST_MESHES}/kuhn-2.smesh)
