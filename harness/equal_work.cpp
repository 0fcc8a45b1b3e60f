#include "harness/equal_work.h"

#include <algorithm>
#include <map>
#include <memory>

#include "codecs/canonical_json.h"
#include "core/message_buffer.h"

namespace sb {

namespace {

// The library whose answer breaks a tie: libxml2 for XML, RapidJSON for JSON.
bool tie_breaker(const AdapterEntry& a) {
  const std::string& lib = a.info().library;
  return lib == "libxml2" || lib == "RapidJSON" || lib == "rapidjson";
}

// The answer most accepting voters gave (ties: the one a tie-breaking adapter gave, else the
// first in registry order), or nullptr when nobody accepted.
template <class Answer>
const Answer* majority(const std::vector<std::pair<const AdapterEntry*, Answer>>& votes) {
  const Answer* best = nullptr;
  std::size_t best_count = 0;
  bool best_tie_breaker = false;
  for (const auto& vote : votes) {
    const Answer& answer = vote.second;  // a name, not a structured binding: clang 14's lambdas
                                         // cannot capture those
    const std::size_t count = static_cast<std::size_t>(std::count_if(
        votes.begin(), votes.end(), [&](const auto& v) { return v.second == answer; }));
    const bool breaks = std::any_of(votes.begin(), votes.end(), [&](const auto& v) {
      return v.second == answer && tie_breaker(*v.first);
    });
    if (count > best_count || (count == best_count && breaks && !best_tie_breaker)) {
      best = &answer;
      best_count = count;
      best_tie_breaker = breaks;
    }
  }
  return best;
}

// What a named fastest mode's Digest may differ in: its text (no entity decoding).
bool same_structure(const Digest& a, const Digest& b) {
  return a.elements == b.elements && a.attributes == b.attributes && a.objects == b.objects &&
         a.arrays == b.arrays && a.keys == b.keys;
}

std::string digest_difference(const Digest& mine, const Digest& ref, std::size_t agreeing) {
  return "its Digest " + mine.to_json() + " differs from the one " + std::to_string(agreeing) +
         " adapters agree on " + ref.to_json();
}

// The tie-breaking adapter's refusal (else the first one's), for "nobody read it" lines.
std::string first_refusal(const std::vector<std::pair<const AdapterEntry*, std::string>>& why) {
  for (const auto& [a, reason] : why) {
    if (tie_breaker(*a)) return a->info().name + ": " + reason;
  }
  return why.empty() ? std::string() : why.front().first->info().name + ": " + why.front().second;
}

void settle_walk(EqualWork& w, const std::vector<std::pair<const AdapterEntry*, Digest>>& read,
                 const std::vector<std::pair<const AdapterEntry*, std::string>>& refused) {
  std::vector<std::pair<const AdapterEntry*, Digest>> voters;
  for (const auto& v : read) {
    if (!v.first->info().digest_exempt) voters.push_back(v);
  }
  const Digest* ref = majority(voters.empty() ? read : voters);
  if (ref == nullptr) {
    w.digest_refusal = first_refusal(refused);
    return;
  }
  w.digest = *ref;
  const auto agreeing = static_cast<std::size_t>(
      std::count_if(read.begin(), read.end(), [&](const auto& v) { return v.second == *ref; }));
  for (AdapterVerdicts& v : w.adapters) {
    for (const auto& [a, d] : read) {
      if (a != v.adapter) continue;
      if (d == *ref) {
        v.walk.timed = true;
      } else if (a->info().digest_exempt && same_structure(d, *ref)) {
        v.walk.timed = true;
        v.walk.flag = a->info().expands_entities
                          ? "its Digest differs in order or number form only (digest-exempt)"
                          : "no entity decoding: its text differs (a named fastest mode)";
      } else {
        v.walk.why = digest_difference(d, *ref, agreeing);
      }
    }
  }
}

void settle_decode(EqualWork& w,
                   const std::vector<std::pair<const AdapterEntry*, std::string>>& decoded,
                   const std::vector<std::pair<const AdapterEntry*, std::string>>& refused) {
  const std::string* ref = majority(decoded);
  if (ref == nullptr) {
    w.decode_refusal = first_refusal(refused);
    return;
  }
  w.canonical = *ref;
  const auto agreeing = static_cast<std::size_t>(std::count_if(
      decoded.begin(), decoded.end(), [&](const auto& v) { return v.second == *ref; }));
  for (AdapterVerdicts& v : w.adapters) {
    for (const auto& [a, json] : decoded) {
      if (a != v.adapter) continue;
      if (json == *ref) {
        v.decode.timed = true;
      } else {
        const AdapterInfo& info = a->info();
        v.decode.why = "its decoded value differs from the one " + std::to_string(agreeing) +
                       " adapters agree on" +
                       (!info.expands_entities        ? " (it decodes no entity references)"
                        : !info.keeps_whitespace_text ? " (it drops whitespace-only text)"
                                                      : "");
      }
    }
  }
}

}  // namespace

const char* level_name(Level level) {
  switch (level) {
    case Level::parse:
      return "parse";
    case Level::walk:
      return "walk";
    case Level::decode:
      return "decode";
  }
  return "?";
}

const LevelVerdict* EqualWork::verdict(const AdapterEntry& adapter, Level level) const {
  for (const AdapterVerdicts& v : adapters) {
    if (v.adapter == &adapter) return level == Level::decode ? &v.decode : &v.walk;
  }
  return nullptr;
}

EqualWork check_equal_work(std::string_view bytes, std::span<const AdapterEntry* const> adapters,
                           const rpc::DecodeContext& context, bool decode,
                           const std::function<bool()>& stop) {
  EqualWork w;
  std::vector<std::pair<const AdapterEntry*, Digest>> read;
  std::vector<std::pair<const AdapterEntry*, std::string>> decoded, walk_refused, decode_refused;
  std::map<std::string, rpc::Family> family_of;  // canonical JSON -> the family detected
  MessageBuffer buf;
  for (const AdapterEntry* a : adapters) {
    if (stop && stop()) {
      w.stopped = true;
      return w;
    }
    AdapterVerdicts& v = w.adapters.emplace_back(AdapterVerdicts{a, {}, {}});
    std::unique_ptr<Adapter> adapter = a->make(Limits{});
    buf.assign(bytes);
    Digest d;
    if (const Status s = adapter->walk(buf, d); s.ok()) {
      read.emplace_back(a, d);
    } else {
      v.walk.why = "refuses it: " + s.describe();
      walk_refused.emplace_back(a, s.describe());
    }
    if (!decode) continue;
    buf.assign(bytes);
    rpc::Message m;
    DecodeReport report;
    if (const Status s = adapter->decode(buf, context, m, report); s.ok()) {
      std::string json = rpc::to_canonical_json(m);
      family_of.emplace(json, report.family);
      decoded.emplace_back(a, std::move(json));
    } else {
      v.decode.why = "cannot decode it: " + s.describe();
      decode_refused.emplace_back(a, s.describe());
    }
  }
  settle_walk(w, read, walk_refused);
  if (decode) settle_decode(w, decoded, decode_refused);
  if (!w.canonical.empty()) w.family = family_of[w.canonical];
  return w;
}

}  // namespace sb
