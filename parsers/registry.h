// The explicit adapter registry (parsers/registry.cpp): one row per (library, model, variant).
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "parsers/adapter.h"

namespace sb {

// The adapters used wherever none is named (server, client, CLI, the benchmarks' connection
// variants and reference readers). Result files carry them in their context
// (`default_adapter:xml`, `default_adapter:json`, harness/run_context.cpp) for the report.
inline constexpr std::string_view kDefaultXmlAdapter = "pugixml/dom";
inline constexpr std::string_view kDefaultJsonAdapter = "rapidjson/dom";

// The default adapter for a JSON (true) or XML (false) message.
constexpr std::string_view default_adapter(bool json) {
  return json ? kDefaultJsonAdapter : kDefaultXmlAdapter;
}

struct AdapterEntry {
  const AdapterInfo& (*info)();                            // facts, built once
  std::unique_ptr<Adapter> (*make)(const Limits& limits);  // a fresh instance
};

// Every adapter compiled into this build, in registry order (XML first, then JSON).
std::span<const AdapterEntry> adapters();

// The row named `name` ("pugixml/dom"), or nullptr.
const AdapterEntry* find_adapter(std::string_view name);

// A new adapter by name, or nullptr when no such adapter is compiled in.
std::unique_ptr<Adapter> make_adapter(std::string_view name, const Limits& limits = {});

}  // namespace sb
