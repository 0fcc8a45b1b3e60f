// The adapter contract: one library in one model behind three levels of work.
// Type erasure happens here, once per message (a virtual call), never per event.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "codecs/decode.h"
#include "codecs/value.h"
#include "core/digest.h"
#include "core/events.h"
#include "core/message_buffer.h"
#include "core/status.h"

namespace sb {

enum class Model { dom, sax, pull };

// "dom" / "sax" / "pull".
std::string_view model_name(Model m);

// Text a library's mode leaves out of the document, which the decode level restores from the
// message's bytes (parsers/leaf_text.h).
enum class TextLoss : std::uint8_t {
  none,             // every character datum and CDATA section is delivered
  runs_by_markup,   // whitespace-only character data is dropped where a comment, CDATA section
                    // or processing instruction shares its element (pugixml's
                    // parse_ws_pcdata_single keeps it only as an element's one child)
  whitespace_runs,  // whitespace-only character data is dropped (<s>   </s> reads as "")
  runs_and_cdata,   // so are CDATA sections and every text run after an element's first, and
                    // references are not decoded (RapidXML's parse_fastest)
};

// What a registry row says about an adapter; printed by `soapbench list` and the report.
struct AdapterInfo {
  std::string name;           // registry name, "library/model[-variant]", e.g. "libxml2/sax"
  std::string library;        // library name, e.g. "libxml2"
  std::string version;        // library version, read at run time where the library exposes it
  Format format;              // xml or json
  Model model;                // dom, sax (push) or pull
  std::string mode;           // the library flags/options used, as the library names them
  bool validates_utf8;        // rejects malformed UTF-8
  bool expands_entities;      // decodes entity and character references (JSON: escapes)
  bool processes_namespaces;  // the library itself resolves namespace prefixes
  bool modifies_input;        // parses in situ: callers hand it a scratch copy
  bool reuses_state;          // keeps parser objects or pools across messages
  bool fastest_mode;          // a documented fastest mode, not the default
  bool digest_exempt;         // its digest legitimately differs (e.g. no entity decoding)
  std::string notes;          // one line: what state is reused, anything else a reader must know
  // Reports whitespace-only text (<s> </s> is the string " "). Where a library drops it (a fact the
  // report prints; the Digest ignores such runs), the decode level restores it: below.
  bool keeps_whitespace_text = true;
  // The text the library loses that the decode level restores from the bytes (parsers/
  // leaf_text.h): the library parses as it does at the other levels, plus a pass over the '<'
  // bytes of each message.
  TextLoss decode_restores_text = TextLoss::none;
  // Reads a message in the encoding its XML declaration names (UTF-16, ISO-8859-1, …); false where
  // the library, in the mode used, reads UTF-8 only: the decode level then refuses a message
  // declaring another encoding, naming it (parsers/declared_encoding.h), rather than read its
  // bytes as UTF-8.
  bool reads_declared_encoding = true;
  // Decode pre-scans the bounds before the library: XML attribute bounds (markup_guard.h), the
  // library alone being superlinear in attributes per element or multiplying long values in
  // memory; JSON members per object (json_guard.h), the library superlinear in members.
  bool decode_markup_guard = false;
};

// What the `decode` level reports besides its Status.
struct DecodeReport {
  rpc::Family family = rpc::Family::xmlrpc;  // the family detected (valid on success)
  int fault_code = 0;                        // on failure: the protocol fault code to answer with
};

// One adapter instance. Not thread-safe: one per thread. Buffers passed in may be modified
// only by adapters whose info().modifies_input is true.
class Adapter {
 public:
  virtual ~Adapter() = default;

  virtual const AdapterInfo& info() const = 0;

  // Level `parse`: the library's own parse into its native form (DOM built; SAX with no-op
  // callbacks; pull reader read to the end). Nothing is visited.
  virtual Status parse(MessageBuffer& message) = 0;

  // Level `walk`: parse + visit every node, producing the Digest.
  virtual Status walk(MessageBuffer& message, Digest& digest) = 0;

  // Level `decode`: parse + protocol codec (codecs/xml_decoder.h or json_decoder.h), producing
  // typed values. A well-formed document that is no valid message gives StatusCode::invalid.
  virtual Status decode(MessageBuffer& message, const rpc::DecodeContext& context,
                        rpc::Message& out, DecodeReport& report) = 0;
};

}  // namespace sb
