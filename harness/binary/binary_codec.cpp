#include "harness/binary/binary_codec.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <string>

#include "codecs/scalars.h"

namespace sb {

namespace {

using rpc::Kind;
using rpc::Message;
using rpc::MessageKind;
using rpc::Value;

constexpr std::uint64_t kMax32 = std::numeric_limits<std::uint32_t>::max();
// Items reserved up front at most: a Value is ~100 bytes, so trusting a count of one-byte items
// could allocate 100x the payload before the data proves the count wrong.
constexpr std::uint32_t kReserveCap = 1024;

void put_u8(std::string& out, std::uint8_t v) { out.push_back(static_cast<char>(v)); }

// Little-endian whatever the host order, so frames are portable between machines.
void put_u32(std::string& out, std::uint32_t v) {
  char b[4];
  for (int i = 0; i < 4; ++i) b[i] = static_cast<char>((v >> (8 * i)) & 0xFF);
  out.append(b, 4);
}

void put_u64(std::string& out, std::uint64_t v) {
  char b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<char>((v >> (8 * i)) & 0xFF);
  out.append(b, 8);
}

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}

  bool str(std::string_view s) {
    if (s.size() > kMax32) return fail("a string of " + std::to_string(s.size()) + " bytes");
    put_u32(out_, static_cast<std::uint32_t>(s.size()));
    out_.append(s);
    return true;
  }

  bool count(std::size_t n) {
    if (n > kMax32) return fail("a count of " + std::to_string(n));
    put_u32(out_, static_cast<std::uint32_t>(n));
    return true;
  }

  bool value(const Value& v) {
    put_u8(out_, static_cast<std::uint8_t>(v.kind()));
    switch (v.kind()) {
      case Kind::nil:
        return true;  // a SOAP href placeholder is nil too: its id is decoder-internal
      case Kind::boolean:
        put_u8(out_, v.as_bool() ? 1 : 0);
        return true;
      case Kind::integer:
        put_u32(out_, static_cast<std::uint32_t>(v.as_int()));
        return true;
      case Kind::floating:
        put_u64(out_, std::bit_cast<std::uint64_t>(v.as_double()));
        return true;
      case Kind::string:
      case Kind::datetime:
      case Kind::base64:
        return str(v.text());
      case Kind::array:
        if (!count(v.items().size())) return false;
        for (const Value& item : v.items()) {
          if (!value(item)) return false;
        }
        return true;
      case Kind::structure:
        if (!count(v.items().size())) return false;
        for (std::size_t i = 0; i < v.items().size(); ++i) {
          if (!str(v.names()[i]) || !value(v.items()[i])) return false;
        }
        return true;
    }
    return fail("an unknown value kind");
  }

  bool message(const Message& m) {
    put_u8(out_, static_cast<std::uint8_t>(m.kind));
    switch (m.kind) {
      case MessageKind::call:
        if (!m.param_names.empty()) return fail("a call with params by name (JSON-RPC's)");
        if (!str(m.method) || !count(m.params.size())) return false;
        for (const Value& p : m.params) {
          if (!value(p)) return false;
        }
        return true;
      case MessageKind::response:
        return str(m.method) && value(m.result);
      case MessageKind::fault:
        put_u32(out_, static_cast<std::uint32_t>(m.fault_code));
        return str(m.fault_message);
      case MessageKind::batch:
        break;
    }
    return fail("an unknown message kind");
  }

  const std::string& error() const { return error_; }

 private:
  bool fail(std::string what) {
    error_ = "binary encode: " + what + " does not fit the 32-bit format";
    return false;
  }

  std::string& out_;   // payload being appended to
  std::string error_;  // why encoding stopped
};

// Reads a payload front to back; every accessor checks the bytes left first.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}

  bool u8(std::uint8_t& v) {
    if (!need(1, "a byte")) return false;
    v = static_cast<std::uint8_t>(in_[pos_++]);
    return true;
  }

  bool u32(std::uint32_t& v) {
    if (!need(4, "a 32-bit integer")) return false;
    v = 0;
    for (int i = 0; i < 4; ++i) {
      v |= static_cast<std::uint32_t>(static_cast<unsigned char>(in_[pos_ + i])) << (8 * i);
    }
    pos_ += 4;
    return true;
  }

  bool u64(std::uint64_t& v) {
    if (!need(8, "a 64-bit value")) return false;
    v = 0;
    for (int i = 0; i < 8; ++i) {
      v |= static_cast<std::uint64_t>(static_cast<unsigned char>(in_[pos_ + i])) << (8 * i);
    }
    pos_ += 8;
    return true;
  }

  bool str(std::string& s) {
    std::uint32_t n = 0;
    if (!u32(n) || !need(n, "string bytes")) return false;
    s.assign(in_.data() + pos_, n);
    pos_ += n;
    return true;
  }

  // A count of items each at least `min_item` bytes long: checked against the bytes left before
  // anything is reserved, so a corrupted count cannot ask for gigabytes.
  bool count(std::uint32_t& n, std::size_t min_item) {
    const std::size_t at = pos_;
    if (!u32(n)) return false;
    if (static_cast<std::uint64_t>(n) * min_item > in_.size() - pos_) {
      pos_ = at;
      return fail("a count of " + std::to_string(n) + " exceeds the bytes left");
    }
    return true;
  }

  bool value(Value& v, int depth) {
    if (depth > kBinaryMaxDepth)
      return fail("nesting deeper than " + std::to_string(kBinaryMaxDepth));
    std::uint8_t tag = 0;
    if (!u8(tag)) return false;
    switch (static_cast<Kind>(tag)) {
      case Kind::nil:
        v = Value();
        return true;
      case Kind::boolean: {
        std::uint8_t b = 0;
        if (!u8(b)) return false;
        if (b > 1) return fail_at(pos_ - 1, "a boolean byte other than 0 or 1");
        v = Value::boolean(b == 1);
        return true;
      }
      case Kind::integer: {
        std::uint32_t i = 0;
        if (!u32(i)) return false;
        v = Value::integer(static_cast<std::int32_t>(i));
        return true;
      }
      case Kind::floating: {
        std::uint64_t bits = 0;
        if (!u64(bits)) return false;
        v = Value::floating(std::bit_cast<double>(bits));
        return true;
      }
      case Kind::string:
      case Kind::base64: {
        std::string s;
        if (!str(s)) return false;
        v = static_cast<Kind>(tag) == Kind::string ? Value::string(std::move(s))
                                                   : Value::base64(std::move(s));
        return true;
      }
      case Kind::datetime: {
        const std::size_t at = pos_;
        std::string s;
        if (!str(s)) return false;
        // The value model holds canonical dateTimes only; anything else is corruption.
        std::optional<std::string> canonical = rpc::parse_datetime(s);
        if (!canonical || *canonical != s) return fail_at(at, "a dateTime that is not canonical");
        v = Value::datetime(std::move(s));
        return true;
      }
      case Kind::array: {
        std::uint32_t n = 0;
        if (!count(n, 1)) return false;
        v = Value::array();
        v.items().reserve(std::min<std::uint32_t>(n, kReserveCap));
        for (std::uint32_t i = 0; i < n; ++i) {
          if (!value(v.push(Value()), depth + 1)) return false;
        }
        return true;
      }
      case Kind::structure: {
        std::uint32_t n = 0;
        if (!count(n, 5)) return false;  // a 4-byte name length and a tag at least
        v = Value::structure();
        v.items().reserve(std::min<std::uint32_t>(n, kReserveCap));
        v.names().reserve(std::min<std::uint32_t>(n, kReserveCap));
        for (std::uint32_t i = 0; i < n; ++i) {
          std::string name;
          if (!str(name)) return false;
          if (!value(v.add_member(std::move(name), Value()), depth + 1)) return false;
        }
        return true;
      }
    }
    return fail_at(pos_ - 1, "unknown value tag " + std::to_string(tag));
  }

  bool message(Message& m) {
    m.clear();
    std::uint8_t kind = 0;
    if (!u8(kind)) return false;
    switch (kind) {
      case 0: {
        m.kind = MessageKind::call;
        std::uint32_t n = 0;
        if (!str(m.method) || !count(n, 1)) return false;
        m.params.reserve(std::min<std::uint32_t>(n, kReserveCap));
        for (std::uint32_t i = 0; i < n; ++i) {
          if (!value(m.params.emplace_back(), 1)) return false;
        }
        break;
      }
      case 1:
        m.kind = MessageKind::response;
        if (!str(m.method) || !value(m.result, 1)) return false;
        break;
      case 2: {
        m.kind = MessageKind::fault;
        std::uint32_t code = 0;
        if (!u32(code) || !str(m.fault_message)) return false;
        m.fault_code = static_cast<std::int32_t>(code);
        break;
      }
      default:
        return fail_at(0, "unknown message kind " + std::to_string(kind));
    }
    if (pos_ != in_.size()) {
      return fail(std::to_string(in_.size() - pos_) + " trailing bytes after the message");
    }
    return true;
  }

  const std::string& error() const { return error_; }

 private:
  bool need(std::size_t n, const char* what) {
    if (in_.size() - pos_ >= n) return true;
    return fail(std::string("truncated: ") + what + " needs " + std::to_string(n) + " bytes, " +
                std::to_string(in_.size() - pos_) + " left");
  }
  bool fail(std::string what) { return fail_at(pos_, std::move(what)); }
  bool fail_at(std::size_t at, std::string what) {
    error_ = "binary decode: offset " + std::to_string(at) + ": " + std::move(what);
    return false;
  }

  std::string_view in_;  // the payload
  std::size_t pos_ = 0;  // next byte to read
  std::string error_;    // why decoding stopped
};

}  // namespace

bool encode_binary(const rpc::Message& m, std::string& out, std::string& error) {
  Writer w(out);
  if (w.message(m)) return true;
  error = w.error();
  return false;
}

bool encode_binary_frame(const rpc::Message& m, std::string& out, std::string& error) {
  out.assign(kBinaryFrameHeader, '\0');
  if (!encode_binary(m, out, error)) return false;
  const std::size_t payload = out.size() - kBinaryFrameHeader;
  if (payload > kMax32) {
    error = "binary encode: a payload of " + std::to_string(payload) + " bytes";
    return false;
  }
  write_frame_length(static_cast<std::uint32_t>(payload),
                     reinterpret_cast<unsigned char*>(out.data()));
  return true;
}

bool decode_binary(std::string_view payload, rpc::Message& out, std::string& error) {
  Reader r(payload);
  if (r.message(out)) return true;
  error = r.error();
  return false;
}

std::uint32_t read_frame_length(const unsigned char* header) {
  return static_cast<std::uint32_t>(header[0]) | static_cast<std::uint32_t>(header[1]) << 8 |
         static_cast<std::uint32_t>(header[2]) << 16 | static_cast<std::uint32_t>(header[3]) << 24;
}

void write_frame_length(std::uint32_t length, unsigned char* header) {
  for (int i = 0; i < 4; ++i) header[i] = static_cast<unsigned char>((length >> (8 * i)) & 0xFF);
}

}  // namespace sb
