// One client connection of the recording proxy and the upstream link it forwards over, modelled
// on Boost.Beast's http_server_fast and on server/http_session.cpp: one owning object on the
// proxy's io_context, preallocated buffers, messages parsed synchronously from what was read,
// plain writes tried without waiting first, one watchdog timer (listener/watchdog.h).
//
// A request's life, one chain: wait for the client → parse what arrived (the header, then body
// bytes into piece_) → the head's rules, as the server's (listener/request_rules.h: framing,
// Host; a refusal is answered by the proxy and ends the connection) → forward the piece upstream
// (connecting first when no link is open) → … until the request ends → wait for the upstream →
// parse its answer the same way → forward each piece to the client → hand the exchange to the
// RecordWriter → the next request.
//
// What goes upstream is the request as the proxy understood it, never the client's bytes: the
// header as parsed, less its hop-by-hop fields (Connection and what it lists, Keep-Alive, TE,
// Upgrade, Expect, …), framed again (Content-Length, or chunked, from what the parser found),
// its trailer dropped; so a head the rules refuse never reaches the upstream, and a body is never
// read as a second request. Answers lose their hop-by-hop fields and trailers the same way.
//
// Streaming: a body goes on in pieces of at most kPiece bytes, sent when piece_ is full or the
// message ends, so a body of any size passes through in bounded memory, chunked or with a
// Content-Length, and leaves as it came (an answer that ends with the upstream's close goes to
// the client chunked). A message whose body fits in one piece leaves in one write with its header;
// an upstream that breaks off within the first piece of its answer is answered 502, later (the
// answer's header already out) the client's connection is closed.
//
// Deadlines, as the server's: a request's first byte within the idle timeout (the first request:
// the header timeout), its header within the header timeout from that byte however slowly it
// trickles, each read of its body within --timeout-ms. A connection that has sent nothing is
// closed when the proxy is crowded. A late step waiting on the upstream drops the link (its
// operation ends, the client gets a 504; a failed connect a 502); a late step waiting on the
// client closes it.
#include "record/exchange_recording.h"
#include "record/proxy_shared.h"
#include "record/upstream_link.h"

#include <charconv>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/write.hpp>

#include "listener/request_rules.h"
#include "listener/watchdog.h"

namespace sb::record_detail {

namespace {

using listener::Refusal;

constexpr std::size_t kPiece = 64 * 1024;  // body bytes forwarded per write, at most
// What a client's bytes may take in the buffer: a head, or a chunk line and a trailer section,
// at their bounds, and one read.
constexpr std::size_t kClientBufferLimit = 128 * 1024;
// The interim answer to "Expect: 100-continue" (the proxy takes the body itself).
constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
constexpr auto kLinger = std::chrono::seconds(2);  // draining a client after a refusal

using RequestParser = http::request_parser<http::buffer_body>;
using AnswerParser = http::response_parser<http::buffer_body>;
using AnswerSerializer = http::response_serializer<http::buffer_body>;
using ProxyTimer = asio::steady_timer::rebind_executor<ProxyExecutor>::other;

// A write that stopped because the body piece was used up has done its part.
error_code piece_written(error_code ec) {
  return ec == http::error::need_buffer ? error_code{} : ec;
}

// A header field's value, as a string.
template <class Fields>
std::string field(const Fields& f, http::field name) {
  const auto v = f[name];
  return std::string(v.data(), v.size());
}

class ProxyConnection final : public UpstreamUser {
 public:
  ProxyConnection(ProxySocket socket, ProxyShared& shared, Admission admission)
      : shared_(shared),
        client_(std::move(socket)),
        link_(client_.get_executor(), *this, shared.upstream),
        watchdog_(client_.get_executor()),
        piece_(new char[kPiece]),
        admission_(admission),
        recording_(shared.writer) {}
  ~ProxyConnection() override { shared_.gate.leave(admission_); }

  // Serves the first request, or refuses the connection over the cap.
  void start() {
    error_code ec;
    client_.non_blocking(true, ec);  // reads and writes try without waiting
    client_buffer_.reserve(kReadChunk);
    watchdog_.watch_first_byte(limits().crowded_first_byte);
    if (admission_ == Admission::reject) {
      return refuse({http::status::service_unavailable, "too many connections"});
    }
    next_request(limits().header_timeout);
  }

  void on_upstream_connected(error_code ec, const char* step) override;
  void on_upstream_written(error_code ec) override;
  void on_upstream_read(error_code ec, std::size_t n) override;

 private:
  // A reference that keeps this connection alive inside its next handler.
  std::shared_ptr<ProxyConnection> self() {
    return std::static_pointer_cast<ProxyConnection>(shared_from_this());
  }
  const RecordConfig& config() const { return shared_.config; }
  const ListenerLimits& limits() const { return shared_.config.limits; }
  // The parsers' body limit: --max-body, or all but none (Beast 1.74 compares a length with an
  // unset limit as greater: boost::none would refuse every body).
  std::uint64_t body_limit() const {
    if (config().max_body_bytes == 0) return std::numeric_limits<std::uint64_t>::max();
    return config().max_body_bytes;
  }

  // A fresh parser for the next request, whose first byte may take up to `first_byte`.
  void next_request(ProxyClock::duration first_byte);
  void read_client();
  void on_read(error_code ec, std::size_t n);
  void parse_request();
  // The request's header is complete: the rules, then the header sent upstream is made.
  bool on_request_header();
  // The header as it goes upstream: hop-by-hop fields removed, framing set, target and Host.
  void make_upstream_header(http::request<http::buffer_body>& req);
  void send_request_piece();
  void write_request_piece();
  void read_answer();
  // A fresh parser for the upstream's (next) answer.
  void new_answer();
  void read_upstream();
  void parse_answer();
  void on_answer_header();
  void send_answer_piece();
  void on_answer_piece_written(error_code ec);
  void finish_exchange();
  // The answer could not be read: 502/504 while the client has none of it, else close.
  void answer_failed(error_code ec);
  // A reused upstream connection the upstream had closed: reconnect once and send again (only a
  // request that went in one piece, which piece_ still holds).
  bool retry_stale();
  // Answers the client `status` with a one-line body naming the upstream and `why`.
  void reply_error(http::status status, const std::string& why);
  // Answers a request the listener's rules refuse, as the server does, and ends the connection.
  void refuse(const Refusal& r);
  // Writes error_ (with error_text_) to the client; then the next request, or a close.
  void write_own_answer();
  // After a refusal: half-close, and read what the client still sends for kLinger at most.
  void linger();
  void drain();
  // Closes both connections; handlers still pending see closed_ and stop.
  void close();
  // Closes the upstream link and forgets what it sent past the last answer.
  void drop_link();

  template <class Parser>
  error_code parse_some(Parser& parser, beast::flat_buffer& buffer);
  // The unparsed bytes of `buffer` (a chunk line or a trailer section waiting to end).
  static std::string_view unparsed(const beast::flat_buffer& buffer);
  // The request's fields the manifest keeps.
  static RecordedExchange recorded_fields(const http::request<http::buffer_body>& req);

  // The current step must end within `d` from now.
  void expires_after(ProxyClock::duration d, bool upstream);
  // The watchdog's handler; it holds the connection weakly (a watchdog alone does not keep a
  // closed connection alive).
  auto watchdog_handler() {
    return [weak = std::weak_ptr<ProxyConnection>(self())](error_code ec) {
      if (std::shared_ptr<ProxyConnection> c = weak.lock()) c->on_watchdog(ec);
    };
  }
  void on_watchdog(error_code ec);

  ProxyShared& shared_;                      // configuration, upstream, writer, counters
  ProxySocket client_;                       // the client's connection
  UpstreamLink link_;                        // the upstream connection, when open
  listener::Watchdog<ProxyTimer> watchdog_;  // ends a step that passed its deadline
  std::unique_ptr<char[]> piece_;            // body bytes parsed, not yet forwarded (kPiece)
  Admission admission_;                      // how the gate let the client in
  std::size_t piece_used_ = 0;               // bytes in piece_
  std::size_t sent_piece_ = 0;               // the request's last piece (sent again on a retry)
  beast::flat_buffer client_buffer_{kClientBufferLimit};    // from the client, not yet parsed
  beast::flat_buffer upstream_buffer_{kClientBufferLimit};  // from the upstream, not yet parsed
  std::optional<RequestParser> request_;                    // the request being forwarded
  std::optional<RequestSerializer> request_out_;            // writing it upstream
  std::optional<AnswerParser> answer_;                      // the upstream's answer
  std::optional<AnswerSerializer> answer_out_;              // writing it to the client
  http::response<http::buffer_body> error_;                 // the proxy's own answer (4xx, 5xx)
  std::string error_text_;                                  // its body
  listener::TrailerFilter request_trailers_;                // a chunked request's trailer, dropped
  listener::TrailerFilter answer_trailers_;                 // a chunked answer's trailer, dropped
  ExchangeRecording recording_;                             // what is recorded of this exchange
  std::uint64_t request_bytes_ = 0;                         // request body bytes forwarded
  ProxyClock::time_point forwarded_at_;  // the request's first piece went upstream
  bool request_header_done_ = false;     // the request's header was looked at
  bool answer_header_done_ = false;      // the answer's header was looked at
  bool answer_sent_ = false;             // the client has (part of) the answer
  bool client_keep_alive_ = true;        // the client wants the connection kept
  bool client_http11_ = true;            // the client speaks HTTP/1.1 (chunked)
  bool upstream_closing_ = false;        // the upstream closes after this answer
  bool reused_ = false;                  // the request went on an already open link
  bool retried_ = false;                 // it was sent again after a stale link
  bool whole_ = false;                   // the request went upstream in one piece
  bool cut_ = false;                     // the upstream broke off a forwarded answer
  bool waiting_upstream_ = false;        // the current step waits on the upstream
  bool timed_out_ = false;               // the watchdog ended the current step
  bool closed_ = false;                  // close() ran: handlers stop
};

// ------------------------------------------------------------------ the request

void ProxyConnection::next_request(ProxyClock::duration first_byte) {
  request_out_.reset();  // before the messages they write
  answer_out_.reset();
  answer_.reset();
  request_.emplace();
  request_->header_limit(listener::kHeaderLimit);
  request_->body_limit(body_limit());
  piece_used_ = 0;
  request_bytes_ = 0;
  recording_.stop();
  request_header_done_ = false;
  answer_sent_ = false;
  timed_out_ = false;
  if (client_buffer_.size() > 0) {  // pipelined: already here
    expires_after(limits().header_timeout, false);
    return parse_request();
  }
  expires_after(first_byte, false);
  read_client();
}

void ProxyConnection::read_client() {
  // The header's deadline runs from its first byte (on_read); each body read has --timeout-ms.
  if (request_header_done_) expires_after(config().upstream_timeout, false);
  if (client_buffer_.size() + kReadChunk > client_buffer_.max_size()) {
    return refuse({http::status::bad_request, "malformed request"});  // cannot happen: bounded
  }
  client_.async_read_some(client_buffer_.prepare(kReadChunk),
                          [self = self()](error_code ec, std::size_t n) { self->on_read(ec, n); });
}

void ProxyConnection::on_read(error_code ec, std::size_t n) {
  if (closed_) return;
  if (ec) return close();  // closed, reset, a deadline
  watchdog_.heard();
  // A request's first byte: its header has the header timeout from now, however it trickles.
  if (client_buffer_.size() == 0 && !request_->got_some()) {
    expires_after(limits().header_timeout, false);
  }
  client_buffer_.commit(n);
  parse_request();
}

void ProxyConnection::parse_request() {
  const error_code ec = parse_some(*request_, client_buffer_);
  if (ec && ec != http::error::need_more) return refuse(listener::parse_refusal(ec));
  if (!request_header_done_ && request_->is_header_done()) {
    request_header_done_ = true;
    if (!on_request_header()) return;
    return parse_request();  // on to the body
  }
  if (request_->is_done() || piece_used_ == kPiece) return send_request_piece();
  if (request_header_done_) {  // what the parser holds back must stay within its bounds
    if (const auto r = listener::check_unparsed(unparsed(client_buffer_))) return refuse(*r);
  }
  read_client();
}

bool ProxyConnection::on_request_header() {
  http::request<http::buffer_body>& req = request_->get();
  if (const std::optional<Refusal> r = listener::check_request_head(req)) {
    refuse(*r);
    return false;
  }
  client_keep_alive_ = req.keep_alive();
  client_http11_ = req.version() >= 11;
  if (shared_.writer != nullptr && !shared_.writer->full()) {
    recording_.start(recorded_fields(req));  // the fields looked up only while recording
  }
  const bool expect = beast::iequals(req[http::field::expect], "100-continue");
  make_upstream_header(req);
  if (!expect || request_->is_done()) return true;
  expires_after(config().upstream_timeout, false);
  asio::async_write(client_, asio::buffer(kContinue.data(), kContinue.size()),
                    [self = self()](error_code ec, std::size_t) {
                      if (self->closed_) return;
                      if (ec) return self->close();
                      self->parse_request();
                    });
  return false;
}

void ProxyConnection::make_upstream_header(http::request<http::buffer_body>& req) {
  listener::remove_hop_by_hop(req);
  // The framing as parsed (the rules let no request have both, or another coding than chunked).
  if (request_->chunked()) {
    req.erase(http::field::transfer_encoding);  // however many fields it came in
    req.chunked(true);
  } else if (const auto length = request_->content_length()) {
    // Written as parsed: set again only when the client wrote it otherwise ("007", " 7").
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, *length).ptr;
    if (req[http::field::content_length] != std::string_view(digits, end - digits)) {
      req.content_length(*length);
    }
  }
  req.version(11);
  req.keep_alive(true);
  req.target(upstream_target(config().upstream, listener::origin_target(req.target())));
  req.set(http::field::host, config().upstream.authority);
  if (request_->chunked()) request_trailers_.note_header(req);
}

void ProxyConnection::send_request_piece() {
  request_bytes_ += piece_used_;
  recording_.keep({piece_.get(), piece_used_}, false);
  if (request_->is_done()) request_trailers_.drop_trailers(request_->get());
  if (request_out_) return write_request_piece();
  // The first piece: the header goes with it.
  forwarded_at_ = ProxyClock::now();
  whole_ = request_->is_done();
  retried_ = false;
  request_out_.emplace(request_->get());
  reused_ = link_.is_open();
  if (reused_) return write_request_piece();
  expires_after(config().upstream_timeout, true);
  link_.connect();
}

void ProxyConnection::on_upstream_connected(error_code ec, const char* step) {
  if (closed_) return;
  if (ec) {
    if (timed_out_) ec = beast::error::timeout;
    return reply_error(http::status::bad_gateway, std::string(step) + ": " + ec.message());
  }
  write_request_piece();
}

void ProxyConnection::write_request_piece() {
  http::buffer_body::value_type& body = request_->get().body();
  body.data = piece_used_ > 0 ? piece_.get() : nullptr;
  body.size = piece_used_;
  body.more = !request_->is_done();
  expires_after(config().upstream_timeout, true);
  link_.write(*request_out_);
}

void ProxyConnection::on_upstream_written(error_code ec) {
  if (closed_) return;
  if (ec) {
    if (timed_out_) {
      return reply_error(http::status::gateway_timeout,
                         "writing the request: " + error_code(beast::error::timeout).message());
    }
    if (retry_stale()) return;
    return reply_error(http::status::bad_gateway, "writing the request: " + ec.message());
  }
  if (!request_->is_done()) {
    piece_used_ = 0;
    return parse_request();
  }
  if (recording_.active()) recording_.exchange().request_at_us = shared_.us_since_start();
  read_answer();
}

bool ProxyConnection::retry_stale() {
  if (!reused_ || retried_ || !whole_) return false;
  retried_ = true;
  drop_link();
  if (answer_) {  // the request was written whole: piece_ holds it still
    piece_used_ = sent_piece_;
    answer_.reset();
  }
  request_out_.emplace(request_->get());
  expires_after(config().upstream_timeout, true);
  link_.connect();
  return true;
}

// ------------------------------------------------------------------ the answer

void ProxyConnection::read_answer() {
  sent_piece_ = piece_used_;  // still in piece_ until the answer's body begins
  piece_used_ = 0;
  answer_out_.reset();
  new_answer();
  answer_header_done_ = false;
  parse_answer();
}

void ProxyConnection::new_answer() {
  answer_.emplace();
  answer_->header_limit(listener::kHeaderLimit);
  answer_->body_limit(body_limit());
  if (request_->get().method() == http::verb::head) answer_->skip(true);  // a header, no body
}

void ProxyConnection::read_upstream() {
  expires_after(config().upstream_timeout, true);
  if (answer_header_done_ && listener::check_unparsed(unparsed(upstream_buffer_))) {
    return answer_failed(http::error::bad_chunk);  // a chunk line or trailer without end
  }
  if (upstream_buffer_.size() + kReadChunk > upstream_buffer_.max_size()) {
    return answer_failed(http::error::header_limit);  // cannot happen: the parser's bounds
  }
  link_.read_some(upstream_buffer_);
}

void ProxyConnection::on_upstream_read(error_code ec, std::size_t) {
  if (closed_) return;
  if (ec == http::error::end_of_stream && answer_->is_header_done() && answer_->need_eof()) {
    answer_->put_eof(ec);  // the answer's body ended with the connection
    upstream_closing_ = true;
  }
  if (ec) return answer_failed(ec);
  parse_answer();
}

void ProxyConnection::parse_answer() {
  const error_code ec = parse_some(*answer_, upstream_buffer_);
  if (ec && ec != http::error::need_more) return answer_failed(ec);
  if (!answer_header_done_ && answer_->is_header_done()) {
    const unsigned status = answer_->get().result_int();
    if (status / 100 == 1 && status != 101) {  // an interim answer: the final one follows
      new_answer();
      return parse_answer();
    }
    answer_header_done_ = true;
    on_answer_header();
    return parse_answer();  // on to the body
  }
  if (answer_header_done_ && answer_->is_done()) answer_trailers_.drop_trailers(answer_->get());
  if (answer_header_done_ && (answer_->is_done() || piece_used_ == kPiece)) {
    return send_answer_piece();
  }
  read_upstream();
}

void ProxyConnection::on_answer_header() {
  http::response<http::buffer_body>& res = answer_->get();
  upstream_closing_ = !answer_->keep_alive();
  if (recording_.active()) {
    RecordedExchange& e = recording_.exchange();
    e.status = res.result_int();
    e.response_content_type = field(res, http::field::content_type);
    e.response_content_encoding = field(res, http::field::content_encoding);
  }
  listener::remove_hop_by_hop(res);  // the framing stays: the serializer follows it
  res.version(11);
  if (answer_->need_eof()) {  // the body ends with the upstream's close: chunked to the client
    if (client_http11_) {
      res.chunked(true);
    } else {
      client_keep_alive_ = false;
    }
  }
  res.keep_alive(client_keep_alive_);
  if (answer_->chunked()) answer_trailers_.note_header(res);
}

void ProxyConnection::send_answer_piece() {
  recording_.keep({piece_.get(), piece_used_}, true);
  http::buffer_body::value_type& body = answer_->get().body();
  body.data = piece_used_ > 0 ? piece_.get() : nullptr;
  body.size = piece_used_;
  body.more = !answer_->is_done();
  if (!answer_out_) answer_out_.emplace(answer_->get());
  answer_sent_ = true;
  expires_after(config().upstream_timeout, false);
  // What the socket takes at once is written now (one sendmsg); only the rest waits for it.
  error_code ec;
  while (!answer_out_->is_done() && !ec) http::write_some(client_, *answer_out_, ec);
  if (ec != asio::error::would_block) return on_answer_piece_written(piece_written(ec));
  http::async_write(client_, *answer_out_, [self = self()](error_code ec, std::size_t) {
    self->on_answer_piece_written(piece_written(ec));
  });
}

void ProxyConnection::on_answer_piece_written(error_code ec) {
  if (closed_) return;
  if (ec || cut_) return close();
  piece_used_ = 0;
  if (!answer_->is_done()) return parse_answer();
  finish_exchange();
}

void ProxyConnection::finish_exchange() {
  ++shared_.forwarded;
  if (upstream_closing_) drop_link();
  if (recording_.active() && request_bytes_ > 0) {
    RecordedExchange& e = recording_.exchange();
    e.response_at_us = shared_.us_since_start();
    e.upstream_us =
        std::chrono::duration_cast<std::chrono::microseconds>(ProxyClock::now() - forwarded_at_)
            .count();
    recording_.finish();
  }
  recording_.stop();  // a request without a body: nothing kept
  if (!client_keep_alive_) return close();
  next_request(limits().idle_timeout);
}

void ProxyConnection::answer_failed(error_code ec) {
  if (timed_out_) ec = beast::error::timeout;
  if (answer_sent_) {  // the client has part of it: pass on what came, then only a close tells
    ++shared_.cut;
    cut_ = true;  // the connection closes once the piece is written
    if (piece_used_ == 0) return close();
    return send_answer_piece();
  }
  if (ec == beast::error::timeout) {
    return reply_error(
        http::status::gateway_timeout,
        "no answer within " + std::to_string(config().upstream_timeout.count()) + " ms");
  }
  const bool nothing = !answer_->got_some();
  // Closed before any byte of an answer on a reused connection: it idled out upstream.
  if (nothing && ec == http::error::end_of_stream && retry_stale()) return;
  if (ec == http::error::body_limit) {
    return reply_error(http::status::bad_gateway, "answer body larger than --max-body");
  }
  reply_error(http::status::bad_gateway,
              nothing ? "closed the connection without answering (" + ec.message() + ")"
                      : "closed the connection mid-response (" + ec.message() + ")");
}

// ------------------------------------------------------------------ errors and closing

void ProxyConnection::reply_error(http::status status, const std::string& why) {
  drop_link();
  ++shared_.failed;
  recording_.stop();
  if (answer_sent_) return close();
  // A request not read to its end would leave the rest of its body where the next one starts.
  if (!request_->is_done()) client_keep_alive_ = false;
  std::string upstream = config().upstream.tls ? "https://" : "http://";
  upstream += config().upstream.authority;
  error_text_ = "soapbench record: upstream " + upstream + ": " + why + "\n";
  error_ = {};
  error_.result(status);
  write_own_answer();
}

void ProxyConnection::refuse(const Refusal& r) {
  drop_link();
  ++shared_.refused;
  recording_.stop();
  if (answer_sent_) return close();
  client_keep_alive_ = false;  // after a framing error nobody knows where a next request begins
  error_text_.assign(r.text).append("\n");
  error_ = {};
  error_.result(r.status);
  write_own_answer();
}

void ProxyConnection::write_own_answer() {
  error_.version(11);
  error_.set(http::field::content_type, "text/plain; charset=utf-8");
  error_.set(http::field::server, "soapbench record");
  error_.keep_alive(client_keep_alive_);
  error_.content_length(error_text_.size());
  error_.body() = {error_text_.data(), error_text_.size(), false};
  // Written as answers are (the same serializer type: its code is compiled once).
  answer_out_.emplace(error_);
  expires_after(config().upstream_timeout, false);
  http::async_write(client_, *answer_out_, [self = self()](error_code ec, std::size_t) {
    if (self->closed_) return;
    if (ec) return self->close();
    if (!self->client_keep_alive_) return self->linger();
    self->next_request(self->limits().idle_timeout);
  });
}

void ProxyConnection::linger() {
  drop_link();
  error_code ec;
  client_.shutdown(tcp::socket::shutdown_send, ec);
  if (ec) return close();
  expires_after(kLinger, false);
  drain();
}

void ProxyConnection::drain() {
  client_buffer_.clear();
  client_.async_read_some(client_buffer_.prepare(kReadChunk),
                          [self = self()](error_code ec, std::size_t) {
                            if (self->closed_) return;
                            if (ec) return self->close();  // EOF, kLinger, reset
                            self->drain();
                          });
}

void ProxyConnection::close() {
  if (closed_) return;
  closed_ = true;
  watchdog_.cancel();
  recording_.stop();
  drop_link();
  error_code ignored;
  client_.shutdown(tcp::socket::shutdown_send, ignored);
  client_.close(ignored);
}

void ProxyConnection::drop_link() {
  link_.close();
  upstream_buffer_.clear();
}

// ------------------------------------------------------------------ parsing and recording

// Feeds `buffer` to `parser`: the header (then it returns, so that the header is looked at before
// any body byte or trailer field is parsed), or body bytes into piece_ until it is full or the
// message ends. need_more: all of `buffer` was used and the message wants more.
template <class Parser>
error_code ProxyConnection::parse_some(Parser& parser, beast::flat_buffer& buffer) {
  error_code ec;
  while (!parser.is_done()) {
    const bool body = parser.is_header_done();
    if (body) {
      if (piece_used_ == kPiece) return {};  // full: forward it first
      parser.get().body().data = piece_.get() + piece_used_;
      parser.get().body().size = kPiece - piece_used_;
    }
    if (buffer.size() == 0) return http::error::need_more;
    const std::size_t used = parser.put(buffer.data(), ec);
    buffer.consume(used);
    if (body) piece_used_ = kPiece - parser.get().body().size;
    if (ec == http::error::need_buffer) ec = {};  // piece_ is full
    if (ec) return ec;  // need_more (a header split across reads), body_limit, malformed
    if (!body && parser.is_header_done()) return {};
    if (used == 0) return http::error::need_more;
  }
  return ec;
}

std::string_view ProxyConnection::unparsed(const beast::flat_buffer& buffer) {
  const auto data = buffer.data();
  return {static_cast<const char*>(data.data()), data.size()};
}

RecordedExchange ProxyConnection::recorded_fields(const http::request<http::buffer_body>& req) {
  RecordedExchange e;
  e.target = std::string(req.target());
  e.request_content_type = field(req, http::field::content_type);
  e.soap_action = field(req, http::field::soapaction);
  e.request_content_encoding = field(req, http::field::content_encoding);
  e.accept_encoding = field(req, http::field::accept_encoding);
  return e;
}

// ------------------------------------------------------------------ deadlines

void ProxyConnection::expires_after(ProxyClock::duration d, bool upstream) {
  waiting_upstream_ = upstream;
  watchdog_.expires_after(d, watchdog_handler());
}

void ProxyConnection::on_watchdog(error_code ec) {
  if (ec || closed_) return;  // re-armed for an earlier deadline, or closed
  using Verdict = listener::Watchdog<ProxyTimer>::Verdict;
  const Verdict v = watchdog_.fired(shared_.gate.crowded(), watchdog_handler());
  if (v == Verdict::crowded) return close();
  if (v != Verdict::late) return;
  timed_out_ = true;
  if (waiting_upstream_) return link_.close();  // its pending operation ends: 504 (connect: 502)
  close();
}

}  // namespace

void serve_client(ProxySocket socket, ProxyShared& shared, Admission admission) {
  std::make_shared<ProxyConnection>(std::move(socket), shared, admission)->start();
}

}  // namespace sb::record_detail
