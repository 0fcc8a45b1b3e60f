#include "measure/adapter_benchmarks.h"

#include <valgrind/callgrind.h>

#include <chrono>
#include <cstring>
#include <map>
#include <optional>
#include <vector>

#include "codecs/canonical_json.h"
#include "harness/alloc_counter.h"
#include "harness/bench_input.h"
#include "measure/planted_slowdown.h"
#include "parsers/reference_calls.h"

namespace sb::bench {

namespace {

// Messages per second and bytes per second, the same for every kind of benchmark.
void set_rates(benchmark::State& state, std::size_t bytes) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(bytes));
  state.counters["msgs_per_s"] =
      benchmark::Counter(1, benchmark::Counter::kIsIterationInvariantRate);
}

// Runs the level once on buf; returns "" when the result matches the manifest.
std::string check_once(Adapter& adapter, Level level, const CorpusEntry& file, MessageBuffer& buf,
                       const rpc::DecodeContext& ctx) {
  switch (level) {
    case Level::parse: {
      Status s = adapter.parse(buf);
      return s.ok() ? "" : "parse failed: " + s.describe();
    }
    case Level::walk: {
      Digest d;
      Status s = adapter.walk(buf, d);
      if (!s.ok()) return "walk failed: " + s.describe();
      if (!file.digest) return "no digest in the manifest";
      if (adapter.info().digest_exempt) {
        // Fastest modes skip entity decoding: only the structure must match.
        if (d.elements != file.digest->elements || d.attributes != file.digest->attributes ||
            d.objects != file.digest->objects || d.arrays != file.digest->arrays) {
          return "structure differs from the manifest: " + d.to_json();
        }
        return "";
      }
      return d == *file.digest ? ""
                               : "digest " + d.to_json() + " != manifest " + file.digest->to_json();
    }
    case Level::decode: {
      rpc::Message m;
      DecodeReport report;
      Status s = adapter.decode(buf, ctx, m, report);
      if (!s.ok()) return "decode failed: " + s.describe();
      return file.canonical_mismatch(rpc::to_canonical_json(m));
    }
  }
  return "unknown level";
}

// Runs the level once on buf, its result dropped (for the allocation windows).
void run_once(Adapter& adapter, Level level, MessageBuffer& buf, const rpc::DecodeContext& ctx) {
  Digest d;
  rpc::Message m;
  DecodeReport report;
  switch (level) {
    case Level::parse:
      (void)adapter.parse(buf);
      break;
    case Level::walk:
      (void)adapter.walk(buf, d);
      break;
    case Level::decode:
      (void)adapter.decode(buf, ctx, m, report);
      break;
  }
}

// What the first call of a benchmark settled: the check's verdict ("" when the result is
// right) and the allocation figures of one message.
struct Settled {
  std::string error;            // SkipWithError's message
  AllocStats allocs;            // steady state: a warm adapter's allocations for one message
  std::int64_t peak_bytes = 0;  // a fresh adapter's peak heap on its first message
};

// By benchmark name, for the process's life (a name is one adapter, level and message).
std::map<std::string, Settled>& settled_benchmarks() {
  static std::map<std::string, Settled> settled;
  return settled;
}

// Checks the result before anything is timed, then measures the allocations.
Settled settle(const AdapterEntry& entry, Level level, const CorpusEntry& file, BenchInput& input,
               const rpc::DecodeContext& ctx) {
  Settled out;
  std::unique_ptr<Adapter> adapter = entry.make(Limits{});
  // Correctness first: the parse/walk levels must also reproduce the digest (proof that the
  // library read this file correctly); decode must reproduce the canonical JSON, at every level:
  // a mode that decodes a message wrong is timed at no level of it, so its parse or walk number
  // never ranks where its answer is wrong (docs/architecture.md, "No silent wrong answer").
  std::vector<Level> checks;
  if (level != Level::decode) checks.push_back(Level::walk);
  if (level == Level::decode || file.has_canonical()) checks.push_back(Level::decode);
  if (level == Level::parse) checks.push_back(Level::parse);
  for (Level check : checks) {
    std::string why = check_once(*adapter, check, file, input.copy(0), ctx);
    if (!why.empty() && check == Level::decode && level != Level::decode) {
      // A refusal is an answer too ("cannot decode it"): only a wrong value keeps it untimed.
      why = why.starts_with("decode failed: ")
                ? ""
                : "decodes it wrong, so it is not timed at " + std::string(level_name(level)) +
                      " either: " + why;
    }
    input.restore_all();
    if (!why.empty()) {
      out.error = entry.info().name + ": " + file.path + ": " + why;
      return out;
    }
  }
  // Peak heap: a fresh adapter, made inside the window, on its first message, so every byte the
  // message needs is allocated (and counted) there. The warm adapter is dropped first: an
  // adapter that keeps the last message's tree (libxml2, pugixml, RapidXML, expat reset) frees
  // it at the start of its next parse, and those frees of bytes counted before the window
  // cancelled the new tree's, so a steady-state window showed a peak of 0 on any message.
  adapter.reset();
  alloc_counting_begin();
  adapter = entry.make(Limits{});
  run_once(*adapter, level, input.copy(0), ctx);
  out.peak_bytes = alloc_counting_end().peak_bytes;
  input.restore_all();
  // Steady-state allocations of one message (the message above filled any reused pools).
  alloc_counting_begin();
  run_once(*adapter, level, input.copy(0), ctx);
  out.allocs = alloc_counting_end();
  input.restore_all();
  return out;
}

std::optional<std::chrono::steady_clock::time_point>& deadline() {
  static std::optional<std::chrono::steady_clock::time_point> at;
  return at;
}

// True once the deadline has passed, the repetition skipped with kCutByDeadline. Inside the
// loop: Google Benchmark requires every repetition of a benchmark to report the same iteration
// count (a skip before the loop reports 0, one inside it the repetition's count).
bool cut_by_deadline(benchmark::State& state) {
  if (!deadline() || std::chrono::steady_clock::now() < *deadline()) return false;
  for (auto _ : state) {
    state.SkipWithError(kCutByDeadline);
    break;
  }
  return true;
}

}  // namespace

void set_benchmark_deadline(std::chrono::steady_clock::time_point at) { deadline() = at; }

// tools/icount runs callgrind with --collect-atstart=no: collection is on only in here.
InstructionScope::InstructionScope(const std::string& name) : name_(name) {
  CALLGRIND_ZERO_STATS;
  CALLGRIND_TOGGLE_COLLECT;
}

InstructionScope::~InstructionScope() {
  CALLGRIND_TOGGLE_COLLECT;
  CALLGRIND_DUMP_STATS_AT(name_.c_str());
}

rpc::DecodeContext decode_context(const CorpusEntry& file, const rpc::Contract* contract) {
  rpc::DecodeContext ctx;
  ctx.method = file.operation;
  ctx.contract = contract;
  ctx.batch = true;
  return ctx;
}

void adapter_benchmark(benchmark::State& state, const std::string& name, Level level,
                       const AdapterEntry& entry, const CorpusEntry& file, const std::string& bytes,
                       const rpc::Contract* contract) {
  // Google Benchmark calls this body once per repetition and per round of its iteration search;
  // the check and the allocation figures are settled on the first call only. A wrong result is
  // an error before the loop on every call; a call past the deadline is cut inside the loop.
  auto settled = settled_benchmarks().find(name);
  if (settled != settled_benchmarks().end() && !settled->second.error.empty()) {
    state.SkipWithError(settled->second.error.c_str());
    return;
  }
  if (cut_by_deadline(state)) return;
  const rpc::DecodeContext ctx = decode_context(file, contract);
  BenchInput input(bytes);
  if (settled == settled_benchmarks().end()) {
    settled = settled_benchmarks().emplace(name, settle(entry, level, file, input, ctx)).first;
    if (!settled->second.error.empty()) {
      state.SkipWithError(settled->second.error.c_str());
      return;
    }
  }
  if (cut_by_deadline(state)) return;
  std::unique_ptr<Adapter> adapter = entry.make(Limits{});
  run_once(*adapter, level, input.copy(0), ctx);  // warm: its reused state filled, untimed
  input.restore_all();

  const bool insitu = adapter->info().modifies_input;
  const std::size_t copies = input.copies();
  std::size_t i = 0;
  // Every adapter cycles through the same ring of copies; in-situ ones get theirs restored
  // in one batch per lap with the timer paused.
  auto next = [&] {
    if (++i == copies) {
      i = 0;
      if (insitu) {
        state.PauseTiming();
        input.restore_all();
        state.ResumeTiming();
      }
    }
  };
  // The timed loop of every level; `once` does one message's work and moves to the next copy.
  // A planted slowdown (planted_slowdown.h, a study's calibration switch) redoes it on a share
  // of the iterations; without one the loop is the plain one.
  const double planted = planted_slowdown(name);
  auto timed = [&](auto once) {
    if (planted > 0.0) {
      PlantedSlowdown redo(planted);
      for (auto _ : state) {
        once();
        for (int pass = redo.due(); pass > 0; --pass) once();
      }
    } else {
      for (auto _ : state) once();
    }
  };
  InstructionScope instructions(name);
  switch (level) {
    case Level::parse:
      timed([&] {
        Status s = adapter->parse(input.copy(i));
        benchmark::DoNotOptimize(s);
        next();
      });
      break;
    case Level::walk: {
      Digest d;
      timed([&] {
        Status s = adapter->walk(input.copy(i), d);
        benchmark::DoNotOptimize(s);
        benchmark::DoNotOptimize(d);
        next();
      });
      break;
    }
    case Level::decode: {
      rpc::Message m;
      DecodeReport report;
      timed([&] {
        Status s = adapter->decode(input.copy(i), ctx, m, report);
        benchmark::DoNotOptimize(s);
        benchmark::DoNotOptimize(m);
        next();
      });
      break;
    }
  }
  set_rates(state, bytes.size());
  if (alloc_counting_available()) {
    state.counters["allocs_per_msg"] = static_cast<double>(settled->second.allocs.allocations);
    state.counters["peak_heap_bytes"] = static_cast<double>(settled->second.peak_bytes);
  }
}

void encode_benchmark(benchmark::State& state, const std::string& name, const EncoderEntry& entry,
                      const rpc::Message& message, const CorpusEntry& file,
                      const AdapterEntry& reader) {
  const rpc::Family family = *rpc::family_from_name(file.family);
  Encoder encoder(entry);
  std::string out;
  std::string error;
  if (!encoder.encode(message, family, out, error)) {
    state.SkipWithError((std::string(entry.name) + ": " + file.path + ": " + error).c_str());
    return;
  }
  {
    std::unique_ptr<Adapter> adapter = reader.make(Limits{});
    MessageBuffer buf(out);
    rpc::Message back;
    rpc::DecodeContext ctx;
    ctx.method = file.operation;
    DecodeReport report;
    const Status s = adapter->decode(buf, ctx, back, report);
    if (!s.ok() || !file.canonical_matches(rpc::to_canonical_json(back))) {
      state.SkipWithError((std::string(entry.name) + ": " + file.path +
                           ": the encoded message does not decode to the manifest's value")
                              .c_str());
      return;
    }
  }
  alloc_counting_begin();
  (void)encoder.encode(message, family, out, error);
  const AllocStats allocs = alloc_counting_end();
  {
    InstructionScope instructions(name);
    for (auto _ : state) {
      bool ok = encoder.encode(message, family, out, error);
      benchmark::DoNotOptimize(ok);
      benchmark::DoNotOptimize(out.data());
    }
  }
  set_rates(state, out.size());
  if (alloc_counting_available()) {
    state.counters["allocs_per_msg"] = static_cast<double>(allocs.allocations);
    state.counters["peak_heap_bytes"] = static_cast<double>(allocs.peak_bytes);
  }
}

void memcpy_floor(benchmark::State& state, const std::string& name, const std::string& bytes) {
  std::vector<char> dst(bytes.size() + 1);
  InstructionScope instructions(name);
  for (auto _ : state) {
    std::memcpy(dst.data(), bytes.data(), bytes.size());
    benchmark::ClobberMemory();
  }
  set_rates(state, bytes.size());
}

void memchr_floor(benchmark::State& state, const std::string& name, const CorpusEntry& file,
                  const std::string& bytes) {
  const char needle = file.format == Format::xml ? '<' : '"';
  InstructionScope instructions(name);
  for (auto _ : state) {
    std::size_t count = 0;
    const char* p = bytes.data();
    const char* end = p + bytes.size();
    while ((p = static_cast<const char*>(
                std::memchr(p, needle, static_cast<std::size_t>(end - p)))) != nullptr) {
      ++count;
      ++p;
    }
    benchmark::DoNotOptimize(count);
  }
  set_rates(state, bytes.size());
}

void direct_benchmark(benchmark::State& state, const std::string& name, const std::string& library,
                      const CorpusEntry& file, const std::string& bytes) {
  (void)file;
  ReferenceParser parser(library);
  BenchInput input(bytes);
  if (!parser.parse(input.copy(0))) {
    state.SkipWithError((library + " direct call failed on " + file.path).c_str());
    return;
  }
  const std::size_t copies = input.copies();
  std::size_t i = 0;
  InstructionScope instructions(name);
  for (auto _ : state) {
    bool ok = parser.parse(input.copy(i));
    benchmark::DoNotOptimize(ok);
    if (++i == copies) i = 0;
  }
  set_rates(state, bytes.size());
}

}  // namespace sb::bench
