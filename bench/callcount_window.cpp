#include "bench/callcount_window.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>
#include <valgrind/callgrind.h>

#include <tuple>
#include <utility>

#include "harness/alloc_counter.h"

namespace sb::bench {

namespace {

// /dev/null, opened once (its open is not inside any window).
int marker_fd() {
  static const int fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  return fd;
}

void write_marker(const std::string& line) {
  if (marker_fd() >= 0) {
    [[maybe_unused]] const ssize_t n = ::write(marker_fd(), line.data(), line.size());
  }
}

// (voluntary context switches, CPU ns) of the calling thread.
std::pair<std::int64_t, std::int64_t> thread_usage() {
  rusage u{};
  getrusage(RUSAGE_THREAD, &u);
  auto ns = [](const timeval& t) {
    return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 +
           static_cast<std::int64_t>(t.tv_usec) * 1'000;
  };
  return {u.ru_nvcsw, ns(u.ru_utime) + ns(u.ru_stime)};
}

}  // namespace

std::string window_marker(bool begin, const std::string& name) {
  return std::string("callcount ") + (begin ? "begin " : "end ") + name + "\n";
}

void CountWindow::begin(const std::string& name) {
  name_ = name;
  // Made outside the window. The window opens with a dump (which clears the thread's counts;
  // tools/callcount discards it) and closes with one, collection staying on throughout: call
  // counts made while collection is off would land in the next dump that collects any.
  const std::string discard = kDiscardedDump + name_;
  const std::string begin_line = window_marker(true, name_);
  end_line_ = window_marker(false, name_);
  marker_fd();
  std::tie(switches_, cpu_ns_) = thread_usage();
  alloc_counting_begin();
  write_marker(begin_line);
  CALLGRIND_DUMP_STATS_AT(discard.c_str());
}

WindowCounts CountWindow::end() {
  CALLGRIND_DUMP_STATS_AT(name_.c_str());
  write_marker(end_line_);
  WindowCounts out;
  out.allocations = alloc_counting_end().allocations;
  const auto [switches, cpu_ns] = thread_usage();
  out.voluntary_switches = switches - switches_;
  out.cpu_ns = cpu_ns - cpu_ns_;
  return out;
}

}  // namespace sb::bench
