#include "peers/corba/corba_servant.h"

#include <stdexcept>
#include <thread>

#include "harness/corpus.h"
#include "peers/corba/corba_values.h"

namespace sb::corba {

namespace {

using rpc::Value;

// A string the ORB takes ownership of.
char* dup(const Value& v) { return CORBA::string_dup(v.text().c_str()); }

}  // namespace

std::string load_chain_document(const std::filesystem::path& corpus_dir) {
  const std::filesystem::path dir = corpus_dir / "jsonrpc";
  if (std::filesystem::is_directory(dir)) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().filename().string().starts_with("getChain.response."))
        return read_message_file(entry.path());
    }
  }
  throw std::runtime_error("no getChain document under " + dir.string());
}

Value Servant::answer(const char* method, std::vector<Value> params) const {
  rpc::Message call;
  call.method = method;
  call.params = std::move(params);
  DispatchResult r = service_.dispatch(call);
  if (r.delay.count() > 0) std::this_thread::sleep_for(r.delay);
  if (r.response.kind == rpc::MessageKind::fault)
    throw soapbench::Fault(r.response.fault_code, r.response.fault_message.c_str());
  return std::move(r.response.result);
}

CORBA::Long Servant::add(CORBA::Long a, CORBA::Long b) {
  return answer("add", {Value::integer(a), Value::integer(b)}).as_int();
}

char* Servant::concat(const char* s1, const char* s2, const char* s3) {
  return dup(answer("concat", {Value::string(s1), Value::string(s2), Value::string(s3)}));
}

soapbench::Ints* Servant::echoArray(const soapbench::Ints& a, const soapbench::Ints& b) {
  return new soapbench::Ints(to_ints(answer("echoArray", {from_ints(a), from_ints(b)})));
}

CORBA::Boolean Servant::boolean() { return answer("boolean", {}).as_bool(); }

char* Servant::now() { return dup(answer("now", {})); }

soapbench::People* Servant::complex(const soapbench::People& obj) {
  return new soapbench::People(to_people(answer("complex", {from_people(obj, false)})));
}

void Servant::fail() { answer("fail", {}); }

CORBA::Double Servant::getRate(const char* country1, const char* country2) {
  return answer("getRate", {Value::string(country1), Value::string(country2)}).as_double();
}

soapbench::Document* Servant::respond(CORBA::Long wordcount, CORBA::Long delay) {
  return new soapbench::Document(
      to_document(answer("respond", {Value::integer(wordcount), Value::integer(delay)})));
}

void Servant::sendString(const char* s) { answer("sendString", {Value::string(s)}); }

char* Servant::receiveString(CORBA::Long length) {
  return dup(answer("receiveString", {Value::integer(length)}));
}

void Servant::sendInt(CORBA::Long i) { answer("sendInt", {Value::integer(i)}); }

char* Servant::getChain() {
  if (chain_.empty()) answer("getChain", {});  // the service's fault for a missing document
  return CORBA::string_dup(chain_.c_str());    // passthrough: the stored bytes, never re-encoded
}

soapbench::Ints* Servant::echoInts(const soapbench::Ints& values) {
  return new soapbench::Ints(to_ints(answer("echoInts", {from_ints(values)})));
}

soapbench::Doubles* Servant::echoDoubles(const soapbench::Doubles& values) {
  return new soapbench::Doubles(to_doubles(answer("echoDoubles", {from_doubles(values)})));
}

soapbench::Strings* Servant::echoStrings(const soapbench::Strings& values) {
  return new soapbench::Strings(to_strings(answer("echoStrings", {from_strings(values)})));
}

soapbench::Bytes* Servant::echoBase64(const soapbench::Bytes& data) {
  return new soapbench::Bytes(to_bytes(answer("echoBase64", {from_bytes(data)})));
}

}  // namespace sb::corba
