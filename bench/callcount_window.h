// callcount's measurement window on one thread (docs/results.md "callcount"): what one side of a
// call (the client's thread, or the server's I/O thread) costs over a run of calls.
//
// Everything here is exact under the ordering callcount imposes (both sides on one CPU, the
// server's threads at a higher SCHED_FIFO priority than the client's), so each reading is the
// same on every run of the same build:
// - callgrind: begin() and end() each dump the calling thread's counts (tools/callcount runs
//   callgrind with --separate-threads=yes, where a dump writes and clears the calling thread's
//   alone): end()'s dump, under the window's name, holds the window and nothing else; begin()'s,
//   named kDiscardedDump + the name, is skipped;
// - allocations (harness/alloc_counter.h, counted per thread), voluntary context switches and
//   CPU time (getrusage RUSAGE_THREAD);
// - strace: begin() and end() each write one marker line to /dev/null, so tools/callcount counts
//   the thread's system calls strictly between the two markers. The markers sit innermost: no
//   other system call of the window's own bookkeeping falls between them.
#pragma once

#include <cstdint>
#include <string>

namespace sb::bench {

// The name prefix of the dump that opens a window (tools/callcount skips those dumps).
inline constexpr const char* kDiscardedDump = "callcount-discard ";

// What one window counted (totals over the window, not per call).
struct WindowCounts {
  std::uint64_t allocations = 0;        // allocation calls on the thread
  std::int64_t voluntary_switches = 0;  // times the thread gave up the CPU (blocked)
  std::int64_t cpu_ns = 0;              // the thread's user + system CPU time
};

class CountWindow {
 public:
  // Starts counting on the calling thread; `name` labels the callgrind dump and the markers.
  void begin(const std::string& name);
  // Stops counting on the thread that called begin(); what it counted.
  WindowCounts end();

 private:
  std::string name_;           // the window's name (a benchmark name)
  std::string end_line_;       // end()'s marker, made before the window opens
  std::int64_t switches_ = 0;  // voluntary context switches at begin()
  std::int64_t cpu_ns_ = 0;    // the thread's CPU time at begin()
};

// The marker line begin() and end() write: "callcount <begin|end> <name>\n" (tools/callcount's
// strace reader looks for it).
std::string window_marker(bool begin, const std::string& name);

}  // namespace sb::bench
