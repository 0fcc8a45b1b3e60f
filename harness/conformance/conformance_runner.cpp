#include "harness/conformance/conformance_runner.h"

#include <fmt/core.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <string_view>

#include "core/message_buffer.h"

namespace sb {

const char* verdict_name(CaseVerdict v) {
  switch (v) {
    case CaseVerdict::accepted:
      return "accepted";
    case CaseVerdict::rejected:
      return "rejected";
    case CaseVerdict::refused:
      return "refused";
    case CaseVerdict::crashed:
      return "crashed";
    case CaseVerdict::hung:
      return "hung";
  }
  return "?";
}

namespace {

using Clock = std::chrono::steady_clock;

// Tabs and line breaks would break the child's line protocol.
std::string one_line(std::string s) {
  for (char& c : s) {
    if (c == '\n' || c == '\t' || c == '\r') c = ' ';
  }
  return s.substr(0, 300);
}

// Walks one job in this (child) process: "verdict\tdigest\toutput_digest\toutput_error\treason".
std::string execute(const CaseJob& job) {
  std::unique_ptr<Adapter> adapter = job.adapter->make(job.limits);
  MessageBuffer buffer(*job.document);
  Digest digest;
  const Status s = adapter->walk(buffer, digest);
  const CaseVerdict verdict = s.ok()                          ? CaseVerdict::accepted
                              : s.code() == StatusCode::limit ? CaseVerdict::refused
                                                              : CaseVerdict::rejected;
  std::string output_digest, output_error;
  if (s.ok() && job.output != nullptr) {
    MessageBuffer out(*job.output);
    Digest od;
    const Status os = adapter->walk(out, od);
    if (os.ok()) {
      output_digest = od.to_json();
    } else {
      output_error = one_line(os.describe());
    }
  }
  return fmt::format("{}\t{}\t{}\t{}\t{}\n", verdict_name(verdict), s.ok() ? digest.to_json() : "",
                     output_digest, output_error, s.ok() ? "" : one_line(s.describe()));
}

[[noreturn]] void child_main(int fd, const std::vector<CaseJob>& jobs, std::size_t begin,
                             std::size_t end) {
#if !SB_ASAN
  // A library that expands a billion laughs must not take the machine with it.
  rlimit as{4ULL << 30, 4ULL << 30};
  setrlimit(RLIMIT_AS, &as);
#endif
  for (std::size_t i = begin; i < end; ++i) {
    const std::string line = execute(jobs[i]);
    std::string_view rest = line;
    while (!rest.empty()) {
      const ssize_t n = write(fd, rest.data(), rest.size());
      if (n <= 0) _exit(2);
      rest.remove_prefix(static_cast<std::size_t>(n));
    }
  }
  _exit(0);
}

CaseResult parse_line(std::string_view line) {
  std::vector<std::string_view> f;
  for (std::size_t at = 0;;) {
    const std::size_t tab = line.find('\t', at);
    f.push_back(line.substr(at, tab == std::string_view::npos ? tab : tab - at));
    if (tab == std::string_view::npos) break;
    at = tab + 1;
  }
  CaseResult r;
  if (f.size() != 5) {
    r.reason = "unreadable child output";
    return r;
  }
  for (CaseVerdict v : {CaseVerdict::accepted, CaseVerdict::rejected, CaseVerdict::refused}) {
    if (f[0] == verdict_name(v)) r.verdict = v;
  }
  r.digest = f[1];
  r.output_digest = f[2];
  r.output_error = f[3];
  r.reason = f[4];
  return r;
}

// A range of jobs for one child; `alone` marks the rerun of one case after a death.
struct Batch {
  std::size_t begin, end;
  bool alone;
};

// A running child and where it is in its batch.
struct Child {
  pid_t pid;                // its process
  int fd;                   // the read end of its result pipe
  Batch batch;              // its jobs
  std::size_t next;         // the job it is on
  std::string pending;      // output not yet ending in a newline
  Clock::time_point quiet;  // when it will have been silent for the timeout
};

class Runner {
 public:
  Runner(const std::vector<CaseJob>& jobs, const RunnerOptions& options)
      : jobs_(jobs), options_(options), results_(jobs.size()) {}

  std::vector<CaseResult> run() {
    for (std::size_t b = 0; b < jobs_.size(); b += options_.batch) {
      queue_.push_back({b, std::min(jobs_.size(), b + options_.batch), false});
    }
    while (!queue_.empty() || !children_.empty()) {
      while (!queue_.empty() && children_.size() < static_cast<std::size_t>(options_.jobs)) {
        spawn(queue_.front());
        queue_.pop_front();
      }
      wait_for_output();
    }
    return std::move(results_);
  }

 private:
  void spawn(const Batch& batch) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("conformance: pipe failed");
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("conformance: fork failed");
    if (pid == 0) {
      close(fds[0]);
      child_main(fds[1], jobs_, batch.begin, batch.end);
    }
    close(fds[1]);
    children_.push_back({pid, fds[0], batch, batch.begin, {}, deadline()});
  }

  Clock::time_point deadline() const {
    return Clock::now() + std::chrono::milliseconds(options_.timeout_ms);
  }

  void wait_for_output() {
    std::vector<pollfd> polls;
    Clock::time_point soonest = Clock::time_point::max();
    for (const Child& c : children_) {
      polls.push_back({c.fd, POLLIN, 0});
      soonest = std::min(soonest, c.quiet);
    }
    const auto wait =
        std::chrono::duration_cast<std::chrono::milliseconds>(soonest - Clock::now()).count();
    if (poll(polls.data(), polls.size(), static_cast<int>(std::max<long long>(0, wait) + 1)) < 0)
      return;  // EINTR: look again
    // Back to front, so that a finished child can be erased.
    for (std::size_t i = children_.size(); i-- > 0;) {
      Child& c = children_[i];
      bool over = false, killed = false;
      if (polls[i].revents != 0) {
        char buf[4096];
        const ssize_t n = read(c.fd, buf, sizeof buf);
        if (n > 0) {
          take(c, std::string_view(buf, static_cast<std::size_t>(n)));
        } else {
          over = true;  // end of file: the child exited or died
        }
      }
      if (!over && Clock::now() >= c.quiet) {
        kill(c.pid, SIGKILL);
        over = killed = true;
      }
      if (over) {
        finish(c, killed);
        children_.erase(children_.begin() + static_cast<std::ptrdiff_t>(i));
      }
    }
  }

  // Complete lines are the results of the child's next jobs.
  void take(Child& c, std::string_view data) {
    c.pending.append(data);
    std::size_t nl;
    while ((nl = c.pending.find('\n')) != std::string::npos) {
      if (c.next < c.batch.end) {
        results_[c.next] = parse_line(std::string_view(c.pending).substr(0, nl));
        results_[c.next].alone = c.batch.alone;
        ++c.next;
        ++done_;
        if (options_.progress) options_.progress(done_, jobs_.size());
      }
      c.pending.erase(0, nl + 1);
      c.quiet = deadline();
    }
  }

  // The child is gone (exited, died, or killed for silence): what of its batch is left.
  void finish(Child& c, bool hung) {
    close(c.fd);
    int status = 0;
    waitpid(c.pid, &status, 0);
    if (c.next >= c.batch.end) return;
    if (!c.batch.alone) {
      // The case it was on runs again alone first (its result stands), then the rest.
      queue_.push_front({c.next + 1, c.batch.end, false});
      queue_.push_front({c.next, c.next + 1, true});
      return;
    }
    CaseResult& r = results_[c.next];
    r.alone = true;
    if (hung) {
      r.verdict = CaseVerdict::hung;
      r.reason = fmt::format("no answer within {} ms", options_.timeout_ms);
    } else if (WIFSIGNALED(status)) {
      r.verdict = CaseVerdict::crashed;
      r.reason =
          fmt::format("killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
    } else {
      r.verdict = CaseVerdict::crashed;
      r.reason = fmt::format("exited with status {} without a result", WEXITSTATUS(status));
    }
    ++done_;
    if (options_.progress) options_.progress(done_, jobs_.size());
  }

  const std::vector<CaseJob>& jobs_;  // every case, in order
  const RunnerOptions& options_;      // parallelism, batch size, timeout
  std::vector<CaseResult> results_;   // by job index
  std::deque<Batch> queue_;           // batches not yet started (reruns first)
  std::vector<Child> children_;       // running children
  std::size_t done_ = 0;              // finished cases
};

}  // namespace

std::vector<CaseResult> run_cases(const std::vector<CaseJob>& jobs, const RunnerOptions& options) {
  if (jobs.empty()) return {};
  return Runner(jobs, options).run();
}

}  // namespace sb
