// Every encoder's output read by parsers we did not write: xmllint, Python's ElementTree,
// xmlrpc.client and json (tests/encode_messages.h's messages).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "codecs/canonical_json.h"
#include "harness/encoders.h"
#include "tests/encode_messages.h"

namespace sb {
namespace {

using namespace encode_test;

namespace fs = std::filesystem;

// Reads every file of the folder it is given: XML with ElementTree (XML-RPC also with
// xmlrpc.client, against the message's canonical JSON in NAME.canonical), JSON with json.loads;
// prints "checked N bad M" and one line per file it could not read.
constexpr const char* kCheckScript = R"PY(import base64, datetime, json, os, sys, xmlrpc.client
import xml.etree.ElementTree as ET

def canonical(v):
    if isinstance(v, datetime.datetime):
        return {"$dateTime": v.isoformat()}
    if isinstance(v, bytes):
        return {"$base64": base64.b64encode(v).decode("ascii")}
    if isinstance(v, list):
        return [canonical(x) for x in v]
    if isinstance(v, dict):
        return {k: canonical(x) for k, x in v.items()}
    return v

def dumps(v):
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))

def no_constant(name):
    raise ValueError("non-standard JSON constant " + name)

d = sys.argv[1]
bad = checked = 0
for name in sorted(os.listdir(d)):
    path = os.path.join(d, name)
    if name.endswith(".canonical"):
        continue
    data = open(path, "rb").read()
    try:
        if name.endswith(".json"):
            v = json.loads(data.decode("utf-8"), parse_constant=no_constant)
            assert v["jsonrpc"] == "2.0" and "id" in v, "envelope"
            assert ("method" in v) + ("result" in v) + ("error" in v) == 1, "one of method/result/error"
        else:
            ET.fromstring(data)
            if ".xmlrpc." in name:
                expected = open(path[:-4] + ".canonical", encoding="utf-8").read()
                method_hint = name.rsplit(".", 2)[1]
                try:
                    params, method = xmlrpc.client.loads(data, use_builtin_types=True)
                    if method is not None:
                        got = {"kind": "call", "method": method, "params": canonical(list(params))}
                    else:
                        got = {"kind": "response", "method": method_hint, "result": canonical(params[0])}
                except xmlrpc.client.Fault as f:
                    got = {"kind": "fault", "code": f.faultCode, "message": f.faultString}
                assert dumps(got) == expected, "python read %s" % dumps(got)[:300]
        checked += 1
    except Exception as e:
        bad += 1
        print(name, type(e).__name__, str(e)[:300])
print("checked", checked, "bad", bad)
sys.exit(1 if bad else 0)
)PY";

// Writes every encoder's output of one random call and response per operation, the edge cases
// and the faults into `msg` (XML-RPC also its canonical JSON); counts the files, lists the XML
// ones.
void write_messages(const fs::path& msg, int& files, std::string& xml_files) {
  std::vector<const Message*> chosen;
  const std::vector<Message>& all = all_messages();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (i < 2 * rpc::service_contract().operations().size() * kRandomVariants &&
        (i / 2) % kRandomVariants != 0) {
      continue;  // keep the first random variant of each operation only
    }
    chosen.push_back(&all[i]);
  }
  std::string bytes;
  std::string error;
  for (const EncoderEntry& e : encoders()) {
    Encoder encoder(e);
    for (Family f : rpc::kAllFamilies) {
      if (!e.supports(f)) continue;
      for (std::size_t i = 0; i < chosen.size(); ++i) {
        const Message& m = *chosen[i];
        ASSERT_TRUE(encoder.encode(m, f, bytes, error)) << e.name << ": " << error;
        const std::string stem = std::string(e.name) + "." + std::string(rpc::family_name(f)) +
                                 "." + std::to_string(i) + "." + m.method;
        const fs::path file = msg / (stem + (rpc::is_xml(f) ? ".xml" : ".json"));
        std::ofstream(file, std::ios::binary) << bytes;
        if (f == Family::xmlrpc) {
          std::ofstream(msg / (stem + ".canonical"), std::ios::binary) << rpc::to_canonical_json(m);
        }
        if (rpc::is_xml(f)) xml_files += " '" + file.string() + "'";
        ++files;
      }
    }
  }
}

// Runs `command` with its output into `log`; its exit status and what it wrote.
int run_logged(const std::string& command, const fs::path& log, std::string& output) {
  const int rc = std::system((command + " > '" + log.string() + "' 2>&1").c_str());
  std::stringstream out;
  out << std::ifstream(log).rdbuf();
  output = out.str();
  return rc;
}

// (3): every encoder's output for every operation, read by parsers we did not write: xmllint
// (libxml2's own command line, namespace errors included), Python's ElementTree (expat with
// namespaces), xmlrpc.client.loads (whose values must give the message's canonical JSON) and
// json.loads (no NaN/Infinity extensions). One process each over a directory of files.
TEST(EncodeForeignParsers, XmllintAndPythonAcceptEverything) {
  const char* const kPython = "/usr/bin/python3";
  const char* const kXmllint = "/usr/bin/xmllint";
  ASSERT_EQ(access(kPython, X_OK), 0) << kPython << " is required (Debian python3)";
  ASSERT_EQ(access(kXmllint, X_OK), 0) << kXmllint << " is required (Debian libxml2-utils)";
  const fs::path dir = fs::temp_directory_path() / ("sb_encode_test." + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "msg");
  int files = 0;
  std::string xml_files;
  ASSERT_NO_FATAL_FAILURE(write_messages(dir / "msg", files, xml_files));
  ASSERT_GT(files, 0);

  std::string out;
  const int xmllint_rc =
      run_logged(std::string(kXmllint) + " --noout --nonet" + xml_files, dir / "xmllint.log", out);
  EXPECT_EQ(xmllint_rc, 0) << out.substr(0, 4000);
  // Namespace errors do not change xmllint's exit status: anything it prints is a failure.
  EXPECT_TRUE(out.empty()) << out.substr(0, 4000);

  const fs::path script = dir / "check.py";
  std::ofstream(script) << kCheckScript;
  const int python_rc = run_logged(
      std::string(kPython) + " '" + script.string() + "' '" + (dir / "msg").string() + "'",
      dir / "python.log", out);
  EXPECT_EQ(python_rc, 0) << out.substr(0, 4000);
  EXPECT_NE(out.find("checked " + std::to_string(files) + " bad 0"), std::string::npos)
      << out.substr(0, 4000);
  if (HasFailure()) {
    ADD_FAILURE() << "messages kept for inspection in " << dir.string();
  } else {
    fs::remove_all(dir);
  }
}

}  // namespace
}  // namespace sb
