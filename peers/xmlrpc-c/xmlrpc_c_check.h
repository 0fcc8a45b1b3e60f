// What an xmlrpc-c answer says in the value model, and how far it is from the expected one:
// xmlrpc-c's own double parser and formatter are not correctly rounded (docs/peers.md), so a
// message is right when it equals the expected one except for doubles within kMaxDriftUlps.
#pragma once

#include <xmlrpc-c/client.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "codecs/value.h"
#include "harness/answer_check.h"  // ulps

namespace sb::peers {

// The largest double drift accepted from xmlrpc-c, in units in the last place: its declared
// DRIFT_ULPS (peers/xmlrpc-c/CMakeLists.txt; 17 seen on the corpus).
inline constexpr std::uint64_t kMaxDriftUlps = SB_XMLRPC_C_DRIFT_ULPS;

// The largest double drift between a and b when they are otherwise equal; nullopt when not.
std::optional<std::uint64_t> double_drift(const rpc::Message& a, const rpc::Message& b);

// "" when got equals expected within kMaxDriftUlps, else why not.
std::string drift_check(const rpc::Message& got, const rpc::Message& expected);

// A finished client call of `method` as the suite's message (response or fault).
rpc::Message call_message(const std::string& method, xmlrpc_c::rpc& call);

}  // namespace sb::peers
