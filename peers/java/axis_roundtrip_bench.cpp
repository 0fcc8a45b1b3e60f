// roundtrip/newconn/soap11-rpc-encoded/soapbench~<server>/<call>: our client against axis_server,
// gsoap_server and `soapbench serve` on the same calls (peers/java/jvm_roundtrip.h), a new
// connection per call: SimpleAxisServer answers in HTTP/1.0 and closes every connection, so the
// other two are called the same way. docs/peers.md "Java stacks".
#include <string>
#include <string_view>

#include "harness/peer_list.h"
#include "peers/java/jvm_roundtrip.h"
#include "peers/stacks_bench.h"

namespace sb::java {

namespace {

// The one family Axis is timed in here (docs/peers.md "Java stacks").
constexpr const char* kFamily = "soap11-rpc-encoded";

std::size_t register_axis_roundtrip(const Corpus& corpus, const std::string& /*set*/) {
  return register_jvm_rows(corpus, kFamily, "axis", peer_server("axis"),
                           [](std::string_view) { return true; });
}

// Its own set (`--set=java`): the JVM's start and warm-up stay out of bench.stacks.
const bool kRegistered = stacks::add_set_registrar("java", register_axis_roundtrip);

}  // namespace

}  // namespace sb::java
