# tycho-mms: the manufactured-solution table on cube-208 refined twice (LD: order 1.887 on
# the last pair for psi, 1.985 for phi; step: 0.949, 0.981), and bad options (one line).
set(_meshes ${PROJECT_SOURCE_DIR}/../shared/meshes/tycho2)
suite_add_expect_test(NAME tycho.mms.ld_cube_208
  EXPECT "scheme ld, source projected.*\n +1 +1664 +8.4388 +2.7[0-9]*e\\+01 +2.1[0-9]*e-02 +1.80[0-9] .*\n +2 +13312 +4.2194 +7.5[0-9]*e\\+00 +5.7[0-9]*e-03 +1.88[0-9] +1.8[0-9]*e\\+01 +4.1[0-9]*e-03 +1.98[0-9] +0 "
  COMMAND $<TARGET_FILE:tycho-mms> ${_meshes}/cube-208.smesh --levels 2)
suite_add_expect_test(NAME tycho.mms.step_cube_208
  EXPECT "scheme step, source projected.*\n +2 +13312 +4.2194 +1.3[0-9]*e\\+02 +1.0[0-9]*e-01 +0.94[0-9] +4.0[0-9]*e\\+02 +9.0[0-9]*e-02 +0.98[0-9] +0 "
  COMMAND $<TARGET_FILE:tycho-mms> ${_meshes}/cube-208.smesh --levels 2 --scheme step)
set_tests_properties(tycho.mms.ld_cube_208 tycho.mms.step_cube_208 PROPERTIES LABELS unit)
suite_add_error_test(NAME tycho.mms.bad_scheme ONE_LINE
  EXPECT "^tycho-mms: error: command line:--scheme: expected ld or step, got \"dd\"$"
  COMMAND $<TARGET_FILE:tycho-mms> ${_meshes}/cube-208.smesh --scheme dd)
suite_add_error_test(NAME tycho.mms.no_mesh ONE_LINE
  EXPECT "^tycho-mms: error: command line: expected a mesh; usage: tycho-mms MESH "
  COMMAND $<TARGET_FILE:tycho-mms>)
