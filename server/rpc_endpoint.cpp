// RpcEndpoint (server/rpc_endpoint.h). A request's decode → dispatch → encode runs within one
// handler on one pool thread, with that thread's Worker (adapters and encoders are not
// thread-safe).
#include "server/rpc_endpoint.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "codecs/service_contract.h"
#include "codecs/wsdl.h"
#include "harness/corpus.h"
#include "harness/encoders.h"
#include "listener/request_rules.h"
#include "parsers/registry.h"

namespace sb::server_detail {

using Clock = std::chrono::steady_clock;

// What one pool thread reuses for every request it serves.
struct Worker {
  std::map<std::string, std::unique_ptr<Adapter>, std::less<>> adapters;  // by name, made lazily
  std::unique_ptr<Encoder> encoder;  // config.encoder, made on first use
  std::unique_ptr<Encoder> direct;   // "direct", for families config.encoder does not write
  MessageBuffer buffer;              // the request body, padded (storage reused)
  rpc::Message call;                 // the decoded request (storage reused)

  // The adapter named `name`, or nullptr when no such adapter is compiled in.
  Adapter* adapter(std::string_view name) {
    auto it = adapters.find(name);
    if (it != adapters.end()) return it->second.get();
    std::unique_ptr<Adapter> a = make_adapter(name);
    if (!a) return nullptr;
    return adapters.emplace(std::string(name), std::move(a)).first->second.get();
  }
};

// One RPC request in progress: what rpc()'s steps share.
struct Exchange {
  Worker& worker;                                   // the serving thread's state
  const Request& req;                               // the request
  Response& res;                                    // the response being built
  rpc::Protocol protocol = rpc::Protocol::jsonrpc;  // what the body is read as
  bool json = true;                                 // protocol is JSON-RPC
  rpc::JsonRpcId id{};                              // JSON-RPC: the id to echo
  ServerTiming timing{};                            // phases, the answer's family, the parser
  Outcome outcome{};                                // what the session does beyond writing res
};

namespace {

thread_local Worker* t_worker = nullptr;  // the Worker of the pool thread running this code

std::int64_t ns_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(b - a).count();
}

// "http://host:port" or "https://…", an IPv6 host in brackets.
std::string url_of(bool tls, const net::ip::address& a, std::uint16_t port) {
  const std::string host = a.is_v6() ? "[" + a.to_string() + "]" : a.to_string();
  return std::string(tls ? "https" : "http") + "://" + host + ":" + std::to_string(port);
}

// A plain-text answer (not found, method not allowed, an unencodable response).
void plain(Response& res, http::status status, std::string_view text) {
  res.result(status);
  res.set(http::field::content_type, "text/plain; charset=utf-8");
  res.body().owned.assign(text).append("\n");
}

std::string_view content_type_of(rpc::Family f) {
  switch (f) {
    case rpc::Family::soap12_doc_literal:
      return "application/soap+xml; charset=utf-8";
    case rpc::Family::jsonrpc:
      return "application/json";
    default:
      return "text/xml; charset=utf-8";
  }
}

// HTTP status of an RPC answer: faults are 200 in XML-RPC and JSON-RPC, 500 in SOAP 1.1, and in
// SOAP 1.2 400 for Sender faults (the client's: -32700..-32600) else 500 (Receiver).
http::status status_of(const rpc::Message& m, rpc::Family f) {
  if (m.kind != rpc::MessageKind::fault || !rpc::is_soap(f)) return http::status::ok;
  if (f == rpc::Family::soap12_doc_literal && m.fault_code >= rpc::fault::parse_error &&
      m.fault_code <= rpc::fault::invalid_request) {
    return http::status::bad_request;
  }
  return http::status::internal_server_error;
}

// The fault message docs/service.md gives each code ("parse error: …", "invalid params: …").
std::string fault_text(int code, std::string detail) {
  std::string_view prefix;
  switch (code) {
    case rpc::fault::parse_error:
      prefix = "parse error: ";
      break;
    case rpc::fault::invalid_request:
      prefix = "invalid request: ";
      break;
    case rpc::fault::invalid_params:
      prefix = "invalid params: ";
      break;
    case rpc::fault::internal_error:
      prefix = "internal error: ";
      break;
    default:
      return detail;
  }
  if (std::string_view(detail).starts_with(prefix)) return detail;
  return std::string(prefix) + detail;
}

// SOAP 1.2 when the media type is application/soap+xml, else SOAP 1.1.
bool is_soap12(std::string_view content_type) {
  std::string_view media = content_type.substr(0, content_type.find(';'));
  while (!media.empty() && (media.back() == ' ' || media.back() == '\t')) media.remove_suffix(1);
  return beast::iequals(media, "application/soap+xml");
}

// m in family f into `out` (replaced) by `enc`; a JSON-RPC message echoes `id` as the request
// wrote it. False with `error` set when m cannot be written.
bool encode_with_id(Encoder& enc, const rpc::Message& m, rpc::Family f, const rpc::JsonRpcId& id,
                    std::string& out, std::string& error) {
  rpc::JsonRpcOptions options;
  const bool splice = f == rpc::Family::jsonrpc && !id.number;  // written as "id":0, replaced
  options.id = id.number.value_or(0);
  if (!enc.encode(m, f, out, error, options)) return false;
  if (splice) {  // a string, fractional or null id: the encoder wrote "id":0 last
    constexpr std::string_view kPlaceholder = "\"id\":0}";
    if (std::string_view(out).ends_with(kPlaceholder)) {
      out.resize(out.size() - 2);
      out.append(id.raw).push_back('}');
    }
  }
  return true;
}

// The stored document of family f, or nullptr when there is none.
const std::string* stored(const std::array<std::string, 6>& docs, rpc::Family f) {
  const std::string& doc = docs[static_cast<std::size_t>(f)];
  return doc.empty() ? nullptr : &doc;
}

}  // namespace

// ------------------------------------------------------------------ setup

RpcEndpoint::RpcEndpoint(const ServerConfig& config) : config_(config) {}

RpcEndpoint::~RpcEndpoint() = default;

void RpcEndpoint::check_config() const {
  for (const auto& [name, format] :
       {std::pair{config_.parser, Format::xml}, std::pair{config_.json_parser, Format::json}}) {
    const AdapterEntry* e = find_adapter(name);
    if (e == nullptr) throw std::runtime_error("no adapter named '" + name + "'");
    if (e->info().format != format) {
      throw std::runtime_error("adapter '" + name + "' does not read " +
                               (format == Format::xml ? "XML" : "JSON"));
    }
  }
  if (find_encoder(config_.encoder) == nullptr) {
    throw std::runtime_error("no encoder named '" + config_.encoder + "'");
  }
}

void RpcEndpoint::load_chain() {
  const std::filesystem::path dir =
      config_.corpus_dir.empty() ? default_corpus_dir() : config_.corpus_dir;
  std::string missing;
  for (rpc::Family f : rpc::kAllFamilies) {
    const std::filesystem::path fdir = dir / std::string(rpc::family_name(f));
    std::error_code ec;
    std::filesystem::path file;
    for (std::filesystem::directory_iterator it(fdir, ec), end; !ec && it != end;
         it.increment(ec)) {
      if (it->path().filename().string().starts_with("getChain.response.")) file = it->path();
    }
    std::string& doc = chain_[static_cast<std::size_t>(f)];
    if (!file.empty()) {
      try {
        doc = read_message_file(file);
      } catch (const std::exception&) {
        doc.clear();
      }
    }
    if (f == rpc::Family::jsonrpc && !doc.empty()) {
      const auto result = rpc::json_top_level_member(doc, "result");
      if (result) {
        chain_json_result_ = *result;
      } else {
        doc.clear();
      }
    }
    if (doc.empty()) missing += (missing.empty() ? "" : ", ") + std::string(rpc::family_name(f));
  }
  if (!missing.empty()) {
    std::fprintf(stderr,
                 "soapbench: serve: no getChain document for %s under %s; getChain answers "
                 "fault -32603\n",
                 missing.c_str(), dir.string().c_str());
  }
}

void RpcEndpoint::serve_at(const net::ip::address& address, std::uint16_t port) {
  port_ = port;
  bound_any_ = address.is_unspecified();
  base_url_ = url_of(config_.tls, address, port);
  wsdl_ = rpc::generate_wsdl(rpc::service_contract(), base_url_);
}

void RpcEndpoint::on_request(std::function<void(const ServerTiming&)> callback) {
  callback_ = std::move(callback);
}

void RpcEndpoint::make_workers(unsigned n) {
  workers_.clear();
  for (unsigned i = 0; i < n; ++i) workers_.push_back(std::make_unique<Worker>());
}

void RpcEndpoint::enter_thread(unsigned i) {
  t_worker = workers_[i].get();
  t_worker->encoder = make_encoder(config_.encoder);
  t_worker->direct = make_encoder("direct");
  t_worker->adapter(config_.parser);
  t_worker->adapter(config_.json_parser);
}

void RpcEndpoint::leave_thread() { t_worker = nullptr; }

// ------------------------------------------------------------------ routing

Outcome RpcEndpoint::handle(const Request& req, Response& res,
                            const net::ip::tcp::endpoint& local) {
  res.version(req.version());
  res.keep_alive(req.keep_alive());
  const std::string_view target = listener::origin_target(req.target());  // absolute-form: its path
  const std::size_t q = target.find('?');
  const std::string_view path = target.substr(0, q);
  const std::string_view query =
      q == std::string_view::npos ? std::string_view() : target.substr(q + 1);
  std::optional<Route> route;
  if (path == "/RPC2") route = Route::xmlrpc;
  if (path == "/soap") route = Route::soap;
  if (path == "/jsonrpc") route = Route::jsonrpc;
  if (!route) {
    plain(res, http::status::not_found, "not found (POST /RPC2, /soap, /jsonrpc; GET /soap?wsdl)");
    return {};
  }
  if (req.method() == http::verb::post) return rpc(*route, req, res);
  const bool get = req.method() == http::verb::get || req.method() == http::verb::head;
  if (*route == Route::soap && get && beast::iequals(query, "wsdl")) {
    wsdl(res, local);
    return {};
  }
  if (const std::string_view xsd = rpc::served_schema(query);  // what the WSDL imports
      *route == Route::soap && get && !xsd.empty()) {
    res.result(http::status::ok);
    res.set(http::field::content_type, "text/xml; charset=utf-8");
    res.body().middle = xsd;
    return {};
  }
  plain(res, http::status::method_not_allowed, "method not allowed");
  res.set(http::field::allow, *route == Route::soap ? "POST, GET" : "POST");
  return {};
}

void RpcEndpoint::wsdl(Response& res, const net::ip::tcp::endpoint& local) const {
  res.result(http::status::ok);
  res.set(http::field::content_type, "text/xml; charset=utf-8");
  if (!bound_any_) {
    res.body().middle = wsdl_;
    return;
  }
  res.body().owned =
      rpc::generate_wsdl(rpc::service_contract(), url_of(config_.tls, local.address(), port_));
}

// ------------------------------------------------------------------ RPC

Outcome RpcEndpoint::rpc(Route route, const Request& req, Response& res) {
  Exchange x{.worker = *t_worker, .req = req, .res = res};
  classify(route, x);
  Adapter* adapter = x.worker.adapter(x.timing.parser);
  if (adapter == nullptr || adapter->info().format != (x.json ? Format::json : Format::xml)) {
    refuse_parser(x, adapter == nullptr);
  } else {
    try {
      answer(x, *adapter);
    } catch (const std::exception& e) {  // bad_alloc from a huge request or response, say
      res.body().clear();
      encode_reply(
          x.worker,
          make_fault(rpc::fault::internal_error, std::string("internal error: ") + e.what()),
          x.timing.family, x.id, res);
    }
  }
  finish(x);
  return x.outcome;
}

void RpcEndpoint::classify(Route route, Exchange& x) const {
  x.protocol = rpc::Protocol::jsonrpc;
  x.timing.family = rpc::Family::jsonrpc;  // answers before the request's family is known
  if (route == Route::xmlrpc) {
    x.protocol = rpc::Protocol::xmlrpc;
    x.timing.family = rpc::Family::xmlrpc;
  } else if (route == Route::soap) {
    const bool soap12 = is_soap12(x.req[http::field::content_type]);
    x.protocol = soap12 ? rpc::Protocol::soap12 : rpc::Protocol::soap11;
    x.timing.family = soap12 ? rpc::Family::soap12_doc_literal : rpc::Family::soap11_doc_literal;
  }
  x.json = x.protocol == rpc::Protocol::jsonrpc;
  const auto x_parser = x.req.find("X-Parser");
  x.timing.parser = x_parser != x.req.end() ? std::string(x_parser->value())
                                            : (x.json ? config_.json_parser : config_.parser);
}

void RpcEndpoint::refuse_parser(Exchange& x, bool missing) const {
  const std::string& parser = x.timing.parser;
  const std::string why = missing ? "no parser named '" + parser + "' (X-Parser)"
                                  : "parser '" + parser + "' does not read " +
                                        (x.json ? "JSON" : "XML") + " (X-Parser)";
  reply(x, make_fault(rpc::fault::invalid_request, "invalid request: " + why));
  x.res.result(http::status::bad_request);
}

void RpcEndpoint::answer(Exchange& x, Adapter& adapter) {
  if (x.json && rpc::json_is_array(x.req.body())) return answer_batch(x, adapter);
  const std::optional<rpc::Message> fault = decode(x, adapter);
  // JSON-RPC notifications (no id) get no answer, errors included, unless the id could not
  // be read at all (parse error, invalid request).
  const bool notification = x.json && !x.id.present &&
                            !(fault && (fault->fault_code == rpc::fault::parse_error ||
                                        fault->fault_code == rpc::fault::invalid_request));
  if (fault) {
    reply(x, *fault);
  } else if (x.worker.call.method == "getChain" && x.worker.call.params.empty() &&
             stored(chain_, x.timing.family) != nullptr) {
    pass_chain(x);
  } else {
    dispatch(x);
  }
  if (notification) {
    x.res.result(http::status::no_content);
    x.res.erase(http::field::content_type);
    x.res.body().clear();
  }
}

void RpcEndpoint::answer_batch(Exchange& x, Adapter& adapter) {
  const std::optional<std::vector<std::string_view>> members = rpc::json_array_items(x.req.body());
  const std::size_t most = Limits{}.max_members;
  std::optional<rpc::Message> whole;  // the one answer to the batch as a whole
  if (!members) {
    whole = make_fault(rpc::fault::parse_error, "parse error: the batch is not well-formed JSON");
  } else if (members->empty()) {
    whole = make_fault(rpc::fault::invalid_request, "invalid request: an empty batch");
  } else if (members->size() > most) {
    whole =
        make_fault(rpc::fault::invalid_request,
                   "invalid request: more than " + std::to_string(most) + " messages in one batch");
  } else {
    whole = answer_members(x, adapter, *members);
  }
  if (!whole) return;
  x.id = {};  // null: the batch has no id of its own
  x.res.body().clear();
  reply(x, *whole);
}

std::optional<rpc::Message> RpcEndpoint::answer_members(
    Exchange& x, Adapter& adapter, const std::vector<std::string_view>& members) {
  std::string& answers = x.res.body().owned;
  answers.assign("[");
  std::string one;
  std::optional<rpc::Message> fault;
  for (const std::string_view member : members) {
    if (!answer_member(x, adapter, member, one, fault)) {
      if (fault) return fault;
      continue;  // a notification
    }
    if (answers.size() > 1) answers.push_back(',');
    answers += one;
  }
  x.res.body().middle = {};
  x.res.body().tail = {};
  if (answers.size() == 1) {  // notifications only: nothing to answer (JSON-RPC 2.0 §6)
    x.res.result(http::status::no_content);
    x.res.erase(http::field::content_type);
    answers.clear();
    return std::nullopt;
  }
  answers.push_back(']');
  x.res.result(http::status::ok);
  x.res.set(http::field::content_type, content_type_of(rpc::Family::jsonrpc));
  return std::nullopt;
}

bool RpcEndpoint::answer_member(Exchange& x, Adapter& adapter, std::string_view member,
                                std::string& out, std::optional<rpc::Message>& fault) {
  Clock::time_point t = Clock::now();
  x.worker.buffer.assign(member);
  rpc::DecodeContext context;
  context.protocol = rpc::Protocol::jsonrpc;
  DecodeReport report;
  const Status status = adapter.decode(x.worker.buffer, context, x.worker.call, report);
  const Clock::time_point decoded = Clock::now();
  x.timing.decode_ns += ns_between(t, decoded);
  std::optional<rpc::Message> answer;
  if (!status.ok()) {
    const int code = report.fault_code != 0 ? report.fault_code : rpc::fault::parse_error;
    answer = make_fault(code,
                        fault_text(code, status.code() == StatusCode::invalid ? status.reason()
                                                                              : status.describe()));
    if (code == rpc::fault::parse_error) {
      fault = std::move(answer);
      return false;
    }
  } else if (x.worker.call.kind != rpc::MessageKind::call) {
    answer = make_fault(rpc::fault::invalid_request, "invalid request: expected a call");
  }
  const rpc::JsonRpcId id = rpc::find_jsonrpc_id(member);
  const bool invalid = answer && answer->fault_code == rpc::fault::invalid_request;
  // As a single request: a notification gets no answer, errors included, unless it is not a
  // request at all (an invalid one is answered with id null).
  if (!id.present && !invalid) {
    if (!answer)
      x.outcome.delay = std::max(x.outcome.delay, service_.dispatch(x.worker.call).delay);
    return false;
  }
  t = Clock::now();
  if (!answer && x.worker.call.method == "getChain" && x.worker.call.params.empty() &&
      !chain_json_result_.empty()) {
    out.assign("{\"jsonrpc\":\"2.0\",\"id\":").append(id.raw).append(",\"result\":");
    out.append(chain_json_result_).push_back('}');
    x.timing.dispatch_ns += ns_between(t, Clock::now());
    return true;
  }
  if (!answer) {
    DispatchResult result = service_.dispatch(x.worker.call);
    x.outcome.delay = std::max(x.outcome.delay, result.delay);  // as if answered side by side
    answer = std::move(result.response);
  }
  const Clock::time_point dispatched = Clock::now();
  x.timing.dispatch_ns += ns_between(t, dispatched);
  std::string error;
  Encoder& enc = *x.worker.encoder;
  Encoder& encoder = enc.entry().supports(rpc::Family::jsonrpc) ? enc : *x.worker.direct;
  if (!encode_with_id(encoder, *answer, rpc::Family::jsonrpc, id, out, error)) {
    const rpc::Message cannot = make_fault(rpc::fault::internal_error, "internal error: " + error);
    if (!encode_with_id(*x.worker.direct, cannot, rpc::Family::jsonrpc, id, out, error)) {
      out.assign(
             "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32603,\"message\":"
             "\"internal error\"},\"id\":")
          .append(id.raw)
          .push_back('}');
    }
  }
  x.timing.encode_ns += ns_between(dispatched, Clock::now());
  return true;
}

std::optional<rpc::Message> RpcEndpoint::decode(Exchange& x, Adapter& adapter) const {
  const Clock::time_point t0 = Clock::now();
  x.worker.buffer.assign(x.req.body());
  rpc::DecodeContext context;
  context.protocol = x.protocol;
  DecodeReport report;
  const Status status = adapter.decode(x.worker.buffer, context, x.worker.call, report);
  if (x.json && (status.ok() || report.fault_code != rpc::fault::parse_error)) {
    x.id = rpc::find_jsonrpc_id(x.req.body());
  }
  x.timing.decode_ns = ns_between(t0, Clock::now());
  if (!status.ok()) {
    const int code = report.fault_code != 0 ? report.fault_code : rpc::fault::parse_error;
    return make_fault(code,
                      fault_text(code, status.code() == StatusCode::invalid ? status.reason()
                                                                            : status.describe()));
  }
  x.timing.family = report.family;
  if (x.worker.call.kind != rpc::MessageKind::call) {
    return make_fault(rpc::fault::invalid_request, "invalid request: expected a call");
  }
  return std::nullopt;
}

void RpcEndpoint::pass_chain(Exchange& x) const {
  const Clock::time_point t0 = Clock::now();
  const std::string& doc = *stored(chain_, x.timing.family);
  const Clock::time_point t1 = Clock::now();
  x.timing.dispatch_ns = ns_between(t0, t1);
  x.res.result(http::status::ok);
  x.res.set(http::field::content_type, content_type_of(x.timing.family));
  if (x.json) {
    x.res.body()
        .owned.assign("{\"jsonrpc\":\"2.0\",\"id\":")
        .append(x.id.raw)
        .append(",\"result\":");
    x.res.body().middle = chain_json_result_;
    x.res.body().tail = "}";
  } else {
    x.res.body().middle = doc;
  }
  x.timing.encode_ns = ns_between(t1, Clock::now());
}

void RpcEndpoint::dispatch(Exchange& x) const {
  const Clock::time_point t0 = Clock::now();
  DispatchResult result = service_.dispatch(x.worker.call);
  x.timing.dispatch_ns = ns_between(t0, Clock::now());
  reply(x, result.response);
  x.outcome.delay = result.delay;
}

void RpcEndpoint::reply(Exchange& x, const rpc::Message& m) const {
  const Clock::time_point t0 = Clock::now();
  encode_reply(x.worker, m, x.timing.family, x.id, x.res);
  x.timing.encode_ns = ns_between(t0, Clock::now());
}

void RpcEndpoint::finish(Exchange& x) const {
  if (callback_) callback_(x.timing);
  if (!config_.server_timing) return;
  char header[160];
  std::snprintf(header, sizeof header, "decode;dur=%.6f, dispatch;dur=%.6f, encode;dur=%.6f",
                static_cast<double>(x.timing.decode_ns) / 1e6,
                static_cast<double>(x.timing.dispatch_ns) / 1e6,
                static_cast<double>(x.timing.encode_ns) / 1e6);
  x.res.set("Server-Timing", header);
}

void RpcEndpoint::encode_reply(Worker& w, const rpc::Message& m, rpc::Family f,
                               const rpc::JsonRpcId& id, Response& res) const {
  Encoder* enc = w.encoder->entry().supports(f) ? w.encoder.get() : w.direct.get();
  std::string& out = res.body().owned;
  std::string error;
  const rpc::Message* sent = &m;
  rpc::Message fallback;
  if (!encode_with_id(*enc, m, f, id, out, error)) {
    // The response cannot be written (NaN, malformed UTF-8 from the request, …): say so instead.
    fallback = make_fault(rpc::fault::internal_error, "internal error: " + error);
    if (!encode_with_id(*w.direct, fallback, f, id, out, error)) {
      return plain(res, http::status::internal_server_error,
                   "cannot encode the response: " + error);
    }
    sent = &fallback;
  }
  res.result(status_of(*sent, f));
  res.set(http::field::content_type, content_type_of(f));
}

}  // namespace sb::server_detail
