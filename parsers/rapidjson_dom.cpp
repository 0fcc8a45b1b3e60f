// RapidJSON in its DOM model: a Document built from a copy of the strings (rapidjson/dom, as
// Document::Parse does) or in situ (rapidjson/dom-insitu, as Document::ParseInsitu does).
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/rapidjson_numbers.h"

namespace sb {
namespace {

// kParseFullPrecisionFlag: RapidJSON's default number parsing is not correctly rounded (its
// docs allow 3 ULP of error), and the Digest hashes the IEEE bits of every double. On 1e6
// shortest-form doubles drawn like the corpus's (uniform in ±1e6) the default differs from
// strtod on 10.3% of them; full precision on none. The default does not validate UTF-8
// (kParseValidateEncodingFlag off) and we keep it so.
constexpr unsigned kCopyFlags = rapidjson::kParseFullPrecisionFlag;
constexpr unsigned kInsituFlags = rapidjson::kParseInsituFlag | rapidjson::kParseFullPrecisionFlag;

using Pool = rapidjson::MemoryPoolAllocator<>;
using Document = rapidjson::GenericDocument<rapidjson::UTF8<>, Pool>;
using Value = Document::ValueType;

// The pool's first buffer: RapidJSON's own chunk size (kDefaultChunkCapacity, 64 KiB).
constexpr std::size_t kInitialPoolBytes = 64 * 1024;

// Sits between the Reader and the Document (its public Handler methods) and stops the Reader
// beyond max_depth: RapidJSON's parser recurses once per nesting level, so 100,000-deep input
// would otherwise overflow the stack. Document::Populate is the library's documented entry
// for building a Document from SAX events; the cost is one counter per container.
class DepthGuard {
 public:
  DepthGuard(Document& doc, std::size_t max_depth) : doc_(doc), max_depth_(max_depth) {}

  bool Null() { return doc_.Null(); }
  bool Bool(bool b) { return doc_.Bool(b); }
  bool Int(int i) { return doc_.Int(i); }
  bool Uint(unsigned u) { return doc_.Uint(u); }
  bool Int64(std::int64_t i) { return doc_.Int64(i); }
  bool Uint64(std::uint64_t u) { return doc_.Uint64(u); }
  bool Double(double d) { return doc_.Double(rapidjson_corrected_double(d, *cursor_)); }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool copy) {
    return doc_.RawNumber(s, n, copy);
  }
  bool String(const char* s, rapidjson::SizeType n, bool copy) { return doc_.String(s, n, copy); }
  bool StartObject() { return enter() && doc_.StartObject(); }
  bool Key(const char* s, rapidjson::SizeType n, bool copy) { return doc_.Key(s, n, copy); }
  bool EndObject(rapidjson::SizeType members) {
    --depth_;
    return doc_.EndObject(members);
  }
  bool StartArray() { return enter() && doc_.StartArray(); }
  bool EndArray(rapidjson::SizeType elements) {
    --depth_;
    return doc_.EndArray(elements);
  }

  bool depth_exceeded() const { return depth_exceeded_; }
  // The Reader's stream position (its src_), which Double() reads.
  void watch(const char* const* cursor) { cursor_ = cursor; }

 private:
  bool enter() {
    if (++depth_ <= max_depth_) return true;
    depth_exceeded_ = true;
    return false;
  }

  Document& doc_;                        // the Document being built
  std::size_t max_depth_;                // deepest container nesting accepted
  std::size_t depth_ = 0;                // open containers
  bool depth_exceeded_ = false;          // the Reader was stopped by the depth limit
  const char* const* cursor_ = nullptr;  // the stream's src_: at the number's text in Double()
};

template <bool kInsitu>
class RapidjsonDom {
 public:
  static constexpr Format kFormat = Format::json;

  explicit RapidjsonDom(const Limits& limits)
      : limits_(limits),
        pool_bytes_(kInitialPoolBytes),
        pool_buffer_(std::make_unique<char[]>(pool_bytes_)),
        pool_(std::in_place, pool_buffer_.get(), pool_bytes_),
        doc_(&*pool_) {}

  Status parse(MessageBuffer& message) {
    constexpr unsigned kFlags = kInsitu ? kInsituFlags : kCopyFlags;
    recycle_pool();
    DepthGuard guard(doc_, limits_.max_depth);
    rapidjson::ParseResult result;
    std::size_t consumed = 0;
    auto generate = [&](Document&) {
      // Same streams as Document::Parse(const char*) / ParseInsitu: both read up to the NUL
      // terminator MessageBuffer guarantees.
      using Stream =
          std::conditional_t<kInsitu, rapidjson::InsituStringStream, rapidjson::StringStream>;
      Stream stream(message.data());
      guard.watch(&stream.src_);
      result = reader_.Parse<kFlags>(stream, guard);
      consumed = stream.Tell();
      return !result.IsError();
    };
    doc_.Populate(generate);
    if (result.IsError()) {
      doc_.SetNull();
      const Location where{.offset = static_cast<std::int64_t>(result.Offset())};
      if (result.Code() == rapidjson::kParseErrorTermination && guard.depth_exceeded()) {
        return too_deep(limits_.max_depth, where);
      }
      return Status::malformed(rapidjson::GetParseError_En(result.Code()), where);
    }
    // A NUL byte inside the message ends the stream early: the rest would go unread.
    if (consumed != message.size()) {
      doc_.SetNull();
      return Status::malformed("NUL byte before the end of the message",
                               Location{.offset = static_cast<std::int64_t>(consumed)});
    }
    return Status::success();
  }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    Status s = parse(message);
    if (!s.ok()) return s;
    return emit_tree(doc_, sink);
  }

 private:
  // An open container during the walk and the index of its next child.
  struct Frame {
    const Value* container;     // object or array
    rapidjson::SizeType index;  // next member / element to visit
  };

  // Empties the pool for the next message. Every message's Document lives in one reused
  // buffer; when a message needed more (extra 64 KiB chunks from malloc), the buffer grows to
  // that high-water mark once, so memory is bounded by the largest message, not their number.
  void recycle_pool() {
    doc_.SetNull();  // drop the previous tree before its memory is reused
    // Capacity() sums the chunks: below pool_bytes_ exactly when no extra chunk was needed.
    const std::size_t used = pool_->Capacity();
    if (used <= pool_bytes_) {
      pool_->Clear();
      return;
    }
    pool_.reset();            // frees the extra chunks; doc_ keeps pointing at pool_'s storage
    pool_bytes_ = used + 64;  // + the chunk header: the same message then fits in one buffer
    pool_buffer_ = std::make_unique<char[]>(pool_bytes_);
    pool_.emplace(pool_buffer_.get(), pool_bytes_);
  }

  // Iterative pre-order walk (no recursion, so depth is bounded only by the limit).
  template <class Sink>
  Status emit_tree(const Value& root, Sink& sink) {
    stack_.clear();
    const Value* v = &root;
    for (;;) {
      if (!emit_value(*v, sink)) return Status::stopped();
      if (child_count(*v) > 0) stack_.push_back({v, 0});
      // Next: the next child of the innermost open container, closing the finished ones.
      for (;;) {
        if (stack_.empty()) return Status::success();
        Frame& f = stack_.back();
        const Value& c = *f.container;
        if (f.index < child_count(c)) {
          v = child(f, sink);
          if (v == nullptr) return Status::stopped();
          ++f.index;
          break;
        }
        if (!(c.IsObject() ? sink.end_object() : sink.end_array())) return Status::stopped();
        stack_.pop_back();
      }
    }
  }

  static rapidjson::SizeType child_count(const Value& v) {
    return v.IsObject() ? v.MemberCount() : v.IsArray() ? v.Size() : 0;
  }

  // Emits a value's own event: a scalar, or the opening of a container (closed by emit_tree;
  // an empty container is closed here).
  template <class Sink>
  static bool emit_value(const Value& v, Sink& sink) {
    switch (v.GetType()) {
      case rapidjson::kNullType:
        return sink.null_value();
      case rapidjson::kFalseType:
        return sink.bool_value(false);
      case rapidjson::kTrueType:
        return sink.bool_value(true);
      case rapidjson::kObjectType:
        return sink.start_object() && (v.MemberCount() > 0 || sink.end_object());
      case rapidjson::kArrayType:
        return sink.start_array() && (v.Size() > 0 || sink.end_array());
      case rapidjson::kStringType:
        return sink.string_value({v.GetString(), v.GetStringLength()});
      case rapidjson::kNumberType:
        if (v.IsDouble()) return sink.double_value(v.GetDouble());
        if (v.IsInt64()) return sink.int_value(v.GetInt64());
        // Integers above INT64_MAX are doubles in the event contract.
        return sink.double_value(static_cast<double>(v.GetUint64()));
    }
    return true;
  }

  // The frame's current child; for an object, its key is emitted first. nullptr: stopped.
  template <class Sink>
  static const Value* child(const Frame& f, Sink& sink) {
    if (f.container->IsArray()) return &f.container->Begin()[f.index];
    const auto& m = f.container->MemberBegin()[f.index];
    if (!sink.key({m.name.GetString(), m.name.GetStringLength()})) return nullptr;
    return &m.value;
  }

  Limits limits_;                        // depth policy
  std::size_t pool_bytes_;               // size of pool_buffer_
  std::unique_ptr<char[]> pool_buffer_;  // the pool's reused first chunk
  std::optional<Pool> pool_;             // rebuilt in place only when the buffer grows
  Document doc_;                         // reused; its values live in pool_
  rapidjson::Reader reader_;             // reused: its string stack keeps its capacity
  std::vector<Frame> stack_;             // scratch for the walk
};

AdapterInfo rapidjson_dom_info_for(bool insitu) {
  return AdapterInfo{
      .name = insitu ? "rapidjson/dom-insitu" : "rapidjson/dom",
      .library = "RapidJSON",
      // RapidJSON exposes no run-time version: the header macro.
      .version = RAPIDJSON_VERSION_STRING,
      .format = Format::json,
      .model = Model::dom,
      .mode = insitu ? "Document::Populate(Reader::Parse<kParseInsituFlag|"
                       "kParseFullPrecisionFlag>(InsituStringStream))"
                     : "Document::Populate(Reader::Parse<kParseFullPrecisionFlag>(StringStream))",
      .validates_utf8 = false,
      .expands_entities = true,
      .processes_namespaces = false,
      .modifies_input = insitu,
      .reuses_state = true,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes = std::string("Document, Reader and a MemoryPoolAllocator over one reused buffer "
                           "(cleared per message, grown once to the largest message) are reused; "
                           "GenericDocument still mallocs its parse stack per message; ") +
               (insitu ? "strings are unescaped in the caller's buffer"
                       : "strings are copied into the pool") +
               "; kParseFullPrecisionFlag: default number parsing is not correctly rounded "
               "(10% of corpus doubles differ); a depth guard between Reader and Document stops "
               "the recursive parser beyond max_depth",
  };
}

}  // namespace

const AdapterInfo& rapidjson_dom_info() {
  static const AdapterInfo info = rapidjson_dom_info_for(false);
  return info;
}
std::unique_ptr<Adapter> make_rapidjson_dom(const Limits& limits) {
  return make_adapter<RapidjsonDom<false>>(rapidjson_dom_info(), limits);
}

const AdapterInfo& rapidjson_dom_insitu_info() {
  static const AdapterInfo info = rapidjson_dom_info_for(true);
  return info;
}
std::unique_ptr<Adapter> make_rapidjson_dom_insitu(const Limits& limits) {
  return make_adapter<RapidjsonDom<true>>(rapidjson_dom_insitu_info(), limits);
}

}  // namespace sb
