// RapidJSON's own serializer behind rpc::JsonWriter (parsers/writers.h): rapidjson::Writer over a
// StringBuffer, both reused across messages.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <string>

#include "parsers/adapters.h"
#include "parsers/writers.h"

namespace sb {
namespace {

// kWriteValidateEncodingFlag: malformed UTF-8 makes String()/Key() fail instead of being copied
// into the output (the default copies it, producing text no JSON parser must accept).
using Writer = rapidjson::Writer<rapidjson::StringBuffer, rapidjson::UTF8<>, rapidjson::UTF8<>,
                                 rapidjson::CrtAllocator, rapidjson::kWriteValidateEncodingFlag>;

class RapidjsonWriter final : public rpc::JsonWriter {
 public:
  RapidjsonWriter() : writer_(buffer_) {}

  void reset() override {
    buffer_.Clear();
    writer_.Reset(buffer_);
    error_.clear();
  }

  // Every call is skipped once an error is recorded: RapidJSON asserts on an unbalanced sequence.
  void start_object() override {
    if (error_.empty()) ok(writer_.StartObject(), "StartObject");
  }
  void key(std::string_view k) override {
    if (error_.empty()) ok(writer_.Key(k.data(), size(k)), "Key (invalid UTF-8?)");
  }
  void end_object() override {
    if (error_.empty()) ok(writer_.EndObject(), "EndObject");
  }
  void start_array() override {
    if (error_.empty()) ok(writer_.StartArray(), "StartArray");
  }
  void end_array() override {
    if (error_.empty()) ok(writer_.EndArray(), "EndArray");
  }
  void string_value(std::string_view s) override {
    if (error_.empty()) ok(writer_.String(s.data(), size(s)), "String (invalid UTF-8?)");
  }
  void int_value(std::int64_t i) override {
    if (error_.empty()) ok(writer_.Int64(i), "Int64");
  }
  void double_value(double d) override {
    if (!error_.empty()) return;
    if (!std::isfinite(d)) return fail("JSON cannot carry NaN or infinity");
    ok(writer_.Double(d), "Double");
  }
  void bool_value(bool b) override {
    if (error_.empty()) ok(writer_.Bool(b), "Bool");
  }
  void null_value() override {
    if (error_.empty()) ok(writer_.Null(), "Null");
  }

  bool finish(std::string& out) override {
    if (error_.empty() && !writer_.IsComplete()) fail("finish() with containers still open");
    if (!error_.empty()) return false;
    out.assign(buffer_.GetString(), buffer_.GetSize());
    return true;
  }

  std::string_view error() const override { return error_; }

 private:
  // RapidJSON's length type.
  static rapidjson::SizeType size(std::string_view s) {
    return static_cast<rapidjson::SizeType>(s.size());
  }

  // Records a failure when a Writer call returned false.
  void ok(bool success, const char* call) {
    if (!success) fail(std::string("rapidjson: Writer::") + call + " failed");
  }

  // Records the first error.
  void fail(std::string reason) {
    if (error_.empty()) error_ = std::move(reason);
  }

  rapidjson::StringBuffer buffer_;  // output, reused across messages
  Writer writer_;                   // RapidJSON's writer over buffer_
  std::string error_;               // first failure since reset()
};

std::unique_ptr<rpc::JsonWriter> make_rapidjson_writer() {
  return std::make_unique<RapidjsonWriter>();
}

}  // namespace

// The row of the writer table (parsers/writers.h). RapidJSON: rapidjson::Writer<StringBuffer> with
// kWriteValidateEncodingFlag (malformed UTF-8 is refused rather than copied into the output);
// Double() writes Grisu2 shortest digits.
const WriterInfo& rapidjson_writer_info() {
  static const WriterInfo info{
      .name = "rapidjson",
      .library = "RapidJSON",
      .writer = "Writer<StringBuffer> (kWriteValidateEncodingFlag)",
      .notes = "StringBuffer and Writer reused (Clear + Reset)",
      .make_xml = nullptr,
      .make_json = &make_rapidjson_writer,
  };
  return info;
}

}  // namespace sb
