// tinyxml2's own serializer behind rpc::XmlWriter (parsers/writers.h): XMLPrinter used as a
// streaming writer into memory, compact mode (no XMLDocument is built).
#include <tinyxml2.h>

#include <deque>
#include <optional>
#include <string>

#include "parsers/adapters.h"
#include "parsers/library_xml_writer.h"
#include "parsers/writers.h"

namespace sb {
namespace {

class Tinyxml2Writer final : public LibraryXmlWriter {
 public:
  Tinyxml2Writer() { reset(); }

  void reset() override {
    // A printer left mid-document keeps its element stack: only a clean one is reused (which
    // keeps its grown buffer).
    if (printer_ && depth_ == 0 && error_.empty()) {
      printer_->ClearBuffer();
    } else {
      printer_.emplace(nullptr, /*compact=*/true);
    }
    depth_ = 0;
    error_.clear();
    printer_->PushHeader(/*writeBOM=*/false, /*writeDeclaration=*/true);
  }

  void start_element(std::string_view qname) override {
    if (!error_.empty()) return;
    // XMLPrinter keeps the name pointer until CloseElement: one stable string per depth.
    if (names_.size() <= depth_) names_.emplace_back();
    names_[depth_].assign(qname);
    printer_->OpenElement(names_[depth_].c_str(), /*compactMode=*/true);
    ++depth_;
  }

  void attribute(std::string_view qname, std::string_view value) override {
    if (!error_.empty() || !check(value)) return;
    // XMLPrinter writes tab/LF/CR in attribute values raw; attribute-value normalization would
    // turn them into spaces.
    if (value.find_first_of("\t\n\r") != std::string_view::npos) {
      return fail("tinyxml2 writes tab/LF/CR in attribute values unescaped; refused");
    }
    name_.assign(qname);
    value_.assign(value);
    printer_->PushAttribute(name_.c_str(), value_.c_str());
  }

  void text(std::string_view chars) override {
    if (!error_.empty() || chars.empty() || !check(chars)) return;
    if (chars.find('\r') != std::string_view::npos) {
      return fail("tinyxml2 writes CR in text unescaped (parsers read it back as LF); refused");
    }
    value_.assign(chars);
    printer_->PushText(value_.c_str(), /*cdata=*/false);
  }

  void end_element() override {
    if (!can_close(depth_ != 0)) return;
    printer_->CloseElement(/*compactMode=*/true);
    --depth_;
  }

  bool finish(std::string& out) override {
    if (!can_finish(depth_ != 0)) return false;
    // CStrSize() counts the terminating NUL.
    out.assign(printer_->CStr(), static_cast<std::size_t>(printer_->CStrSize() - 1));
    return true;
  }

 private:
  std::optional<tinyxml2::XMLPrinter> printer_;  // the printer (not copyable: re-emplaced)
  std::deque<std::string> names_;  // names_[d]: qname of the open element at depth d (stable)
  std::size_t depth_ = 0;          // open elements
  std::string name_;               // NUL-terminated copy of an attribute name
  std::string value_;              // NUL-terminated copy of text or an attribute value
};

std::unique_ptr<rpc::XmlWriter> make_tinyxml2_writer() {
  return std::make_unique<Tinyxml2Writer>();
}

}  // namespace

// The row of the writer table (parsers/writers.h). tinyxml2: XMLPrinter in memory, compact mode,
// streaming (no XMLDocument). XMLPrinter writes CR in text and tab/LF/CR in attribute values raw
// (parsers normalize them away), so those refuse.
const WriterInfo& tinyxml2_writer_info() {
  static const WriterInfo info{
      .name = "tinyxml2",
      .library = "tinyxml2",
      .writer = "XMLPrinter (streaming, compact)",
      .notes = "printer buffer reused; refuses CR in text (written raw, read back as LF)",
      .make_xml = &make_tinyxml2_writer,
      .make_json = nullptr,
  };
  return info;
}

}  // namespace sb
