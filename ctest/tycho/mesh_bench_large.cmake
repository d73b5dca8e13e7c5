# tycho_mesh_bench maps the mesh as read_smesh does (instrument::MappedInputFile) instead of
# reading it whole: a 5 GB sparse file of zeros is refused at its header at once, under a 1 GiB
# limit on the data segment that the old whole-file read (4.66 GiB) fails with a bad_alloc.
# Its count of reads is a strict whole number. (Under ASan the limit is left out: its shadow
# memory is a data mapping of terabytes.)
set(_dir ${CMAKE_CURRENT_BINARY_DIR}/tycho_mesh_bench_large)
set(_limited sh -c "ulimit -d 1048576 && exec \"$0\" \"$1\"")
if(SUITE_SANITIZE)
  set(_limited sh -c "exec \"$0\" \"$1\"")
endif()
file(MAKE_DIRECTORY ${_dir})
add_test(NAME tycho.mesh_bench_large.make_zeros COMMAND truncate -s 5000000000 ${_dir}/zeros.smesh)
set_tests_properties(tycho.mesh_bench_large.make_zeros PROPERTIES LABELS unit FIXTURES_SETUP tycho_mesh_bench_zeros)
suite_add_error_test(NAME tycho.mesh_bench_large.zeros_smesh ONE_LINE TIMEOUT 20
  EXPECT "^tycho_mesh_bench: error: .*/zeros.smesh:header: expected the format name \"Tycho 2 Serial Mesh\" zero-padded to 32 bytes, found \"(\\\\x00)+\\.\\.\\.\"$"
  COMMAND ${_limited} $<TARGET_FILE:tycho_mesh_bench> ${_dir}/zeros.smesh)
set_tests_properties(tycho.mesh_bench_large.zeros_smesh PROPERTIES FIXTURES_REQUIRED tycho_mesh_bench_zeros)
suite_add_error_test(NAME tycho.mesh_bench_large.reads_abc ONE_LINE TIMEOUT 20
  EXPECT "^tycho_mesh_bench: error: command line:N: expected a whole number in \\[1, 10000\\], got \"abc\"$"
  COMMAND $<TARGET_FILE:tycho_mesh_bench> ${_dir}/zeros.smesh abc)
