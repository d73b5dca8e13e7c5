# `suite-campaign plot KIND ARGS...` and `suite-campaign superstep-kinds ARGS...` hand their
# arguments to the figure or tool as given (the figures' own checks are tested with each
# app's scripts.cmake): an unknown kind is one line and exit 2; a figure's --help is the
# figure's, not plot's; superstep-kinds takes --steps before the profiles (argparse would
# take a leading --steps for an option of suite-campaign's own).
set(_campaign /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tools/suite-campaign)
suite_add_error_test(NAME campaign.plot.unknown_kind ONE_LINE
  EXPECT "^suite-campaign: error: argument KIND: invalid choice: 'nope' .choose from 'bsp-profile', 'multigrid-cycle', 'multigrid-projection', 'tycho-projection', 'sweep3d-model-scaling', 'kba-replay-scaling'.$"
  COMMAND ${_campaign} plot nope x.csv x.png)
suite_add_expect_test(NAME campaign.plot.kinds_listed
  EXPECT "\n  bsp-profile [^\n]*\n(.*\n)?  multigrid-cycle [^\n]*\n(.*\n)?  multigrid-projection [^\n]*\n(.*\n)?  tycho-projection [^\n]*\n(.*\n)?  sweep3d-model-scaling [^\n]*\n(.*\n)?  kba-replay-scaling "
  COMMAND ${_campaign} plot --help)
suite_add_expect_test(NAME campaign.plot.figure_help
  EXPECT "^usage: suite-campaign plot multigrid-cycle [^\n]*\n[^\n]*run out MACHINE"
  COMMAND ${_campaign} plot multigrid-cycle --help)
suite_add_expect_test(NAME campaign.superstep_kinds.steps_first
  EXPECT "^1 cyclic shift +median  280.00 us over 1 supersteps\nempty +median   90.00 us over 1 supersteps\n[^\n]*/fixed_profile.csv: 2 of 2 within 25% of their kind's median\n$"
  COMMAND ${_campaign} superstep-kinds --steps 0 5 ${PROJECT_SOURCE_DIR}/ctest/bsplib/fixed_profile.csv)
# Format 3 (the pushes and pops columns): the same supersteps, read by the same rules.
suite_add_expect_test(NAME campaign.superstep_kinds.format_3
  EXPECT "^1 cyclic shift +median  280.00 us over 1 supersteps\nempty, popped +median   90.00 us over 1 supersteps\n[^\n]*/fixed_profile_registrations.csv: 2 of 2 within 25% of their kind's median\n$"
  COMMAND ${_campaign} superstep-kinds --steps 0 5 ${PROJECT_SOURCE_DIR}/ctest/bsplib/fixed_profile_registrations.csv)
set_tests_properties(campaign.plot.unknown_kind campaign.plot.kinds_listed campaign.plot.figure_help
  campaign.superstep_kinds.steps_first campaign.superstep_kinds.format_3 PROPERTIES LABELS "campaign;unit")
