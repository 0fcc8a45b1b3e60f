// Decoding one message by every adapter of a format, for the decode tests (decode_test.cpp,
// decode_wild_test.cpp).
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "codecs/canonical_json.h"
#include "parsers/registry.h"

namespace sb::test {

// What `adapter` makes of `message`: its canonical JSON, or "error CODE: REASON".
inline std::string decoded_by(const AdapterEntry& adapter, const std::string& message,
                              const rpc::DecodeContext& context = {}) {
  std::unique_ptr<Adapter> a = adapter.make(Limits{});
  MessageBuffer buffer(message);
  rpc::Message out;
  DecodeReport report;
  const Status s = a->decode(buffer, context, out, report);
  return s.ok() ? rpc::to_canonical_json(out)
                : "error " + std::to_string(report.fault_code) + ": " + s.reason();
}

// Every adapter of `format` decodes each (message, canonical JSON) case to that JSON; returns how
// many adapters were checked.
inline int expect_every_adapter_decodes(
    Format format, const std::vector<std::pair<std::string, std::string>>& cases,
    const rpc::DecodeContext& context = {}) {
  int checked = 0;
  for (const AdapterEntry& entry : adapters()) {
    if (entry.info().format != format) continue;
    for (const auto& [message, expected] : cases) {
      EXPECT_EQ(decoded_by(entry, message, context), expected) << entry.info().name;
    }
    ++checked;
  }
  return checked;
}

// Every adapter of `format` refuses `message` with a reason holding `reason`.
inline int expect_every_adapter_refuses(Format format, const std::string& message,
                                        const std::string& reason) {
  int checked = 0;
  for (const AdapterEntry& entry : adapters()) {
    if (entry.info().format != format) continue;
    EXPECT_THAT(decoded_by(entry, message), testing::HasSubstr(reason)) << entry.info().name;
    ++checked;
  }
  return checked;
}

}  // namespace sb::test
