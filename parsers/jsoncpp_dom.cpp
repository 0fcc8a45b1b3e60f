// JsonCpp in its DOM model: a reused CharReader (CharReaderBuilder in strict mode) parses into a
// Json::Value, which the walk visits in document order.
#include <json/json.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/nul_guard.h"

namespace sb {
namespace {

// CharReaderBuilder's defaults accept comments, trailing commas (`[1,]`) and anything after the
// value (failIfExtra off) and keep duplicate keys' last value; strictMode() turns those off and
// refuses duplicate keys (it leaves skipBom on: a UTF-8 BOM is skipped). stackLimit bounds its
// recursive readValue(): it counts the root's slot too, so max_depth + 1 accepts max_depth levels
// of non-empty containers (an empty container one level deeper passes the library; the walk
// refuses it).
std::unique_ptr<Json::CharReader> make_reader(std::size_t max_depth) {
  Json::CharReaderBuilder builder;
  Json::CharReaderBuilder::strictMode(&builder.settings_);
  builder["stackLimit"] = static_cast<Json::UInt64>(max_depth + 1);
  return std::unique_ptr<Json::CharReader>(builder.newCharReader());
}

// The first error of getFormattedErrorMessages() ("* Line 1, Column 5\n  Syntax error: ...\n").
Status parse_failure(const std::string& errs) {
  Location where;
  long long line = -1;
  long long column = -1;
  if (std::sscanf(errs.c_str(), "* Line %lld, Column %lld", &line, &column) == 2) {
    where.line = line;
    where.column = column;
  }
  const std::size_t start = errs.find("\n  ");
  if (start == std::string::npos) return Status::malformed(errs, where);
  const std::size_t end = errs.find('\n', start + 3);
  return Status::malformed(errs.substr(start + 3, end - (start + 3)), where);
}

class JsoncppDom {
 public:
  static constexpr Format kFormat = Format::json;

  explicit JsoncppDom(const Limits& limits)
      : limits_(limits), reader_(make_reader(limits.max_depth)) {}

  Status parse(MessageBuffer& message) {
    root_ = Json::Value();  // the previous tree goes before the next one is built
    errs_.clear();
    const char* begin = message.data();
    try {
      if (!reader_->parse(begin, begin + message.size(), &root_, &errs_)) {
        return parse_failure(errs_);
      }
    } catch (const Json::RuntimeError&) {
      // The only exception its reader throws while parsing: "Exceeded stackLimit in readValue()".
      return too_deep(limits_.max_depth);
    }
    Status rest = check_no_nul(message);
    if (!rest.ok()) root_ = Json::Value();
    return rest;
  }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    Status s = parse(message);
    if (!s.ok()) return s;
    return emit_tree(sink);
  }

 private:
  // An object member as the walk emits it.
  struct Member {
    std::ptrdiff_t offset;     // where its value starts in the message
    const char* key;           // the key's bytes (may hold NUL)
    const char* key_end;       // past the key
    const Json::Value* value;  // the member's value
  };

  // An open container: arrays iterate the Value; objects a range of members_ in document order.
  struct Frame {
    bool object;                      // which kind of container
    Json::Value::const_iterator it;   // array: next element
    Json::Value::const_iterator end;  // array: past the last element
    std::size_t first;                // object: its range in members_
    std::size_t next;                 // object: next member to visit
  };

  // How emitting one value ended.
  enum class Step { ok, stopped, limit };

  // Iterative pre-order walk (the tree is at most max_depth + 1 deep, but no recursion anyway).
  template <class Sink>
  Status emit_tree(Sink& sink) {
    stack_.clear();
    members_.clear();
    const Json::Value* v = &root_;
    for (;;) {
      if (const Step step = emit_value(*v, sink); step != Step::ok) {
        return step == Step::limit ? too_deep(limits_.max_depth) : Status::stopped();
      }
      // Next: the next child of the innermost open container, closing the finished ones.
      for (;;) {
        if (stack_.empty()) return Status::success();
        Frame& f = stack_.back();
        if (f.object && f.next < members_.size()) {
          const Member& m = members_[f.next++];
          if (!sink.key({m.key, static_cast<std::size_t>(m.key_end - m.key)})) {
            return Status::stopped();
          }
          v = m.value;
          break;
        }
        if (!f.object && f.it != f.end) {
          v = &*f.it;
          ++f.it;
          break;
        }
        if (!(f.object ? sink.end_object() : sink.end_array())) return Status::stopped();
        if (f.object) members_.resize(f.first);
        stack_.pop_back();
      }
    }
  }

  // Emits a value's own event; a non-empty container is opened and pushed (closed by emit_tree).
  template <class Sink>
  Step emit_value(const Json::Value& v, Sink& sink) {
    switch (v.type()) {
      case Json::objectValue:
      case Json::arrayValue:
        return open(v, sink);
      case Json::stringValue: {
        const char* begin = nullptr;
        const char* end = nullptr;
        v.getString(&begin, &end);
        return step(sink.string_value({begin, static_cast<std::size_t>(end - begin)}));
      }
      case Json::intValue:
        return step(sink.int_value(v.asInt64()));
      case Json::uintValue:
        // Only above INT64_MAX (smaller ones are intValue): a double in the event contract.
        return step(sink.double_value(static_cast<double>(v.asUInt64())));
      case Json::realValue:
        return step(sink.double_value(v.asDouble()));
      case Json::booleanValue:
        return step(sink.bool_value(v.asBool()));
      case Json::nullValue:
        return step(sink.null_value());
    }
    return Step::ok;
  }

  // Opens a container. JsonCpp keeps object members in a std::map (sorted by key); each value
  // remembers where it started in the message, which restores the document's order.
  template <class Sink>
  Step open(const Json::Value& v, Sink& sink) {
    if (stack_.size() >= limits_.max_depth) return Step::limit;
    const bool object = v.type() == Json::objectValue;
    if (!(object ? sink.start_object() : sink.start_array())) return Step::stopped;
    if (v.empty()) return step(object ? sink.end_object() : sink.end_array());
    if (!object) {
      stack_.push_back({.object = false, .it = v.begin(), .end = v.end(), .first = 0, .next = 0});
      return Step::ok;
    }
    const std::size_t first = members_.size();
    for (auto it = v.begin(); it != v.end(); ++it) {
      const char* key_end = nullptr;
      const char* key = it.memberName(&key_end);
      members_.push_back({(*it).getOffsetStart(), key, key_end, &*it});
    }
    std::sort(members_.begin() + static_cast<std::ptrdiff_t>(first), members_.end(),
              [](const Member& a, const Member& b) { return a.offset < b.offset; });
    stack_.push_back({.object = true, .it = {}, .end = {}, .first = first, .next = first});
    return Step::ok;
  }

  static Step step(bool sink_continues) { return sink_continues ? Step::ok : Step::stopped; }

  Limits limits_;                             // depth policy
  std::unique_ptr<Json::CharReader> reader_;  // reused across messages
  Json::Value root_;                          // the last parse's tree
  std::string errs_;                          // the reader's error text, reused
  std::vector<Frame> stack_;                  // scratch for the walk
  std::vector<Member> members_;               // scratch: open objects' members, innermost last
};

}  // namespace

const AdapterInfo& jsoncpp_dom_info() {
  static const AdapterInfo info{
      .name = "jsoncpp/dom",
      .library = "JsonCpp",
      // JsonCpp exposes no run-time version: the header macro.
      .version = JSONCPP_VERSION_STRING,
      .format = Format::json,
      .model = Model::dom,
      .mode = "CharReaderBuilder::strictMode(), stackLimit=max_depth+1; CharReader::parse",
      .validates_utf8 = false,
      .expands_entities = true,
      .processes_namespaces = false,
      .modifies_input = false,
      .reuses_state = true,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes =
          "CharReader reused, a new Value tree per message (std::map per object and "
          "array); strict mode (the defaults accept comments, trailing commas and text "
          "after the value) also refuses duplicate keys; members come back sorted by key, "
          "the walk restores document order from each value's getOffsetStart() (a sort per "
          "object); an empty container one level past max_depth passes `parse` and is "
          "rejected by walk/decode; lenient in numbers and strings (accepts 2., -01, [-] and raw "
          "control characters: JSONTestSuite); strict mode's strictRoot refuses a scalar at the "
          "top level (RFC 4627's rule); the reader stops at a NUL byte, which the adapter "
          "rejects",
  };
  return info;
}
std::unique_ptr<Adapter> make_jsoncpp_dom(const Limits& limits) {
  return make_adapter<JsoncppDom>(jsoncpp_dom_info(), limits);
}

}  // namespace sb
