// Equal work without a manifest (docs/architecture.md, "Equal work"): before a user's message is
// timed, every adapter walks it (Digest) and decodes it (canonical JSON); the reference is what
// most of the accepting adapters produce, ties broken by libxml2 (XML) or RapidJSON (JSON). An
// adapter that refuses or disagrees is left out at that level with the reason, never timed on
// different work; a named fastest mode (digest_exempt: no entity decoding) that differs only in
// its text is kept and flagged, so its number is read knowing its work differs.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/decode.h"
#include "codecs/family.h"
#include "core/digest.h"
#include "parsers/registry.h"

namespace sb {

// The three levels of work (docs/architecture.md, "The adapter contract").
enum class Level { parse, walk, decode };

// "parse", "walk", "decode".
const char* level_name(Level level);

// What one adapter did at one level, and whether it may be timed there.
struct LevelVerdict {
  bool timed = false;  // agrees with the reference: timed at this level
  std::string why;     // not timed: the refusal or the disagreement, one line
  std::string flag;    // timed, but its work differs in a stated way (shown beside its number)
};

// One adapter on one message.
struct AdapterVerdicts {
  const AdapterEntry* adapter;  // which
  LevelVerdict walk;            // parse and walk (both need the reference Digest)
  LevelVerdict decode;          // decode
};

struct EqualWork {
  std::optional<Digest> digest;           // the reference Digest; nullopt: no adapter read it
  std::string digest_refusal;             // when none did: the tie-breaking adapter's reason
  std::string canonical;                  // the reference canonical JSON; "": nothing decoded it
  std::string decode_refusal;             // when nothing decoded it: the tie-breaker's reason
  std::optional<rpc::Family> family;      // the family the reference decode detected
  std::vector<AdapterVerdicts> adapters;  // in the order given
  bool stopped = false;  // the caller's `stop` said so before every adapter ran: nothing settled

  // The verdict of `adapter` at `level` (parse shares walk's), or nullptr when it was not run.
  const LevelVerdict* verdict(const AdapterEntry& adapter, Level level) const;
};

// Runs every adapter of `adapters` (all of the message's format) on `bytes` at walk and, when
// `decode`, at decode with `context`, and settles the references. `stop`, when given, is asked
// before each adapter (a time budget: a 50 MB message takes seconds per adapter).
EqualWork check_equal_work(std::string_view bytes, std::span<const AdapterEntry* const> adapters,
                           const rpc::DecodeContext& context, bool decode,
                           const std::function<bool()>& stop = {});

}  // namespace sb
