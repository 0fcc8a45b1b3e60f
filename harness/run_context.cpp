#include "harness/run_context.h"

#include <sched.h>
#include <unistd.h>

#include <fstream>
#include <set>
#include <sstream>

#include "codecs/family.h"
#include "harness/link_model.h"
#include "parsers/registry.h"
#include "sb_version.h"

namespace sb {

namespace {

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string cache_sizes() {
  std::string out;
  for (int i = 0; i < 8; ++i) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    const std::string level = read_first_line(dir + "level");
    if (level.empty()) break;
    const std::string type = read_first_line(dir + "type");
    const std::string size = read_first_line(dir + "size");
    if (!out.empty()) out += ' ';
    out += "L" + level + (type == "Data" ? "d" : type == "Instruction" ? "i" : "") + "=" + size;
  }
  return out.empty() ? "unknown" : out;
}

std::string compiler() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("g++ ") + __VERSION__;
#else
  return "unknown";
#endif
}

}  // namespace

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown";
}

std::string machine_id() {
  const std::string key = cpu_model() + "|" + std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) + "|" +
                          cache_sizes() + "|" + compiler();
  // FNV-1a 64, first 12 hex digits: short, stable, no dependency.
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : key) h = (h ^ c) * 0x100000001b3ULL;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%012llx", static_cast<unsigned long long>(h >> 16));
  return buf;
}

std::vector<std::pair<std::string, std::string>> run_context() {
  std::vector<std::pair<std::string, std::string>> ctx = {
      {"soapbench_version", SB_VERSION},
      {"git_sha", SB_GIT_SHA},
      {"cpu_model", cpu_model()},
      {"cpu_cores", std::to_string(sysconf(_SC_NPROCESSORS_ONLN))},
      {"caches", cache_sizes()},
      {"compiler", compiler()},
#ifdef NDEBUG
      {"build", "release"},
#else
      {"build", "debug"},
#endif
      {"machine_id", machine_id()},
  };
  std::string families;
  for (rpc::Family f : rpc::kAllFamilies) {
    families += (families.empty() ? "" : ",") + std::string(rpc::family_name(f));
  }
  ctx.emplace_back("families", families);
  ctx.emplace_back("default_adapter:xml", std::string(kDefaultXmlAdapter));
  ctx.emplace_back("default_adapter:json", std::string(kDefaultJsonAdapter));
  for (auto& kv : link_model_context()) ctx.push_back(std::move(kv));
  std::set<std::string> seen;
  auto yes = [](bool b) { return b ? "yes" : "no"; };
  for (const AdapterEntry& e : adapters()) {
    const AdapterInfo& i = e.info();
    if (seen.insert(i.library).second) ctx.emplace_back("lib_" + i.library, i.version);
    // Every adapter's registry row, so a report can print the flags table from a result file.
    ctx.emplace_back(
        "adapter:" + i.name,
        "library=" + i.library + ";version=" + i.version + ";format=" +
            std::string(format_name(i.format)) + ";model=" + std::string(model_name(i.model)) +
            ";utf8=" + yes(i.validates_utf8) + ";entities=" + yes(i.expands_entities) +
            ";namespaces=" + yes(i.processes_namespaces) + ";insitu=" + yes(i.modifies_input) +
            ";reuse=" + yes(i.reuses_state) + ";fastest=" + yes(i.fastest_mode) +
            ";exempt=" + yes(i.digest_exempt) + ";mode=" + i.mode);
  }
  return ctx;
}

std::string git_sha() { return SB_GIT_SHA; }

int pin_to_one_cpu() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return -1;
  int last = -1;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &allowed)) last = cpu;
  }
  if (last < 0) return -1;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(last, &one);
  return sched_setaffinity(0, sizeof one, &one) == 0 ? last : -1;
}

}  // namespace sb
