// roundtrip/newconn/soap11-doc-literal/soapbench~<server>/<call>: our client against jaxws_server
// (the JAX-WS RI on the JDK's HTTP server), gsoap_server and `soapbench serve` on the same calls
// (peers/java/jvm_roundtrip.h), a new connection per call as the Axis rows beside them.
// docs/peers.md "JAX-WS".
#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>

#include "harness/peer_list.h"
#include "peers/java/jvm_roundtrip.h"
#include "peers/stacks_bench.h"

namespace sb::java {

namespace {

// The family timed here: JAX-WS's document/literal, SOAP 1.1 (docs/peers.md "Java stacks").
constexpr const char* kFamily = "soap11-doc-literal";
// The calls of `--set=java` (the default `bench` set's budget: about 20 s with the JVM's start
// and warm-up): the classic envelope and the encoding-style study's two payload sizes;
// `--set=jaxws` times every default call.
constexpr std::string_view kJavaSetCalls[] = {"getRate", "respond.2500B", "respond.7500B"};

std::size_t register_jaxws_roundtrip(const Corpus& corpus, const std::string& set) {
  return register_jvm_rows(
      corpus, kFamily, "jaxws", peer_server("jaxws"), [all = set != "java"](std::string_view call) {
        return all || std::ranges::find(kJavaSetCalls, call) != std::end(kJavaSetCalls);
      });
}

// In the Axis rows' set (`--set=java`): one run times both JVM stacks beside gSOAP and ours; and
// a set of its own with every call (`--set=jaxws`, bench.stacks.jaxws.full).
const bool kRegistered = stacks::add_set_registrar("java", register_jaxws_roundtrip) &&
                         stacks::add_set_registrar("jaxws", register_jaxws_roundtrip);

}  // namespace

}  // namespace sb::java
