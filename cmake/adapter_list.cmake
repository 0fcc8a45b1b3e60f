# The adapter list, declared where each parser library is found: the library's block in
# cmake/dependencies.cmake ends with one sb_adapter() call naming the adapters it enables.
# parsers/CMakeLists.txt compiles the declared adapters whose library was found, in registry order
# (XML first, then JSON; each in block order), and generates the registry's list from them. So a
# new parser is its adapter file and its dependency block (docs/architecture.md "Adding a parser").

include_guard(GLOBAL)

# sb_adapter(<SB_HAVE_LIB> <target> <XML|JSON> ADAPTERS name... [WRITER id] [OPTIONAL reason]
#            SOURCES file...)
# Declares a library's adapters of one format (a library with both, such as Qt 6, declares twice):
# its switch, its target, the registry names, its writer (if any), its files in parsers/, and,
# for a library that tools/setup.sh does not install (so not in every build), why (README's
# Adapters table, tools/readme_adapters).
function(sb_adapter have_var lib_target format)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "WRITER;OPTIONAL" "ADAPTERS;SOURCES")
  if(NOT format MATCHES "^(XML|JSON)$" OR NOT arg_ADAPTERS OR NOT arg_SOURCES
     OR arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "sb_adapter(${have_var} ${lib_target} ${format} ...): expected "
                        "sb_adapter(<SB_HAVE_LIB> <target> <XML|JSON> ADAPTERS name... "
                        "[WRITER id] [OPTIONAL reason] SOURCES file...)")
  endif()
  get_property(declared GLOBAL PROPERTY SB_ADAPTER_DECLARATIONS)
  list(LENGTH declared i)
  set_property(GLOBAL APPEND PROPERTY SB_ADAPTER_DECLARATIONS ${i})
  set_property(GLOBAL PROPERTY SB_ADAPTER_DECLARATION_${i}_HAVE "${have_var}")
  set_property(GLOBAL PROPERTY SB_ADAPTER_DECLARATION_${i}_TARGET "${lib_target}")
  set_property(GLOBAL PROPERTY SB_ADAPTER_DECLARATION_${i}_FORMAT "${format}")
  set_property(GLOBAL PROPERTY SB_ADAPTER_DECLARATION_${i}_ADAPTERS "${arg_ADAPTERS}")
  set_property(GLOBAL PROPERTY SB_ADAPTER_DECLARATION_${i}_WRITER "${arg_WRITER}")
  set_property(GLOBAL PROPERTY SB_ADAPTER_DECLARATION_${i}_SOURCES "${arg_SOURCES}")
endfunction()
