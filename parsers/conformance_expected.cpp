#include "parsers/conformance_expected.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <stdexcept>

namespace sb {

namespace {

std::string str(const rapidjson::Value& v) { return {v.GetString(), v.GetStringLength()}; }

// An object member, or a throw naming the path.
const rapidjson::Value& object(const rapidjson::Value& v, const std::string& path) {
  if (!v.IsObject()) throw std::runtime_error(path + ": not an object");
  return v;
}

}  // namespace

ConformanceExpectation read_conformance_expectation(std::string_view text,
                                                    const std::string& where) {
  ConformanceExpectation out;
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return out;
  rapidjson::Document d;
  d.Parse(text.data(), text.size());
  if (d.HasParseError()) {
    throw std::runtime_error(where + ": " + rapidjson::GetParseError_En(d.GetParseError()));
  }
  for (const auto& suite : object(d, where).GetObject()) {
    const std::string sname = str(suite.name);
    if (sname == "comment") continue;  // a note for readers
    const std::string spath = where + ": " + sname;
    SuiteExpectation& se = out[sname];
    const rapidjson::Value& sv = object(suite.value, spath);
    if (auto p = sv.FindMember("package"); p != sv.MemberEnd() && p->value.IsString())
      se.package = str(p->value);
    auto counts = sv.FindMember("counts");
    if (counts == sv.MemberEnd()) throw std::runtime_error(spath + ": no counts");
    for (const auto& adapter : object(counts->value, spath).GetObject()) {
      for (const auto& version : object(adapter.value, spath).GetObject()) {
        for (const auto& config : object(version.value, spath).GetObject()) {
          ConformanceCounts& c = se.counts[str(adapter.name)][str(version.name)][str(config.name)];
          for (const auto& n : object(config.value, spath).GetObject()) {
            if (!n.value.IsInt()) throw std::runtime_error(spath + ": a count is not an integer");
            c[str(n.name)] = n.value.GetInt();
          }
        }
      }
    }
  }
  return out;
}

}  // namespace sb
