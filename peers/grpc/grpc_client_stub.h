// A gRPC client of the soapbench service: the generated stub (soapbench.grpc.pb.h) on one
// channel, its RPCs called by contract operation name, requests and answers converted from and to
// the suite's messages (grpc_values.h). The channel keeps its HTTP/2 connection; each client
// has its own subchannel pool, so a new client is a new connection.
#pragma once

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

#include "codecs/service_contract.h"
#include "codecs/value.h"
#include "peers/grpc/soapbench.grpc.pb.h"

namespace sb::peers {

// The gRPC target of a URL: "http://host:port" or "host:port" → "host:port".
std::string grpc_target(const std::string& url);

// A call prepared once and made many times: its request and a reply message to reuse.
struct PreparedCall {
  const rpc::Operation* op = nullptr;                  // the contract operation
  std::unique_ptr<google::protobuf::Message> request;  // the method's request, filled
  std::unique_ptr<google::protobuf::Message> reply;    // the method's reply, the last answer
  // The stub's method for this RPC, called with the two messages above.
  grpc::Status (*invoke)(soapbench::v1::SoapBench::Stub&, grpc::ClientContext*,
                         const google::protobuf::Message&, google::protobuf::Message*) = nullptr;
};

class GrpcClient {
 public:
  // A channel to `target` (host:port), insecure (cleartext HTTP/2), messages up to
  // max_message bytes.
  GrpcClient(const std::string& target, int max_message);

  // `request` (a contract call) as a prepared call; throws std::invalid_argument on an unknown
  // method or params that do not fit.
  static PreparedCall prepare(const rpc::Message& request);

  // Makes the call once (a new ClientContext, as each gRPC call needs); the answer is in
  // call.reply or the status.
  grpc::Status invoke(PreparedCall& call);

  // The suite's message for what invoke() answered: the response, or the status's fault; throws
  // std::runtime_error on a status that carries no fault (a gRPC or transport error).
  static rpc::Message answer(const PreparedCall& call, const grpc::Status& status);

  // prepare, invoke and answer.
  rpc::Message call(const rpc::Message& request);

 private:
  std::shared_ptr<grpc::Channel> channel_;                // the connection
  std::unique_ptr<soapbench::v1::SoapBench::Stub> stub_;  // generated stub on it
};

}  // namespace sb::peers
