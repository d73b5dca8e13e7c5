# SUITE_FUZZ=ON: a build of the libFuzzer targets in fuzz/ and nothing else (scripts/fuzz.sh
# makes it, in build-fuzz, with clang). Every library the targets link is compiled with
# libFuzzer's coverage instrumentation and ASan + UBSan, so a finding inside a parser (not
# only in the target's own code) is seen and steers the fuzzer; the targets themselves link
# libFuzzer's main. MPI and HDF5 are linked as usual, but MPI is never initialised.
option(SUITE_FUZZ "Build only the libFuzzer targets (clang; see fuzz/README.md)" OFF)

if(SUITE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "SUITE_FUZZ needs clang (libFuzzer): configure with CC=clang "
                        "CXX=clang++, or run scripts/fuzz.sh")
  endif()
  if(SUITE_SANITIZE)
    message(FATAL_ERROR "SUITE_FUZZ already builds with ASan + UBSan; leave SUITE_SANITIZE off")
  endif()
  # -fno-sanitize-recover: a UBSan report ends the run, so libFuzzer records it as a crash.
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=address,undefined)
  # The libraries fuzz/ links are defined after this file is included; CMake resolves
  # target names when it generates, so they may be named before they exist.
  add_subdirectory(${PROJECT_SOURCE_DIR}/fuzz ${PROJECT_BINARY_DIR}/fuzz)
endif()
