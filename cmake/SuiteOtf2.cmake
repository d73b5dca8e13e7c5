# The OTF2 library (Debian: libotf2-trace-dev), for instrument-trace-export's OTF2 archives:
# found with otf2-config, the way its documentation says to build against it, else with
# pkg-config. Required: scripts/install-deps.sh installs it.
find_program(SUITE_OTF2_CONFIG otf2-config)
if(SUITE_OTF2_CONFIG)
  foreach(_what cflags ldflags libs)
    execute_process(COMMAND ${SUITE_OTF2_CONFIG} --${_what} OUTPUT_VARIABLE _otf2_${_what}
                    OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "${SUITE_OTF2_CONFIG} --${_what} failed (exit ${_rc}): reinstall libotf2-trace-dev")
    endif()
    separate_arguments(_otf2_${_what} UNIX_COMMAND "${_otf2_${_what}}")
  endforeach()
  set(_otf2_includes ${_otf2_cflags})
  list(FILTER _otf2_includes INCLUDE REGEX "^-I")
  list(TRANSFORM _otf2_includes REPLACE "^-I" "")
  list(REMOVE_ITEM _otf2_includes /usr/include)  # -isystem /usr/include breaks <cstdlib>'s include_next
  add_library(suite_otf2 INTERFACE)
  target_include_directories(suite_otf2 SYSTEM INTERFACE ${_otf2_includes})
  target_link_options(suite_otf2 INTERFACE ${_otf2_ldflags})
  target_link_libraries(suite_otf2 INTERFACE ${_otf2_libs})
else()
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(SUITE_OTF2 IMPORTED_TARGET otf2)
  endif()
  if(NOT SUITE_OTF2_FOUND)
    message(FATAL_ERROR "OTF2 not found (neither otf2-config nor pkg-config's otf2): instrument-trace-export "
                        "writes OTF2 archives with it. Install libotf2-trace-dev (scripts/install-deps.sh) "
                        "or give its bin directory in PATH.")
  endif()
  add_library(suite_otf2 INTERFACE)
  target_link_libraries(suite_otf2 INTERFACE PkgConfig::SUITE_OTF2)
endif()
