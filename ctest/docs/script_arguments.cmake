# The scripts of scripts/ on arguments they do not take: one line naming the argument and what
# was expected, exit 2, before anything is installed, built or run (fuzz.sh once took `--help`
# for a target name and began clang's build of every target; main-job.sh ignored it and began
# the main job). Each one's -h prints the usage in its header (scripts/usage.sh).
set(_scripts ${PROJECT_SOURCE_DIR}/scripts)
# The known targets listed in the line (fuzz/*_fuzzer.cpp): the first two and the last named
# here, so a new target that sorts before bsp_profile, between them or after tycho_mesh
# needs this pattern changed.
set(_targets "bsp_profile deck [^)]*tycho_mesh")
foreach(_case "unknown_option|--bogus" "unknown_target|5|decky" "seconds_not_first|5|deck|10")
  string(REPLACE "|" ";" _f "${_case}")
  list(POP_FRONT _f _name)
  list(GET _f -1 _said)
  suite_add_error_test(NAME docs.script.fuzz_${_name} ONE_LINE LABELS unit
    EXPECT "^fuzz: '${_said}': expected SECONDS_PER_TARGET first, then target names of fuzz/ .${_targets}.. -h for help$"
    COMMAND bash ${_scripts}/fuzz.sh ${_f})
endforeach()
suite_add_error_test(NAME docs.script.main-job_argument ONE_LINE LABELS unit
  EXPECT "^main-job.sh: '--bogus': expected no arguments .the settings are environment variables: OUT_DIR, BUILD_DIR, BUILD_TYPE.. -h for help$"
  COMMAND bash ${_scripts}/main-job.sh --bogus)
suite_add_error_test(NAME docs.script.install-deps_argument ONE_LINE LABELS unit
  EXPECT "^install-deps.sh: 'x': expected no arguments. -h for help$"
  COMMAND bash ${_scripts}/install-deps.sh x)
# replay-validation.sh: its build directory, its number of pairs, at most three arguments.
set(_rv_build "expected a build directory with sweep3d/sweep3d, instrument/instrument-replay and instrument/loggps-probe")
foreach(_case "not_a_build|'--bogus': ${_rv_build}|--bogus"
              "pairs|'two': expected PAIRS, a positive number of run pairs|${PROJECT_BINARY_DIR}|m.machine|two"
              "too_many|'4': expected at most BUILD_DIR MACHINE_FILE PAIRS|${PROJECT_BINARY_DIR}|m.machine|3|4")
  string(REPLACE "|" ";" _f "${_case}")
  list(POP_FRONT _f _name _said)
  suite_add_error_test(NAME docs.script.replay-validation_${_name} ONE_LINE LABELS unit
    EXPECT "^replay-validation.sh: ${_said}. -h for help$"
    COMMAND bash ${_scripts}/replay-validation.sh ${_f})
endforeach()
# -h and --help: the header's first line, whatever the directory the script is run from.
set(_first_lines
    "fuzz|Fuzzing .fuzz/README.md.: builds the libFuzzer targets"
    "main-job|README command .1.: set up, build, and run the validation job"
    "test|README command .2.: set up, build .warnings are errors., and pass every test"
    "build|Configures and builds the suite into"
    "install-deps|Installs the Debian packages the suite needs"
    "replay-validation|The recorded-run validation of the replay engine"
    "slurm-local|Starts or stops a private one-node Slurm")
foreach(_case ${_first_lines})
  string(REPLACE "|" ";" _f "${_case}")
  list(GET _f 0 _script)
  list(GET _f 1 _line)
  foreach(_flag -h --help)
    suite_add_expect_test(NAME docs.script.${_script}_help${_flag}
      EXPECT "^${_line}"
      WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}
      COMMAND bash ${_scripts}/${_script}.sh ${_flag})
    set_tests_properties(docs.script.${_script}_help${_flag} PROPERTIES LABELS unit)
  endforeach()
endforeach()
