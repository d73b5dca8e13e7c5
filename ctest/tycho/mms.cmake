# tycho-mms: the manufactured-solution table on the Kuhn cube 3^3 refined twice (LD: order
# 1.863 on the last pair for psi, 1.993 for phi; step: 0.941, 0.970), and bad options (one line).
set(_meshes ${SUITE_TEST_MESHES})
suite_add_expect_test(NAME tycho.mms.ld_kuhn_3
  EXPECT "scheme ld, source projected.*\n +1 +1296 +9.1720 +3.8[0-9]*e\\+01 +2.9[0-9]*e-02 +1.79[0-9] .*\n +2 +10368 +4.5860 +1.0[0-9]*e\\+01 +8.1[0-9]*e-03 +1.86[0-9] +2.5[0-9]*e\\+01 +5.7[0-9]*e-03 +1.99[0-9] +0 "
  COMMAND $<TARGET_FILE:tycho-mms> ${_meshes}/kuhn-3.smesh --levels 2)
suite_add_expect_test(NAME tycho.mms.step_kuhn_3
  EXPECT "scheme step, source projected.*\n +2 +10368 +4.5860 +1.4[0-9]*e\\+02 +1.1[0-9]*e-01 +0.94[0-9] +4.5[0-9]*e\\+02 +1.0[0-9]*e-01 +0.97[0-9] +0 "
  COMMAND $<TARGET_FILE:tycho-mms> ${_meshes}/kuhn-3.smesh --levels 2 --scheme step)
set_tests_properties(tycho.mms.ld_kuhn_3 tycho.mms.step_kuhn_3 PROPERTIES LABELS unit)
suite_add_error_test(NAME tycho.mms.bad_scheme ONE_LINE
  EXPECT "^tycho-mms: error: command line:--scheme: expected ld or step, got \"dd\"$"
  COMMAND $<TARGET_FILE:tycho-mms> ${_meshes}/kuhn-3.smesh --scheme dd)
suite_add_error_test(NAME tycho.mms.no_mesh ONE_LINE
  EXPECT "^tycho-mms: error: command line:MESH: expected the MESH argument \\(see tycho-mms --help\\)$"
  COMMAND $<TARGET_FILE:tycho-mms>)
