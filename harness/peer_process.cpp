#include "harness/peer_process.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <map>
#include <memory>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace sb::peers {

namespace {

// Spawns path with args and its stdout on `out`; the child inherits a mask of every CPU (this
// process may be pinned to one, and a mask is inherited across exec).
pid_t spawn(const std::string& path, const std::vector<std::string>& args, int out) {
  std::vector<char*> argv{const_cast<char*>(path.c_str())};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out, STDOUT_FILENO);
  cpu_set_t saved;
  cpu_set_t every;
  CPU_ZERO(&every);
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) CPU_SET(cpu, &every);
  const bool widened = sched_getaffinity(0, sizeof saved, &saved) == 0 &&
                       sched_setaffinity(0, sizeof every, &every) == 0;
  pid_t pid = -1;
  const int error = posix_spawn(&pid, path.c_str(), &actions, nullptr, argv.data(), environ);
  if (widened) sched_setaffinity(0, sizeof saved, &saved);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) throw std::runtime_error("cannot start " + path);
  return pid;
}

// spawn() with the child's stdout on a new pipe whose read end goes to `out`.
pid_t spawn_piped(const std::string& path, const std::vector<std::string>& args, int& out) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe: cannot start " + path);
  pid_t pid = -1;
  try {
    pid = spawn(path, args, fds[1]);
  } catch (...) {
    close(fds[0]);
    close(fds[1]);
    throw;
  }
  close(fds[1]);
  out = fds[0];
  return pid;
}

// The first line `fd` gives within `timeout` ("" on end of file or timeout).
std::string first_line(int fd, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string line;
  while (line.find('\n') == std::string::npos) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    pollfd p{fd, POLLIN, 0};
    if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0) return "";
    char buf[256];
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) return "";
    line.append(buf, static_cast<std::size_t>(n));
  }
  return line.substr(0, line.find('\n'));
}

// Appends what `fd` gives to `out` until end of file; false when `deadline` comes first.
bool read_all(int fd, std::string& out, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    pollfd p{fd, POLLIN, 0};
    if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
    char buf[4096];
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) return true;
    out.append(buf, static_cast<std::size_t>(n));
  }
}

}  // namespace

PeerProcess::PeerProcess(const std::string& path, const std::vector<std::string>& args,
                         std::chrono::milliseconds timeout) {
  pid_ = spawn_piped(path, args, stdout_);
  const std::string line = first_line(stdout_, timeout);
  std::size_t at = line.find("http://");
  if (at == std::string::npos) at = line.find("corbaloc:");  // a CORBA server's object URL
  if (at == std::string::npos) {
    stop();
    throw std::runtime_error(path + " printed no URL" + (line.empty() ? "" : ": " + line));
  }
  url_ = line.substr(at, line.find_first_of(" \t", at) - at);
}

PeerProcess::~PeerProcess() { stop(); }

void PeerProcess::stop() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    int status = 0;
    while (waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    pid_ = -1;
  }
  if (stdout_ >= 0) close(stdout_);
  stdout_ = -1;
}

const std::string& peer_url(const std::string& path, const std::vector<std::string>& args,
                            std::chrono::milliseconds timeout) {
  static std::map<std::vector<std::string>, std::unique_ptr<PeerProcess>> running;
  std::vector<std::string> key{path};
  key.insert(key.end(), args.begin(), args.end());
  std::unique_ptr<PeerProcess>& p = running[key];
  if (!p) p = std::make_unique<PeerProcess>(path, args, timeout);
  return p->url();
}

ChildRun run_child(const std::string& path, const std::vector<std::string>& args,
                   std::chrono::milliseconds timeout) {
  int out = -1;
  const pid_t pid = spawn_piped(path, args, out);
  ChildRun run;
  run.timed_out = !read_all(out, run.out, std::chrono::steady_clock::now() + timeout);
  close(out);
  if (run.timed_out) kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!run.timed_out && WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
  return run;
}

}  // namespace sb::peers
