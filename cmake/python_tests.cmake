# Every Python test is registered with sb_python_test(), wherever it lives (tests/, peers/): it
# runs the script with ${SB_PYTHON} and PYTHONPATH set to this checkout's tools/ and tests/ only,
# so a test imports `sbtools` (the package, tools/sbtools/) and another test folder's module
# (`from wsdl.test_wsdl import start_server`) with no sys.path line in any file, and never a
# package of another checkout or of the caller's PYTHONPATH (docs/architecture.md "The Python
# package"). Its own folder's modules it imports by name (Python puts the script's folder first).
#
#   sb_python_test(NAME <name> COMMAND <script.py> [args...])
#
# then set_tests_properties() as for add_test(): LABELS, TIMEOUT and ENVIRONMENT are the
# caller's; the path is ENVIRONMENT_MODIFICATION, which they do not replace.
set(SB_PYTHONPATH "${CMAKE_SOURCE_DIR}/tools:${CMAKE_SOURCE_DIR}/tests")

function(sb_python_test)
  cmake_parse_arguments(PARSE_ARGV 0 _sbpt "" "NAME" "COMMAND")
  if(NOT _sbpt_NAME OR NOT _sbpt_COMMAND OR _sbpt_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "sb_python_test(NAME <name> COMMAND <script.py> [args...])")
  endif()
  add_test(NAME ${_sbpt_NAME} COMMAND ${SB_PYTHON} ${_sbpt_COMMAND})
  set_property(TEST ${_sbpt_NAME} PROPERTY ENVIRONMENT_MODIFICATION "PYTHONPATH=set:${SB_PYTHONPATH}")
endfunction()
