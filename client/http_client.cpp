#include "client/http_client.h"

#include <openssl/ssl.h>
#include <poll.h>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <optional>
#include <utility>

#include "client/http_request.h"
#include "client/jsonrpc_batch.h"
#include "client/tls_client.h"
#include "client/wire_meter.h"
#include "harness/encoders.h"
#include "parsers/registry.h"

namespace sb {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
namespace http = boost::beast::http;
using asio::ip::tcp;
using boost::system::error_code;
using Clock = std::chrono::steady_clock;

namespace {

// The longest a per-call connection waits for the server to close after its response. The wait
// is outside every timed phase; it only makes the close bytes (TLS close_notify) land in the call.
constexpr std::chrono::milliseconds kMaxCloseWait{2'000};

std::int64_t ns_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(b - a).count();
}

// Whatever a server put in an error body, as part of a one-line message.
std::string one_line(std::string_view s, std::size_t max = 200) {
  std::string out(s.substr(0, max));
  for (char& c : out) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  if (s.size() > max) out += "...";
  return out;
}

}  // namespace

class RpcClient::Impl {
 public:
  explicit Impl(ClientConfig config) : config_(std::move(config)) { setup(); }

  ~Impl() {
    close();
    if (session_ != nullptr) SSL_SESSION_free(session_);
  }

  // Runs `step` (call_into or batch_into) after the setup check; exceptions become errors.
  template <class Step>
  CallResult guarded(Step&& step) {
    CallResult r;
    if (!setup_error_.empty()) {
      r.error = setup_error_;
      return r;
    }
    try {
      step(r);
    } catch (const std::exception& e) {
      // Everything reports through error codes; this only keeps e.g. bad_alloc inside call().
      fail(r, std::string("call: ") + e.what());
    }
    return r;
  }

  CallResult call(const rpc::Message& request) {
    return guarded([&](CallResult& r) { call_into(request, r); });
  }

  CallResult call_batch(const std::vector<BatchMember>& members) {
    return guarded([&](CallResult& r) { batch_into(members, r); });
  }

  // Drops the connection without a TLS close_notify (see close_quietly).
  void close() { close_quietly(); }

 private:
  // Validates the configuration once; call() reports a setup error on every call.
  void setup() {
    std::optional<Url> url = parse_url(config_.url, setup_error_);
    if (!url) {
      setup_error_ = config_.url + ": " + setup_error_;
      return;
    }
    url_ = std::move(*url);
    const rpc::Family f = config_.family;
    encoder_ = make_encoder(config_.encoder);
    if (!encoder_) {
      setup_error_ = "no encoder named '" + config_.encoder + "'";
      return;
    }
    if (!encoder_->entry().supports(f)) {
      setup_error_ =
          "encoder " + config_.encoder + " does not write " + std::string(rpc::family_name(f));
      return;
    }
    // parser decodes every family it can; a JSON-RPC client given an XML adapter (the default)
    // falls back to json_parser, as the server's parser / json_parser pair does.
    std::string parser = config_.parser;
    const AdapterEntry* entry = find_adapter(parser);
    const Format want = rpc::is_xml(f) ? Format::xml : Format::json;
    if (entry != nullptr && entry->info().format != want && want == Format::json) {
      parser = config_.json_parser;
      entry = find_adapter(parser);
    }
    if (entry == nullptr) {
      setup_error_ = "no adapter named '" + parser + "' (see soapbench list)";
      return;
    }
    if (entry->info().format != want) {
      setup_error_ = "adapter " + parser + " cannot decode " + std::string(rpc::family_name(f));
      return;
    }
    adapter_ = entry->make(Limits{});
    if (url_.tls) {
      ssl_ctx_.emplace(ssl::context::tls_client);
      configure_tls_client(*ssl_ctx_, config_.verify_peer);
    }
  }

  // Runs one asynchronous operation to completion, or until `timeout`: then the connection is
  // closed and the result is timed_out. Synchronous Asio calls cannot time out (they poll
  // forever once the socket would block), hence async operations driven on the calling thread.
  template <class Start>
  error_code run(std::chrono::milliseconds timeout, Start&& start) {
    error_code result = asio::error::would_block;
    start([&result](error_code ec, auto&&...) { result = ec; });
    ioc_.restart();
    ioc_.run_for(timeout);
    if (result == asio::error::would_block) {
      // Close the descriptor only: the pending operation still refers to the stream objects,
      // which may go only after its handler has run.
      error_code ignored;
      if (is_open()) socket().close(ignored);
      ioc_.restart();
      ioc_.run();
      close_quietly();
      return asio::error::timed_out;
    }
    return result;
  }
  template <class Start>
  error_code run(Start&& start) {
    return run(config_.io_timeout, std::forward<Start>(start));
  }

  bool is_open() const {
    return url_.tls ? tls_.has_value() && tls_->next_layer().is_open()
                    : plain_.has_value() && plain_->is_open();
  }
  tcp::socket& socket() { return url_.tls ? tls_->next_layer() : *plain_; }
  int fd() { return socket().native_handle(); }

  // Closes without sending a TLS close_notify: every byte on a connection then belongs to a call
  // (a trailing alert would race the server's own close, could draw a reset and would make
  // socket counts and a proxy's disagree). The session is marked as cleanly shut down so OpenSSL
  // keeps it resumable (it poisons sessions of connections freed mid-stream).
  void close_quietly() {
    error_code ec;
    if (tls_) {
      SSL* ssl = tls_->native_handle();
      SSL_set_shutdown(ssl, SSL_get_shutdown(ssl) | SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
      tls_->next_layer().close(ec);
      tls_.reset();
    }
    if (plain_) {
      plain_->close(ec);
      plain_.reset();
    }
    buffer_.clear();
  }

  void fail(CallResult& r, std::string error) {
    close_quietly();
    r.ok = false;
    r.error = std::move(error);
  }

  // A kept-alive connection the server has closed (or written to unasked) is readable: drop it
  // instead of sending a request into it.
  bool stale() {
    pollfd p{fd(), POLLIN, 0};
    return ::poll(&p, 1, 0) != 0;
  }

  bool connect(CallResult& r) {
    if (endpoints_.empty()) {
      tcp::resolver resolver(ioc_);
      error_code ec;
      auto results = resolver.resolve(url_.host, url_.port, ec);
      if (ec) {
        fail(r, "resolve " + url_.host + ": " + ec.message());
        return false;
      }
      for (const auto& e : results) endpoints_.push_back(e.endpoint());
    }
    if (url_.tls) {
      tls_.emplace(ioc_, *ssl_ctx_);
    } else {
      plain_.emplace(ioc_);
    }
    error_code ec = run([&](auto h) { asio::async_connect(socket(), endpoints_, h); });
    if (ec) {
      fail(r, "connect " + url_.authority + ": " + ec.message());
      return false;
    }
    socket().set_option(tcp::no_delay(true), ec);
    // Baseline before any payload: the handshake belongs to this call, and a SYN the kernel
    // counts as an acknowledged byte is absorbed.
    meter_.start(fd());
    r.connected = true;
    if (!url_.tls) return true;
    SSL* ssl = tls_->native_handle();
    prepare_tls_client(ssl, url_.host, config_.verify_peer);
    if (config_.tls_resume && session_ != nullptr) SSL_set_session(ssl, session_);
    ec = run([&](auto h) { tls_->async_handshake(ssl::stream_base::client, h); });
    if (ec) {
      fail(r, "TLS handshake with " + url_.authority + ": " + ec.message());
      return false;
    }
    r.tls_resumed = SSL_session_reused(ssl) == 1;
    return true;
  }

  // After the first response on a TLS connection: keep its session for the next connection.
  // TLS 1.3 tickets arrive after the handshake (the server sends them before our response, and
  // reading the response processed them), so only now is the session resumable.
  void save_session() {
    SSL_SESSION* s = SSL_get1_session(tls_->native_handle());
    if (s == nullptr) return;
    if (SSL_SESSION_is_resumable(s) != 1) {
      SSL_SESSION_free(s);
      return;
    }
    if (session_ != nullptr) SSL_SESSION_free(session_);
    session_ = s;
  }

  // A connection the call ends (no keep-alive, or the server said close): wait for the server's
  // close (TLS close_notify or TCP FIN) so its bytes are in this call, then close.
  void finish_connection() {
    const auto wait = std::min(kMaxCloseWait, config_.io_timeout);
    const Clock::time_point deadline = Clock::now() + wait;
    for (int reads = 0; reads < 64 && is_open(); ++reads) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) break;
      error_code ec =
          url_.tls ? run(left, [&](auto h) { tls_->async_read_some(asio::buffer(scratch_), h); })
                   : run(left, [&](auto h) { plain_->async_read_some(asio::buffer(scratch_), h); });
      if (ec) break;  // eof, close_notify, truncation or the wait's end: all mean done
    }
  }

  // The SOAPAction of a call: what the user's WSDL says for the operation, else ours.
  std::string action_of(const std::string& method) const {
    if (config_.contract == nullptr) return soap_action(method);
    const rpc::Operation* op = config_.contract->find(method);
    return op != nullptr ? std::string(op->soap_action) : std::string();
  }

  void build_head(std::size_t body_size) {
    head_.clear();
    append_request_head(head_, {config_.family, url_.target(config_.family), url_.authority,
                                action_, config_.server_parser, config_.keep_alive, body_size});
  }

  void call_into(const rpc::Message& request, CallResult& r) {
    // The byte counters' baseline is measurement, not the call: read before the clock starts
    // (two getsockopt calls; inside, they counted as transport). A new connection takes its own.
    if (is_open()) meter_.start(fd());
    const Clock::time_point t0 = Clock::now();
    std::string error;
    rpc::JsonRpcOptions json;
    json.id = next_id_++;
    const rpc::Contract& contract =
        config_.contract != nullptr ? *config_.contract : rpc::service_contract();
    if (!encoder_->encode(request, config_.family, body_, error, json, contract)) {
      r.error = "encode: " + error;
      return;
    }
    if (config_.rewrite_body) config_.rewrite_body(body_);
    const Clock::time_point t1 = Clock::now();
    // SOAPAction / action: the operation's namespace + '#' + name, exactly as the WSDL says.
    if (rpc::is_soap(config_.family)) action_ = action_of(request.method);
    if (!send_and_read(r)) return;

    const auto& response = parser_->get();
    message_.assign(response.body());
    const Clock::time_point t2 = Clock::now();
    rpc::DecodeContext context;
    context.protocol = rpc::protocol_of(config_.family);
    context.method = request.method;
    context.contract = config_.contract;
    DecodeReport report;
    const Status status = adapter_->decode(message_, context, r.response, report);
    const Clock::time_point t3 = Clock::now();
    r.timing = {ns_between(t0, t1), ns_between(t0, t3), ns_between(t2, t3)};
    end_exchange(r);

    if (!status.ok()) {
      r.ok = false;
      if (r.http_status != 200) {
        r.error = "HTTP " + std::to_string(r.http_status) + " " + std::string(response.reason()) +
                  ": " + one_line(response.body());
      } else {
        r.error = "decode (" + adapter_->info().name + "): " + one_line(status.describe(), 300);
      }
      return;
    }
    if (r.response.kind == rpc::MessageKind::call) {
      r.ok = false;
      r.error = "the server answered with a call";
      return;
    }
    if (r.http_status != 200 && r.response.kind != rpc::MessageKind::fault) {
      r.ok = false;
      r.error = "HTTP " + std::to_string(r.http_status) + " " + std::string(response.reason()) +
                " with a non-fault body";
      return;
    }
    r.ok = true;
  }

  void batch_into(const std::vector<BatchMember>& members, CallResult& r) {
    if (config_.family != rpc::Family::jsonrpc) {
      r.error = "a batch is a JSON-RPC 2.0 request (--protocol jsonrpc)";
      return;
    }
    if (members.empty()) {
      r.error = "an empty batch (JSON-RPC 2.0 refuses one)";
      return;
    }
    if (is_open()) meter_.start(fd());
    const Clock::time_point t0 = Clock::now();
    const std::int64_t first_id = next_id_;
    next_id_ += static_cast<std::int64_t>(members.size());
    std::string error;
    if (!encode_batch(*encoder_, members, first_id, body_, error)) {
      r.error = "encode: " + error;
      return;
    }
    if (config_.rewrite_body) config_.rewrite_body(body_);
    const Clock::time_point t1 = Clock::now();
    if (!send_and_read(r)) return;

    const auto& response = parser_->get();
    const Clock::time_point t2 = Clock::now();
    const std::string why = decode_batch_answer(*adapter_, response.body(), members, first_id,
                                                config_.contract, r.response);
    const Clock::time_point t3 = Clock::now();
    r.timing = {ns_between(t0, t1), ns_between(t0, t3), ns_between(t2, t3)};
    end_exchange(r);
    const bool expected_status =
        r.http_status == 200 || (r.http_status == 204 && why.empty() && r.response.batch.empty());
    if (!why.empty() || !expected_status) {
      r.ok = false;
      r.error = "HTTP " + std::to_string(r.http_status) + " " + std::string(response.reason()) +
                ": " + (why.empty() ? one_line(response.body()) : one_line(why, 300));
      return;
    }
    r.ok = true;
  }

  // Writes head_ and body_ on the connection (made first when there is none) and reads the
  // response into parser_: r's status and Server-Timing set; false (r failed) on a transport error.
  bool send_and_read(CallResult& r) {
    build_head(body_.size());
    if (is_open() && stale()) close_quietly();
    if (!is_open() && !connect(r)) return false;

    // Header and body in one write: one gathered sendmsg on TCP; one buffer (so one TLS record
    // for small messages) on TLS, where Asio would write each buffer of a sequence separately.
    error_code ec;
    if (url_.tls) {
      head_ += body_;
      ec = run([&](auto h) { asio::async_write(*tls_, asio::buffer(head_), h); });
    } else {
      const std::array<asio::const_buffer, 2> buffers{asio::buffer(head_), asio::buffer(body_)};
      ec = run([&](auto h) { asio::async_write(*plain_, buffers, h); });
    }
    if (ec) {
      fail(r, "write request: " + ec.message());
      return false;
    }

    parser_.emplace();
    parser_->body_limit(config_.max_response_bytes);
    ec = url_.tls ? run([&](auto h) { http::async_read(*tls_, buffer_, *parser_, h); })
                  : run([&](auto h) { http::async_read(*plain_, buffer_, *parser_, h); });
    if (ec) {
      fail(r, "read response: " + ec.message());
      return false;
    }
    const auto& response = parser_->get();
    r.http_status = static_cast<int>(response.result_int());
    if (auto it = response.find("Server-Timing"); it != response.end()) {
      r.server_timing = std::string(it->value());
    }
    // Bytes after the response on a request/response connection are a protocol error: the
    // connection is not reused.
    reusable_ = config_.keep_alive && response.keep_alive() && buffer_.size() == 0;
    // A body the server's close delimits (no Content-Length, not chunked: HTTP/1.0 servers such
    // as Axis's SimpleAxisServer) ended at that close, already read: nothing is left to wait for
    // (a second read would wait for an event the close already gave, kMaxCloseWait long).
    closed_by_server_ = !parser_->chunked() && !parser_->content_length();
    return true;
  }

  // After the response is decoded: the TLS session kept, the call's wire bytes counted, and a
  // connection that cannot be reused closed (after the server's close, when it sends one).
  void end_exchange(CallResult& r) {
    if (url_.tls && r.connected && config_.tls_resume) save_session();
    SocketBytes bytes = meter_.delta(fd());
    if (!reusable_) {
      if (!closed_by_server_) finish_connection();
      // Still open unless the server never closed (the wait timed out): keep the earlier count.
      if (is_open()) bytes = meter_.delta(fd());
      close_quietly();
    }
    r.wire = {bytes.sent, bytes.received};
  }

  ClientConfig config_;                          // as given
  std::string setup_error_;                      // configuration problem, reported by every call
  Url url_;                                      // parsed config_.url
  std::unique_ptr<Encoder> encoder_;             // writes request bodies
  std::unique_ptr<Adapter> adapter_;             // decodes response bodies
  asio::io_context ioc_{1};                      // driven by the calling thread only
  std::optional<ssl::context> ssl_ctx_;          // https only
  std::optional<tcp::socket> plain_;             // http connection, when open
  std::optional<ssl::stream<tcp::socket>> tls_;  // https connection, when open
  SSL_SESSION* session_ = nullptr;               // last resumable TLS session (owned reference)
  std::vector<tcp::endpoint> endpoints_;         // resolved once
  WireMeter meter_;                              // per-call socket byte counts
  std::int64_t next_id_ = 1;                     // JSON-RPC request id
  std::string action_;                           // SOAPAction / SOAP 1.2 action of this call
  bool reusable_ = false;             // the last response leaves the connection fit for another
  bool closed_by_server_ = false;     // the last response's body ended at the server's close
  std::string body_;                  // request body (encoder output)
  std::string head_;                  // request header (TLS: header + body)
  boost::beast::flat_buffer buffer_;  // bytes read past a response header
  std::optional<http::response_parser<http::string_body>> parser_;  // one per response
  MessageBuffer message_;             // padded copy of the body for the adapter
  std::array<char, 4096> scratch_{};  // finish_connection() reads land here
};

RpcClient::RpcClient(ClientConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {}
RpcClient::~RpcClient() = default;
CallResult RpcClient::call(const rpc::Message& request) { return impl_->call(request); }
CallResult RpcClient::call_batch(const std::vector<BatchMember>& members) {
  return impl_->call_batch(members);
}
void RpcClient::close() { impl_->close(); }

}  // namespace sb
