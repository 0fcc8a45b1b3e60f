// Programs run as child processes by path (posix_spawn), never found or stopped by name: a
// server (stacks_bench's round-trip rows, `soapbench interop`), its URL read from the one line
// it prints when it listens, stopped by its PID (SIGTERM, then wait); and a client run to its
// end with its stdout captured (`soapbench interop`'s peer clients), killed by PID on timeout.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace sb::peers {

class PeerProcess {
 public:
  // Starts `path` with `args` and waits up to `timeout` for its first stdout line, taking the
  // first "http://" (else "corbaloc:") word of it as the URL; throws std::runtime_error when it
  // exits or stays silent. The child gets every CPU the machine allows, whatever this process is
  // pinned to.
  PeerProcess(const std::string& path, const std::vector<std::string>& args,
              std::chrono::milliseconds timeout = std::chrono::seconds(20));
  ~PeerProcess();
  PeerProcess(const PeerProcess&) = delete;
  PeerProcess& operator=(const PeerProcess&) = delete;

  // The URL the server printed (http://host:port, or a CORBA server's corbaloc:… object URL).
  const std::string& url() const { return url_; }

  // Sends SIGTERM to the child and waits for it (SIGKILL after 5 s); idempotent.
  void stop();

 private:
  pid_t pid_ = -1;   // the child, -1 once stopped
  int stdout_ = -1;  // read end of the child's stdout
  std::string url_;  // what the child printed
};

// The server started by `path args`, started on first use and kept until the process exits (one
// per distinct command line); its URL. Throws as PeerProcess does; `timeout` bounds the wait for
// its serving line (a JVM peer that warms up first needs longer than a native one).
const std::string& peer_url(const std::string& path, const std::vector<std::string>& args,
                            std::chrono::milliseconds timeout = std::chrono::seconds(20));

// What a child run to its end did.
struct ChildRun {
  int exit_code = -1;      // its exit status; -1 when killed by a signal or on timeout
  bool timed_out = false;  // still running after the timeout: killed (SIGKILL) by its PID
  std::string out;         // everything it wrote to stdout (stderr stays this process's)
};

// Runs `path args` to its end, or for at most `timeout`. Throws std::runtime_error when it
// cannot be started.
ChildRun run_child(const std::string& path, const std::vector<std::string>& args,
                   std::chrono::milliseconds timeout);

}  // namespace sb::peers
