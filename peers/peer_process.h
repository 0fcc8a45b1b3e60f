// A server run as a child process for stacks_bench's round-trip rows: started by path
// (posix_spawn), its URL read from the one line it prints when it listens, stopped by its PID
// (SIGTERM, then wait). Never by name.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace sb::peers {

class PeerProcess {
 public:
  // Starts `path` with `args` and waits up to `timeout` for its first stdout line, taking the
  // first "http://" word of it as the URL; throws std::runtime_error when it exits or stays
  // silent. The child gets every CPU the machine allows, whatever this process is pinned to.
  PeerProcess(const std::string& path, const std::vector<std::string>& args,
              std::chrono::milliseconds timeout = std::chrono::seconds(20));
  ~PeerProcess();
  PeerProcess(const PeerProcess&) = delete;
  PeerProcess& operator=(const PeerProcess&) = delete;

  // The base URL the server printed (http://host:port).
  const std::string& url() const { return url_; }

  // Sends SIGTERM to the child and waits for it (SIGKILL after 5 s); idempotent.
  void stop();

 private:
  pid_t pid_ = -1;   // the child, -1 once stopped
  int stdout_ = -1;  // read end of the child's stdout
  std::string url_;  // what the child printed
};

// The server started by `path args`, started on first use and kept until the process exits (one
// per distinct command line); its URL. Throws as PeerProcess does.
const std::string& peer_url(const std::string& path, const std::vector<std::string>& args);

}  // namespace sb::peers
