#include "codecs/processing_instruction.h"

#include <cstring>

namespace sb::rpc {

namespace {

constexpr std::size_t npos = std::string_view::npos;

bool is_xml_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Where the document proper starts: after a UTF-8 byte order mark and the XML declaration.
std::size_t after_declaration(std::string_view xml) {
  std::size_t start = xml.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  if (xml.compare(start, 5, "<?xml") == 0 && start + 5 < xml.size() &&
      is_xml_space(xml[start + 5])) {
    const std::size_t end = xml.find("?>", start);
    start = end == npos ? xml.size() : end + 2;
  }
  return start;
}

// The end of the comment or CDATA section opening at i (past its terminator), or i when none
// opens there; npos when it never ends.
std::size_t skip_unparsed(std::string_view xml, std::size_t i) {
  if (xml.compare(i, 4, "<!--") == 0) {
    const std::size_t e = xml.find("-->", i + 4);
    return e == npos ? npos : e + 3;
  }
  if (xml.compare(i, 9, "<![CDATA[") == 0) {
    const std::size_t e = xml.find("]]>", i + 9);
    return e == npos ? npos : e + 3;
  }
  return i;
}

}  // namespace

std::size_t find_processing_instruction(std::string_view xml) {
  const std::size_t start = after_declaration(xml);
  // Fast path: '?' is rare in messages, and every PI holds "<?".
  bool candidate = false;
  for (const char* p = xml.data() + start; p < xml.data() + xml.size(); ++p) {
    p = static_cast<const char*>(std::memchr(p, '?', xml.data() + xml.size() - p));
    if (p == nullptr) break;
    if (p > xml.data() && p[-1] == '<') {
      candidate = true;
      break;
    }
  }
  if (!candidate) return npos;
  // "<?" outside comments and CDATA sections opens a PI (text and attribute values hold no '<').
  for (std::size_t i = xml.find('<', start); i != npos; i = xml.find('<', i)) {
    const std::size_t next = skip_unparsed(xml, i);
    if (next == npos) return npos;
    if (next != i) {
      i = next;
      continue;
    }
    if (xml.compare(i, 2, "<?") == 0) return i;
    ++i;
  }
  return npos;
}

bool root_is_envelope(std::string_view xml) {
  std::size_t i = after_declaration(xml);
  while (i < xml.size()) {
    if (is_xml_space(xml[i])) {
      ++i;
    } else if (xml.compare(i, 2, "<?") == 0) {
      const std::size_t e = xml.find("?>", i + 2);
      i = e == npos ? npos : e + 2;
    } else if (xml.compare(i, 2, "<!") == 0) {
      const std::size_t next = skip_unparsed(xml, i);
      if (next != i) {
        i = next;  // a comment
      } else {
        // A DOCTYPE (policy refuses it anyway; an internal subset ends the search early).
        const std::size_t e = xml.find('>', i);
        i = e == npos ? npos : e + 1;
      }
    } else {
      break;
    }
    if (i == npos) return false;
  }
  if (i >= xml.size() || xml[i] != '<') return false;
  std::size_t end = i + 1;
  while (end < xml.size() && !is_xml_space(xml[end]) && xml[end] != '>' && xml[end] != '/') ++end;
  const std::string_view qname = xml.substr(i + 1, end - i - 1);
  const std::size_t colon = qname.find(':');
  return (colon == npos ? qname : qname.substr(colon + 1)) == "Envelope";
}

std::size_t forbidden_processing_instruction(std::string_view xml, const DecodeContext& context) {
  const std::size_t at = find_processing_instruction(xml);
  if (at == npos) return npos;
  const bool soap = context.protocol ? *context.protocol == Protocol::soap11 ||
                                           *context.protocol == Protocol::soap12
                                     : root_is_envelope(xml);
  return soap ? at : npos;
}

}  // namespace sb::rpc
