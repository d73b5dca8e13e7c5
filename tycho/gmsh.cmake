# Gmsh .msh readers (4.1 and 2.2, ASCII and binary) and read_mesh, which picks the reader by
# the file's extension. Included by CMakeLists.txt (a part file: see there).
target_sources(tycho_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/src/gmsh_cursor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/gmsh_element_types.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/gmsh_content.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/gmsh_msh4.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/gmsh_msh2.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/gmsh_reader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/mesh_reader.cpp)
