#include "harness/load/load_process.h"

#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

namespace sb {

namespace {

// The "<key>:  <n> kB" line of /proc/PID/status, in kB; -1 when absent.
std::int64_t status_kb(const std::string& status, const std::string& key) {
  const std::size_t at = status.find("\n" + key + ":");
  if (at == std::string::npos) return -1;
  return std::stoll(status.substr(at + key.size() + 2));
}

}  // namespace

std::optional<ProcessSample> sample_process(int pid) {
  const std::string dir = "/proc/" + std::to_string(pid);
  std::ifstream stat_file(dir + "/stat");
  std::string stat((std::istreambuf_iterator<char>(stat_file)), std::istreambuf_iterator<char>());
  std::ifstream status_file(dir + "/status");
  const std::string status = "\n" + std::string((std::istreambuf_iterator<char>(status_file)),
                                                std::istreambuf_iterator<char>());
  // The command name (field 2) may hold spaces and ')': the fields start after the last ')'.
  const std::size_t paren = stat.rfind(')');
  if (paren == std::string::npos || status.size() < 2) return std::nullopt;
  std::istringstream fields(stat.substr(paren + 1));
  std::string field;
  long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {  // utime is field 14, stime 15 (proc(5))
    if (i == 14) utime = std::stoll(field);
    if (i == 15) stime = std::stoll(field);
  }
  const double ns_per_tick = 1e9 / static_cast<double>(sysconf(_SC_CLK_TCK));
  ProcessSample s;
  s.cpu_ns = static_cast<std::int64_t>(static_cast<double>(utime + stime) * ns_per_tick);
  s.rss_kb = status_kb(status, "VmRSS");
  s.peak_kb = status_kb(status, "VmHWM");
  return s;
}

double own_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return seconds(u.ru_utime) + seconds(u.ru_stime);
}

}  // namespace sb
