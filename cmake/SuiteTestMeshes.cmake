# The meshes the tests run on, and the Tycho2 meshes a few of them compare with.
#
# A clone has everything its tests need: the meshes are made by the suite's own
# tycho-mesh-example (Kuhn cubes of [0,100]^3, the size of LANL's Tycho2 meshes, which the
# default problem's cross sections are set for) when the tests run, by the fixture test
# meshes.make, into ${SUITE_TEST_MESHES}:
#   kuhn-2.smesh    48 cells  (2^3 Kuhn cubes)   the small mesh of the error and path tests
#   kuhn-3.smesh   162 cells                     the MMS table, the scripts' damaged inputs
#   kuhn-6.smesh  1296 cells                     runs, digests, models, materials, METIS
#   kuhn-12.smesh 10368 cells                    the main job's mesh (memory checks)
# A test that reads one calls suite_uses_test_meshes(its name).
#
# Tests whose point is Tycho2's own meshes (reading them as shipped, figures quoted against
# them) keep reading ../shared/meshes/tycho2 beside the checkout, which a clone does not have:
# suite_uses_tycho2_meshes(names) disables them when it is absent, and configure says which.
#
# `cmake -P` of this file is the fixture's script: -DTOOL=tycho-mesh-example -DDIR=out.
if(CMAKE_SCRIPT_MODE_FILE)
  file(MAKE_DIRECTORY ${DIR})
  foreach(n 2 3 6 12)
    execute_process(COMMAND ${TOOL} kuhn-cube ${DIR}/kuhn-${n}.smesh --cube ${n} --side 100
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "meshes.make: ${TOOL} kuhn-cube ${DIR}/kuhn-${n}.smesh --cube ${n} failed: ${rc}")
    endif()
  endforeach()
  return()
endif()

set(SUITE_TEST_MESHES ${CMAKE_BINARY_DIR}/test-meshes)
add_test(NAME meshes.make
         COMMAND ${CMAKE_COMMAND} -DTOOL=$<TARGET_FILE:tycho-mesh-example> -DDIR=${SUITE_TEST_MESHES}
                 -P ${CMAKE_CURRENT_LIST_FILE})
set_tests_properties(meshes.make PROPERTIES LABELS unit FIXTURES_SETUP suite_test_meshes)

function(suite_uses_test_meshes)
  set_property(TEST ${ARGN} APPEND PROPERTY FIXTURES_REQUIRED suite_test_meshes)
endfunction()

set(SUITE_TYCHO2_MESHES ${PROJECT_SOURCE_DIR}/../shared/meshes/tycho2)
if(EXISTS ${SUITE_TYCHO2_MESHES}/cube-10717.smesh)
  set(SUITE_HAVE_TYCHO2_MESHES TRUE)
else()
  set(SUITE_HAVE_TYCHO2_MESHES FALSE)
  message(STATUS "Tycho2's meshes are not in ${SUITE_TYCHO2_MESHES}: the tests that compare with them are disabled")
endif()

function(suite_uses_tycho2_meshes)
  if(NOT SUITE_HAVE_TYCHO2_MESHES)
    set_tests_properties(${ARGN} PROPERTIES DISABLED TRUE)
  endif()
endfunction()
