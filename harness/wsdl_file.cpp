#include "harness/wsdl_file.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <stdexcept>

#include "harness/corpus.h"
#include "parsers/xml_tree_reader.h"

namespace sb {

namespace {

// Reads and parses one document; throws WsdlError naming it.
void read_tree(const std::string& path, rpc::XmlNode& root) {
  std::string bytes;
  try {
    bytes = read_message_file(path);
  } catch (const std::exception& e) {
    throw rpc::WsdlError(e.what());
  }
  const Status s = read_xml_tree(bytes, root);
  if (!s.ok()) throw rpc::WsdlError(path + ": not well-formed XML: " + s.describe());
}

}  // namespace

rpc::Contract load_wsdl(const std::vector<std::string>& paths, rpc::WsdlReport& report) {
  std::deque<rpc::XmlNode> trees;  // stable addresses for the reader's pointers
  std::vector<const rpc::XmlNode*> roots;
  // Imports are read relative to the importing file (its path comes first in `from`).
  const rpc::WsdlLoader load = [&trees](const std::string& from,
                                        const std::string& location) -> const rpc::XmlNode& {
    // `from` is "FILE -> IMPORT -> IMPORT": each import relative to the one before it.
    std::filesystem::path p;
    std::string_view rest = from;
    for (;;) {
      const std::size_t arrow = rest.find(" -> ");
      const std::string_view step = rest.substr(0, arrow);
      p = p.empty() ? std::filesystem::path(step) : p.parent_path() / step;
      if (arrow == std::string_view::npos) break;
      rest.remove_prefix(arrow + 4);
    }
    p = p.parent_path() / location;
    read_tree(p.string(), trees.emplace_back());
    return trees.back();
  };
  try {
    for (const std::string& p : paths) {
      read_tree(p, trees.emplace_back());
      roots.push_back(&trees.back());
    }
    return rpc::read_wsdl(roots, paths, load, report);
  } catch (const rpc::WsdlError& e) {
    const std::string what = e.what();
    const bool named = std::any_of(paths.begin(), paths.end(),
                                   [&](const std::string& p) { return what.starts_with(p); });
    throw std::runtime_error(named || paths.empty() ? what : paths.front() + ": " + what);
  }
}

}  // namespace sb
