// One client connection of the recording proxy and the upstream link it forwards over, modelled
// on Boost.Beast's http_server_fast and on server/http_session.cpp: one owning object on the
// proxy's io_context, preallocated buffers, messages parsed synchronously from what was read,
// plain writes tried without waiting first, one watchdog timer.
//
// A request's life, one chain: wait for the client → parse what arrived (the header, then body
// bytes into piece_) → forward the piece upstream (connecting first when no link is open) → …
// until the request ends → wait for the upstream → parse its answer the same way → forward each
// piece to the client → hand the exchange to the RecordWriter → the next request.
//
// Streaming: a body goes on in pieces of at most kPiece bytes, sent when piece_ is full or the
// message ends, so a body of any size passes through in bounded memory, chunked or with a
// Content-Length, and leaves as it came (an answer that ends with the upstream's close goes to
// the client chunked). A message whose body fits in one piece leaves in one write with its header;
// an upstream that breaks off within the first piece of its answer is answered 502, later (the
// answer's header already out) the client's connection is closed.
//
// Deadlines: each step sets deadline_, a plain time; one watchdog timer is re-armed only when a
// deadline falls before the time it is armed for (a timer per step cost a timerfd_settime per
// read and write). A late step waiting on the upstream drops the link (its operation ends, the
// client gets a 504; a failed connect a 502); a late step waiting on the client closes it.
#include "record/proxy_shared.h"
#include "record/upstream_link.h"

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

namespace sb::record_detail {

namespace {

constexpr std::size_t kPiece = 64 * 1024;  // body bytes forwarded per write, at most
// The interim answer to "Expect: 100-continue" (the proxy takes the body itself).
constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
constexpr ProxyClock::time_point kNever = ProxyClock::time_point::max();  // no deadline

using RequestParser = http::request_parser<http::buffer_body>;
using AnswerParser = http::response_parser<http::buffer_body>;
using AnswerSerializer = http::response_serializer<http::buffer_body>;
using ProxyTimer = asio::steady_timer::rebind_executor<ProxyExecutor>::other;

// A write that stopped because the body piece was used up has done its part.
error_code piece_written(error_code ec) {
  return ec == http::error::need_buffer ? error_code{} : ec;
}

class ProxyConnection final : public UpstreamUser {
 public:
  ProxyConnection(ProxySocket socket, ProxyShared& shared)
      : shared_(shared),
        client_(std::move(socket)),
        link_(client_.get_executor(), *this, shared.upstream),
        watchdog_(client_.get_executor()),
        piece_(new char[kPiece]) {}

  // Serves the first request.
  void start() {
    error_code ec;
    client_.non_blocking(true, ec);  // reads and writes try without waiting
    client_buffer_.reserve(kReadChunk);
    next_request();
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
  // The parsers' body limit: --max-body, or all but none (Beast 1.74 compares a length with an
  // unset limit as greater: boost::none would refuse every body).
  std::uint64_t body_limit() const {
    if (config().max_body_bytes == 0) return std::numeric_limits<std::uint64_t>::max();
    return config().max_body_bytes;
  }

  void next_request();
  void read_client();
  void on_read(error_code ec, std::size_t n);
  void parse_request();
  bool on_request_header();
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
  // Closes both connections; handlers still pending see closed_ and stop.
  void close();
  // Closes the upstream link and forgets what it sent past the last answer.
  void drop_link();

  template <class Parser>
  error_code parse_some(Parser& parser, beast::flat_buffer& buffer);
  // Copies piece_ into the recorded `body` while the exchange stays within room_.
  void keep_piece(std::string& body);

  // The current step must end within `d` from now.
  void expires_after(ProxyClock::duration d, bool upstream);
  void arm_watchdog();
  void on_watchdog(error_code ec);

  ProxyShared& shared_;                   // configuration, upstream, writer, counters
  ProxySocket client_;                    // the client's connection
  UpstreamLink link_;                     // the upstream connection, when open
  ProxyTimer watchdog_;                   // ends a step that passed deadline_
  std::unique_ptr<char[]> piece_;         // body bytes parsed, not yet forwarded (kPiece)
  std::size_t piece_used_ = 0;            // bytes in piece_
  std::size_t sent_piece_ = 0;            // the request's last piece (sent again on a retry)
  beast::flat_buffer client_buffer_;      // bytes from the client, not yet parsed
  beast::flat_buffer upstream_buffer_;    // bytes from the upstream, not yet parsed
  std::optional<RequestParser> request_;  // the request being forwarded
  std::optional<RequestSerializer> request_out_;  // writing it upstream
  std::optional<AnswerParser> answer_;            // the upstream's answer
  std::optional<AnswerSerializer> answer_out_;    // writing it to the client
  http::response<http::buffer_body> error_;       // the proxy's own answer (413, 502, 504)
  std::string error_text_;                        // its body
  RecordedExchange exchange_;                     // what is recorded of this exchange
  std::uint64_t room_ = 0;                        // body bytes exchange_ may hold and be kept
  std::uint64_t request_bytes_ = 0;               // request body bytes forwarded
  ProxyClock::time_point forwarded_at_;           // the request's first piece went upstream
  ProxyClock::time_point deadline_ = kNever;      // the current step's deadline
  ProxyClock::time_point armed_ = kNever;         // when the watchdog fires (kNever: not armed)
  bool recording_ = false;                        // exchange_ is being filled for the writer
  bool request_header_done_ = false;              // the request's header was looked at
  bool answer_header_done_ = false;               // the answer's header was looked at
  bool answer_sent_ = false;                      // the client has (part of) the answer
  bool client_keep_alive_ = true;                 // the client wants the connection kept
  bool client_http11_ = true;                     // the client speaks HTTP/1.1 (chunked)
  bool upstream_closing_ = false;                 // the upstream closes after this answer
  bool reused_ = false;                           // the request went on an already open link
  bool retried_ = false;                          // it was sent again after a stale link
  bool whole_ = false;                            // the request went upstream in one piece
  bool cut_ = false;                              // the upstream broke off a forwarded answer
  bool waiting_upstream_ = false;                 // the current step waits on the upstream
  bool timed_out_ = false;                        // the watchdog ended the current step
  bool closed_ = false;                           // close() ran: handlers stop
};

// ------------------------------------------------------------------ the request

void ProxyConnection::next_request() {
  request_out_.reset();  // before the messages they write
  answer_out_.reset();
  answer_.reset();
  request_.emplace();
  request_->body_limit(body_limit());
  piece_used_ = 0;
  request_bytes_ = 0;
  recording_ = false;
  request_header_done_ = false;
  answer_sent_ = false;
  timed_out_ = false;
  if (client_buffer_.size() > 0) return parse_request();  // pipelined: already here
  read_client();
}

void ProxyConnection::read_client() {
  // Between requests the client may idle; within one it must keep sending.
  expires_after(request_header_done_ ? config().upstream_timeout : config().idle_timeout, false);
  client_.async_read_some(client_buffer_.prepare(kReadChunk),
                          [self = self()](error_code ec, std::size_t n) { self->on_read(ec, n); });
}

void ProxyConnection::on_read(error_code ec, std::size_t n) {
  if (closed_) return;
  if (ec) return close();  // closed, reset, idle too long
  client_buffer_.commit(n);
  parse_request();
}

void ProxyConnection::parse_request() {
  const error_code ec = parse_some(*request_, client_buffer_);
  if (ec == http::error::body_limit) {
    return reply_error(http::status::payload_too_large, "request body larger than --max-body");
  }
  if (ec && ec != http::error::need_more) return close();  // not HTTP: nothing to answer
  if (!request_header_done_ && request_->is_header_done()) {
    request_header_done_ = true;
    if (!on_request_header()) return;
  }
  if (request_->is_done() || piece_used_ == kPiece) return send_request_piece();
  read_client();
}

bool ProxyConnection::on_request_header() {
  http::request<http::buffer_body>& req = request_->get();
  client_keep_alive_ = req.keep_alive();
  client_http11_ = req.version() >= 11;
  room_ = shared_.writer != nullptr ? shared_.writer->room() : 0;
  recording_ = room_ > 0;
  if (recording_) {
    exchange_ = RecordedExchange{};
    exchange_.target = std::string(req.target());
    exchange_.request_content_type = std::string(req[http::field::content_type]);
    exchange_.soap_action = std::string(req[http::field::soapaction]);
  }
  const bool expect = beast::iequals(req[http::field::expect], "100-continue");
  // Hop-by-hop fields are the proxy's own business; the rest goes as the client wrote it.
  req.erase(http::field::expect);
  req.erase(http::field::proxy_connection);
  req.erase(http::field::keep_alive);
  req.version(11);
  req.keep_alive(true);
  req.target(upstream_target(config().upstream, req.target()));
  req.set(http::field::host, config().upstream.authority);
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

void ProxyConnection::send_request_piece() {
  request_bytes_ += piece_used_;
  keep_piece(exchange_.request_body);
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
  if (recording_) exchange_.request_at_us = shared_.us_since_start();
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
  answer_->body_limit(body_limit());
  if (request_->get().method() == http::verb::head) answer_->skip(true);  // a header, no body
}

void ProxyConnection::read_upstream() {
  expires_after(config().upstream_timeout, true);
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
  }
  if (answer_header_done_ && (answer_->is_done() || piece_used_ == kPiece)) {
    return send_answer_piece();
  }
  read_upstream();
}

void ProxyConnection::on_answer_header() {
  http::response<http::buffer_body>& res = answer_->get();
  upstream_closing_ = !answer_->keep_alive();
  if (recording_) {
    exchange_.status = res.result_int();
    exchange_.response_content_type = std::string(res[http::field::content_type]);
  }
  res.erase(http::field::keep_alive);
  res.version(11);
  if (answer_->need_eof()) {  // the body ends with the upstream's close: chunked to the client
    if (client_http11_) {
      res.chunked(true);
    } else {
      client_keep_alive_ = false;
    }
  }
  res.keep_alive(client_keep_alive_);
}

void ProxyConnection::send_answer_piece() {
  keep_piece(exchange_.response_body);
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
  if (recording_ && request_bytes_ > 0) {
    exchange_.response_at_us = shared_.us_since_start();
    exchange_.upstream_us =
        std::chrono::duration_cast<std::chrono::microseconds>(ProxyClock::now() - forwarded_at_)
            .count();
    shared_.writer->add(std::move(exchange_));
  }
  if (!client_keep_alive_) return close();
  next_request();
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
  recording_ = false;
  if (answer_sent_) return close();
  // A request not read to its end would leave the rest of its body where the next one starts.
  if (!request_->is_done()) client_keep_alive_ = false;
  std::string upstream = config().upstream.tls ? "https://" : "http://";
  upstream += config().upstream.authority;
  error_text_ = "soapbench record: upstream " + upstream + ": " + why + "\n";
  error_ = {};
  error_.version(11);
  error_.result(status);
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
    if (ec || !self->client_keep_alive_) return self->close();
    self->next_request();
  });
}

void ProxyConnection::close() {
  if (closed_) return;
  closed_ = true;
  watchdog_.cancel();
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

// Feeds `buffer` to `parser`: the header, then body bytes into piece_ until it is full or the
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
    if (used == 0) return http::error::need_more;
  }
  return ec;
}

void ProxyConnection::keep_piece(std::string& body) {
  if (!recording_ || exchange_.too_large || piece_used_ == 0) return;
  if (exchange_.request_body.size() + exchange_.response_body.size() + piece_used_ > room_) {
    // Past what may be kept: the writer will keep nothing more (as RecordStore::keep).
    exchange_.too_large = true;
    std::string().swap(exchange_.request_body);
    std::string().swap(exchange_.response_body);
    return;
  }
  body.append(piece_.get(), piece_used_);
}

// ------------------------------------------------------------------ deadlines

void ProxyConnection::expires_after(ProxyClock::duration d, bool upstream) {
  waiting_upstream_ = upstream;
  deadline_ = ProxyClock::now() + d;
  if (deadline_ < armed_) arm_watchdog();
}

void ProxyConnection::arm_watchdog() {
  armed_ = deadline_;
  watchdog_.expires_at(armed_);
  watchdog_.async_wait([weak = std::weak_ptr<ProxyConnection>(self())](error_code ec) {
    if (std::shared_ptr<ProxyConnection> c = weak.lock()) c->on_watchdog(ec);
  });
}

void ProxyConnection::on_watchdog(error_code ec) {
  if (ec || closed_) return;  // re-armed for an earlier deadline, or closed
  armed_ = kNever;
  if (ProxyClock::now() < deadline_) return arm_watchdog();
  timed_out_ = true;
  if (waiting_upstream_) return link_.close();  // its pending operation ends: 504 (connect: 502)
  close();
}

}  // namespace

void serve_client(ProxySocket socket, ProxyShared& shared) {
  std::make_shared<ProxyConnection>(std::move(socket), shared)->start();
}

}  // namespace sb::record_detail
