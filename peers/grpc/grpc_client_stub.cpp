#include "peers/grpc/grpc_client_stub.h"

#include <google/protobuf/message.h>

#include <map>
#include <stdexcept>
#include <string_view>

#include "peers/grpc/grpc_methods.h"
#include "peers/grpc/grpc_values.h"

namespace sb::peers {

namespace {

using Stub = soapbench::v1::SoapBench::Stub;
using Invoker = grpc::Status (*)(Stub&, grpc::ClientContext*, const google::protobuf::Message&,
                                 google::protobuf::Message*);

// The stub's method M on generic messages (which are its Q and R).
template <class Q, class R, grpc::Status (Stub::*M)(grpc::ClientContext*, const Q&, R*)>
grpc::Status invoke_stub(Stub& stub, grpc::ClientContext* context,
                         const google::protobuf::Message& q, google::protobuf::Message* r) {
  return (stub.*M)(context, static_cast<const Q&>(q), static_cast<R*>(r));
}

// The stub's methods by RPC name.
const std::map<std::string_view, Invoker>& invokers() {
#define SB_GRPC_INVOKER(M, Q, R) {#M, &invoke_stub<soapbench::v1::Q, soapbench::v1::R, &Stub::M>},
  static const std::map<std::string_view, Invoker> table = {SB_GRPC_METHODS(SB_GRPC_INVOKER)};
#undef SB_GRPC_INVOKER
  return table;
}

std::unique_ptr<google::protobuf::Message> new_message(const google::protobuf::Descriptor* d) {
  return std::unique_ptr<google::protobuf::Message>(
      google::protobuf::MessageFactory::generated_factory()->GetPrototype(d)->New());
}

}  // namespace

std::string grpc_target(const std::string& url) {
  const std::size_t scheme = url.find("://");
  std::string t = scheme == std::string::npos ? url : url.substr(scheme + 3);
  if (!t.empty() && t.back() == '/') t.pop_back();
  return t;
}

GrpcClient::GrpcClient(const std::string& target, int max_message) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(max_message);
  args.SetMaxSendMessageSize(max_message);
  // Its own subchannel pool: a new client never shares another client's connection.
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  channel_ = grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args);
  stub_ = soapbench::v1::SoapBench::NewStub(channel_);
}

PreparedCall GrpcClient::prepare(const rpc::Message& request) {
  const google::protobuf::MethodDescriptor* m = grpc_method(request.method);
  if (m == nullptr) throw std::invalid_argument("method not found: " + request.method);
  PreparedCall c;
  c.op = contract_operation(*m);
  c.request = new_message(m->input_type());
  c.reply = new_message(m->output_type());
  c.invoke = invokers().at(m->name());
  to_request(request, *c.request);
  return c;
}

grpc::Status GrpcClient::invoke(PreparedCall& call) {
  grpc::ClientContext context;
  return call.invoke(*stub_, &context, *call.request, call.reply.get());
}

rpc::Message GrpcClient::answer(const PreparedCall& call, const grpc::Status& status) {
  if (status.ok()) return from_reply(*call.op, *call.reply);
  if (std::optional<rpc::Message> fault = from_status(status)) return std::move(*fault);
  throw std::runtime_error("gRPC status " + std::to_string(status.error_code()) + ": " +
                           status.error_message());
}

rpc::Message GrpcClient::call(const rpc::Message& request) {
  PreparedCall c = prepare(request);
  return answer(c, invoke(c));
}

}  // namespace sb::peers
