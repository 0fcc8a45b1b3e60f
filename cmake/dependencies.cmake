# Every third-party dependency, found once, one block each.
# Each parser block sets SB_HAVE_<LIB> and a target sb::<lib>; parsers/CMakeLists.txt
# compiles an adapter only when its library was found (the optional-competitor rule).
# With SB_REQUIRE_ALL_PARSERS (on in every preset) a missing parser library is an error.
# The "# apt:" line under each block header names its Debian packages: tools/setup.sh installs
# exactly those (plus the build tools it lists itself), so a dependency is written once, here.
# A parser library's block also has a "# headers:" line: the include paths (shell patterns) only
# parsers/ may include, which tests/layering/check_includes.py reads, and ends with the
# sb_adapter() call that declares its adapters (cmake/adapter_list.cmake). The registry lists
# XML adapters first, then JSON, each in the order of these calls: so the XML libraries' blocks
# come first, then the JSON ones, then the libraries with both (Qt 6, Poco).

include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/adapter_list.cmake)

# Reports a missing dependency: fatal when required, otherwise a warning.
function(sb_missing name package required)
  if(required)
    message(FATAL_ERROR "soapbench: ${name} not found; install the Debian package '${package}' "
                        "(tools/setup.sh installs everything)")
  else()
    message(WARNING "soapbench: ${name} not found (Debian package '${package}'); its adapters are off")
  endif()
endfunction()

# Prints the one configure line per dependency.
function(sb_found name version)
  message(STATUS "soapbench dep: ${name} ${version}")
endfunction()

# Reads a "#define NAME value" from a header into out_var.
function(sb_header_define header name out_var)
  file(STRINGS "${header}" line REGEX "#[ \t]*define[ \t]+${name}[ \t]")
  string(REGEX REPLACE ".*${name}[ \t]+\"?([^\" \t]*)\"?.*" "\\1" value "${line}")
  set(${out_var} "${value}" PARENT_SCOPE)
endfunction()

set(_sb_req ${SB_REQUIRE_ALL_PARSERS})

# --- pugixml (libpugixml-dev) ---
# apt: libpugixml-dev
# headers: pugixml.hpp pugiconfig.hpp
find_package(pugixml CONFIG QUIET)
if(TARGET pugixml::pugixml OR TARGET pugixml)
  set(SB_HAVE_PUGIXML ON)
  add_library(sb::pugixml INTERFACE IMPORTED)
  if(TARGET pugixml::pugixml)
    target_link_libraries(sb::pugixml INTERFACE pugixml::pugixml)
  else()
    target_link_libraries(sb::pugixml INTERFACE pugixml)
  endif()
  sb_found(pugixml "${pugixml_VERSION}")
else()
  set(SB_HAVE_PUGIXML OFF)
  sb_missing(pugixml libpugixml-dev ${_sb_req})
endif()
sb_adapter(SB_HAVE_PUGIXML sb::pugixml XML ADAPTERS pugixml/dom pugixml/dom-inplace
           WRITER pugixml SOURCES pugixml_dom.cpp pugixml_writer.cpp xml_tree_reader.cpp)

# --- RapidXML (librapidxml-dev, header only) ---
# apt: librapidxml-dev
# headers: rapidxml/*
find_path(SB_RAPIDXML_INCLUDE rapidxml/rapidxml.hpp)
if(SB_RAPIDXML_INCLUDE)
  set(SB_HAVE_RAPIDXML ON)
  add_library(sb::rapidxml INTERFACE IMPORTED)
  target_include_directories(sb::rapidxml SYSTEM INTERFACE "${SB_RAPIDXML_INCLUDE}")
  file(STRINGS "${SB_RAPIDXML_INCLUDE}/rapidxml/rapidxml.hpp" _rx REGEX "^// Version ")
  string(REGEX REPLACE "^// Version ([0-9.]+).*" "\\1" SB_RAPIDXML_VERSION "${_rx}")
  sb_found(RapidXML "${SB_RAPIDXML_VERSION}")
else()
  set(SB_HAVE_RAPIDXML OFF)
  sb_missing(RapidXML librapidxml-dev ${_sb_req})
endif()
sb_adapter(SB_HAVE_RAPIDXML sb::rapidxml XML ADAPTERS rapidxml/dom rapidxml/dom-fastest
           SOURCES rapidxml_dom.cpp rapidxml_prescan.cpp)

# --- tinyxml2 (libtinyxml2-dev) ---
# apt: libtinyxml2-dev
# headers: tinyxml2.h
find_package(tinyxml2 CONFIG QUIET)
if(TARGET tinyxml2::tinyxml2)
  set(SB_HAVE_TINYXML2 ON)
  add_library(sb::tinyxml2 INTERFACE IMPORTED)
  target_link_libraries(sb::tinyxml2 INTERFACE tinyxml2::tinyxml2)
  sb_found(tinyxml2 "${tinyxml2_VERSION}")
else()
  set(SB_HAVE_TINYXML2 OFF)
  sb_missing(tinyxml2 libtinyxml2-dev ${_sb_req})
endif()
sb_adapter(SB_HAVE_TINYXML2 sb::tinyxml2 XML ADAPTERS tinyxml2/dom
           WRITER tinyxml2 SOURCES tinyxml2_dom.cpp tinyxml2_writer.cpp)

# --- libxml2 (libxml2-dev) ---
# apt: libxml2-dev
# headers: libxml/*
find_package(LibXml2 QUIET)
if(LibXml2_FOUND)
  set(SB_HAVE_LIBXML2 ON)
  add_library(sb::libxml2 INTERFACE IMPORTED)
  target_link_libraries(sb::libxml2 INTERFACE LibXml2::LibXml2)
  sb_found(libxml2 "${LIBXML2_VERSION_STRING}")
else()
  set(SB_HAVE_LIBXML2 OFF)
  sb_missing(libxml2 libxml2-dev ${_sb_req})
endif()
sb_adapter(SB_HAVE_LIBXML2 sb::libxml2 XML ADAPTERS libxml2/dom libxml2/sax libxml2/reader
           WRITER libxml2 SOURCES libxml2_dom.cpp libxml2_sax.cpp libxml2_reader.cpp
           libxml2_common.cpp libxml2_writer.cpp)

# --- Xerces-C++ (libxerces-c-dev) ---
# apt: libxerces-c-dev
# headers: xercesc/*
find_package(XercesC QUIET)
if(XercesC_FOUND)
  set(SB_HAVE_XERCES ON)
  add_library(sb::xerces INTERFACE IMPORTED)
  target_link_libraries(sb::xerces INTERFACE XercesC::XercesC)
  sb_found(Xerces-C++ "${XercesC_VERSION}")
else()
  set(SB_HAVE_XERCES OFF)
  sb_missing(Xerces-C++ libxerces-c-dev ${_sb_req})
endif()
sb_adapter(SB_HAVE_XERCES sb::xerces XML ADAPTERS xerces/dom xerces/sax2
           WRITER xerces SOURCES xerces_dom.cpp xerces_sax2.cpp xerces_common.cpp xerces_writer.cpp)

# --- Expat (libexpat1-dev) ---
# apt: libexpat1-dev
# headers: expat.h expat_external.h
find_package(expat CONFIG QUIET)
if(TARGET expat::expat)
  set(SB_HAVE_EXPAT ON)
  add_library(sb::expat INTERFACE IMPORTED)
  target_link_libraries(sb::expat INTERFACE expat::expat)
  sb_found(Expat "${expat_VERSION}")
else()
  set(SB_HAVE_EXPAT OFF)
  sb_missing(Expat libexpat1-dev ${_sb_req})
endif()
sb_adapter(SB_HAVE_EXPAT sb::expat XML ADAPTERS expat/sax SOURCES expat_sax.cpp)

# --- RapidJSON (rapidjson-dev, header only; also reads the corpus manifest) ---
# apt: rapidjson-dev
# headers: rapidjson/*
find_package(RapidJSON CONFIG QUIET)
if(RapidJSON_FOUND)
  set(SB_HAVE_RAPIDJSON ON)
  add_library(sb::rapidjson INTERFACE IMPORTED)
  target_include_directories(sb::rapidjson SYSTEM INTERFACE ${RAPIDJSON_INCLUDE_DIRS})
  sb_found(RapidJSON "${RapidJSON_VERSION}")
else()
  message(FATAL_ERROR "soapbench: RapidJSON not found; install the Debian package 'rapidjson-dev' "
                      "(the harness reads corpus/manifest.json with it)")
endif()
sb_adapter(SB_HAVE_RAPIDJSON sb::rapidjson JSON ADAPTERS rapidjson/dom rapidjson/dom-insitu
           rapidjson/sax WRITER rapidjson SOURCES rapidjson_dom.cpp rapidjson_sax.cpp rapidjson_writer.cpp)

# --- simdjson (libsimdjson-dev) ---
# apt: libsimdjson-dev
# headers: simdjson.h simdjson/*
find_package(simdjson CONFIG QUIET)
if(TARGET simdjson::simdjson)
  set(SB_HAVE_SIMDJSON ON)
  add_library(sb::simdjson INTERFACE IMPORTED)
  target_link_libraries(sb::simdjson INTERFACE simdjson::simdjson)
  sb_found(simdjson "${simdjson_VERSION}")
else()
  set(SB_HAVE_SIMDJSON OFF)
  sb_missing(simdjson libsimdjson-dev ${_sb_req})
endif()
sb_adapter(SB_HAVE_SIMDJSON sb::simdjson JSON ADAPTERS simdjson/dom simdjson/ondemand
           SOURCES simdjson_dom.cpp simdjson_ondemand.cpp)

# --- Boost.JSON (libboost-json1.81-dev; Debian 12's libboost-dev is 1.74, which has no JSON) ---
# No "# apt:" line yet: libboost1.81-dev conflicts with libboost1.74-dev, which libboost-dev
# (Asio/Beast, below) and python3-pythran (a dependency of python3-scipy) require, so apt would
# remove those to install it. Until the project moves to Boost 1.81 the adapters are built only
# where Boost.JSON is found (a fresh configure with -DCMAKE_PREFIX_PATH=<a Boost 1.81 tree>, which
# Asio and Beast below then come from too: one Boost), and SB_REQUIRE_ALL_PARSERS does not
# require them.
# headers: boost/json.hpp boost/json/*
find_package(boost_json 1.81 CONFIG QUIET)
if(TARGET Boost::json)
  set(SB_HAVE_BOOSTJSON ON)
  add_library(sb::boostjson INTERFACE IMPORTED)
  target_link_libraries(sb::boostjson INTERFACE Boost::json)
  sb_found(Boost.JSON "${boost_json_VERSION}")
else()
  set(SB_HAVE_BOOSTJSON OFF)
  sb_missing(Boost.JSON libboost-json1.81-dev OFF)
endif()
sb_adapter(SB_HAVE_BOOSTJSON sb::boostjson JSON ADAPTERS boostjson/dom boostjson/dom-monotonic
           boostjson/stream OPTIONAL "Boost ≥ 1.81" SOURCES boostjson_dom.cpp boostjson_stream.cpp)

# --- nlohmann/json (nlohmann-json3-dev, header only) ---
# apt: nlohmann-json3-dev
# headers: nlohmann/*
find_package(nlohmann_json 3 CONFIG QUIET)
if(TARGET nlohmann_json::nlohmann_json)
  set(SB_HAVE_NLOHMANN ON)
  add_library(sb::nlohmann INTERFACE IMPORTED)
  target_link_libraries(sb::nlohmann INTERFACE nlohmann_json::nlohmann_json)
  sb_found(nlohmann/json "${nlohmann_json_VERSION}")
else()
  set(SB_HAVE_NLOHMANN OFF)
  sb_missing(nlohmann/json nlohmann-json3-dev ${_sb_req})
endif()
sb_adapter(SB_HAVE_NLOHMANN sb::nlohmann JSON ADAPTERS nlohmann/dom nlohmann/sax
           SOURCES nlohmann_dom.cpp nlohmann_sax.cpp)

# --- JsonCpp (libjsoncpp-dev) ---
# apt: libjsoncpp-dev
# headers: json/*
find_package(jsoncpp CONFIG QUIET)
if(TARGET JsonCpp::JsonCpp)
  set(SB_HAVE_JSONCPP ON)
  add_library(sb::jsoncpp INTERFACE IMPORTED)
  target_link_libraries(sb::jsoncpp INTERFACE JsonCpp::JsonCpp)
  sb_found(JsonCpp "${jsoncpp_VERSION}")
else()
  set(SB_HAVE_JSONCPP OFF)
  sb_missing(JsonCpp libjsoncpp-dev ${_sb_req})
endif()
sb_adapter(SB_HAVE_JSONCPP sb::jsoncpp JSON ADAPTERS jsoncpp/dom SOURCES jsoncpp_dom.cpp)

# --- YAJL (libyajl-dev; no CMake package: header and library found by name) ---
# apt: libyajl-dev
# headers: yajl/*
find_path(SB_YAJL_INCLUDE yajl/yajl_parse.h)
find_library(SB_YAJL_LIBRARY yajl)
if(SB_YAJL_INCLUDE AND SB_YAJL_LIBRARY)
  set(SB_HAVE_YAJL ON)
  add_library(sb::yajl UNKNOWN IMPORTED)
  set_target_properties(sb::yajl PROPERTIES IMPORTED_LOCATION "${SB_YAJL_LIBRARY}"
                                            INTERFACE_INCLUDE_DIRECTORIES "${SB_YAJL_INCLUDE}")
  foreach(_part MAJOR MINOR MICRO)
    sb_header_define("${SB_YAJL_INCLUDE}/yajl/yajl_version.h" YAJL_${_part} _yajl_${_part})
  endforeach()
  sb_found(YAJL "${_yajl_MAJOR}.${_yajl_MINOR}.${_yajl_MICRO}")
else()
  set(SB_HAVE_YAJL OFF)
  sb_missing(YAJL libyajl-dev ${_sb_req})
endif()
sb_adapter(SB_HAVE_YAJL sb::yajl JSON ADAPTERS yajl/sax SOURCES yajl_sax.cpp)

# --- Qt 6 (qt6-base-dev): QXmlStreamReader and QJsonDocument (Core), QDomDocument (Xml) ---
# apt: qt6-base-dev
# headers: Qt*/* Q[A-Z]*
# qt6/dom bounds depth with the RapidXML adapter's pre-scan (parsers/rapidxml_prescan.cpp,
# which reads RapidXML's character tables), so Qt's adapters need RapidXML too.
find_package(Qt6 QUIET COMPONENTS Core Xml)
if(Qt6Core_FOUND AND Qt6Xml_FOUND AND SB_HAVE_RAPIDXML)
  set(SB_HAVE_QT6 ON)
  add_library(sb::qt6 INTERFACE IMPORTED)
  target_link_libraries(sb::qt6 INTERFACE Qt6::Core Qt6::Xml sb::rapidxml)
  sb_found(Qt6 "${Qt6Core_VERSION}")
else()
  set(SB_HAVE_QT6 OFF)
  sb_missing("Qt 6 (Core, Xml)" qt6-base-dev ${_sb_req})
endif()
sb_adapter(SB_HAVE_QT6 sb::qt6 XML ADAPTERS qt6/stream qt6/dom
           SOURCES qt6_stream.cpp qt6_dom.cpp rapidxml_prescan.cpp)
sb_adapter(SB_HAVE_QT6 sb::qt6 JSON ADAPTERS qt6-json/dom SOURCES qt6_json_dom.cpp)

# --- Poco (libpoco-dev): Poco::XML (SAXParser, DOM; Expat underneath) and Poco::JSON ---
# apt: libpoco-dev
# headers: Poco/*
find_package(Poco QUIET COMPONENTS XML JSON Foundation)
if(TARGET Poco::XML AND TARGET Poco::JSON AND TARGET Poco::Foundation)
  set(SB_HAVE_POCO ON)
  add_library(sb::poco INTERFACE IMPORTED)
  target_link_libraries(sb::poco INTERFACE Poco::XML Poco::JSON Poco::Foundation)
  sb_found(Poco "${Poco_VERSION}")
else()
  set(SB_HAVE_POCO OFF)
  sb_missing("Poco (XML, JSON)" libpoco-dev ${_sb_req})
endif()
sb_adapter(SB_HAVE_POCO sb::poco XML ADAPTERS poco/sax poco/dom SOURCES poco_sax.cpp poco_dom.cpp)
sb_adapter(SB_HAVE_POCO sb::poco JSON ADAPTERS poco-json/dom SOURCES poco_json_dom.cpp)

# --- xxHash (libxxhash-dev; the Digest's hash, XXH3 64, so every adapter needs it) ---
# apt: libxxhash-dev
find_path(SB_XXHASH_INCLUDE xxhash.h)
find_library(SB_XXHASH_LIBRARY xxhash)
if(NOT SB_XXHASH_INCLUDE OR NOT SB_XXHASH_LIBRARY)
  sb_missing(xxHash libxxhash-dev ON)
endif()
add_library(sb::xxhash UNKNOWN IMPORTED)
set_target_properties(sb::xxhash PROPERTIES IMPORTED_LOCATION "${SB_XXHASH_LIBRARY}"
                                            INTERFACE_INCLUDE_DIRECTORIES "${SB_XXHASH_INCLUDE}")
foreach(_part MAJOR MINOR RELEASE)
  sb_header_define("${SB_XXHASH_INCLUDE}/xxhash.h" XXH_VERSION_${_part} _xxh_${_part})
endforeach()
set(SB_XXHASH_VERSION "${_xxh_MAJOR}.${_xxh_MINOR}.${_xxh_RELEASE}")
sb_found(xxHash "${SB_XXHASH_VERSION}")

# --- Boost: Asio and Beast (libboost-dev, header only) ---
# apt: libboost-dev
find_package(Boost 1.74 CONFIG QUIET)
if(NOT Boost_FOUND)
  sb_missing(Boost libboost-dev ON)
endif()
add_library(sb::boost INTERFACE IMPORTED)
target_link_libraries(sb::boost INTERFACE Boost::headers)
target_compile_definitions(sb::boost INTERFACE BOOST_ASIO_NO_DEPRECATED BOOST_BEAST_USE_STD_STRING_VIEW)
sb_found(Boost "${Boost_VERSION}")

# --- OpenSSL (libssl-dev) ---
# apt: libssl-dev openssl
find_package(OpenSSL 3 QUIET)
if(NOT OpenSSL_FOUND)
  sb_missing(OpenSSL libssl-dev ON)
endif()
sb_found(OpenSSL "${OPENSSL_VERSION}")

# --- CLI11 (libcli11-dev) ---
# apt: libcli11-dev
find_package(CLI11 CONFIG QUIET)
if(NOT CLI11_FOUND)
  sb_missing(CLI11 libcli11-dev ON)
endif()
sb_found(CLI11 "${CLI11_VERSION}")

# --- fmt (libfmt-dev) ---
# apt: libfmt-dev
find_package(fmt CONFIG QUIET)
if(NOT fmt_FOUND)
  sb_missing(fmt libfmt-dev ON)
endif()
sb_found(fmt "${fmt_VERSION}")

# --- zlib (zlib1g-dev; the corpus stores its largest files gzip-compressed) ---
# apt: zlib1g-dev
find_package(ZLIB QUIET)
if(NOT ZLIB_FOUND)
  sb_missing(zlib zlib1g-dev ON)
endif()
sb_found(zlib "${ZLIB_VERSION_STRING}")

# --- GoogleTest (libgtest-dev, libgmock-dev) ---
# apt: libgtest-dev libgmock-dev
find_package(GTest CONFIG QUIET)
if(NOT GTest_FOUND)
  sb_missing(GoogleTest libgtest-dev ON)
endif()
sb_found(GoogleTest "${GTest_VERSION}")

# --- Google Benchmark (libbenchmark-dev) ---
# apt: libbenchmark-dev libbenchmark-tools
find_package(benchmark CONFIG QUIET)
if(NOT benchmark_FOUND)
  sb_missing("Google Benchmark" libbenchmark-dev ON)
endif()
sb_found("Google Benchmark" "${benchmark_VERSION}")

# --- gSOAP (gsoap, libgsoap-dev): a peer (peers/gsoap), not a parser adapter. GPLv2 (or
# commercial), so it is linked only into peers/gsoap's own executables and stacks_bench. ---
# apt: gsoap libgsoap-dev
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(SB_GSOAP QUIET IMPORTED_TARGET gsoap++)
endif()
find_program(SB_SOAPCPP2 soapcpp2)
find_path(SB_GSOAP_IMPORT stl.h PATHS /usr/share/gsoap/import /usr/local/share/gsoap/import)
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  # soapcpp2 writes each array class (std::vector<ns__Person> item, with an inline destructor)
  # before the struct it holds, which contains the array: clang instantiates vector's constexpr
  # (C++20) destructor there, on an incomplete type, and stops; g++ defers it. So the sanitizer
  # preset (clang) builds no gSOAP peer; the release preset (g++) builds and tests it.
  set(SB_HAVE_GSOAP OFF)
  message(STATUS "soapbench: the gSOAP peer is built with g++ only (its generated C++ does not "
                 "compile with clang in C++20); off in this build")
elseif(SB_GSOAP_FOUND AND SB_SOAPCPP2 AND SB_GSOAP_IMPORT)
  set(SB_HAVE_GSOAP ON)
  add_library(sb::gsoap INTERFACE IMPORTED)
  target_link_libraries(sb::gsoap INTERFACE PkgConfig::SB_GSOAP)
  sb_found(gSOAP "${SB_GSOAP_VERSION}")
else()
  set(SB_HAVE_GSOAP OFF)
  if(_sb_req)
    sb_missing(gSOAP "gsoap libgsoap-dev" ON)
  endif()
  message(WARNING "soapbench: gSOAP not found (Debian packages 'gsoap libgsoap-dev': soapcpp2, "
                  "libgsoap++ and its import headers); the gSOAP peer (peers/gsoap) is off")
endif()

# --- Python with Debian's modules (python3, python3-lxml, ...): tools and tests ---
# apt: python3 python3-lxml python3-xxhash python3-zeep python3-matplotlib python3-scipy
set(SB_PYTHON /usr/bin/python3 CACHE FILEPATH "Python with Debian's modules (not the one on PATH)")
if(NOT EXISTS "${SB_PYTHON}")
  sb_missing(python3 python3 ON)
endif()
sb_found(python3 "${SB_PYTHON}")

# --- xmlrpc-c (a peer: peers/xmlrpc-c; BSD-style licence). No .pc files: xmlrpc-c-config ---
# apt: libxmlrpc-c++8-dev libxmlrpc-core-c3-dev
find_program(SB_XMLRPC_C_CONFIG xmlrpc-c-config)
find_path(SB_XMLRPC_C_INCLUDE xmlrpc-c/server_abyss.hpp)
set(SB_HAVE_XMLRPC_C OFF)
if(SB_XMLRPC_C_CONFIG AND SB_XMLRPC_C_INCLUDE)
  execute_process(COMMAND ${SB_XMLRPC_C_CONFIG} c++2 abyss-server client --libs
                  OUTPUT_VARIABLE _xr_libs RESULT_VARIABLE _xr_rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${SB_XMLRPC_C_CONFIG} --version
                  OUTPUT_VARIABLE SB_XMLRPC_C_VERSION OUTPUT_STRIP_TRAILING_WHITESPACE)
  # Its own -lxmlrpc* libraries, each found as a file; the rest of the list (-lcurl, -lpthread)
  # is for static linking and their shared objects already depend on it (libcurl's -dev package
  # need not be installed).
  string(REGEX MATCHALL "-lxmlrpc[^ ]*" _xr_names "${_xr_libs}")
  set(_xr_files "")
  foreach(_xr ${_xr_names})
    string(SUBSTRING "${_xr}" 2 -1 _xr)
    find_library(SB_XMLRPC_C_LIB_${_xr} ${_xr})
    if(SB_XMLRPC_C_LIB_${_xr})
      list(APPEND _xr_files "${SB_XMLRPC_C_LIB_${_xr}}")
    else()
      set(_xr_rc 1)
    endif()
  endforeach()
  if(_xr_rc EQUAL 0 AND _xr_files)
    set(SB_HAVE_XMLRPC_C ON)
    add_library(sb::xmlrpc_c INTERFACE IMPORTED)
    target_include_directories(sb::xmlrpc_c SYSTEM INTERFACE "${SB_XMLRPC_C_INCLUDE}")
    target_link_libraries(sb::xmlrpc_c INTERFACE ${_xr_files})
    sb_found(xmlrpc-c "${SB_XMLRPC_C_VERSION}")
  endif()
endif()
if(NOT SB_HAVE_XMLRPC_C)
  if(_sb_req)
    sb_missing(xmlrpc-c "libxmlrpc-c++8-dev libxmlrpc-core-c3-dev" ON)
  else()
    message(WARNING "soapbench: xmlrpc-c not found (Debian packages 'libxmlrpc-c++8-dev "
                    "libxmlrpc-core-c3-dev'); the xmlrpc-c peer is off")
  endif()
endif()

# --- wrk (the HTTP load generator of tools/server_load and bench.server_load; a tool, not linked)
# apt: wrk
find_program(SB_WRK wrk)
if(SB_WRK)
  sb_found(wrk "${SB_WRK}")
else()
  message(WARNING "soapbench: wrk not found (Debian package 'wrk'); bench.server_load is off")
endif()

# --- The scripting stacks (peers: peers/scripting): Perl's SOAP::Lite and Frontier::RPC, run as
# scripts by perl; Python's xmlrpc.server comes with SB_PYTHON. Checked by loading each module.
# apt: libsoap-lite-perl libfrontier-rpc-perl perl
find_program(SB_PERL perl)
set(SB_HAVE_SCRIPTING OFF)
if(SB_PERL)
  execute_process(COMMAND ${SB_PERL} -MSOAP::Lite -MSOAP::Transport::HTTP -MFrontier::Daemon
                          -e "print \$SOAP::Lite::VERSION"
                  RESULT_VARIABLE _sl_rc OUTPUT_VARIABLE _sl_version ERROR_QUIET)
  if(_sl_rc EQUAL 0)
    set(SB_HAVE_SCRIPTING ON)
    sb_found(scripting "perl SOAP::Lite ${_sl_version}, Frontier::RPC")
  endif()
endif()
if(NOT SB_HAVE_SCRIPTING)
  if(_sb_req)
    sb_missing("perl SOAP::Lite / Frontier::RPC" "libsoap-lite-perl libfrontier-rpc-perl perl" ON)
  else()
    message(WARNING "soapbench: perl with SOAP::Lite and Frontier::RPC not found (Debian packages "
                    "'libsoap-lite-perl libfrontier-rpc-perl perl'); the scripting peers are off")
  endif()
endif()

# --- The JVM stacks (peers: peers/java): Apache Axis 1.4 and the JAX-WS RI 2.3 as servers, on
# Debian's JDK and jars (/usr/share/java; no Maven). SB_JAVA_JARS: every jar found, by name.
# apt: default-jdk-headless libaxis-java libjaxws-java libjsonp-java libxpp3-java libxerces2-java libwoodstox-java
find_package(Java 11 COMPONENTS Runtime Development QUIET)
set(SB_HAVE_JAVA OFF)
set(_sb_java_jars axis axis-jaxrpc axis-saaj commons-discovery commons-logging wsdl4j javax.mail
    javax.activation javax.json)
set(SB_JAVA_JARS "")
set(_sb_java_missing "")
foreach(_jar IN LISTS _sb_java_jars)
  if(EXISTS /usr/share/java/${_jar}.jar)
    list(APPEND SB_JAVA_JARS /usr/share/java/${_jar}.jar)
  else()
    list(APPEND _sb_java_missing ${_jar})
  endif()
endforeach()
if(Java_FOUND AND NOT _sb_java_missing)
  set(SB_HAVE_JAVA ON)
  sb_found(java "${Java_VERSION_STRING}, Axis 1.4")
elseif(_sb_req)
  sb_missing("a JDK and the Java stacks' jars (${_sb_java_missing})"
             "default-jdk-headless libaxis-java libjaxws-java libxpp3-java libxerces2-java libwoodstox-java libjsonp-java" ON)
else()
  message(WARNING "soapbench: a JDK or the jars ${_sb_java_missing} not found (Debian packages "
                  "'default-jdk-headless libaxis-java libjaxws-java'); the Java peers are off")
endif()
# The JAX-WS RI's jars (peers/java/jaxws): jaxws-rt.jar names the rest in its manifest's Class-Path
# (jaxb, saaj, stax-ex, streambuffer, gmbal, ...; all there but ha-api.jar, which no Debian
# package ships and the RI does not load here); javax.json (libjsonp-java) reads the client's ARGS.
set(SB_HAVE_JAXWS OFF)
set(SB_JAXWS_JARS /usr/share/java/jaxws-rt.jar /usr/share/java/javax.json.jar)
if(SB_HAVE_JAVA AND EXISTS /usr/share/java/jaxws-rt.jar AND EXISTS /usr/share/java/javax.json.jar)
  set(SB_HAVE_JAXWS ON)
  sb_found(jaxws "JAX-WS RI (libjaxws-java), javax.json (libjsonp-java)")
elseif(SB_HAVE_JAVA AND _sb_req)
  sb_missing("the JAX-WS RI's and javax.json's jars" "libjaxws-java libjsonp-java" ON)
elseif(SB_HAVE_JAVA)
  message(WARNING "soapbench: ${SB_JAXWS_JARS} not found (Debian packages 'libjaxws-java "
                  "libjsonp-java'); the JAX-WS peer is off")
endif()

# --- nginx (the HTTP floor of tools/server_load: a fixed answer, started and stopped by it)
# apt: nginx
find_program(SB_NGINX nginx PATHS /usr/sbin)
if(SB_NGINX)
  sb_found(nginx "${SB_NGINX}")
else()
  message(WARNING "soapbench: nginx not found (Debian package 'nginx'); bench.server_load runs "
                  "without its HTTP floor")
endif()

# --- Locust (distributed load: tools/soapbench_locustfile.py and its tests; a tool)
# apt: python3-locust
find_program(SB_LOCUST locust)
if(SB_LOCUST)
  sb_found(locust "${SB_LOCUST}")
else()
  message(WARNING "soapbench: locust not found (Debian package 'python3-locust'); the Locust "
                  "tests are off")
endif()

# --- gRPC and protobuf (a peer: peers/grpc; Apache-2.0 and BSD-3-clause). pkg-config grpc++ and
# protobuf; protoc and grpc_cpp_plugin generate the C++ from peers/grpc/soapbench.proto at build
# time ---
# apt: libgrpc++-dev protobuf-compiler-grpc protobuf-compiler libprotobuf-dev
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(SB_GRPC QUIET IMPORTED_TARGET grpc++ protobuf)
endif()
find_program(SB_PROTOC protoc)
find_program(SB_GRPC_CPP_PLUGIN grpc_cpp_plugin)
if(SB_GRPC_FOUND AND SB_PROTOC AND SB_GRPC_CPP_PLUGIN)
  set(SB_HAVE_GRPC ON)
  add_library(sb::grpc INTERFACE IMPORTED)
  target_link_libraries(sb::grpc INTERFACE PkgConfig::SB_GRPC)
  sb_found(gRPC "${SB_GRPC_grpc++_VERSION} (protobuf ${SB_GRPC_protobuf_VERSION})")
else()
  set(SB_HAVE_GRPC OFF)
  if(_sb_req)
    sb_missing(gRPC "libgrpc++-dev protobuf-compiler-grpc protobuf-compiler libprotobuf-dev" ON)
  endif()
  message(WARNING "soapbench: gRPC not found (Debian packages 'libgrpc++-dev "
                  "protobuf-compiler-grpc protobuf-compiler libprotobuf-dev': grpc++ and protobuf "
                  "by pkg-config, protoc, grpc_cpp_plugin); the gRPC peer (peers/grpc) is off")
endif()

# --- omniORB 4 (a peer: peers/corba, CORBA over GIOP/IIOP; LGPL libraries). omniidl turns the
# IDL into C++ at build time. ---
# apt: libomniorb4-dev omniidl
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(SB_OMNIORB QUIET IMPORTED_TARGET omniORB4)
endif()
find_program(SB_OMNIIDL omniidl)
if(SB_OMNIORB_FOUND AND SB_OMNIIDL)
  set(SB_HAVE_OMNIORB ON)
  add_library(sb::omniorb INTERFACE IMPORTED)
  target_link_libraries(sb::omniorb INTERFACE PkgConfig::SB_OMNIORB)
  sb_found(omniORB "${SB_OMNIORB_VERSION}")
else()
  set(SB_HAVE_OMNIORB OFF)
  if(_sb_req)
    sb_missing(omniORB "libomniorb4-dev omniidl" ON)
  endif()
  message(WARNING "soapbench: omniORB not found (Debian packages 'libomniorb4-dev omniidl'); "
                  "the CORBA peer (peers/corba) is off")
endif()
