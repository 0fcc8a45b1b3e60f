// The CORBA servant of soapbench.idl's Service: each operation turns its IDL arguments into the
// contract's call, lets sb::Service (harness/service.h) answer it, so the answers are the
// contract's, and turns the answer back (a fault → soapbench::Fault with its code and message).
// getChain passes the stored document through unchanged.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "codecs/value.h"
#include "harness/service.h"
#include "soapbench.hh"

namespace sb::corba {

// The corpus's JSON-RPC getChain response (corpus_dir/jsonrpc/getChain.response.*), the
// document getChain passes through; throws std::runtime_error when absent.
std::string load_chain_document(const std::filesystem::path& corpus_dir);

class Servant : public POA_soapbench::Service {
 public:
  // getChain answers `chain` unchanged, or an internal-error fault when it is empty.
  explicit Servant(std::string chain) : chain_(std::move(chain)) {}

  CORBA::Long add(CORBA::Long a, CORBA::Long b) override;
  char* concat(const char* s1, const char* s2, const char* s3) override;
  soapbench::Ints* echoArray(const soapbench::Ints& a, const soapbench::Ints& b) override;
  CORBA::Boolean boolean() override;
  char* now() override;
  soapbench::People* complex(const soapbench::People& obj) override;
  void fail() override;
  CORBA::Double getRate(const char* country1, const char* country2) override;
  soapbench::Document* respond(CORBA::Long wordcount, CORBA::Long delay) override;
  void sendString(const char* s) override;
  char* receiveString(CORBA::Long length) override;
  void sendInt(CORBA::Long i) override;
  char* getChain() override;
  soapbench::Ints* echoInts(const soapbench::Ints& values) override;
  soapbench::Doubles* echoDoubles(const soapbench::Doubles& values) override;
  soapbench::Strings* echoStrings(const soapbench::Strings& values) override;
  soapbench::Bytes* echoBase64(const soapbench::Bytes& data) override;

 private:
  // The service's answer to `method(params)` after any delay it asks for; throws
  // soapbench::Fault for a fault.
  rpc::Value answer(const char* method, std::vector<rpc::Value> params) const;

  const sb::Service service_;  // the contract's answers
  const std::string chain_;    // getChain's document, or empty
};

}  // namespace sb::corba
