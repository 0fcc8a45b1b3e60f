// The contract's values (codecs/value.h) in soapbench.proto's messages, by protobuf reflection
// guided by the contract's types (codecs/service_contract.h): a request's fields are the
// operation's params in order, a reply's field 1 `result` is its result (no field: void); int,
// double, bool and string are their protobuf scalars, dateTime its canonical text, base64 bytes,
// an array a repeated field, a struct a message (its members are the fields, in order), and a
// struct in a bytes field (getChain's pre-serialized steps) that struct's message serialized.
// Faults are gRPC statuses whose details hold a soapbench.v1.Fault.
#pragma once

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <grpcpp/support/status.h>

#include <optional>
#include <string>
#include <string_view>

#include "codecs/service_contract.h"
#include "codecs/value.h"

namespace sb::peers {

// The gRPC method serving contract operation `op` ("getRate" → "GetRate"), or nullptr.
const google::protobuf::MethodDescriptor* grpc_method(std::string_view op);

// The message of contract struct `name` in soapbench.proto's package ("Person" →
// soapbench.v1.Person), or nullptr.
const google::protobuf::Descriptor* struct_message(std::string_view name);

// The contract operation `method` serves, or nullptr.
const rpc::Operation* contract_operation(const google::protobuf::MethodDescriptor& method);

// "" when soapbench.proto matches the contract (docs/service.md): a method per operation whose
// request fields are its params (names, order, types), a reply with `result` unless void, and
// struct messages whose fields are the members; else the first difference.
std::string check_proto_contract();

// Fills `request` (the method's request message) with `call`'s params. Throws
// std::invalid_argument on an unknown method, too many params or a value of the wrong kind.
void to_request(const rpc::Message& call, google::protobuf::Message& request);

// The call `request` holds (params in order; an unset optional param is absent).
rpc::Message from_request(const rpc::Operation& op, const google::protobuf::Message& request);

// Fills `reply` (the method's reply message) with `result`; throws as to_request.
void to_reply(const rpc::Operation& op, const rpc::Value& result, google::protobuf::Message& reply);

// The response `reply` holds.
rpc::Message from_reply(const rpc::Operation& op, const google::protobuf::Message& reply);

// The gRPC status carrying `fault` (status code by fault code, the Fault in its details).
grpc::Status to_status(const rpc::Message& fault);

// The fault `status` carries; nullopt when it carries none (gRPC's own error, e.g. transport).
std::optional<rpc::Message> from_status(const grpc::Status& status);

}  // namespace sb::peers
