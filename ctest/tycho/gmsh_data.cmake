# The .msh test files (gmsh_data/, made by gmsh_data/make.sh) for the gmsh unit tests.
foreach(_t tycho_unit_gmsh_read tycho_unit_gmsh_errors)
  if(TARGET ${_t})
    target_compile_definitions(${_t} PRIVATE TYCHO_GMSH_DATA_DIR="${CMAKE_CURRENT_SOURCE_DIR}/gmsh_data")
  endif()
endforeach()
