// AdapterT<Impl>: turns a statically dispatched adapter implementation into an Adapter.
// Included only by the adapter files in parsers/.
//
// An Impl provides:
//   static constexpr Format kFormat;                        xml or json
//   explicit Impl(const ParseLimits&);
//   Status parse(MessageBuffer&);                           level `parse`
//   template <class Sink> Status events(MessageBuffer&, Sink&);   parse + deliver every event
#pragma once

#include <memory>

#include "parsers/adapter.h"

namespace sb {

template <class Impl>
class AdapterT final : public Adapter {
 public:
  AdapterT(const AdapterInfo& info, const ParseLimits& limits) : info_(info), impl_(limits) {}

  const AdapterInfo& info() const override { return info_; }

  Status parse(MessageBuffer& message) override { return impl_.parse(message); }

  Status walk(MessageBuffer& message, Digest& digest) override {
    if constexpr (Impl::kFormat == Format::xml) {
      xml_digest_.reset();
      Status s = impl_.events(message, xml_digest_);
      if (s.ok()) digest = xml_digest_.finish();
      return s;
    } else {
      json_digest_.reset();
      Status s = impl_.events(message, json_digest_);
      if (s.ok()) digest = json_digest_.finish();
      return s;
    }
  }

 private:
  const AdapterInfo& info_;        // the registry row's facts
  Impl impl_;                      // the library, in its statically dispatched form
  XmlDigestBuilder xml_digest_;    // reused across messages
  JsonDigestBuilder json_digest_;  // reused across messages
};

// Factory helper for adapter files: make_adapter<PugixmlDom>(info, limits).
template <class Impl>
std::unique_ptr<Adapter> make_adapter(const AdapterInfo& info, const ParseLimits& limits) {
  return std::make_unique<AdapterT<Impl>>(info, limits);
}

}  // namespace sb
