// Outcome of parsing or decoding one message: success, or why and where it failed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace sb {

// Where in the input an error was found; -1 means the library did not say.
struct Location {
  std::int64_t line = -1;    // 1-based line
  std::int64_t column = -1;  // 1-based column (bytes)
  std::int64_t offset = -1;  // 0-based byte offset
};

// What kind of failure: malformed input, a policy limit, a sink that asked to stop, or a
// well-formed document that is not a valid message (decode level).
enum class StatusCode { ok, malformed, limit, stopped, invalid };

class Status {
 public:
  Status() = default;

  // A success (no allocation).
  static Status success() { return Status(); }
  // Malformed input, as reported by the library.
  static Status malformed(std::string reason, Location where = {}) {
    return Status(StatusCode::malformed, std::move(reason), where);
  }
  // Input refused by a policy limit (depth, DOCTYPE, size).
  static Status limit(std::string reason, Location where = {}) {
    return Status(StatusCode::limit, std::move(reason), where);
  }
  // The event sink returned false; the sink itself knows why.
  static Status stopped() { return Status(StatusCode::stopped, "stopped by the event sink", {}); }
  // Well-formed, but not a valid RPC message (the codec's reason).
  static Status invalid(std::string reason) {
    return Status(StatusCode::invalid, std::move(reason), {});
  }

  bool ok() const { return code_ == StatusCode::ok; }
  StatusCode code() const { return code_; }
  const std::string& reason() const { return reason_; }
  const Location& where() const { return where_; }

  // "line 3, column 7: reason" / "offset 12: reason" / "reason".
  std::string describe() const;

 private:
  // Libraries quote the bytes they stopped at (nlohmann/json: "last read: ..."), which may be
  // invalid UTF-8; the reason is made valid UTF-8 (U+FFFD per bad byte) so that every fault,
  // log line and JSON result that carries it stays valid text.
  Status(StatusCode code, std::string reason, Location where);

  StatusCode code_ = StatusCode::ok;  // ok unless an error was recorded
  std::string reason_;                // human-readable cause, empty on success
  Location where_;                    // position of the error where known
};

// Whether text is valid UTF-8 (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF).
bool is_valid_utf8(std::string_view text);

// The policy refusals, each worded once for every adapter (tests and committed results compare
// the text): nesting past `limit` levels, and a DOCTYPE where none is allowed.
Status too_deep(std::size_t limit, Location where = {});
Status doctype_refused(Location where = {});

}  // namespace sb
