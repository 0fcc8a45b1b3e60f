// The soapbench service as gRPC's generated synchronous service (soapbench.proto): every RPC
// converts its request to the contract's call (grpc_values.h), runs sb::Service, and answers its
// result or its fault as a status; getChain answers steps serialized once at start.
#pragma once

#include <grpcpp/grpcpp.h>

#include <optional>
#include <string>
#include <vector>

#include "harness/service.h"
#include "peers/grpc/grpc_methods.h"
#include "peers/grpc/soapbench.grpc.pb.h"

namespace sb::peers {

class GrpcService final : public soapbench::v1::SoapBench::Service {
 public:
  // `chain` is getChain's answer (ChainStep[]); without it getChain answers a fault.
  explicit GrpcService(const std::optional<rpc::Value>& chain);

#define SB_GRPC_DECLARE(M, Q, R) \
  grpc::Status M(grpc::ServerContext*, const soapbench::v1::Q* q, soapbench::v1::R* r) override;
  SB_GRPC_METHODS(SB_GRPC_DECLARE)
#undef SB_GRPC_DECLARE

 private:
  // One call of RPC `method`: the request as the contract's call, sb::Service's answer into
  // reply or a status.
  grpc::Status serve(const char* method, const google::protobuf::Message& request,
                     google::protobuf::Message& reply) const;

  sb::Service service_;             // the contract's answers
  std::vector<std::string> chain_;  // getChain's steps, each a serialized soapbench.ChainStep
  bool have_chain_ = false;         // false: getChain faults
};

}  // namespace sb::peers
