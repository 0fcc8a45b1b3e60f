#include "peers/grpc/grpc_values.h"

#include <google/protobuf/message.h>

#include <cctype>
#include <memory>
#include <set>
#include <stdexcept>

#include "harness/service.h"
#include "peers/grpc/soapbench.pb.h"

namespace sb::peers {

namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

const google::protobuf::ServiceDescriptor& service() {
  static const auto* s = google::protobuf::DescriptorPool::generated_pool()->FindServiceByName(
      "soapbench.v1.SoapBench");
  return *s;
}

// The message of a contract struct (a struct in a bytes field is serialized as this).
const Descriptor* struct_message(const rpc::Type& t) { return peers::struct_message(t.name); }

[[noreturn]] void wrong(const FieldDescriptor* f, const rpc::Value& v) {
  throw std::invalid_argument(f->full_name() + ": a " + std::string(rpc::kind_name(v.kind())) +
                              " does not fit");
}

void put(const rpc::Value& v, const rpc::Type& t, Message& m, const FieldDescriptor* f);

// Sets the members of struct `v` (type t) as the fields of `m`, in order.
void put_struct(const rpc::Value& v, const rpc::Type& t, Message& m) {
  const auto& members = t.structure->members;
  if (v.kind() != rpc::Kind::structure || v.items().size() != members.size()) {
    throw std::invalid_argument(std::string(t.name) + ": not a struct of its members");
  }
  for (std::size_t i = 0; i < members.size(); ++i) {
    put(v.items()[i], *members[i].type, m, m.GetDescriptor()->field(static_cast<int>(i)));
  }
}

// Sets field f (appends when repeated) to the scalar or struct `v` of type t.
void put_one(const rpc::Value& v, const rpc::Type& t, Message& m, const FieldDescriptor* f) {
  const Reflection* r = m.GetReflection();
  const bool rep = f->is_repeated();
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      if (v.kind() != rpc::Kind::integer) wrong(f, v);
      rep ? r->AddInt32(&m, f, v.as_int()) : r->SetInt32(&m, f, v.as_int());
      return;
    case FieldDescriptor::CPPTYPE_DOUBLE: {
      if (v.kind() != rpc::Kind::floating && v.kind() != rpc::Kind::integer) wrong(f, v);
      const double d = v.kind() == rpc::Kind::integer ? v.as_int() : v.as_double();
      rep ? r->AddDouble(&m, f, d) : r->SetDouble(&m, f, d);
      return;
    }
    case FieldDescriptor::CPPTYPE_BOOL:
      if (v.kind() != rpc::Kind::boolean) wrong(f, v);
      rep ? r->AddBool(&m, f, v.as_bool()) : r->SetBool(&m, f, v.as_bool());
      return;
    case FieldDescriptor::CPPTYPE_STRING: {
      std::string s;
      if (t.kind == rpc::Kind::structure) {
        std::unique_ptr<Message> sub(google::protobuf::MessageFactory::generated_factory()
                                         ->GetPrototype(struct_message(t))
                                         ->New());
        put_struct(v, t, *sub);
        s = sub->SerializeAsString();
      } else if (t.admits(v.kind())) {
        s = v.text();
      } else {
        wrong(f, v);
      }
      rep ? r->AddString(&m, f, std::move(s)) : r->SetString(&m, f, std::move(s));
      return;
    }
    case FieldDescriptor::CPPTYPE_MESSAGE:
      if (t.kind != rpc::Kind::structure) wrong(f, v);
      put_struct(v, t, rep ? *r->AddMessage(&m, f) : *r->MutableMessage(&m, f));
      return;
    default:
      wrong(f, v);
  }
}

void put(const rpc::Value& v, const rpc::Type& t, Message& m, const FieldDescriptor* f) {
  if (t.kind != rpc::Kind::array) return put_one(v, t, m, f);
  if (v.kind() != rpc::Kind::array) wrong(f, v);
  for (const rpc::Value& item : v.items()) put_one(item, *t.element, m, f);
}

rpc::Value get(const Message& m, const FieldDescriptor* f, const rpc::Type& t);

// The struct of type t that message m holds.
rpc::Value get_struct(const Message& m, const rpc::Type& t) {
  rpc::Value s = rpc::Value::structure();
  const auto& members = t.structure->members;
  for (std::size_t i = 0; i < members.size(); ++i) {
    s.add_member(std::string(members[i].name),
                 get(m, m.GetDescriptor()->field(static_cast<int>(i)), *members[i].type));
  }
  return s;
}

// Text of type t: a dateTime, base64 bytes, a string, or a serialized struct.
rpc::Value text_value(std::string s, const rpc::Type& t) {
  switch (t.kind) {
    case rpc::Kind::datetime:
      return rpc::Value::datetime(std::move(s));
    case rpc::Kind::base64:
      return rpc::Value::base64(std::move(s));
    case rpc::Kind::structure: {
      std::unique_ptr<Message> sub(google::protobuf::MessageFactory::generated_factory()
                                       ->GetPrototype(struct_message(t))
                                       ->New());
      if (!sub->ParseFromString(s))
        throw std::invalid_argument(std::string(t.name) + ": bad bytes");
      return get_struct(*sub, t);
    }
    default:
      return rpc::Value::string(std::move(s));
  }
}

// Field f (element i when i >= 0) as a value of the scalar or struct type t.
rpc::Value get_one(const Message& m, const FieldDescriptor* f, int i, const rpc::Type& t) {
  const Reflection* r = m.GetReflection();
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      return rpc::Value::integer(i >= 0 ? r->GetRepeatedInt32(m, f, i) : r->GetInt32(m, f));
    case FieldDescriptor::CPPTYPE_DOUBLE:
      return rpc::Value::floating(i >= 0 ? r->GetRepeatedDouble(m, f, i) : r->GetDouble(m, f));
    case FieldDescriptor::CPPTYPE_BOOL:
      return rpc::Value::boolean(i >= 0 ? r->GetRepeatedBool(m, f, i) : r->GetBool(m, f));
    case FieldDescriptor::CPPTYPE_STRING:
      return text_value(i >= 0 ? r->GetRepeatedString(m, f, i) : r->GetString(m, f), t);
    case FieldDescriptor::CPPTYPE_MESSAGE:
      return get_struct(i >= 0 ? r->GetRepeatedMessage(m, f, i) : r->GetMessage(m, f), t);
    default:
      throw std::invalid_argument(f->full_name() + ": a field type the contract does not use");
  }
}

rpc::Value get(const Message& m, const FieldDescriptor* f, const rpc::Type& t) {
  if (t.kind != rpc::Kind::array) return get_one(m, f, -1, t);
  rpc::Value a = rpc::Value::array();
  const int n = m.GetReflection()->FieldSize(m, f);
  for (int i = 0; i < n; ++i) a.push(get_one(m, f, i, *t.element));
  return a;
}

// Status codes for the contract's faults: gRPC's own for an unknown method and bad arguments;
// any other fault (`fail`'s 4) is an application error, UNKNOWN.
grpc::StatusCode status_code(int fault) {
  switch (fault) {
    case rpc::fault::method_not_found:
      return grpc::StatusCode::UNIMPLEMENTED;
    case rpc::fault::invalid_params:
    case rpc::fault::invalid_request:
    case rpc::fault::parse_error:
      return grpc::StatusCode::INVALID_ARGUMENT;
    case rpc::fault::internal_error:
      return grpc::StatusCode::INTERNAL;
    default:
      return grpc::StatusCode::UNKNOWN;
  }
}

}  // namespace

const Descriptor* struct_message(std::string_view name) {
  return google::protobuf::DescriptorPool::generated_pool()->FindMessageTypeByName(
      service().file()->package() + "." + std::string(name));
}

const google::protobuf::MethodDescriptor* grpc_method(std::string_view op) {
  std::string name(op);
  if (!name.empty()) name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
  return service().FindMethodByName(name);
}

const rpc::Operation* contract_operation(const google::protobuf::MethodDescriptor& method) {
  std::string name = method.name();
  name[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(name[0])));
  return rpc::service_contract().find(name);
}

void to_request(const rpc::Message& call, Message& request) {
  const rpc::Operation* op = rpc::service_contract().find(call.method);
  if (op == nullptr) throw std::invalid_argument("method not found: " + call.method);
  if (call.params.size() > op->params.size()) {
    throw std::invalid_argument(call.method + ": too many params");
  }
  const Descriptor* d = request.GetDescriptor();
  for (std::size_t i = 0; i < call.params.size(); ++i) {
    put(call.params[i], *op->params[i].type, request, d->field(static_cast<int>(i)));
  }
}

rpc::Message from_request(const rpc::Operation& op, const Message& request) {
  rpc::Message m;
  m.kind = rpc::MessageKind::call;
  m.method = std::string(op.name);
  const Descriptor* d = request.GetDescriptor();
  for (std::size_t i = 0; i < op.params.size(); ++i) {
    const FieldDescriptor* f = d->field(static_cast<int>(i));
    if (f->has_presence() && !request.GetReflection()->HasField(request, f)) break;
    m.params.push_back(get(request, f, *op.params[i].type));
  }
  return m;
}

void to_reply(const rpc::Operation& op, const rpc::Value& result, Message& reply) {
  if (op.result->kind == rpc::Kind::nil) return;
  put(result, *op.result, reply, reply.GetDescriptor()->field(0));
}

rpc::Message from_reply(const rpc::Operation& op, const Message& reply) {
  rpc::Message m;
  m.kind = rpc::MessageKind::response;
  m.method = std::string(op.name);
  if (op.result->kind != rpc::Kind::nil)
    m.result = get(reply, reply.GetDescriptor()->field(0), *op.result);
  return m;
}

grpc::Status to_status(const rpc::Message& fault) {
  soapbench::v1::Fault f;
  f.set_code(fault.fault_code);
  f.set_message(fault.fault_message);
  return {status_code(fault.fault_code), fault.fault_message, f.SerializeAsString()};
}

std::optional<rpc::Message> from_status(const grpc::Status& status) {
  soapbench::v1::Fault f;
  if (status.ok() || status.error_details().empty() || !f.ParseFromString(status.error_details())) {
    return std::nullopt;
  }
  return make_fault(f.code(), f.message());
}

}  // namespace sb::peers
