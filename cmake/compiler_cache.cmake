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
    # A normal variable (not the cache): each target created below starts with it.
    set(_sb_launcher env CCACHE_SLOPPINESS=${_sb_sloppiness} ${SB_CCACHE_PROGRAM})
    set(CMAKE_C_COMPILER_LAUNCHER ${_sb_launcher})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${_sb_launcher})
    message(STATUS "soapbench: compiling through ${SB_CCACHE_PROGRAM} (sloppiness ${_sb_sloppiness})")
  endif()
endif()
