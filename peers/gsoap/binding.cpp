// The operation table of one generated binding (binding.h), compiled once per soapcpp2 namespace:
// SB_GSOAP_NS (enc, rlit, doc), SB_GSOAP_HEADER its generated header, SB_GSOAP_BINDING the
// accessor's name. Each operation: the generated client call, and the generated readers of its
// request and response elements.
#include SB_GSOAP_HEADER
#include "peers/gsoap/binding.h"
#include "peers/gsoap/binding_values.h"
#include "peers/gsoap/context.h"

// Reads the whole message `message` with the element TAG of the Body into a new generated struct
// VAR of type TYPE, or returns the gSOAP error. VAR is only complete once the message is read
// (href/id references are resolved at its end), so conversions come after this.
#define SB_READ(TYPE, TAG, VAR)                                                                  \
  struct TYPE VAR;                                                                               \
  soap_default_##TYPE(s, &VAR);                                                                  \
  if (const int e = sb::gsoap::read_message(                                                     \
          s, message,                                                                            \
          [&](soap* c) { return soap_get_##TYPE(c, &VAR, TAG, nullptr) ? SOAP_OK : c->error; }); \
      e != SOAP_OK)                                                                              \
  return e

namespace SB_GSOAP_NS {

namespace {

using Params = std::vector<Value>;
using sb::gsoap::Operation;

// Param i as T (default when absent), allocated in s where T needs it.
template <class T>
T arg(soap* s, const Params& p, std::size_t i) {
  T t{};
  if (i < p.size()) from_value(s, p[i], t);
  return t;
}

// A call's gSOAP error; on success result becomes convert() (called after the call returned).
template <class F>
int result_of(int error, Value& result, F convert) {
  if (error == SOAP_OK) result = convert();
  return error;
}

// One echo operation (a T in, the same T out): call, request reader, response reader.
#define SB_ECHO(NAME, TYPE, PARAM)                                                           \
  {                                                                                          \
#NAME,                                                                                     \
   [](soap* s, const char* url, const Params& p, Value& r) {                                  \
     ns__##NAME##Response out;                                                                \
     return result_of(soap_call_ns__##NAME(s, url, "", arg<TYPE>(s, p, 0), out), r, [&] { return \
                      to_value(out.return_); });                                                 \
   },                                                                                         \
   [](soap* s, std::string_view message, Params* p) {                                                                   \
     SB_READ(ns__##NAME, "ns:" #NAME, x);                                                     \
     if (p != nullptr) *p = {to_value(x.PARAM)};                                              \
     return SOAP_OK;                                                                          \
   },                                                                                         \
   [](soap* s, std::string_view message, Value* r) {                                                                    \
     SB_READ(ns__##NAME##Response, "ns:" #NAME "Response", x);                                \
     if (r != nullptr) *r = to_value(x.return_);                                              \
     return SOAP_OK;                                                                          \
   } \
  }

// One operation without a result (void): its response element is empty.
#define SB_VOID(NAME, TYPE, PARAM)                                                           \
  {                                                                                          \
#NAME,                                                                                     \
   [](soap* s, const char* url, const Params& p, Value& r) {                                  \
     ns__##NAME##Response out;                                                                \
     return result_of(soap_call_ns__##NAME(s, url, "", arg<TYPE>(s, p, 0), &out), r, [&] { return Value(); }); \
   },                                                                                         \
   [](soap* s, std::string_view message, Params* p) {                                                                   \
     SB_READ(ns__##NAME, "ns:" #NAME, x);                                                     \
     if (p != nullptr) *p = {to_value(x.PARAM)};                                              \
     return SOAP_OK;                                                                          \
   },                                                                                         \
   [](soap* s, std::string_view message, Value* r) {                                                                    \
     SB_READ(ns__##NAME##Response, "ns:" #NAME "Response", x);                                \
     if (r != nullptr) *r = Value();                                                          \
     return SOAP_OK;                                                                          \
   } \
  }

// One operation without params and with a result.
#define SB_NULLARY(NAME, TYPE, CONVERT)                                                      \
  {                                                                                          \
#NAME,                                                                                     \
   [](soap* s, const char* url, const Params&, Value& r) {                                    \
     TYPE out{};                                                                              \
     return result_of(soap_call_ns__##NAME(s, url, "", out), r, [&] { return CONVERT(out); });                \
   },                                                                                         \
   [](soap* s, std::string_view message, Params* p) {                                                                   \
     SB_READ(ns__##NAME, "ns:" #NAME, x);                                                     \
     if (p != nullptr) p->clear();                                                            \
     return SOAP_OK;                                                                          \
   },                                                                                         \
   [](soap* s, std::string_view message, Value* r) {                                                                    \
     SB_READ(ns__##NAME##Response, "ns:" #NAME "Response", x);                                \
     if (r != nullptr) *r = CONVERT(x.return_);                                               \
     return SOAP_OK;                                                                          \
   } \
  }

Value plain(const auto& v) { return to_value(v); }

const Operation kOperations[] = {
    {"add",
     [](soap* s, const char* url, const Params& p, Value& r) {
       int out = 0;
       return result_of(soap_call_ns__add(s, url, "", arg<int>(s, p, 0), arg<int>(s, p, 1), out), r,
                        [&] { return to_value(out); });
     },
     [](soap* s, std::string_view message, Params* p) {
       SB_READ(ns__add, "ns:add", x);
       if (p != nullptr) *p = {to_value(x.a), to_value(x.b)};
       return SOAP_OK;
     },
     [](soap* s, std::string_view message, Value* r) {
       SB_READ(ns__addResponse, "ns:addResponse", x);
       if (r != nullptr) *r = to_value(x.return_);
       return SOAP_OK;
     }},
    {"concat",
     [](soap* s, const char* url, const Params& p, Value& r) {
       std::string out;
       std::string s3 = arg<std::string>(s, p, 2);
       return result_of(
           soap_call_ns__concat(s, url, "", arg<std::string>(s, p, 0), arg<std::string>(s, p, 1),
                                p.size() > 2 ? &s3 : nullptr, out),
           r, [&] { return to_value(out); });
     },
     [](soap* s, std::string_view message, Params* p) {
       SB_READ(ns__concat, "ns:concat", x);
       if (p != nullptr) *p = {to_value(x.s1), to_value(x.s2)};
       if (p != nullptr && x.s3 != nullptr) p->push_back(to_value(*x.s3));
       return SOAP_OK;
     },
     [](soap* s, std::string_view message, Value* r) {
       SB_READ(ns__concatResponse, "ns:concatResponse", x);
       if (r != nullptr) *r = to_value(x.return_);
       return SOAP_OK;
     }},
    {"echoArray",
     [](soap* s, const char* url, const Params& p, Value& r) {
       ns__echoArrayResponse out;
       return result_of(soap_call_ns__echoArray(s, url, "", arg<ArrayOfint>(s, p, 0),
                                                arg<ArrayOfint>(s, p, 1), out),
                        r, [&] { return to_value(out.return_); });
     },
     [](soap* s, std::string_view message, Params* p) {
       SB_READ(ns__echoArray, "ns:echoArray", x);
       if (p != nullptr) *p = {to_value(x.a), to_value(x.b)};
       return SOAP_OK;
     },
     [](soap* s, std::string_view message, Value* r) {
       SB_READ(ns__echoArrayResponse, "ns:echoArrayResponse", x);
       if (r != nullptr) *r = to_value(x.return_);
       return SOAP_OK;
     }},
    SB_NULLARY(boolean, bool, plain),
    SB_NULLARY(now, time_t, time_value),
    {"complex",
     [](soap* s, const char* url, const Params& p, Value& r) {
       ns__complexResponse out;
       return result_of(soap_call_ns__complex(s, url, "", arg<ArrayOfPersonIn>(s, p, 0), out), r,
                        [&] { return to_value(out.return_); });
     },
     [](soap* s, std::string_view message, Params* p) {
       SB_READ(ns__complex, "ns:complex", x);
       if (p != nullptr) *p = {to_value(x.obj)};
       return SOAP_OK;
     },
     [](soap* s, std::string_view message, Value* r) {
       SB_READ(ns__complexResponse, "ns:complexResponse", x);
       if (r != nullptr) *r = to_value(x.return_);
       return SOAP_OK;
     }},
    {"fail",
     [](soap* s, const char* url, const Params&, Value& r) {
       ns__failResponse out;
       return result_of(soap_call_ns__fail(s, url, "", &out), r, [&] { return Value(); });
     },
     [](soap* s, std::string_view message, Params* p) {
       SB_READ(ns__fail, "ns:fail", x);
       if (p != nullptr) p->clear();
       return SOAP_OK;
     },
     [](soap* s, std::string_view message, Value* r) {
       SB_READ(ns__failResponse, "ns:failResponse", x);
       if (r != nullptr) *r = Value();
       return SOAP_OK;
     }},
    {"getRate",
     [](soap* s, const char* url, const Params& p, Value& r) {
       double out = 0;
       return result_of(soap_call_ex__getRate(s, url, "", arg<std::string>(s, p, 0),
                                              arg<std::string>(s, p, 1), out),
                        r, [&] { return to_value(out); });
     },
     [](soap* s, std::string_view message, Params* p) {
       SB_READ(ex__getRate, "ex:getRate", x);
       if (p != nullptr) *p = {to_value(x.country1), to_value(x.country2)};
       return SOAP_OK;
     },
     [](soap* s, std::string_view message, Value* r) {
       SB_READ(ex__getRateResponse, "ex:getRateResponse", x);
       if (r != nullptr) *r = to_value(x.return_);
       return SOAP_OK;
     }},
    {"respond",
     [](soap* s, const char* url, const Params& p, Value& r) {
       ns__respondResponse out;
       return result_of(
           soap_call_ns__respond(s, url, "", arg<int>(s, p, 0), arg<int>(s, p, 1), out), r,
           [&] { return to_value(out.return_); });
     },
     [](soap* s, std::string_view message, Params* p) {
       SB_READ(ns__respond, "ns:respond", x);
       if (p != nullptr) *p = {to_value(x.wordcount), to_value(x.delay)};
       return SOAP_OK;
     },
     [](soap* s, std::string_view message, Value* r) {
       SB_READ(ns__respondResponse, "ns:respondResponse", x);
       if (r != nullptr) *r = to_value(x.return_);
       return SOAP_OK;
     }},
    SB_VOID(sendString, std::string, s),
    {"receiveString",
     [](soap* s, const char* url, const Params& p, Value& r) {
       std::string out;
       return result_of(soap_call_ns__receiveString(s, url, "", arg<int>(s, p, 0), out), r,
                        [&] { return to_value(out); });
     },
     [](soap* s, std::string_view message, Params* p) {
       SB_READ(ns__receiveString, "ns:receiveString", x);
       if (p != nullptr) *p = {to_value(x.length)};
       return SOAP_OK;
     },
     [](soap* s, std::string_view message, Value* r) {
       SB_READ(ns__receiveStringResponse, "ns:receiveStringResponse", x);
       if (r != nullptr) *r = to_value(x.return_);
       return SOAP_OK;
     }},
    SB_VOID(sendInt, int, i),
    {"getChain",
     [](soap* s, const char* url, const Params&, Value& r) {
       ns__getChainResponse out;
       return result_of(soap_call_ns__getChain(s, url, "", out), r,
                        [&] { return to_value(out.return_); });
     },
     [](soap* s, std::string_view message, Params* p) {
       SB_READ(ns__getChain, "ns:getChain", x);
       if (p != nullptr) p->clear();
       return SOAP_OK;
     },
     [](soap* s, std::string_view message, Value* r) {
       SB_READ(ns__getChainResponse, "ns:getChainResponse", x);
       if (r != nullptr) *r = to_value(x.return_);
       return SOAP_OK;
     }},
    SB_ECHO(echoInts, ArrayOfint, values),
    SB_ECHO(echoDoubles, ArrayOfdouble, values),
    SB_ECHO(echoStrings, ArrayOfstring, values),
    SB_ECHO(echoBase64, xsd__base64Binary, data),
};

int load_chain(soap* s, std::string_view message) {
  auto* response = soap_new_ns__getChainResponse(s);
  soap_default_ns__getChainResponse(s, response);
  const int e = sb::gsoap::read_message(s, message, [response](soap* c) {
    return soap_get_ns__getChainResponse(c, response, "ns:getChainResponse", nullptr) ? SOAP_OK
                                                                                      : c->error;
  });
  if (e == SOAP_OK) stored_chain() = &response->return_;
  return e;
}

}  // namespace

}  // namespace SB_GSOAP_NS

const sb::gsoap::Binding& sb::gsoap::SB_GSOAP_BINDING() {
  static const Binding binding{SB_GSOAP_NAME, SB_GSOAP_NS::kOperations, SB_GSOAP_NS::soap_serve,
                               SB_GSOAP_NS::load_chain};
  return binding;
}
