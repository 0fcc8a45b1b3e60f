// AdapterT<Impl>: turns a statically dispatched adapter implementation into an Adapter.
// Included only by the adapter files in parsers/.
//
// An Impl provides:
//   static constexpr Format kFormat;                        xml or json
//   explicit Impl(const Limits&);
//   Status parse(MessageBuffer&);                           level `parse`
//   template <class Sink> Status events(MessageBuffer&, Sink&);   parse + deliver every event
// and may provide, when its decode level needs more than its walk delivers (JSON members in the
// order sent, qt6_json_dom.cpp):
//   template <class Sink> Status decode_events(MessageBuffer&, Sink&);
#pragma once

#include <memory>

#include "codecs/json_decoder.h"
#include "codecs/processing_instruction.h"
#include "codecs/xml_decoder.h"
#include "parsers/adapter.h"
#include "parsers/declared_encoding.h"
#include "parsers/json_guard.h"
#include "parsers/leaf_text.h"
#include "parsers/markup_guard.h"

namespace sb {

template <class Impl>
class AdapterT final : public Adapter {
 public:
  AdapterT(const AdapterInfo& info, const Limits& limits)
      : info_(info),
        limits_(limits),
        impl_(limits),
        xml_decoder_(rpc::service_contract(), limits),
        json_decoder_(rpc::service_contract(), limits) {}

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

  Status decode(MessageBuffer& message, const rpc::DecodeContext& context, rpc::Message& out,
                DecodeReport& report) override {
    if constexpr (Impl::kFormat == Format::xml) {
      // The registry row says whether the library needs the pre-scan (AdapterInfo).
      if (info_.decode_markup_guard && message.size() >= markup_guard_threshold(limits_)) {
        Status s = check_markup_limits(message.view(), limits_);
        if (!s.ok()) {
          report.fault_code = rpc::fault::parse_error;
          return s;
        }
      }
      // SOAP forbids PIs; events do not carry them, so every adapter checks the bytes alike.
      if (const std::size_t at = rpc::forbidden_processing_instruction(message.view(), context);
          at != std::string_view::npos) {
        report.fault_code = rpc::fault::parse_error;
        return Status::limit(std::string(rpc::kSoapPiRefusal),
                             Location{.offset = static_cast<std::int64_t>(at)});
      }
      if (!info_.reads_declared_encoding) {
        if (const std::string_view encoding = declared_non_utf8_encoding(message.view());
            !encoding.empty()) {
          report.fault_code = rpc::fault::parse_error;
          return Status::invalid("the message declares encoding '" + std::string(encoding) + "'; " +
                                 info_.library + " reads UTF-8 only here (XML 1.0 section 4.3.3)");
        }
      }
      xml_decoder_.reset(context, &out);
      // Text the library drops, found before it parses (an in-situ parse rewrites the bytes).
      if (info_.decode_restores_text != TextLoss::none &&
          leaf_texts_.find(message.view(), info_.decode_restores_text)) {
        LeafTextSink<rpc::XmlDecoder> sink(xml_decoder_, leaf_texts_);
        const Status s = impl_.events(message, sink);
        if (!sink.error().empty()) {
          report.fault_code = rpc::fault::parse_error;
          return Status::invalid(sink.error());
        }
        return finish_decode(s, xml_decoder_, report);
      }
      return finish_decode(impl_.events(message, xml_decoder_), xml_decoder_, report);
    } else {
      if (info_.decode_markup_guard && message.size() >= json_guard_threshold(limits_)) {
        Status s = check_json_limits(message.view(), limits_);
        if (!s.ok()) {
          report.fault_code = rpc::fault::parse_error;
          return s;
        }
      }
      json_decoder_.reset(context, &out);
      // An Impl whose decode level needs more than its walk (Qt's key order) says so.
      if constexpr (requires { impl_.decode_events(message, json_decoder_); }) {
        return finish_decode(impl_.decode_events(message, json_decoder_), json_decoder_, report);
      } else {
        return finish_decode(impl_.events(message, json_decoder_), json_decoder_, report);
      }
    }
  }

 private:
  // Merges the parser's status with the decoder's verdict.
  template <class Decoder>
  static Status finish_decode(Status s, Decoder& decoder, DecodeReport& report) {
    if (s.code() == StatusCode::stopped || (s.ok() && !decoder.finish())) {
      report.fault_code = decoder.error().fault_code;
      return Status::invalid(decoder.error().message);
    }
    if (!s.ok()) {
      report.fault_code = rpc::fault::parse_error;
      return s;
    }
    report.fault_code = 0;
    report.family = decoder.family();
    return s;
  }

  const AdapterInfo& info_;        // the registry row's facts
  Limits limits_;                  // the policy, for the decode-level markup guard
  Impl impl_;                      // the library, in its statically dispatched form
  XmlDigestBuilder xml_digest_;    // reused across messages
  JsonDigestBuilder json_digest_;  // reused across messages
  rpc::XmlDecoder xml_decoder_;    // reused across messages
  LeafTexts leaf_texts_;           // text the library drops, restored at decode
  rpc::JsonDecoder json_decoder_;  // reused across messages
};

// Factory helper for adapter files: make_adapter<PugixmlDom>(info, limits).
template <class Impl>
std::unique_ptr<Adapter> make_adapter(const AdapterInfo& info, const Limits& limits) {
  return std::make_unique<AdapterT<Impl>>(info, limits);
}

}  // namespace sb
