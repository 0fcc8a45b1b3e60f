// check_proto_contract (grpc_values.h): soapbench.proto against the contract, so that a .proto
// edited out of step with docs/service.md is refused when the server or the benchmarks start.
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "peers/grpc/grpc_values.h"

namespace sb::peers {

namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;

// "" when field f can hold a scalar of type t, else why not.
std::string check_scalar(const FieldDescriptor& f, const rpc::Type& t) {
  FieldDescriptor::CppType want = FieldDescriptor::CPPTYPE_STRING;
  if (t.kind == rpc::Kind::integer) want = FieldDescriptor::CPPTYPE_INT32;
  if (t.kind == rpc::Kind::floating) want = FieldDescriptor::CPPTYPE_DOUBLE;
  if (t.kind == rpc::Kind::boolean) want = FieldDescriptor::CPPTYPE_BOOL;
  const bool bytes = f.type() == FieldDescriptor::TYPE_BYTES;
  if (f.cpp_type() != want || bytes != (t.kind == rpc::Kind::base64)) {
    return f.full_name() + " is no " + std::string(t.name);
  }
  return "";
}

template <class Named>
std::string check_fields(const Descriptor& d, const std::vector<Named>& items,
                         std::string_view owner, std::set<std::string>& seen);

// "" when field f holds values of type t (repeated for an array), else why not.
std::string check_field(const FieldDescriptor& f, const rpc::Type& t, std::set<std::string>& seen) {
  const bool array = t.kind == rpc::Kind::array;
  if (f.is_repeated() != array) return f.full_name() + ": repeated differs from the contract";
  const rpc::Type& item = array ? *t.element : t;
  if (item.kind != rpc::Kind::structure) return check_scalar(f, item);
  const Descriptor* d = f.message_type();
  if (f.type() == FieldDescriptor::TYPE_BYTES) {  // pre-serialized
    d = struct_message(item.name);
  }
  if (d == nullptr) return f.full_name() + ": no message for " + std::string(item.name);
  return seen.insert(std::string(item.name)).second
             ? check_fields(*d, item.structure->members, item.name, seen)
             : "";
}

// "" when d's fields are `items` (a struct's members or an operation's params, of `owner`): names,
// order and types; else why not.
template <class Named>
std::string check_fields(const Descriptor& d, const std::vector<Named>& items,
                         std::string_view owner, std::set<std::string>& seen) {
  if (static_cast<std::size_t>(d.field_count()) != items.size()) {
    return d.full_name() + ": not the fields of " + std::string(owner);
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    const FieldDescriptor& f = *d.field(static_cast<int>(i));
    if (f.name() != items[i].name) return f.full_name() + ": not " + std::string(items[i].name);
    if (std::string why = check_field(f, *items[i].type, seen); !why.empty()) return why;
  }
  return "";
}

}  // namespace

std::string check_proto_contract() {
  std::set<std::string> seen;  // structs checked
  for (const rpc::Operation& op : rpc::service_contract().operations()) {
    const google::protobuf::MethodDescriptor* m = grpc_method(op.name);
    if (m == nullptr) return "no method for " + std::string(op.name);
    if (std::string why = check_fields(*m->input_type(), op.params, op.name, seen); !why.empty()) {
      return why;
    }
    const Descriptor& out = *m->output_type();
    const bool is_void = op.result->kind == rpc::Kind::nil;
    if (out.field_count() != (is_void ? 0 : 1) || (!is_void && out.field(0)->name() != "result")) {
      return out.full_name() + ": not one field `result` for " + std::string(op.name);
    }
    if (!is_void) {
      if (std::string why = check_field(*out.field(0), *op.result, seen); !why.empty()) return why;
    }
  }
  return "";
}

}  // namespace sb::peers
