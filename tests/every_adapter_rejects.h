// A test helper shared by the decode-level bound tests (markup_guard_test, json_guard_test).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "codecs/canonical_json.h"
#include "parsers/registry.h"

namespace sb {

// Decodes `message` with every adapter of `format` under `limits` and expects each to refuse it
// with a reason containing `phrase`; returns how many adapters were checked.
inline int expect_every_adapter_rejects(Format format, const Limits& limits,
                                        const std::string& message, const std::string& phrase) {
  int adapters_checked = 0;
  for (const AdapterEntry& entry : adapters()) {
    if (entry.info().format != format) continue;
    std::unique_ptr<Adapter> adapter = entry.make(limits);
    MessageBuffer buffer(message);
    rpc::Message out;
    DecodeReport report;
    const Status s = adapter->decode(buffer, rpc::DecodeContext{}, out, report);
    EXPECT_FALSE(s.ok()) << entry.info().name << " accepted " << rpc::to_canonical_json(out);
    EXPECT_NE(s.reason().find(phrase), std::string::npos)
        << entry.info().name << ": " << s.describe();
    ++adapters_checked;
  }
  return adapters_checked;
}

}  // namespace sb
