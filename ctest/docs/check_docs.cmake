# The docs check (tools/check_docs.py): the READMEs and docs/ name only programs that are
# built, options their --help lists and files that exist; README.md's one-screen limits.
# docs.check reads this build's programs, so it runs after everything is built; its
# self-test runs the checker on small bad pages in a scratch folder, so it can fail.
set(_py /usr/bin/python3)
add_test(NAME docs.check
         COMMAND ${_py} ${PROJECT_SOURCE_DIR}/tools/check_docs.py ${PROJECT_BINARY_DIR}
                 --source ${PROJECT_SOURCE_DIR})
set_tests_properties(docs.check PROPERTIES LABELS unit TIMEOUT 300)
if(SUITE_SANITIZE)
  # The check runs every named program's --help; MPICH 4.0 leaks at MPI_Finalize, which
  # would fail the check for the library's leak, not the docs'.
  set_tests_properties(docs.check PROPERTIES ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
endif()
add_test(NAME docs.check_finds_problems
         COMMAND ${_py} ${CMAKE_CURRENT_SOURCE_DIR}/check_docs_selftest.py
                 ${PROJECT_SOURCE_DIR}/tools/check_docs.py ${CMAKE_CURRENT_BINARY_DIR}/selftest)
set_tests_properties(docs.check_finds_problems PROPERTIES LABELS unit TIMEOUT 60)
