// What every gSOAP context of the peer shares: its settings, reading a message from memory and
// the service fault (the Fault types are global, in the env module: env.h).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "codecs/value.h"
#include "peers/gsoap/family.h"

struct soap;

namespace sb::gsoap {

// Applies the peer's settings to s (docs/peers.md "gSOAP": limits raised so that no corpus
// message is cut, keep-alive without a call limit) and the family's namespace table; the first
// call sets the process's time zone to UTC (gSOAP reads zone-less dateTimes as local time).
void configure(soap* s, const Family& family);

// Reads one whole SOAP message from `bytes` (no HTTP header, no socket): envelope, header, and
// the Body's elements with `body` (a generated reader); then resolves href/id references.
// Returns the gSOAP error code.
int read_message(soap* s, std::string_view bytes, const std::function<int(soap*)>& body);

// Makes the operation answer with a service fault: faultcode Client/Sender for the client codes
// (-32700..-32600), else Server/Receiver; the code in detail/ns1:fault/code. Returns SOAP_FAULT.
int service_fault(soap* s, int code, const std::string& message);

// The fault s holds (after a call returned SOAP_FAULT, or read_message of a Fault) as the
// contract's message: code from the detail (0 when there is none), message the faultstring.
rpc::Message fault_message(soap* s);

// gSOAP's description of the error s holds, one line.
std::string error_text(soap* s);

// Reads a SOAP Fault element (the Body's child) into s->fault.
int read_fault(soap* s);

// Bytes through the socket, counted by wrapping gSOAP's send and receive callbacks.
struct WireCount {
  std::size_t sent = 0;                                       // bytes written
  std::size_t received = 0;                                   // bytes read
  int (*fsend)(soap*, const char*, std::size_t) = nullptr;    // gSOAP's own send
  std::size_t (*frecv)(soap*, char*, std::size_t) = nullptr;  // gSOAP's own receive
};

// Makes s count its socket bytes into w (s->user points at w; w must outlive s's calls).
void count_wire(soap* s, WireCount& w);

}  // namespace sb::gsoap
