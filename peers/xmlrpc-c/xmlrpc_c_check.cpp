#include "peers/xmlrpc-c/xmlrpc_c_check.h"

#include <algorithm>

#include "codecs/canonical_json.h"
#include "peers/xmlrpc-c/xmlrpc_c_values.h"

namespace sb::peers {

namespace {

// double_drift() over values.
std::optional<std::uint64_t> drift(const rpc::Value& a, const rpc::Value& b) {
  if (a.kind() != b.kind()) return std::nullopt;
  if (a.kind() == rpc::Kind::floating) return ulps(a.as_double(), b.as_double());
  if (a.text() != b.text() || a.names() != b.names() || a.items().size() != b.items().size() ||
      a.as_bool() != b.as_bool() || a.as_int() != b.as_int())
    return std::nullopt;
  std::uint64_t most = 0;
  for (std::size_t i = 0; i < a.items().size(); ++i) {
    const std::optional<std::uint64_t> d = drift(a.items()[i], b.items()[i]);
    if (!d) return std::nullopt;
    most = std::max(most, *d);
  }
  return most;
}

}  // namespace

std::optional<std::uint64_t> double_drift(const rpc::Message& a, const rpc::Message& b) {
  rpc::Value pa = rpc::Value::array();
  rpc::Value pb = rpc::Value::array();
  for (const rpc::Value& v : a.params) pa.push(v);
  for (const rpc::Value& v : b.params) pb.push(v);
  // A fault carries no method (canonical JSON has none either).
  if (a.kind != b.kind || (a.kind != rpc::MessageKind::fault && a.method != b.method) ||
      a.fault_code != b.fault_code || a.fault_message != b.fault_message)
    return std::nullopt;
  const std::optional<std::uint64_t> p = drift(pa, pb);
  const std::optional<std::uint64_t> r = drift(a.result, b.result);
  if (!p || !r) return std::nullopt;
  return std::max(*p, *r);
}

std::string drift_check(const rpc::Message& got, const rpc::Message& expected) {
  const std::optional<std::uint64_t> d = double_drift(got, expected);
  if (d && *d <= kMaxDriftUlps) return "";
  return "canonical JSON differs: " + rpc::to_canonical_json(got).substr(0, 200) + " != expected " +
         rpc::to_canonical_json(expected).substr(0, 200);
}

rpc::Message call_message(const std::string& method, xmlrpc_c::rpc& call) {
  rpc::Message m;
  if (call.isSuccessful()) {
    m.kind = rpc::MessageKind::response;
    m.method = method;
    m.result = from_xmlrpc_c(call.getResult());
  } else {
    const xmlrpc_c::fault f = call.getFault();
    m.kind = rpc::MessageKind::fault;
    m.fault_code = static_cast<int>(f.getCode());
    m.fault_message = f.getDescription();
  }
  return m;
}

}  // namespace sb::peers
