# Warnings and sanitizers applied to every target the suite builds.
add_library(suite_options INTERFACE)
target_compile_options(suite_options INTERFACE -Wall -Wextra -Wpedantic)
if(SUITE_WERROR)
  target_compile_options(suite_options INTERFACE -Werror)
endif()
if(SUITE_SANITIZE)
  target_compile_options(suite_options INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
                         -fno-sanitize-recover=undefined)
  target_link_options(suite_options INTERFACE -fsanitize=address,undefined)
endif()
