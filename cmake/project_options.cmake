# Compiler settings shared by every project target: link sb::options.
include_guard(GLOBAL)

add_library(sb_options INTERFACE)
add_library(sb::options ALIAS sb_options)
target_compile_options(sb_options INTERFACE -Wall -Wextra -Werror)

if(SB_SANITIZE)
  # Sanitizers apply to every target (third-party code compiled here too) so reports are complete.
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()

# Version header: project version + git sha, refreshed on every build (only rewritten on change).
set(SB_GENERATED_DIR "${CMAKE_BINARY_DIR}/generated")
add_custom_target(sb_version_header
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_SOURCE_DIR} -DOUT=${SB_GENERATED_DIR}/sb_version.h
          -DVERSION=${PROJECT_VERSION} -P ${CMAKE_SOURCE_DIR}/cmake/write_version.cmake
  BYPRODUCTS ${SB_GENERATED_DIR}/sb_version.h
  COMMENT "soapbench version header")
add_library(sb_version INTERFACE)
add_dependencies(sb_version sb_version_header)
target_include_directories(sb_version INTERFACE ${SB_GENERATED_DIR})
