# The studies of campaigns/ (issue 38): each spec parses and plans (`suite-campaign run
# --dry-run`, campaign.specs.<name>), one that reads ../shared ({shared}) disabled when the
# Tycho2 meshes are not beside the checkout; and campaigns/smoke.toml run end to end
# (campaign.smoke: every app, the report, the exports; ~1 minute on 2 cores).
file(GLOB _campaign_specs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/campaigns/*.toml)
foreach(_spec ${_campaign_specs})
  get_filename_component(_name ${_spec} NAME_WE)
  add_test(NAME campaign.specs.${_name}
           COMMAND ${CAMPAIGN_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/test_campaign_specs.py
                   ${CMAKE_BINARY_DIR} ${_spec})
  set_tests_properties(campaign.specs.${_name} PROPERTIES LABELS "campaign")
  file(STRINGS ${_spec} _uses_shared REGEX "{shared}")
  if(_uses_shared)
    suite_uses_tycho2_meshes(campaign.specs.${_name})
  endif()
endforeach()
campaign_add_python_test(NAME smoke SCRIPT test_smoke_campaign.py LABELS mpi slow)
set_tests_properties(campaign.smoke PROPERTIES TIMEOUT 900)
# The real machine probes these campaigns start refuse an unphysical fit, and one measured
# while other tests load the 2 cores can be one: run them alone.
set_tests_properties(campaign.smoke PROPERTIES RUN_SERIAL TRUE)
