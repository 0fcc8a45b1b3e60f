# Precompiled headers for the heavy third-party header sets, in the sanitizer build. Each set is
# compiled once, by a host target of its own (sb_pch_<set>: one object, the header set, the flags
# every project target has), and every target that includes the set starts from it (REUSE_FROM).
# -Winvalid-pch is on (CMake) and so is -Werror: a consumer whose flags do not match the host's
# fails the build instead of silently parsing the headers again.
#
# Measured (docs/building.md): with clang (the sanitizer build) a Beast or GoogleTest file
# compiles 0.5-3 s faster from the PCH, a gain over the PCH's own cost. With g++ -O2 (the release
# build) there is none: parsing is a small part of these files, and a PCH of Asio or CLI11 adds
# 2-5 s to every file that uses it (their namespace-scope objects are compiled in each), so the
# release build has no PCH. There it would also change code that is timed: a PCH holding more
# headers than a file includes leaves what the file does alone but moves GCC's register choices
# in some functions (72 of the 1,302 functions of server/http_session.cpp's object).
include_guard(GLOBAL)

option(SB_PCH "Precompile the heavy third-party header sets (on in the sanitizer build)" ${SB_SANITIZE})

# sb_pch_set(<set> LINK <library>... HEADERS <header>...): the host of one header set; LINK
# names the libraries whose include paths and compile definitions the headers need (every
# consumer links them too, so the definitions match).
function(sb_pch_set set)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "LINK;HEADERS")
  if(NOT SB_PCH)
    return()
  endif()
  # Built only for the targets that use it (REUSE_FROM makes them depend on it).
  add_library(sb_pch_${set} OBJECT EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/cmake/pch_host.cpp)
  target_link_libraries(sb_pch_${set} PRIVATE sb::options ${arg_LINK})
  target_precompile_headers(sb_pch_${set} PRIVATE ${arg_HEADERS})
endfunction()

# sb_use_pch(<target> <set> [ONLY <source>...]): <target>'s sources (or only those listed) start
# from the precompiled <set>; the others parse their headers as before.
function(sb_use_pch target set)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "ONLY")
  if(NOT SB_PCH)
    return()
  endif()
  target_precompile_headers(${target} REUSE_FROM sb_pch_${set})
  if(arg_ONLY)
    get_target_property(others ${target} SOURCES)
    list(REMOVE_ITEM others ${arg_ONLY})
    set_source_files_properties(${others} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
  endif()
endfunction()
