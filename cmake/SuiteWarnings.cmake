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
  # GCC 12 reports -Wmaybe-uninitialized false positives inside libstdc++ (std::regex, used
  # by Catch2) once the sanitizers' instrumentation changes inlining: not our code.
  target_compile_options(suite_options INTERFACE -Wno-maybe-uninitialized)
endif()
