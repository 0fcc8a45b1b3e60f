// Shared pieces of the Poco XML adapters (poco_sax.cpp, poco_dom.cpp): the version, the parser
// set-up both use, and the exceptions that end a parse. Poco reports errors by throwing, and its
// handlers may throw to stop Expat (which Poco links, Debian's libexpat): Poco itself does so.
#pragma once

#include <Poco/Environment.h>
#include <Poco/Exception.h>
#include <Poco/SAX/SAXException.h>
#include <Poco/SAX/SAXParser.h>
#include <Poco/SAX/XMLReader.h>

#include <cstdint>
#include <string>

#include "core/status.h"

namespace sb::poco {

// "1.11.0": Poco::Environment::libraryVersion(), 0xAABBCCDD as major.minor.revision.
inline std::string version() {
  const std::uint32_t v = Poco::Environment::libraryVersion();
  return std::to_string(v >> 24) + "." + std::to_string((v >> 16) & 0xFF) + "." +
         std::to_string((v >> 8) & 0xFF);
}

// Thrown by our handlers to leave the parser after storing the reason (a policy refusal or a
// sink that asked to stop) in the adapter's Status.
struct Abort {};

// The features both adapters set on their SAXParser:
// - namespaces off (Poco's default is on): qualified names as written and xmlns declarations
//   as ordinary attributes, which the sinks expect (with namespaces on Poco reports them only
//   through startPrefixMapping, which its DOM builder drops);
// - external general and parameter entities off (Poco's default, set to document it): with no
//   EntityResolver installed nothing outside the message is ever opened.
inline void configure(Poco::XML::SAXParser& parser) {
  using Poco::XML::XMLReader;
  parser.setFeature(XMLReader::FEATURE_NAMESPACES, false);
  parser.setFeature(XMLReader::FEATURE_NAMESPACE_PREFIXES, false);
  parser.setFeature(XMLReader::FEATURE_EXTERNAL_GENERAL_ENTITIES, false);
  parser.setFeature(XMLReader::FEATURE_EXTERNAL_PARAMETER_ENTITIES, false);
}

// Runs parse_call (one Poco parse) and turns every way it can end into a Status: our Abort
// (status already stored), Poco's exceptions, or anything else. Never throws.
template <class F>
Status run_guarded(Status& status, F&& parse_call) {
  status = Status::success();
  try {
    parse_call();
  } catch (const Abort&) {
    return std::move(status);
  } catch (const Poco::XML::SAXParseException& e) {
    return Status::malformed(e.message(),
                             Location{.line = e.getLineNumber(), .column = e.getColumnNumber()});
  } catch (const Poco::Exception& e) {
    return Status::malformed(e.displayText());
  } catch (const std::exception& e) {
    return Status::malformed(e.what());
  }
  return std::move(status);
}

}  // namespace sb::poco
