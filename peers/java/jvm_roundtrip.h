// The JVM stacks' round-trip rows (stacks_bench's `--set=java` and `--set=jaxws`): our client
// (default adapter) against a JVM server, gsoap_server and `soapbench serve` on the same calls, a
// new connection per call, each answer checked before timing. The JVM server is started once for
// the run with --warmup, so the rows time a JIT-compiled server (its warm-up is printed on its
// stderr, apart from the rows). docs/peers.md "Java stacks".
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace sb {
class Corpus;
}

namespace sb::java {

// Registers roundtrip/newconn/<family>/soapbench~<server>/<call> for `server` (started by
// `program`), soapbench~gsoap (when gSOAP's peer is built) and soapbench~soapbench, on the calls
// of `family` that `keep` accepts; returns how many rows.
std::size_t register_jvm_rows(const Corpus& corpus, const std::string& family,
                              const std::string& server, const std::string& program,
                              const std::function<bool(std::string_view call)>& keep);

}  // namespace sb::java
