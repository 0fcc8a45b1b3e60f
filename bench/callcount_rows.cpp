#include "bench/callcount_rows.h"

#include <fcntl.h>
#include <unistd.h>

#include <mutex>

#include "harness/roundtrip_calls.h"
#include "measure/bench_names.h"
#include "parsers/registry.h"

namespace sb::bench {

namespace {

// The seed calls every family is counted on (roundtrip_bench's names).
constexpr std::string_view kSeedCalls[] = {"getRate", "add", "complex", "respond.7500B"};
// The call every adapter, and the new-connection variant, is counted on.
constexpr std::string_view kOneCall = "getRate";

std::string stem_of(std::string_view call) {
  for (const auto& [name, stem] : roundtrip_default_calls()) {
    if (name == call) return stem;
  }
  return std::string(call) + ".call";
}

CallRow row(std::string variant, rpc::Family f, std::string_view adapter, std::string_view call) {
  return {std::move(variant), f, std::string(adapter), std::string(call), stem_of(call)};
}

// Work the spin plants add: about 20,000 loop turns (a few percent of either side's call).
void spin() {
  volatile unsigned sink = 0;
  for (unsigned i = 0; i < 20'000; ++i) sink = sink + i;
}

}  // namespace

std::string CallRow::id() const {
  return variant + "/" + std::string(rpc::family_name(family)) + "/" + name_field(adapter) + "/" +
         call;
}

std::string CallRow::name(std::string_view side) const {
  return bench_name(name_pattern::callcount, fmt::arg("side", side), fmt::arg("variant", variant),
                    fmt::arg("family", rpc::family_name(family)),
                    fmt::arg("adapter", name_field(adapter)), fmt::arg("call", call));
}

std::vector<CallRow> callcount_rows() {
  std::vector<CallRow> rows;
  for (rpc::Family f : rpc::kAllFamilies) {
    const std::string_view adapter = default_adapter(f == rpc::Family::jsonrpc);
    for (std::string_view call : kSeedCalls) rows.push_back(row("keepalive", f, adapter, call));
  }
  for (rpc::Family f : rpc::kAllFamilies) {
    rows.push_back(row("newconn", f, default_adapter(f == rpc::Family::jsonrpc), kOneCall));
  }
  for (const AdapterEntry& a : adapters()) {
    const AdapterInfo& info = a.info();
    const bool json = info.format == Format::json;
    if (info.digest_exempt || info.name == default_adapter(json)) continue;
    const rpc::Family f = json ? rpc::Family::jsonrpc : rpc::Family::soap11_rpc_encoded;
    rows.push_back(row("keepalive", f, info.name, kOneCall));
  }
  return rows;
}

const std::vector<std::pair<std::string, std::string>>& plant_names() {
  static const std::vector<std::pair<std::string, std::string>> names = {
      {"server-write", "one write(2) more per request on the server's thread"},
      {"server-alloc", "one allocation more per request on the server's thread"},
      {"server-lock", "one uncontended mutex lock more per request on the server's thread"},
      {"server-sleep", "a 100 us sleep per request on the server's thread (one blocking wait)"},
      {"server-spin", "about 20,000 loop turns more per request on the server's thread"},
      {"client-copy", "a copy of every request body on the client"},
      {"client-space", "one byte more in every request body (a trailing space)"},
      {"client-spin", "about 20,000 loop turns more per request on the client"},
  };
  return names;
}

bool Plants::add(const std::string& name) {
  const auto& names = plant_names();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i].first == name) {
      bits_ |= 1u << i;  // plant_names() lists them in Bit order
      return true;
    }
  }
  return false;
}

void Plants::on_server_request() const {
  if ((bits_ & kServer) == 0) return;
  if (bits_ & kServerWrite) {
    static const int fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    [[maybe_unused]] const ssize_t n = ::write(fd, "x", 1);
  }
  if (bits_ & kServerAlloc) {
    static char* volatile block;
    block = new char[64];
    delete[] block;
  }
  if (bits_ & kServerLock) {
    static std::mutex mutex;
    const std::lock_guard lock(mutex);
  }
  if (bits_ & kServerSleep) ::usleep(100);  // long enough to always block
  if (bits_ & kServerSpin) spin();
}

std::function<void(std::string&)> Plants::body_rewrite() const {
  const unsigned bits = bits_;
  if ((bits & (kClientCopy | kClientSpace | kClientSpin)) == 0) return {};
  return [bits](std::string& body) {
    if (bits & kClientCopy) {
      std::string duplicate(body);
      body.swap(duplicate);
    }
    if (bits & kClientSpace) body.push_back(' ');  // whitespace after the document: legal
    if (bits & kClientSpin) spin();
  };
}

}  // namespace sb::bench
