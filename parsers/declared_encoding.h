// The encoding an XML message says it is in (its byte order mark or its XML declaration), for
// the adapters whose library reads UTF-8 only in the mode used
// (AdapterInfo::reads_declared_encoding false: pugixml with encoding_utf8, RapidXML, tinyxml2): at
// the decode level they refuse a message in another encoding, naming it, instead of reading its
// bytes as UTF-8 (XML 1.0 section 4.3.3).
#pragma once

#include <string_view>

namespace sb {

// "" when `xml` is UTF-8 by its declaration or for want of one (US-ASCII, a subset, too); else
// the encoding it names ("windows-1251", "UTF-16" for a UTF-16 byte order mark).
std::string_view declared_non_utf8_encoding(std::string_view xml);

}  // namespace sb
