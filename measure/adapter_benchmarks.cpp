#include "measure/adapter_benchmarks.h"

#include <valgrind/callgrind.h>

#include <cstring>
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
      const std::string json = rpc::to_canonical_json(m);
      return file.canonical_matches(json) ? "" : "canonical JSON differs from the manifest";
    }
  }
  return "unknown level";
}

}  // namespace

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
  const rpc::DecodeContext ctx = decode_context(file, contract);
  std::unique_ptr<Adapter> adapter = entry.make(Limits{});
  BenchInput input(bytes);
  // Correctness first: the parse/walk levels must also reproduce the digest (proof that the
  // library read this file correctly); decode must reproduce the canonical JSON.
  for (Level check : {Level::walk, level}) {
    if (check == Level::walk && level == Level::decode) continue;
    std::string why = check_once(*adapter, check, file, input.copy(0), ctx);
    input.restore_all();
    if (!why.empty()) {
      state.SkipWithError((entry.info().name + ": " + file.path + ": " + why).c_str());
      return;
    }
  }
  // Steady-state allocations of one message (the warm-up above filled any reused pools).
  AllocStats allocs;
  {
    MessageBuffer& buf = input.copy(0);
    Digest d;
    rpc::Message m;
    DecodeReport report;
    alloc_counting_begin();
    switch (level) {
      case Level::parse:
        (void)adapter->parse(buf);
        break;
      case Level::walk:
        (void)adapter->walk(buf, d);
        break;
      case Level::decode:
        (void)adapter->decode(buf, ctx, m, report);
        break;
    }
    allocs = alloc_counting_end();
    input.restore_all();
  }

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
        if (redo.due()) once();
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
    state.counters["allocs_per_msg"] = static_cast<double>(allocs.allocations);
    state.counters["peak_heap_bytes"] = static_cast<double>(allocs.peak_bytes);
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
