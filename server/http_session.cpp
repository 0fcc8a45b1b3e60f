// The connections of RpcServer (server/http_session.h), modelled on Beast's http_server_fast and
// advanced_server_flex examples: one owning Session object per connection (on its thread's
// io_context, preallocated buffers, a deadline on every read and write), keep-alive, each
// response's header and body sent by one gathered write.
//
// Deadlines: each step sets a deadline on the session's one watchdog timer (listener/watchdog.h,
// the proxy's too), re-armed only when a deadline falls before the time it is armed for.
//
// A request's life, one async chain: [TLS handshake] → idle wait for the first byte (keep-alive
// only) → header (header_timeout from its first byte) → the head's rules
// (listener/request_rules.h: framing, Host, sizes) and the size check (413), before any body
// byte is read → body (request_deadline; its chunk lines and trailer section bounded, the
// trailer dropped) → process (RpcEndpoint::handle: decode, dispatch, encode; 503 while too many
// answers wait for clients that do not read them) → [respond's delay, on a timer] → write
// (request_deadline) → next request or close. Only broken HTTP or limits end a connection;
// everything inside an RPC is answered in the request's protocol.
//
// Crowding: a connection that has sent nothing yet (TLS: not finished its handshake) is looked
// at every crowded_first_byte; if the server is crowded then (more than 3/4 of max_connections
// in use) it is closed. An idle flood thus holds slots for about crowded_first_byte, not for the
// header timeout, while a quiet server still gives a slow first byte the whole header timeout.
#include "server/http_session.h"

#include <algorithm>
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
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "listener/request_rules.h"
#include "listener/watchdog.h"

namespace sb::server_detail {

namespace {

using listener::Refusal;
using Admission = listener::ConnectionGate::Admission;

constexpr std::size_t kReadChunk = 16 * 1024;       // idle wait and lingering-close reads
constexpr std::size_t kBufferLimit = 1024 * 1024;   // flat_buffer ceiling (header + one read)
constexpr std::size_t kKeepCapacity = 1024 * 1024;  // body storage kept across requests
constexpr auto kLinger = std::chrono::seconds(2);   // draining a client after a closing response

using Clock = listener::Clock;

}  // namespace

// The part of a session the registry needs without knowing the stream type.
class SessionBase : public std::enable_shared_from_this<SessionBase> {
 public:
  // admission: how the gate let the session in (serve, or reject: 503).
  SessionBase(SessionRegistry& registry, Admission admission)
      : registry_(registry), admission_(admission) {}
  virtual ~SessionBase() { registry_.forget(this, admission_); }
  SessionBase(const SessionBase&) = delete;
  SessionBase& operator=(const SessionBase&) = delete;

  // Starts serving (dispatched onto the session's thread).
  virtual void run() = 0;
  // Closes the connection now; called on the session's thread by close_all().
  virtual void abort() = 0;
  // The session's io_context executor.
  virtual SessionExecutor executor() = 0;

 protected:
  SessionRegistry& registry_;  // the server's sessions (and through it, config and endpoint)
  Admission admission_;        // how the gate let it in
};

// One connection: owns the stream, its buffers and timers; every step sets a deadline.
template <class Stream>
class Session final : public SessionBase {
 public:
  // Whether Stream is the TLS stream.
  static constexpr bool kTls = !std::is_same_v<Stream, SessionSocket>;

  // A plain connection.
  Session(SessionRegistry& registry, SessionSocket&& socket, Admission admission) requires(!kTls)
      : SessionBase(registry, admission),
        stream_(std::move(socket)),
        watchdog_(stream_.get_executor()),
        delay_(stream_.get_executor()) {
    init();
  }
  // A TLS connection.
  Session(SessionRegistry& registry, SessionSocket&& socket, ssl::context& ctx,
          Admission admission) requires(kTls)
      : SessionBase(registry, admission),
        stream_(std::move(socket), ctx),
        watchdog_(stream_.get_executor()),
        delay_(stream_.get_executor()) {
    init();
  }

  // Dispatches start() onto the session's thread.
  void run() override {
    net::dispatch(stream_.get_executor(), beast::bind_front_handler(&Session::start, self()));
  }

  // Closes now; the pending handler sees aborted_ or an error and ends the chain.
  void abort() override {
    aborted_ = true;
    close_now();
  }

  // The session's io_context executor.
  SessionExecutor executor() override { return stream_.get_executor(); }

 private:
  // A reference that keeps this session alive inside its next handler.
  std::shared_ptr<Session> self() { return std::static_pointer_cast<Session>(shared_from_this()); }
  // The TCP socket under the stream.
  SessionSocket& socket() { return beast::get_lowest_layer(stream_); }
  // The server's limits and timeouts.
  const ServerConfig& config() const { return registry_.config(); }

  // Preallocates the read buffer, notes the local address, makes plain writes non-blocking.
  void init() {
    buffer_.reserve(kReadChunk);
    beast::error_code ec;
    local_ = socket().local_endpoint(ec);
    if constexpr (!kTls) socket().non_blocking(true, ec);  // write() tries without waiting
  }

  // The current step must end within `d` from now (closed by the watchdog otherwise).
  void expires_after(Clock::duration d) { watchdog_.expires_after(d, watchdog_handler()); }

  // The current step has no deadline (processing, which bounds itself).
  void expires_never() { watchdog_.expires_never(); }

  // The watchdog's handler. It holds the session weakly: a watchdog alone does not keep a
  // closed session alive.
  auto watchdog_handler() {
    return [weak = std::weak_ptr<Session>(self())](beast::error_code ec) {
      if (std::shared_ptr<Session> s = weak.lock()) s->on_watchdog(ec);
    };
  }

  // The watchdog fired: close when the current step is late, or when the connection has sent
  // nothing and the server is crowded; else wait on.
  void on_watchdog(beast::error_code ec) {
    if (ec) return;  // re-armed for an earlier deadline, or closed
    using Verdict = listener::Watchdog<SessionTimer>::Verdict;
    const Verdict v = watchdog_.fired(registry_.crowded(), watchdog_handler());
    if (v == Verdict::late || v == Verdict::crowded) close_now();
  }

  // First step: the TLS handshake (within header_timeout), or straight to begin().
  void start() {
    watchdog_.watch_first_byte(config().limits.crowded_first_byte);
    if constexpr (kTls) {
      expires_after(config().limits.header_timeout);
      stream_.async_handshake(ssl::stream_base::server,
                              beast::bind_front_handler(&Session::on_handshake, self()));
    } else {
      begin();
    }
  }

  // The handshake finished: serve, or close on failure.
  void on_handshake(beast::error_code ec) {
    if (ec) return close_now();
    watchdog_.heard();
    begin();
  }

  // Over max_connections: 503 and close; else read the first request.
  void begin() {
    if (admission_ == Admission::reject) {
      return send_status(http::status::service_unavailable, "too many connections");
    }
    next_request(config().limits.header_timeout);
  }

  // A fresh parser (reusing the previous body's storage) for the next request, whose first byte
  // may take up to first_byte (keep-alive: idle_timeout), the rest of its header
  // header_timeout from there.
  void next_request(Clock::duration first_byte) {
    parser_.emplace();
    parser_->header_limit(listener::kHeaderLimit);
    parser_->body_limit(config().max_body_bytes);
    parser_->get().body() = std::move(spare_body_);
    header_done_ = false;
    if (buffer_.size() == 0) {
      expires_after(first_byte);
      return read_more();
    }
    // Pipelined: already here. Parsed from a fresh handler, so a burst of pipelined requests
    // answered without waiting does not nest one call deeper per request.
    expires_after(config().limits.header_timeout);
    net::post(stream_.get_executor(), beast::bind_front_handler(&Session::parse, self()));
  }

  // Reads what the client sent next, within the current step's deadline.
  void read_more() {
    stream_.async_read_some(buffer_.prepare(kReadChunk),
                            beast::bind_front_handler(&Session::on_read, self()));
  }

  // Bytes arrived: the header deadline starts with a request's first byte; then parse.
  void on_read(beast::error_code ec, std::size_t n) {
    if (ec) return close_now();  // a deadline, the peer closed or reset, stop()
    watchdog_.heard();
    if (buffer_.size() == 0 && !parser_->got_some()) expires_after(config().limits.header_timeout);
    buffer_.commit(n);
    parse();
  }

  // Feeds the parser what is buffered, synchronously (Beast's async_read would post each step
  // back to the scheduler: an epoll_wait per step): the header, its checks, the body; reads
  // more when it needs more, processes a complete request.
  void parse() {
    for (;;) {
      if (parser_->is_done()) return process();
      if (buffer_.size() == 0) return read_more();
      beast::error_code ec;
      const std::size_t used = parser_->put(buffer_.data(), ec);
      buffer_.consume(used);
      if (ec == http::error::need_more) return need_more();
      if (ec) return refuse(listener::parse_refusal(ec));
      if (!header_done_ && parser_->is_header_done()) {
        header_done_ = true;
        if (!on_header()) return;
      }
      if (used == 0 && !parser_->is_done()) return need_more();
    }
  }

  // The parser waits for more: read it, unless what it holds back (a chunk line, the trailer
  // section) is already over its bound.
  void need_more() {
    if (header_done_) {
      const auto pending = buffer_.data();
      const std::string_view unparsed(static_cast<const char*>(pending.data()), pending.size());
      if (const std::optional<Refusal> r = listener::check_unparsed(unparsed)) return refuse(*r);
    }
    read_more();
  }

  // Limits and malformed requests end the connection with a status.
  void refuse(const Refusal& r) { send_status(r.status, r.text); }

  // The header is complete: its rules checked (a refusal ends the connection), the body gets
  // request_deadline; "Expect: 100-continue" is answered first. False when parsing stops here
  // (refused, or waiting for that answer to be written).
  bool on_header() {
    const Request& req = parser_->get();
    if (const std::optional<Refusal> refusal = listener::check_request_head(req)) {
      refuse(*refusal);
      return false;
    }
    if (parser_->chunked()) trailers_.note_header(req);
    expires_after(config().request_deadline);
    if (parser_->is_done() || !beast::iequals(req[http::field::expect], "100-continue")) {
      return true;
    }
    continue_.version(11);
    continue_.result(http::status::continue_);
    http::async_write(stream_, continue_, beast::bind_front_handler(&Session::on_continue, self()));
    return false;
  }

  // "100 Continue" was written: go on with the body.
  void on_continue(beast::error_code ec, std::size_t) {
    if (ec) return close_now();
    parse();
  }

  // Builds the response (RpcEndpoint::handle) and writes it, after respond's delay if any.
  void process() {
    expires_never();
    Request& req = parser_->get();
    trailers_.drop_trailers(req);
    if (registry_.answers_backed_up()) {
      return send_status(http::status::service_unavailable,
                         "too many answers wait for clients that do not read them");
    }
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

  // Writes res_ (header and body in one gathered write) within request_deadline. Plain TCP
  // tries a non-blocking write first and goes asynchronous only for what the socket did not
  // take (an answer sent whole is one sendmsg, with no completion through the scheduler).
  void write() {
    expires_after(config().request_deadline);
    serializer_.emplace(res_);
    if constexpr (!kTls) {
      beast::error_code ec;
      while (!serializer_->is_done()) {
        http::write_some(socket(), *serializer_, ec);
        if (ec == net::error::would_block) break;
        if (ec) return on_write(ec, 0);
      }
      if (serializer_->is_done()) return on_write({}, 0);
    }
    // The client has not taken it all: it waits, counted against max_queued_answer_bytes.
    const ResponseBody::value_type& body = res_.body();
    queued_ = body.owned.size() + body.middle.size() + body.tail.size();
    registry_.queue(queued_);
    http::async_write(stream_, *serializer_, beast::bind_front_handler(&Session::on_write, self()));
  }

  // Written: release oversized storage, then the next request or a graceful close.
  void on_write(beast::error_code ec, std::size_t) {
    registry_.unqueue(queued_);
    queued_ = 0;
    serializer_.reset();
    if (res_.body().owned.capacity() > kKeepCapacity) std::string().swap(res_.body().owned);
    res_.body().clear();
    if (ec) return close_now();
    if (closing_) return graceful_close();
    next_request(config().limits.idle_timeout);
  }

  // A plain-text answer that ends the connection (limits, malformed HTTP, 503).
  void send_status(http::status status, std::string_view text) {
    expires_never();
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
    expires_after(kLinger);
    if constexpr (kTls) {
      stream_.async_shutdown(beast::bind_front_handler(&Session::on_shutdown, self()));
    } else {
      beast::error_code ec;
      socket().shutdown(tcp::socket::shutdown_send, ec);
      if (ec) return close_now();
      buffer_.clear();
      drain();
    }
  }

  // TLS close_notify exchanged (or not): close.
  void on_shutdown(beast::error_code) { close_now(); }

  // Reads and discards what the client still sends, until EOF or kLinger.
  void drain() {
    socket().async_read_some(buffer_.prepare(kReadChunk),
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
    watchdog_.cancel();
    beast::error_code ec;
    socket().shutdown(tcp::socket::shutdown_both, ec);
    socket().close(ec);
  }

  Stream stream_;                                                  // the connection
  beast::flat_buffer buffer_{kBufferLimit};                        // bytes read, not yet parsed
  std::optional<http::request_parser<http::string_body>> parser_;  // this request's parser
  std::string spare_body_;  // request body storage between requests
  Response res_;            // the response; body storage reused
  std::optional<http::response_serializer<ResponseBody>> serializer_;  // writing res_
  http::response<http::empty_body> continue_;                          // "100 Continue"
  listener::Watchdog<SessionTimer> watchdog_;  // closes the connection at a late deadline
  SessionTimer delay_;                         // respond's delay (never blocks a thread)
  listener::TrailerFilter trailers_;           // a chunked request's trailer, dropped
  tcp::endpoint local_;                        // our address (WSDL when bound to any)
  std::size_t queued_ = 0;    // answer bytes counted as waiting for the client (registry)
  bool header_done_ = false;  // this request's header was checked
  bool closing_ = false;      // close after the current response
  bool aborted_ = false;      // stop() closed this session
};

// A plain HTTP connection.
using PlainSession = Session<SessionSocket>;
// An HTTPS connection.
using TlsSession = Session<beast::ssl_stream<SessionSocket>>;

// ------------------------------------------------------------------ SessionRegistry

void SessionRegistry::reopen() {
  gate_.open(config_.limits.max_connections, 1);  // a session holds one descriptor
  std::lock_guard lock(mutex_);
  stopping_ = false;
}

bool SessionRegistry::admit(SessionSocket socket, ssl::context* tls) {
  const Admission admission = gate_.enter();
  if (admission == Admission::drop) return true;  // closed by `socket`'s destructor
  std::shared_ptr<SessionBase> session;
  if (tls != nullptr) {
    session = std::make_shared<TlsSession>(*this, std::move(socket), *tls, admission);
  } else {
    session = std::make_shared<PlainSession>(*this, std::move(socket), admission);
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
  // and its destructor takes mutex_ (forget()). Each abort runs on its session's thread.
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

void SessionRegistry::forget(SessionBase* s, Admission admission) {
  gate_.leave(admission);
  std::lock_guard lock(mutex_);
  sessions_.erase(s);
}

}  // namespace sb::server_detail
