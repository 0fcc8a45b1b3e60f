// What corba_server, corba_client and stacks_bench's corba rows share about omniORB: the ORB's
// settings (written once here), the object's name in corbaloc URLs, and the bound port read back
// from an object reference. docs/peers.md "omniORB (CORBA)".
#pragma once

#include <omniORB4/CORBA.h>

#include <string>
#include <utility>
#include <vector>

namespace sb::corba {

// The object key of the service under omniORB's INS POA: corbaloc:iiop:1.2@HOST:PORT/soapbench.
inline constexpr const char* kObjectKey = "soapbench";

// Largest GIOP message either side accepts, in bytes: 128 MiB, so every answer the contract
// allows fits (receiveString's 64 MiB plus GIOP's framing); omniORB's default is 2 MiB, and the
// largest default call is getChain's document (56 KB here; xmlrpc's is 461 KB).
inline constexpr const char* kMaxMessageBytes = "134217728";

// ORB_init with the shared settings (giopMaxMsgSize, UTF-8 as the native and default char code
// set, a 30 s client call timeout) plus `extra` omniORB options (name without -ORB, value). Call
// once per process.
CORBA::ORB_ptr init_orb(const std::vector<std::pair<std::string, std::string>>& extra);

// The IIOP port in `obj`'s first IIOP profile; 0 when it has none.
unsigned iiop_port(CORBA::Object_ptr obj);

// "corbaloc:iiop:1.2@HOST:PORT/soapbench" (an IPv6 HOST in brackets). GIOP 1.2, as omniORB
// speaks with a full IOR: without the version a corbaloc URL means GIOP 1.0, which has no code
// set negotiation (its strings are ISO-8859-1).
std::string corbaloc_url(const std::string& host, unsigned port);

// The PORT of a corbaloc:iiop URL; 0 when there is none.
unsigned corbaloc_port(const std::string& url);

}  // namespace sb::corba
