// The binary control of the round trip (the "raw sockets" row of the oldest comparison): a compact
// length-prefixed encoding of rpc::Message with no markup and no text conversion, so what is left
// of a call's cost is the transport.
//
// Payload layout (all integers little-endian, fixed width):
//   message  := u8 kind (0 call, 1 response, 2 fault) then
//               call:     str method, u32 count, value × count
//               response: str method, value
//               fault:    i32 code, str message
//   value    := u8 tag (rpc::Kind: 0 nil, 1 boolean, 2 int, 3 double, 4 string, 5 dateTime,
//               6 base64, 7 array, 8 struct) then
//               nil: nothing; boolean: u8 0|1; int: i32; double: IEEE-754 binary64 bits (u64);
//               string, dateTime (canonical text), base64 (raw bytes): str;
//               array: u32 count, value × count; struct: u32 count, (str name, value) × count
//   str      := u32 length, bytes
// On the socket each payload travels as a frame: u32 payload length, then the payload.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "codecs/value.h"

namespace sb {

// Frame header size: the u32 payload length.
inline constexpr std::size_t kBinaryFrameHeader = 4;
// The largest payload the binary server and client accept (8 MB).
inline constexpr std::size_t kBinaryMaxFrame = 8 * 1024 * 1024;
// Deepest array/struct nesting decode_binary accepts (bounds recursion on hostile input).
inline constexpr int kBinaryMaxDepth = 256;

// Appends m's payload to out. False with a one-line reason in error when a string or a count does
// not fit in 32 bits.
bool encode_binary(const rpc::Message& m, std::string& out, std::string& error);

// Writes a whole frame (header + payload) for m into out (replaced).
bool encode_binary_frame(const rpc::Message& m, std::string& out, std::string& error);

// Decodes one payload (without its frame header) into out. Every read is bounds-checked: a
// truncated or corrupted payload, an unknown tag, a boolean other than 0/1, a dateTime that is
// not canonical, nesting deeper than kBinaryMaxDepth or trailing bytes give false with a
// one-line reason naming the offset; never a crash, and allocations stay proportional to
// the values actually decoded (a corrupted count cannot reserve gigabytes).
bool decode_binary(std::string_view payload, rpc::Message& out, std::string& error);

// The payload length a frame header announces (little-endian).
std::uint32_t read_frame_length(const unsigned char* header);
// Writes the frame header for a payload of `length` bytes.
void write_frame_length(std::uint32_t length, unsigned char* header);

}  // namespace sb
