#include "load/replay_plan.h"

#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "codecs/canonical_json.h"
#include "codecs/family.h"
#include "codecs/jsonrpc_id.h"
#include "core/message_buffer.h"
#include "harness/manifest_reader.h"
#include "parsers/registry.h"

namespace sb {

namespace fs = std::filesystem;

namespace {

// A file the manifest names, which must stay inside the folder.
fs::path inside(const fs::path& dir, const std::string& path) {
  if (fs::path(path).is_absolute() || path.find("..") != std::string::npos)
    throw std::runtime_error((dir / "manifest.json").string() + ": " + path +
                             ": outside the folder");
  return dir / path;
}

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot open");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The recorded answer's canonical JSON, when the decoders can type it (nullopt: they cannot);
// the answer to a JSON-RPC batch decodes as one (operation empty: its members' differ).
std::optional<std::string> canonical_answer(const std::string& body, const ManifestEntry& e,
                                            const std::string& operation, bool batch, bool& fault) {
  MessageBuffer buffer(body);
  rpc::DecodeContext context;
  context.method = operation;
  context.batch = batch;
  const std::optional<rpc::Family> family = rpc::family_from_name(e.family);
  if (family) context.protocol = rpc::protocol_of(*family);
  rpc::Message m;
  DecodeReport report;
  const bool json =
      e.format_given ? e.format == Format::json : body.starts_with('{') || body.starts_with('[');
  if (!make_adapter(default_adapter(json))->decode(buffer, context, m, report).ok())
    return std::nullopt;
  fault = m.kind == rpc::MessageKind::fault;
  return rpc::to_canonical_json(m);
}

// The request as it was recorded, addressed to `url`: `body` is the bytes as sent (a coded
// body: coded, with its Content-Encoding), and an Accept-Encoding recorded is sent again, so the
// service does the same work (the judge decodes a coded answer).
std::string framed_request(const ManifestEntry& e, const std::string& body, const Url& url) {
  std::string head = "POST ";
  head += url.path.empty() ? (e.target.empty() ? "/" : e.target) : url.path;
  head += " HTTP/1.1\r\nHost: " + url.authority + "\r\n";
  if (!e.content_type.empty()) head += "Content-Type: " + e.content_type + "\r\n";
  if (!e.soap_action.empty()) head += "SOAPAction: " + e.soap_action + "\r\n";
  if (!e.content_encoding.empty()) head += "Content-Encoding: " + e.content_encoding + "\r\n";
  if (!e.accept_encoding.empty()) head += "Accept-Encoding: " + e.accept_encoding + "\r\n";
  head += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  return head + body;
}

}  // namespace

ReplayPlan read_replay(const fs::path& dir, const Url& url) {
  const fs::path manifest = dir / "manifest.json";
  const std::vector<ManifestEntry> entries = read_manifest(read_all(manifest), manifest.string());
  std::map<std::uint64_t, const ManifestEntry*> requests, answers;
  for (const ManifestEntry& e : entries) {
    if (e.exchange == 0) continue;
    (e.direction == "call" ? requests : answers)[e.exchange] = &e;
  }
  if (requests.empty())
    throw std::runtime_error(manifest.string() + ": no recorded requests (not a recorded folder)");
  ReplayPlan plan;
  std::vector<std::string> why_status_only;            // per call: "" when its body is judged
  std::map<std::string, std::size_t> first_with_body;  // request body -> its first call
  std::int64_t first_at = -1, last_at = -1;
  for (const auto& [exchange, request] : requests) {
    const auto answer = answers.find(exchange);
    if (answer == answers.end() || answer->second->status == 0) {
      plan.left_out.push_back(request->path + ": no recorded answer");
      continue;
    }
    const ManifestEntry& a = *answer->second;
    // The body as decoded (what the answer's judge and the duplicates below compare) and as sent.
    const std::string body = read_all(inside(dir, request->path));
    const std::string sent =
        request->encoded_path.empty() ? body : read_all(inside(dir, request->encoded_path));
    LoadCall c;
    c.name = request->path;
    c.batch = rpc::json_is_array(body);
    c.operation = c.batch ? std::string() : request->operation;
    if (const auto family = rpc::family_from_name(request->family)) c.family = *family;
    c.request = framed_request(*request, sent, url);
    c.body_bytes = sent.size();
    c.status = a.status;
    bool fault = false;
    const std::optional<std::string> expected =
        request->family.empty()
            ? std::nullopt
            : canonical_answer(read_all(inside(dir, a.path)), a, c.operation, c.batch, fault);
    c.check_body = expected.has_value();
    std::string why;
    if (expected) {
      c.expected = *expected;
      c.expects_fault = fault;
    } else {
      why = "the decoders cannot type its answer " + a.path;
    }
    // The same request answered differently: the service is not deterministic for it.
    const auto [it, fresh] = first_with_body.try_emplace(body, plan.calls.size());
    if (!fresh) {
      LoadCall& first = plan.calls[it->second];
      if (first.expected != c.expected || first.status != c.status) {
        const std::string differently =
            "the same request was answered differently (" + first.name + ", " + c.name + ")";
        if (first.check_body) why_status_only[it->second] = differently;
        if (c.check_body) why = differently;
        first.check_body = c.check_body = false;
      }
    }
    if (request->at_us >= 0) {
      if (first_at < 0) first_at = request->at_us;
      last_at = request->at_us;
    }
    plan.offsets.push_back(std::chrono::microseconds(std::max<std::int64_t>(
        0,
        (request->at_us >= 0 ? request->at_us : last_at) - std::max<std::int64_t>(first_at, 0))));
    plan.calls.push_back(std::move(c));
    why_status_only.push_back(std::move(why));
  }
  if (plan.calls.empty()) throw std::runtime_error(manifest.string() + ": no request was answered");
  for (std::size_t i = 0; i < plan.calls.size(); ++i) {
    if (!plan.calls[i].check_body) {
      plan.status_only.push_back(plan.calls[i].name + ": " + why_status_only[i]);
    }
  }
  const std::size_t n = plan.calls.size();
  if (n >= 2 && last_at > first_at) {
    const auto span = std::chrono::microseconds(last_at - first_at);
    plan.period = span + span / static_cast<std::int64_t>(n - 1);
  }
  return plan;
}

void scale_replay(const ReplayPlan& plan, double factor,
                  std::vector<std::chrono::nanoseconds>& offsets,
                  std::chrono::nanoseconds& period) {
  auto scaled = [factor](std::chrono::nanoseconds d) {
    return std::chrono::nanoseconds(std::llround(static_cast<double>(d.count()) / factor));
  };
  offsets.clear();
  for (const auto d : plan.offsets) offsets.push_back(scaled(d));
  period = scaled(plan.period);
}

}  // namespace sb
