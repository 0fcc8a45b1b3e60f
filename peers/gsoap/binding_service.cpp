// The service operations behind the generated soap_serve (docs/service.md): the rules of
// codecs/service_rules.h (bounds, answers, faults) in gSOAP's types, compiled once per generated
// binding. A service fault is a SOAP fault carrying detail/ns1:fault/code.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include SB_GSOAP_HEADER
#include "codecs/service_contract.h"
#include "codecs/service_rules.h"
#include "peers/gsoap/binding_values.h"
#include "peers/gsoap/context.h"

namespace SB_GSOAP_NS {

namespace fault = sb::rpc::fault;
namespace rules = sb::rpc;
using sb::gsoap::service_fault;

namespace {

// The rule of `method` (codecs/service_rules.h).
const rules::Rule& rule(std::string_view method) { return *rules::find_rule(method); }

// Answers with the rule's own fault.
int rule_fault(soap* s, const rules::Rule& r) {
  return service_fault(s, r.fault_code, std::string(r.fault_message));
}

// complex: PersonIn (birthdate as text) to Person (birthdate as dateTime); false with a fault.
bool typed_person(soap* s, const ns__PersonIn& in, ns__Person& out, const std::string& where) {
  out.id = in.id;
  out.name = in.name;
  out.weight = in.weight;
  if (!parse_time(in.birthdate, out.birthdate)) {
    service_fault(s, fault::invalid_params,
                  "invalid params: " + where + ".birthdate: bad dateTime '" + in.birthdate + "'");
    return false;
  }
  const int n = count(in.children);
  ns__Person* children = resize(s, out.children, n);
  for (int i = 0; i < n; ++i) {
    if (!typed_person(s, items(in.children)[i], children[i],
                      where + ".children[" + std::to_string(i) + "]")) {
      return false;
    }
  }
  return true;
}

// ints of `from` copied to `to`, starting at index `at`.
void copy_ints(const ArrayOfint& from, int* to, int at) {
  for (int i = 0; i < count(from); ++i) to[at + i] = items(from)[i];
}

}  // namespace

const ArrayOfChainStep*& stored_chain() {
  static const ArrayOfChainStep* chain = nullptr;
  return chain;
}

int ns__add(soap* s, int a, int b, int& result) {
  static const rules::Rule& add = rule("add");
  const std::optional<std::int32_t> sum = rules::checked_sum(a, b);
  if (!sum) return rule_fault(s, add);
  result = *sum;
  return SOAP_OK;
}

int ns__concat(soap*, std::string s1, std::string s2, std::string* s3, std::string& result) {
  result = s1 + s2 + (s3 != nullptr ? *s3 : std::string());
  return SOAP_OK;
}

int ns__echoArray(soap* s, ArrayOfint a, ArrayOfint b, ns__echoArrayResponse& out) {
  int* items = resize(s, out.return_, count(a) + count(b));
  copy_ints(a, items, 0);
  copy_ints(b, items, count(a));
  return SOAP_OK;
}

int ns__boolean(soap*, bool& result) {
  result = true;
  return SOAP_OK;
}

int ns__now(soap*, time_t& result) {
  result = std::time(nullptr);
  return SOAP_OK;
}

int ns__complex(soap* s, ArrayOfPersonIn obj, ns__complexResponse& out) {
  const int n = count(obj);
  ns__Person* people = resize(s, out.return_, n);
  for (int i = 0; i < n; ++i) {
    if (!typed_person(s, items(obj)[i], people[i], "obj[" + std::to_string(i) + "]")) {
      return SOAP_FAULT;
    }
  }
  return SOAP_OK;
}

int ns__fail(soap* s, ns__failResponse*) { return rule_fault(s, rule("fail")); }

int ex__getRate(soap* s, std::string country1, std::string country2, double& result) {
  const std::optional<double> rate = rules::exchange_rate(country1, country2);
  if (!rate) {
    return service_fault(s, rule("getRate").fault_code, rules::no_rate_fault(country1, country2));
  }
  result = *rate;
  return SOAP_OK;
}

int ns__respond(soap* s, int wordcount, int delay, ns__respondResponse& out) {
  static const rules::Rule& respond = rule("respond");
  const std::int64_t ints[] = {wordcount, delay};
  if (std::string e = rules::bounds_violation(respond, ints); !e.empty()) {
    return service_fault(s, fault::invalid_params, e);
  }
  const Value doc = rules::respond_document(wordcount);
  ns__Document& d = out.return_;
  ns__Paragraph* paragraphs[] = {&d.e1, &d.e2, &d.e3, &d.e4, &d.e5};
  for (std::size_t i = 0; i < 5; ++i) paragraphs[i]->words = doc.items()[i].items()[0].text();
  std::this_thread::sleep_for(std::chrono::milliseconds(delay));
  return SOAP_OK;
}

int ns__sendString(soap*, std::string, ns__sendStringResponse*) { return SOAP_OK; }

int ns__receiveString(soap* s, int length, std::string& result) {
  static const rules::Rule& receive_string = rule("receiveString");
  const std::int64_t ints[] = {length};
  if (std::string e = rules::bounds_violation(receive_string, ints); !e.empty()) {
    return service_fault(s, fault::invalid_params, e);
  }
  result = rules::letters(length);
  return SOAP_OK;
}

int ns__sendInt(soap*, int, ns__sendIntResponse*) { return SOAP_OK; }

int ns__getChain(soap* s, ns__getChainResponse& out) {
  if (stored_chain() == nullptr) return rule_fault(s, rule("getChain"));
  out.return_ = *stored_chain();
  return SOAP_OK;
}

int ns__echoInts(soap*, ArrayOfint values, ns__echoIntsResponse& out) {
  out.return_ = values;
  return SOAP_OK;
}

int ns__echoDoubles(soap*, ArrayOfdouble values, ns__echoDoublesResponse& out) {
  out.return_ = values;
  return SOAP_OK;
}

int ns__echoStrings(soap*, ArrayOfstring values, ns__echoStringsResponse& out) {
  out.return_ = values;
  return SOAP_OK;
}

int ns__echoBase64(soap*, xsd__base64Binary data, ns__echoBase64Response& out) {
  out.return_ = data;
  return SOAP_OK;
}

}  // namespace SB_GSOAP_NS
