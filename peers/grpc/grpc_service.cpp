#include "peers/grpc/grpc_service.h"

#include <exception>
#include <thread>

#include "peers/grpc/grpc_values.h"

namespace sb::peers {

GrpcService::GrpcService(const std::optional<rpc::Value>& chain) : have_chain_(chain.has_value()) {
  if (!chain) return;
  soapbench::v1::ChainReply reply;
  to_reply(*rpc::service_contract().find("getChain"), *chain, reply);
  chain_.assign(reply.result().begin(), reply.result().end());
}

grpc::Status GrpcService::serve(const char* method, const google::protobuf::Message& request,
                                google::protobuf::Message& reply) const {
  const rpc::Operation* op = contract_operation(*grpc_method(method));
  try {
    // The passthrough: stored bytes, copied into the reply (none: the service's fault).
    if (op->name == "getChain" && have_chain_) {
      const auto* f = reply.GetDescriptor()->field(0);
      for (const std::string& step : chain_) reply.GetReflection()->AddString(&reply, f, step);
      return grpc::Status::OK;
    }
    const DispatchResult r = service_.dispatch(from_request(*op, request));
    if (r.delay.count() > 0) std::this_thread::sleep_for(r.delay);
    if (r.response.kind == rpc::MessageKind::fault) return to_status(r.response);
    to_reply(*op, r.response.result, reply);
    return grpc::Status::OK;
  } catch (const std::exception& e) {
    return to_status(make_fault(rpc::fault::internal_error, e.what()));
  }
}

// Every RPC is serve() under its own name.
#define SB_GRPC_DEFINE(M, Q, R)                                                \
  grpc::Status GrpcService::M(grpc::ServerContext*, const soapbench::v1::Q* q, \
                              soapbench::v1::R* r) {                           \
    return serve(#M, *q, *r);                                                  \
  }
SB_GRPC_METHODS(SB_GRPC_DEFINE)
#undef SB_GRPC_DEFINE

}  // namespace sb::peers
