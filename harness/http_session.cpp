// The connections of RpcServer (harness/http_session.h), modelled on Beast's http_server_fast and
// advanced_server_flex examples: one owning Session object per connection (its own strand,
// preallocated buffers, a deadline on every read and write), keep-alive, each response's header
// and body sent by one gathered write.
//
// A request's life, one async chain: [TLS handshake] → idle wait for the first byte (keep-alive
// only) → header (header_timeout) → size check (413 before any body byte is read) → body
// (request_deadline) → process (RpcEndpoint::handle: decode, dispatch, encode) → [respond's delay,
// on a timer] → write (request_deadline) → next request or close. Only broken HTTP or limits end
// a connection; everything inside an RPC is answered in the request's protocol.
#include "harness/http_session.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

namespace sb::server_detail {

namespace {

constexpr std::size_t kHeaderLimit = 16 * 1024;     // request line + fields; beyond: 431
constexpr std::size_t kReadChunk = 16 * 1024;       // idle wait and lingering-close reads
constexpr std::size_t kBufferLimit = 1024 * 1024;   // flat_buffer ceiling (header + one read)
constexpr std::size_t kKeepCapacity = 1024 * 1024;  // body storage kept across requests
constexpr auto kLinger = std::chrono::seconds(2);   // draining a client after a closing response

// The TCP layer of every session, on its connection's strand.
using TcpStream = beast::basic_stream<tcp, SessionExecutor>;

}  // namespace

// The part of a session the registry needs without knowing the stream type.
class SessionBase : public std::enable_shared_from_this<SessionBase> {
 public:
  // counted: the session counts against max_connections (a 503 rejection does not).
  SessionBase(SessionRegistry& registry, bool counted) : registry_(registry), counted_(counted) {}
  virtual ~SessionBase() { registry_.forget(this, counted_); }
  SessionBase(const SessionBase&) = delete;
  SessionBase& operator=(const SessionBase&) = delete;

  // Starts serving (posts onto the session's strand).
  virtual void run() = 0;
  // Closes the connection now; called on the session's strand by close_all().
  virtual void abort() = 0;
  // The session's strand.
  virtual net::any_io_executor executor() = 0;

 protected:
  SessionRegistry& registry_;  // the server's sessions (and through it, config and endpoint)
  bool counted_;               // counts against max_connections (not a 503 rejection)
};

// One connection: owns the stream, its buffers and timers; every step re-arms a deadline.
template <class Stream>
class Session final : public SessionBase {
 public:
  // Whether Stream is the TLS stream.
  static constexpr bool kTls = !std::is_same_v<Stream, TcpStream>;

  // A plain connection.
  Session(SessionRegistry& registry, SessionSocket&& socket, bool reject) requires(!kTls)
      : SessionBase(registry, !reject),
        stream_(std::move(socket)),
        delay_(stream_.get_executor()),
        reject_(reject) {
    init();
  }
  // A TLS connection.
  Session(SessionRegistry& registry, SessionSocket&& socket, ssl::context& ctx,
          bool reject) requires(kTls)
      : SessionBase(registry, !reject),
        stream_(std::move(socket), ctx),
        delay_(stream_.get_executor()),
        reject_(reject) {
    init();
  }

  // Posts start() onto the session's strand.
  void run() override {
    net::dispatch(stream_.get_executor(), beast::bind_front_handler(&Session::start, self()));
  }

  // Closes now; the pending handler sees aborted_ or an error and ends the chain.
  void abort() override {
    aborted_ = true;
    close_now();
  }

  // The session's strand.
  net::any_io_executor executor() override { return stream_.get_executor(); }

 private:
  // A reference that keeps this session alive inside its next handler.
  std::shared_ptr<Session> self() { return std::static_pointer_cast<Session>(shared_from_this()); }
  // The TCP layer: its expiry is the deadline of the current step.
  TcpStream& tcp() { return beast::get_lowest_layer(stream_); }
  // The server's limits and timeouts.
  const ServerConfig& config() const { return registry_.config(); }

  // Preallocates the read buffer and notes the local address.
  void init() {
    buffer_.reserve(kReadChunk);
    beast::error_code ec;
    local_ = tcp().socket().local_endpoint(ec);
  }

  // First step: the TLS handshake (within header_timeout), or straight to begin().
  void start() {
    if constexpr (kTls) {
      tcp().expires_after(config().header_timeout);
      stream_.async_handshake(ssl::stream_base::server,
                              beast::bind_front_handler(&Session::on_handshake, self()));
    } else {
      begin();
    }
  }

  // The handshake finished: serve, or close on failure.
  void on_handshake(beast::error_code ec) {
    if (ec) return close_now();
    begin();
  }

  // Over max_connections: 503 and close; else read the first request.
  void begin() {
    if (reject_) return send_status(http::status::service_unavailable, "too many connections");
    read_header();
  }

  // Keep-alive: wait for the next request's first byte for up to idle_timeout; the header
  // deadline starts once it has arrived.
  void next_request() {
    if (buffer_.size() > 0) return read_header();  // pipelined: already here
    tcp().expires_after(config().idle_timeout);
    stream_.async_read_some(buffer_.prepare(kReadChunk),
                            beast::bind_front_handler(&Session::on_idle, self()));
  }

  // The next request's first bytes arrived (or the connection ended).
  void on_idle(beast::error_code ec, std::size_t n) {
    if (ec) return close_now();  // idle timeout, peer closed, or stop()
    buffer_.commit(n);
    read_header();
  }

  // Reads a request header within header_timeout, into a fresh parser that reuses storage.
  void read_header() {
    parser_.emplace();
    parser_->header_limit(kHeaderLimit);
    parser_->body_limit(config().max_body_bytes);
    parser_->get().body() = std::move(spare_body_);  // reuse the previous body's storage
    tcp().expires_after(config().header_timeout);
    http::async_read_header(stream_, buffer_, *parser_,
                            beast::bind_front_handler(&Session::on_header, self()));
  }

  // Whether ec is the peer's fault at the HTTP level (answered with a status, then closed).
  static bool http_error(const beast::error_code& ec) {
    return &ec.category() == &beast::error_code(http::error::bad_method).category();
  }

  // Limits and malformed headers end the connection with a status; else (100-continue and) body.
  void on_header(beast::error_code ec, std::size_t) {
    if (ec == http::error::body_limit) {  // Content-Length above max_body_bytes: no body read
      return send_status(http::status::payload_too_large, "request body too large");
    }
    if (ec == http::error::header_limit) {
      return send_status(http::status::request_header_fields_too_large, "request header too large");
    }
    if (ec == http::error::end_of_stream || ec == http::error::partial_message) return close_now();
    if (ec && http_error(ec)) return send_status(http::status::bad_request, "malformed request");
    if (ec) return close_now();  // header_timeout, reset, stop()
    const Request& req = parser_->get();
    if (!parser_->is_done() && beast::iequals(req[http::field::expect], "100-continue")) {
      continue_.version(11);
      continue_.result(http::status::continue_);
      tcp().expires_after(config().request_deadline);
      return http::async_write(stream_, continue_,
                               beast::bind_front_handler(&Session::on_continue, self()));
    }
    read_body();
  }

  // "100 Continue" was written: read the body.
  void on_continue(beast::error_code ec, std::size_t) {
    if (ec) return close_now();
    read_body();
  }

  // Reads the body within request_deadline.
  void read_body() {
    tcp().expires_after(config().request_deadline);
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&Session::on_body, self()));
  }

  // The request is complete (or over max_body_bytes, malformed, late): process or refuse.
  void on_body(beast::error_code ec, std::size_t) {
    if (ec == http::error::body_limit) {  // chunked body above max_body_bytes
      return send_status(http::status::payload_too_large, "request body too large");
    }
    if (ec && http_error(ec) && ec != http::error::end_of_stream &&
        ec != http::error::partial_message) {
      return send_status(http::status::bad_request, "malformed request");
    }
    if (ec) return close_now();  // request_deadline, reset, stop()
    process();
  }

  // Builds the response (RpcEndpoint::handle) and writes it, after respond's delay if any.
  void process() {
    tcp().expires_never();
    Request& req = parser_->get();
    res_.clear();  // header fields
    res_.body().clear();
    const Outcome outcome = registry_.endpoint().handle(req, res_, local_);
    closing_ = !res_.keep_alive();
    res_.prepare_payload();
    if (req.method() == http::verb::head) res_.body().clear();  // GET's header, no body
    spare_body_ = std::move(req.body());
    spare_body_.clear();
    if (spare_body_.capacity() > kKeepCapacity) std::string().swap(spare_body_);
    if (outcome.delay.count() > 0) {
      delay_.expires_after(outcome.delay);
      return delay_.async_wait(beast::bind_front_handler(&Session::on_delay, self()));
    }
    write();
  }

  // respond's delay elapsed: write, unless stop() came first.
  void on_delay(beast::error_code ec) {
    if (ec || aborted_) return close_now();
    write();
  }

  // Writes res_ (header and body in one gathered write) within request_deadline.
  void write() {
    tcp().expires_after(config().request_deadline);
    http::async_write(stream_, res_, beast::bind_front_handler(&Session::on_write, self()));
  }

  // Written: release oversized storage, then the next request or a graceful close.
  void on_write(beast::error_code ec, std::size_t) {
    if (res_.body().owned.capacity() > kKeepCapacity) std::string().swap(res_.body().owned);
    res_.body().clear();
    if (ec) return close_now();
    if (closing_) return graceful_close();
    next_request();
  }

  // A plain-text answer that ends the connection (limits, malformed HTTP, 503).
  void send_status(http::status status, std::string_view text) {
    tcp().expires_never();
    res_.clear();
    res_.body().clear();
    res_.version(11);
    res_.result(status);
    res_.set(http::field::content_type, "text/plain; charset=utf-8");
    res_.keep_alive(false);
    res_.body().owned.append(text).append("\n");
    res_.prepare_payload();
    closing_ = true;
    write();
  }

  // After a closing response: TLS close_notify, or TCP half-close and a bounded drain of what
  // the client still sends (so it reads our response instead of a reset); nothing is buffered.
  void graceful_close() {
    tcp().expires_after(kLinger);
    if constexpr (kTls) {
      stream_.async_shutdown(beast::bind_front_handler(&Session::on_shutdown, self()));
    } else {
      beast::error_code ec;
      tcp().socket().shutdown(tcp::socket::shutdown_send, ec);
      if (ec) return close_now();
      buffer_.clear();
      drain();
    }
  }

  // TLS close_notify exchanged (or not): close.
  void on_shutdown(beast::error_code) { close_now(); }

  // Reads and discards what the client still sends, until EOF or kLinger.
  void drain() {
    tcp().async_read_some(buffer_.prepare(kReadChunk),
                          beast::bind_front_handler(&Session::on_drain, self()));
  }

  // One drained read: go on, or close at EOF, deadline or stop().
  void on_drain(beast::error_code ec, std::size_t) {
    if (ec || aborted_) return close_now();  // EOF, kLinger expired, stop()
    drain();
  }

  // Shuts the socket down and closes it; pending handlers end with an error.
  void close_now() {
    delay_.cancel();
    beast::error_code ec;
    tcp().socket().shutdown(tcp::socket::shutdown_both, ec);
    tcp().close();
  }

  Stream stream_;                            // the connection; tcp() holds the deadline
  beast::flat_buffer buffer_{kBufferLimit};  // bytes read, not yet parsed
  std::optional<http::request_parser<http::string_body>> parser_;  // this request's parser
  std::string spare_body_;                     // request body storage between requests
  Response res_;                               // the response; body storage reused
  http::response<http::empty_body> continue_;  // "100 Continue"
  net::steady_timer delay_;                    // respond's delay (never blocks a thread)
  tcp::endpoint local_;                        // our address (WSDL when bound to any)
  bool reject_;                                // over max_connections: 503 and close
  bool closing_ = false;                       // close after the current response
  bool aborted_ = false;                       // stop() closed this session
};

// A plain HTTP connection.
using PlainSession = Session<TcpStream>;
// An HTTPS connection.
using TlsSession = Session<beast::ssl_stream<TcpStream>>;

// ------------------------------------------------------------------ SessionRegistry

void SessionRegistry::reopen() {
  std::lock_guard lock(mutex_);
  stopping_ = false;
}

bool SessionRegistry::admit(SessionSocket socket, ssl::context* tls) {
  // Only the accept strand adds to active_ (sessions only leave), so check-then-add cannot
  // overshoot.
  const bool reject = active_.load() >= config_.max_connections;
  if (!reject) active_.fetch_add(1);
  std::shared_ptr<SessionBase> session;
  if (tls != nullptr) {
    session = std::make_shared<TlsSession>(*this, std::move(socket), *tls, reject);
  } else {
    session = std::make_shared<PlainSession>(*this, std::move(socket), reject);
  }
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return false;  // unlocked before `session` dies (its destructor locks too)
    sessions_.insert(session.get());
  }
  session->run();
  return true;
}

void SessionRegistry::close_all() {
  // Collected under the lock, released outside it: the last reference to a session may be ours,
  // and its destructor takes mutex_ (forget()).
  std::vector<std::shared_ptr<SessionBase>> live;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    for (SessionBase* s : sessions_) {
      if (std::shared_ptr<SessionBase> p = s->weak_from_this().lock()) live.push_back(std::move(p));
    }
  }
  for (std::shared_ptr<SessionBase>& p : live) net::post(p->executor(), [p] { p->abort(); });
}

void SessionRegistry::forget(SessionBase* s, bool counted) {
  if (counted) active_.fetch_sub(1);
  std::lock_guard lock(mutex_);
  sessions_.erase(s);
}

}  // namespace sb::server_detail
