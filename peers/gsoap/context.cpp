#include "peers/gsoap/context.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <sstream>

#include "codecs/service_contract.h"
#include "envH.h"

namespace sb::gsoap {

namespace {

// The unread part of the message read_message is reading.
struct MemoryInput {
  const char* next;  // first unread byte
  std::size_t left;  // bytes left
};

std::size_t read_memory(soap* s, char* buf, std::size_t len) {
  auto* in = static_cast<MemoryInput*>(s->user);
  const std::size_t n = std::min(len, in->left);
  std::copy(in->next, in->next + n, buf);
  in->next += n;
  in->left -= n;
  return n;
}

}  // namespace

void configure(soap* s, const Family& family) {
  // gSOAP reads a dateTime without a zone (the contract's form) as local time (mktime): the
  // process runs in UTC, so such a dateTime is UTC as the contract means it.
  static const bool utc = [] {
    setenv("TZ", "UTC", 1);
    tzset();
    return true;
  }();
  (void)utc;
  soap_set_namespaces(s, family.namespaces);
  // Strings are UTF-8 both ways; without this gSOAP reads characters past U+00FF into Latin-1
  // bytes and mangles them (concat.unicode).
  soap_set_mode(s, SOAP_C_UTFSTRING);
  soap_set_omode(s, family.output_mode);
  // gSOAP's defaults would cut the corpus: arrays over 100,000 items (echoInts.100000) fail with
  // SOAP_OCCURS, and soap_serve closes a keep-alive connection after 100 calls.
  s->maxoccurs = 100'000'000;
  s->max_keep_alive = 0;  // no call limit on a keep-alive connection
  s->recv_maxlength = 0;  // no message size limit (the default; stated, the corpus has 4 MB ones)
  s->maxlength = 0;       // no string length limit (the default)
  s->maxlevel = 10'000;   // nesting depth (the default SOAP_MAXLEVEL)
  s->double_format = "%.17lg";  // round-trip exact (the default)
}

int read_message(soap* s, std::string_view bytes, const std::function<int(soap*)>& body) {
  MemoryInput in{bytes.data(), bytes.size()};
  soap_begin(s);
  void* user = s->user;
  auto frecv = s->frecv;
  s->user = &in;
  s->frecv = read_memory;
  s->is = nullptr;
  int error = SOAP_OK;
  if (soap_begin_recv(s) || soap_envelope_begin_in(s) || soap_recv_header(s) ||
      soap_body_begin_in(s) || body(s) || soap_body_end_in(s) || soap_envelope_end_in(s) ||
      soap_end_recv(s)) {
    error = s->error != SOAP_OK ? s->error : SOAP_ERR;
  }
  s->user = user;
  s->frecv = frecv;
  return error;
}

int service_fault(soap* s, int code, const std::string& message) {
  const char* text = soap_strdup(s, message.c_str());
  if (code >= rpc::fault::parse_error && code <= rpc::fault::invalid_request) {
    soap_sender_fault(s, text, nullptr);
  } else {
    soap_receiver_fault(s, text, nullptr);
  }
  soap_faultdetail(s);  // creates the Detail of this SOAP version
  SOAP_ENV__Detail* detail = s->version == 2 ? s->fault->SOAP_ENV__Detail : s->fault->detail;
  detail->ns__fault_ = soap_new_ns__fault(s);
  detail->ns__fault_->code = code;
  return SOAP_FAULT;
}

rpc::Message fault_message(soap* s) {
  rpc::Message m;
  m.kind = rpc::MessageKind::fault;
  if (s->fault == nullptr) return m;
  const char* text = soap_fault_string(s);
  m.fault_message = text != nullptr ? text : "";
  const SOAP_ENV__Detail* detail = s->version == 2 ? s->fault->SOAP_ENV__Detail : s->fault->detail;
  if (detail != nullptr && detail->ns__fault_ != nullptr) m.fault_code = detail->ns__fault_->code;
  return m;
}

std::string error_text(soap* s) {
  std::ostringstream out;
  soap_stream_fault(s, out);
  std::string text = out.str();
  std::replace(text.begin(), text.end(), '\n', ' ');
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

int read_fault(soap* s) {
  s->fault = soap_get_SOAP_ENV__Fault(s, nullptr, "SOAP-ENV:Fault", nullptr);
  return s->fault != nullptr ? SOAP_OK : s->error;
}

void count_wire(soap* s, WireCount& w) {
  w.fsend = s->fsend;
  w.frecv = s->frecv;
  s->user = &w;
  s->fsend = [](soap* c, const char* buf, std::size_t n) {
    auto* wc = static_cast<WireCount*>(c->user);
    wc->sent += n;
    return wc->fsend(c, buf, n);
  };
  s->frecv = [](soap* c, char* buf, std::size_t n) {
    auto* wc = static_cast<WireCount*>(c->user);
    const std::size_t got = wc->frecv(c, buf, n);
    wc->received += got;
    return got;
  };
}

}  // namespace sb::gsoap
