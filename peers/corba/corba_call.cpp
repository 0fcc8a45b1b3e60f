#include "peers/corba/corba_call.h"

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/service.h"
#include "parsers/registry.h"
#include "peers/corba/corba_values.h"

namespace sb::corba {

namespace {

using rpc::Value;
using Params = std::vector<Value>;
using Svc = soapbench::Service_ptr;

// Param i, or nil when absent (concat's optional s3 is then sent as "").
const Value& arg(const Params& p, std::size_t i) {
  static const Value nil;
  return i < p.size() ? p[i] : nil;
}
int num(const Params& p, std::size_t i) { return arg(p, i).as_int(); }
const char* text(const Params& p, std::size_t i) { return arg(p, i).text().c_str(); }

// A string the stub returned (owned by the String_var).
Value str(const CORBA::String_var& s) { return Value::string(s.in()); }

using Operation = Value (*)(Svc s, const Params& p);

// Every operation of soapbench.idl: the stub call and its result as the contract's value.
const std::map<std::string, Operation, std::less<>>& operations() {
  static const std::map<std::string, Operation, std::less<>> ops = {
      {"add", [](Svc s, const Params& p) { return Value::integer(s->add(num(p, 0), num(p, 1))); }},
      {"concat",
       [](Svc s, const Params& p) { return str(s->concat(text(p, 0), text(p, 1), text(p, 2))); }},
      {"echoArray",
       [](Svc s, const Params& p) {
         soapbench::Ints_var r = s->echoArray(to_ints(arg(p, 0)), to_ints(arg(p, 1)));
         return from_ints(r.in());
       }},
      {"boolean", [](Svc s, const Params&) { return Value::boolean(s->boolean()); }},
      {"now",
       [](Svc s, const Params&) {
         CORBA::String_var r = s->now();
         return Value::datetime(r.in());
       }},
      {"complex",
       [](Svc s, const Params& p) {
         soapbench::People_var r = s->complex(to_people(arg(p, 0)));
         return from_people(r.in(), true);
       }},
      {"fail", [](Svc s, const Params&) { return s->fail(), Value(); }},
      {"getRate",
       [](Svc s, const Params& p) { return Value::floating(s->getRate(text(p, 0), text(p, 1))); }},
      {"respond",
       [](Svc s, const Params& p) {
         soapbench::Document_var r = s->respond(num(p, 0), num(p, 1));
         return from_document(r.in());
       }},
      {"sendString", [](Svc s, const Params& p) { return s->sendString(text(p, 0)), Value(); }},
      {"receiveString", [](Svc s, const Params& p) { return str(s->receiveString(num(p, 0))); }},
      {"sendInt", [](Svc s, const Params& p) { return s->sendInt(num(p, 0)), Value(); }},
      {"getChain", [](Svc s, const Params&) { return str(s->getChain()); }},
      {"echoInts",
       [](Svc s, const Params& p) {
         soapbench::Ints_var r = s->echoInts(to_ints(arg(p, 0)));
         return from_ints(r.in());
       }},
      {"echoDoubles",
       [](Svc s, const Params& p) {
         soapbench::Doubles_var r = s->echoDoubles(to_doubles(arg(p, 0)));
         return from_doubles(r.in());
       }},
      {"echoStrings",
       [](Svc s, const Params& p) {
         soapbench::Strings_var r = s->echoStrings(to_strings(arg(p, 0)));
         return from_strings(r.in());
       }},
      {"echoBase64",
       [](Svc s, const Params& p) {
         soapbench::Bytes_var r = s->echoBase64(to_bytes(arg(p, 0)));
         return from_bytes(r.in());
       }},
  };
  return ops;
}

}  // namespace

rpc::Message call(Svc service, const rpc::Message& request) {
  const auto op = operations().find(request.method);
  if (op == operations().end())
    throw std::invalid_argument("not an operation of soapbench.idl: " + request.method);
  rpc::Message m;
  try {
    m.result = op->second(service, request.params);
  } catch (const soapbench::Fault& f) {
    return make_fault(f.code, f.message.in());
  }
  m.kind = rpc::MessageKind::response;
  m.method = request.method;
  return m;
}

rpc::Message chain_message(rpc::Message m) {
  if (m.kind != rpc::MessageKind::response || m.method != "getChain" ||
      m.result.kind() != rpc::Kind::string)
    return m;
  MessageBuffer buffer(m.result.text());
  rpc::DecodeContext context;
  context.method = "getChain";
  rpc::Message decoded;
  DecodeReport report;
  const Status s = make_adapter(kDefaultJsonAdapter)->decode(buffer, context, decoded, report);
  if (!s.ok()) return make_fault(rpc::fault::parse_error, "getChain document: " + s.reason());
  return decoded;
}

}  // namespace sb::corba
