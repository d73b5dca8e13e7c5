# Huge inputs whose first bytes are wrong are refused at once, whatever their size: a 5 GB
# sparse file of zeros named .smesh or .msh. The mesh is mapped, not read, so the program
# runs under a 1 GiB limit on its data segment (`ulimit -d`): the old whole-file read of
# 5 GB fails that limit with a bad_alloc instead of the format error.
# (Under ASan the limit is left out: its shadow memory is a data mapping of terabytes.)
set(_dir ${CMAKE_CURRENT_BINARY_DIR}/tycho_large_inputs)
set(_limited sh -c "ulimit -d 1048576 && exec \"$0\" \"$1\"")
if(SUITE_SANITIZE)
  set(_limited sh -c "exec \"$0\" \"$1\"")
endif()
file(MAKE_DIRECTORY ${_dir})
foreach(ext smesh msh)
  add_test(NAME tycho.large_inputs.make_zeros_${ext}
           COMMAND truncate -s 5000000000 ${_dir}/zeros.${ext})
  set_tests_properties(tycho.large_inputs.make_zeros_${ext} PROPERTIES LABELS unit
                       FIXTURES_SETUP tycho_zeros_${ext})
endforeach()
suite_add_error_test(NAME tycho.large_inputs.zeros_smesh ONE_LINE TIMEOUT 20
  EXPECT "^tycho-mesh-info: error: .*/zeros.smesh:header: expected the format name \"Tycho 2 Serial Mesh\" zero-padded to 32 bytes, found \"(\\\\x00)+\\.\\.\\.\"$"
  COMMAND ${_limited} $<TARGET_FILE:tycho-mesh-info> ${_dir}/zeros.smesh)
suite_add_error_test(NAME tycho.large_inputs.zeros_msh ONE_LINE TIMEOUT 20
  EXPECT "^tycho-mesh-info: error: .*/zeros.msh:line 1: expected \\$MeshFormat, found \"(\\\\x00)+\\.\\.\\.\"$"
  COMMAND ${_limited} $<TARGET_FILE:tycho-mesh-info> ${_dir}/zeros.msh)
set_tests_properties(tycho.large_inputs.zeros_smesh PROPERTIES FIXTURES_REQUIRED tycho_zeros_smesh)
set_tests_properties(tycho.large_inputs.zeros_msh PROPERTIES FIXTURES_REQUIRED tycho_zeros_msh)
# A good $MeshFormat, then 5 GB of zeros: the next section header is looked for in its first
# 256 bytes only.
add_test(NAME tycho.large_inputs.make_header_then_zeros
         COMMAND sh -c "printf '$MeshFormat\\n4.1 0 8\\n$EndMeshFormat\\n' > \"$0\" && truncate -s 5000000000 \"$0\""
                 ${_dir}/header-then-zeros.msh)
set_tests_properties(tycho.large_inputs.make_header_then_zeros PROPERTIES LABELS unit
                     FIXTURES_SETUP tycho_header_then_zeros)
suite_add_error_test(NAME tycho.large_inputs.header_then_zeros_msh ONE_LINE TIMEOUT 20
  EXPECT "^tycho-mesh-info: error: .*/header-then-zeros.msh:line 4: expected a section header, found \"(\\\\x00)+\\.\\.\\.\"$"
  COMMAND ${_limited} $<TARGET_FILE:tycho-mesh-info> ${_dir}/header-then-zeros.msh)
set_tests_properties(tycho.large_inputs.header_then_zeros_msh PROPERTIES FIXTURES_REQUIRED tycho_header_then_zeros)
