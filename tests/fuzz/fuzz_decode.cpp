// libFuzzer target: one adapter's decode level (the adapter named by $SB_FUZZ_ADAPTER) on
// arbitrary bytes, with the default policy limits. Any crash, leak, sanitizer report, hang
// (-timeout) or blow-up (-rss_limit_mb) is a finding: save the input under corpus/hostile/ with
// a test (docs/corpus.md).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "parsers/registry.h"

namespace {

sb::Adapter* adapter() {
  static const std::unique_ptr<sb::Adapter> a = [] {
    const char* env = std::getenv("SB_FUZZ_ADAPTER");
    const std::string name = env != nullptr ? env : std::string(sb::kDefaultXmlAdapter);
    std::unique_ptr<sb::Adapter> made = sb::make_adapter(name);
    if (!made) {
      std::fprintf(stderr, "fuzz_decode: no adapter named '%s'\n", name.c_str());
      std::abort();
    }
    return made;
  }();
  return a.get();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  sb::MessageBuffer buf(std::string_view(reinterpret_cast<const char*>(data), size));
  sb::rpc::Message message;
  sb::DecodeReport report;
  (void)adapter()->decode(buf, {}, message, report);
  // The same adapter instance must stay usable after any input (state reuse).
  sb::Digest digest;
  buf.assign(std::string_view(reinterpret_cast<const char*>(data), size));
  (void)adapter()->walk(buf, digest);
  return 0;
}
