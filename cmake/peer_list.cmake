# The peer list, declared where each peer is built: peers/<stack>/CMakeLists.txt calls sb_peer()
# once per stack it holds, before anything that needs the stack's packages (so a peer that is not
# built is still listed, its interop cells "off"). peers/CMakeLists.txt then generates the list
# from the declarations (sb_generate_peer_list): peer_list.inc, which harness/peer_list.cpp
# compiles into `soapbench interop`, `soapbench list --peers [--json]` and stacks_bench; the
# tools read `soapbench list --peers --json` (tools/sbtools/peers.py), the report the
# declarations themselves. So a new peer is its folder and its declaration (docs/architecture.md
# "Adding a peer"; every field: docs/peers.md "Declaring a peer").

include_guard(GLOBAL)

# Where the generated list is written (harness/CMakeLists.txt compiles peer_list.cpp against it).
set(SB_PEER_LIST_DIR ${CMAKE_BINARY_DIR}/generated/peers)

set(_sb_peer_flags ONE_FAMILY BATCH_CLIENT JVM LOAD)
set(_sb_peer_values HAVE LABEL SERVER CLIENT DRIFT_ULPS PARSER CPU_TARGET CLOSES PROTOCOL TRANSPORT)
set(_sb_peer_lists FAMILIES DEPENDS OPERATIONS UNEXPRESSIBLE NO_COMMON_PROTOCOL)

# sb_peer(<name> LABEL <text> FAMILIES <family>... SERVER <program>
#         [HAVE <switch>] [CLIENT <program>] [DEPENDS <target>...] [ONE_FAMILY] [BATCH_CLIENT]
#         [JVM] [DRIFT_ULPS <n>] [OPERATIONS <operation>...] [UNEXPRESSIBLE <operation> <why>...]
#         [NO_COMMON_PROTOCOL <peer>...] [LOAD] [PARSER <text>] [CPU_TARGET <ratio>]
#         [CLOSES <text>] [PROTOCOL <text>] [TRANSPORT <text>])
# A <program> is a file of this folder (a script), an absolute path (a generated launcher) or a
# target of this build (an executable, defined later in the folder); DEPENDS names the targets a
# file program needs built (a launcher's jar).
# HAVE: the switch of cmake/dependencies.cmake the peer is built under (default: always).
function(sb_peer name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "${_sb_peer_flags}" "${_sb_peer_values}"
                        "${_sb_peer_lists}")
  set(usage "sb_peer(<name> LABEL <text> FAMILIES <family>... SERVER <program> ...): see "
            "cmake/peer_list.cmake")
  if(NOT name MATCHES "^[a-z][a-z0-9-]*$" OR NOT arg_LABEL OR NOT arg_FAMILIES OR NOT arg_SERVER
     OR arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "sb_peer(${name} ...): expected ${usage} (left over: "
                        "${arg_UNPARSED_ARGUMENTS})")
  endif()
  get_property(declared GLOBAL PROPERTY SB_PEERS)
  if(name IN_LIST declared)
    message(FATAL_ERROR "sb_peer(${name} ...): ${name} is declared twice")
  endif()
  if(arg_BATCH_CLIENT AND NOT arg_CLIENT)
    message(FATAL_ERROR "sb_peer(${name} ...): BATCH_CLIENT without a CLIENT")
  endif()
  list(LENGTH arg_UNEXPRESSIBLE n)
  math(EXPR odd "${n} % 2")
  if(odd)
    message(FATAL_ERROR "sb_peer(${name} ...): UNEXPRESSIBLE takes pairs <operation> <why>")
  endif()
  if(arg_DRIFT_ULPS AND NOT arg_DRIFT_ULPS MATCHES "^[0-9]+$")
    message(FATAL_ERROR "sb_peer(${name} ...): DRIFT_ULPS ${arg_DRIFT_ULPS} is not a count")
  endif()
  if(arg_CPU_TARGET AND NOT arg_CPU_TARGET MATCHES "^[0-9]+([.][0-9]+)?$")
    message(FATAL_ERROR "sb_peer(${name} ...): CPU_TARGET ${arg_CPU_TARGET} is not a ratio")
  endif()
  set(built ON)
  if(arg_HAVE AND NOT ${arg_HAVE})
    set(built OFF)
  endif()
  foreach(program SERVER CLIENT)  # a file of this folder: made absolute, where the folder is known
    if(arg_${program} AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${arg_${program}})
      set(arg_${program} ${CMAKE_CURRENT_SOURCE_DIR}/${arg_${program}})
    endif()
    if(IS_ABSOLUTE "${arg_${program}}")  # "dir/../x" named as "x"
      cmake_path(NORMAL_PATH arg_${program})
    endif()
  endforeach()
  set_property(GLOBAL APPEND PROPERTY SB_PEERS ${name})
  set_property(GLOBAL PROPERTY SB_PEER_${name}_BUILT ${built})
  foreach(field IN LISTS _sb_peer_flags _sb_peer_values _sb_peer_lists)
    set_property(GLOBAL PROPERTY SB_PEER_${name}_${field} "${arg_${field}}")
  endforeach()
endfunction()

# sb_peer_field(<name> <FIELD> <out_var>): a declared field read back, for the peer's own code
# (e.g. its DRIFT_ULPS as a compile definition), so the fact stays written once.
function(sb_peer_field name field out_var)
  get_property(value GLOBAL PROPERTY SB_PEER_${name}_${field})
  set(${out_var} "${value}" PARENT_SCOPE)
endfunction()

# A CMake string as a C++ string literal.
function(_sb_cxx_string value out_var)
  string(REPLACE "\\" "\\\\" value "${value}")
  string(REPLACE "\"" "\\\"" value "${value}")
  set(${out_var} "\"${value}\"" PARENT_SCOPE)
endfunction()

# A CMake list as a braced list of C++ string literals.
function(_sb_cxx_strings list out_var)
  set(items "")
  foreach(item IN LISTS list)
    _sb_cxx_string("${item}" quoted)
    list(APPEND items "${quoted}")
  endforeach()
  list(JOIN items ", " joined)
  set(${out_var} "{${joined}}" PARENT_SCOPE)
endfunction()

# The path of a declared program (a target's file, or the file itself) into out_var, and the
# targets it needs built appended to deps_var.
function(_sb_peer_program value out_var deps_var)
  set(deps ${${deps_var}})
  if(value AND TARGET ${value})
    set(${out_var} "$<TARGET_FILE:${value}>" PARENT_SCOPE)
    list(APPEND deps ${value})
  elseif(value AND NOT IS_ABSOLUTE "${value}")
    message(FATAL_ERROR "sb_peer(): the program ${value} is no target, file or absolute path")
  else()
    set(${out_var} "${value}" PARENT_SCOPE)
  endif()
  set(${deps_var} "${deps}" PARENT_SCOPE)
endfunction()

# One peer's row of peer_list.inc (a harness/peer_list.h Peer); its programs are started by path
# by `starters`, so their links wait for the programs (sb_starts_programs).
function(_sb_peer_row name starters out_var)
  foreach(field IN ITEMS BUILT LISTS _sb_peer_flags _sb_peer_values _sb_peer_lists)
    get_property(${field} GLOBAL PROPERTY SB_PEER_${name}_${field})
  endforeach()
  set(server "")
  set(client "")
  set(deps "")
  if(BUILT)
    _sb_peer_program("${SERVER}" server deps)
    _sb_peer_program("${CLIENT}" client deps)
    list(APPEND deps ${DEPENDS})
    foreach(starter IN LISTS starters)
      sb_starts_programs(${starter} ${deps})
    endforeach()
  endif()
  foreach(text name LABEL server client PARSER CLOSES PROTOCOL TRANSPORT)
    _sb_cxx_string("${${text}}" ${text}_cxx)
  endforeach()
  foreach(list FAMILIES OPERATIONS NO_COMMON_PROTOCOL)
    _sb_cxx_strings("${${list}}" ${list}_cxx)
  endforeach()
  set(unexpressible "")
  while(UNEXPRESSIBLE)
    list(POP_FRONT UNEXPRESSIBLE operation why)
    _sb_cxx_string("${operation}" operation)
    _sb_cxx_string("${why}" why)
    list(APPEND unexpressible "{${operation}, ${why}}")
  endwhile()
  list(JOIN unexpressible ", " unexpressible)
  foreach(flag BUILT ONE_FAMILY BATCH_CLIENT JVM LOAD)
    set(${flag}_cxx false)
    if(${flag})
      set(${flag}_cxx true)
    endif()
  endforeach()
  set(has_client false)
  if(CLIENT)
    set(has_client true)
  endif()
  if(NOT DRIFT_ULPS)
    set(DRIFT_ULPS 0)
  endif()
  if(NOT CPU_TARGET)
    set(CPU_TARGET 0)
  endif()
  set(row "{.name = ${name_cxx},\n .label = ${LABEL_cxx},\n .families = ${FAMILIES_cxx},\n")
  string(APPEND row " .built = ${BUILT_cxx},\n .server = ${server_cxx},\n"
         " .has_client = ${has_client},\n .client = ${client_cxx},\n"
         " .batch_client = ${BATCH_CLIENT_cxx},\n .one_family = ${ONE_FAMILY_cxx},\n"
         " .jvm = ${JVM_cxx},\n .drift_ulps = ${DRIFT_ULPS},\n .operations = ${OPERATIONS_cxx},\n"
         " .unexpressible = {${unexpressible}},\n"
         " .no_common_protocol = ${NO_COMMON_PROTOCOL_cxx},\n .load = ${LOAD_cxx},\n"
         " .parser = ${PARSER_cxx},\n .cpu_target = ${CPU_TARGET},\n .closes = ${CLOSES_cxx},\n"
         " .protocol = ${PROTOCOL_cxx},\n .transport = ${TRANSPORT_cxx}},\n")
  set(${out_var} "${row}" PARENT_SCOPE)
endfunction()

# sb_generate_peer_list(<starter target>...): writes SB_PEER_LIST_DIR/peer_list.inc, one row per
# declared peer in declaration order, after every peer folder has declared; each starter (the
# programs that start peers by path: soapbench, stacks_bench) waits at its link for the peers'
# programs. A NO_COMMON_PROTOCOL naming no declared peer is an error here.
function(sb_generate_peer_list)
  get_property(peers GLOBAL PROPERTY SB_PEERS)
  set(rows "")
  foreach(name IN LISTS peers)
    get_property(others GLOBAL PROPERTY SB_PEER_${name}_NO_COMMON_PROTOCOL)
    foreach(other IN LISTS others)
      if(NOT other IN_LIST peers)
        message(FATAL_ERROR "sb_peer(${name} ...): NO_COMMON_PROTOCOL ${other}: no such peer")
      endif()
    endforeach()
    _sb_peer_row(${name} "${ARGN}" row)
    string(APPEND rows "${row}")
  endforeach()
  set(header "// Generated by peers/CMakeLists.txt from the sb_peer() declarations of\n")
  string(APPEND header "// peers/*/CMakeLists.txt (cmake/peer_list.cmake); do not edit.\n")
  file(GENERATE OUTPUT ${SB_PEER_LIST_DIR}/peer_list.inc CONTENT "${header}${rows}")
endfunction()
