# Compiler settings shared by every project target: link sb::options.
include_guard(GLOBAL)

add_library(sb_options INTERFACE)
add_library(sb::options ALIAS sb_options)
target_compile_options(sb_options INTERFACE -Wall -Wextra -Werror)

if(NOT SB_SANITIZE)
  add_compile_definitions(SB_ASAN=0)
endif()
if(SB_SANITIZE)
  # Sanitizers apply to every target (third-party code compiled here too) so reports are complete.
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  # SB_ASAN: code that must know (g++ defines __SANITIZE_ADDRESS__, clang 14 does not).
  add_compile_definitions(SB_ASAN=1)
  add_link_options(-fsanitize=address,undefined)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    # Coverage for libFuzzer (tests/fuzz): every project target is instrumented, so the fuzz
    # targets are guided by the adapters, codecs and server they drive.
    add_compile_options(-fsanitize=fuzzer-no-link)
  endif()
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

# RapidJSON 1.1.0 has undefined behaviour that UBSan reports from inside its headers, so the
# files that include RapidJSON (call in the directory that owns them) build without UBSan;
# AddressSanitizer stays on for them and everything else keeps every check:
# - internal::Stack adds offsets to a null pointer (fixed upstream after 1.1.0);
# - full-precision parsing of a zero significand with an exponent outside the fast path
#   ("-0e99") normalises a zero DiyFp: clz(0), then shifts by and adds the garbage exponent
#   (found by the fuzz smoke: builtin, shift and signed-integer-overflow reports in a chain).
#   Its table lookups use the decimal exponent, which stays bounded, so memory is safe; the value
#   is garbage, which the adapters correct (parsers/rapidjson_numbers.h; DecodeNumbersTest).
function(sb_rapidjson_sources)
  if(SB_SANITIZE AND CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    set_property(SOURCE ${ARGN} APPEND PROPERTY COMPILE_OPTIONS -fno-sanitize=undefined)
  endif()
endfunction()

# sb_starts_programs(<target> <program>...): <target> starts each <program> (an executable or an
# add_jar target) by path when it runs, so the program is built before <target> is linked. Not
# add_dependencies(): with Ninja that holds every object of <target> until the programs are
# linked, which ran the end of the build one compile at a time (the peers, then soapbench's
# unity file, then stacks_bench's eleven files). Only the link step waits here.
function(sb_starts_programs target)
  foreach(program IN LISTS ARGN)
    get_target_property(_jar ${program} JAR_FILE)
    if(_jar)
      set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${_jar})
    else()
      set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS $<TARGET_FILE:${program}>)
    endif()
  endforeach()
endfunction()
