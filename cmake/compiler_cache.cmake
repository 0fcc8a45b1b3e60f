# ccache, used automatically when installed (tools/setup.sh installs it) and no compiler launcher
# was chosen (-DCMAKE_CXX_COMPILER_LAUNCHER=..., or that variable in the environment; an empty
# value, -DCMAKE_CXX_COMPILER_LAUNCHER=, or -DSB_CCACHE=OFF turns it off). A second build, and
# CI's rebuild of files that did not change, then take seconds per file instead of a compile.
# CCACHE_DISABLE=1 in the environment bypasses the cache for one build (clean-build timings).
include_guard(GLOBAL)

option(SB_CCACHE "Compile through ccache when it is installed and no launcher is set" ON)

if(SB_CCACHE AND NOT DEFINED CMAKE_CXX_COMPILER_LAUNCHER AND NOT DEFINED CMAKE_C_COMPILER_LAUNCHER)
  find_program(SB_CCACHE_PROGRAM ccache)
  if(SB_CCACHE_PROGRAM)
    # Precompiled headers (cmake/precompiled_headers.cmake) are cached only with this sloppiness
    # (ccache(1), "Precompiled headers": the PCH hides __TIME__ and #defines from ccache; the
    # PCH is written during the build, so its time stamps are new), added to the user's own.
    execute_process(COMMAND ${SB_CCACHE_PROGRAM} --get-config sloppiness
                    OUTPUT_VARIABLE _sb_sloppiness OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    string(REPLACE " " "" _sb_sloppiness "${_sb_sloppiness}")
    string(REPLACE "," ";" _sb_sloppiness "${_sb_sloppiness}")
    list(APPEND _sb_sloppiness pch_defines time_macros include_file_mtime include_file_ctime)
    list(REMOVE_DUPLICATES _sb_sloppiness)
    list(REMOVE_ITEM _sb_sloppiness "")
    string(REPLACE ";" "," _sb_sloppiness "${_sb_sloppiness}")
    # A clone in another folder (CI clones main afresh) shares the cache: paths under the source
    # tree are hashed relative to it and the build folder is not hashed, unless the user's own
    # configuration says otherwise. The price, where it applies: the line tables' compilation
    # folder may name the clone that filled the cache (objects are otherwise identical).
    set(_sb_env CCACHE_SLOPPINESS=${_sb_sloppiness})
    execute_process(COMMAND ${SB_CCACHE_PROGRAM} --get-config base_dir
                    OUTPUT_VARIABLE _sb_base_dir OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    cmake_path(IS_PREFIX _sb_base_dir "${CMAKE_SOURCE_DIR}" NORMALIZE _sb_covered)
    if(_sb_base_dir STREQUAL "" OR NOT _sb_covered)
      list(APPEND _sb_env CCACHE_BASEDIR=${CMAKE_SOURCE_DIR})
    endif()
    execute_process(COMMAND ${SB_CCACHE_PROGRAM} --get-config hash_dir
                    OUTPUT_VARIABLE _sb_hash_dir OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(NOT _sb_hash_dir STREQUAL "false")
      list(APPEND _sb_env CCACHE_NOHASHDIR=1)
    endif()
    # A normal variable (not the cache): each target created below starts with it.
    set(_sb_launcher env ${_sb_env} ${SB_CCACHE_PROGRAM})
    set(CMAKE_C_COMPILER_LAUNCHER ${_sb_launcher})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${_sb_launcher})
    list(JOIN _sb_env " " _sb_env_text)
    message(STATUS "soapbench: compiling through ${SB_CCACHE_PROGRAM} (${_sb_env_text})")
  endif()
endif()
