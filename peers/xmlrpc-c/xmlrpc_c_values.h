// The suite's value model (codecs/value.h) to and from xmlrpc-c's values, for the peer's client
// and stacks_bench's checks. Structs go through xmlrpc-c's C API, which keeps members in
// document order; its C++ value_struct is a std::map and would sort them by name.
#pragma once

#include <xmlrpc-c/base.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codecs/value.h"

namespace sb::peers {

// xmlrpc-c's value for v (a struct keeps its member order).
xmlrpc_c::value to_xmlrpc_c(const rpc::Value& v);

// The model's value for v; throws std::runtime_error for what the model lacks (an i8 outside
// 32 bits, a C pointer, a dateTime with fractional seconds).
rpc::Value from_xmlrpc_c(const xmlrpc_c::value& v);

// A struct with these members in this order (xmlrpc-c's C API under its C++ handle).
xmlrpc_c::value ordered_struct(const std::vector<std::pair<std::string, xmlrpc_c::value>>& members);

// The members of struct v in document order.
std::vector<std::pair<std::string, xmlrpc_c::value>> struct_members(const xmlrpc_c::value& v);

// xmlrpc-c's dateTime for canonical text "YYYY-MM-DDThh:mm:ss"; throws std::runtime_error when
// the text is not one.
xmlrpc_c::value datetime_value(std::string_view canonical);

}  // namespace sb::peers
