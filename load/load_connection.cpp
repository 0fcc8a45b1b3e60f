#include "load/load_connection.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/read.hpp>

#include "client/tls_client.h"
#include "harness/content_coding.h"

namespace sb {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using boost::system::error_code;

namespace {

// The largest answer body read (the corpus's biggest responses are a few MB).
constexpr std::uint64_t kMaxAnswerBytes = 256 * 1024 * 1024;

}  // namespace

LoadTls::LoadTls(std::string host_name, bool resume_sessions)
    : context(asio::ssl::context::tls_client), host(std::move(host_name)), resume(resume_sessions) {
  configure_tls_client(context, false);
}

LoadConnection::LoadConnection(asio::io_context& ioc, LoadSink& sink,
                               std::span<const LoadCall> calls,
                               std::span<const asio::ip::tcp::endpoint> endpoints,
                               std::size_t index, const PointConfig& config, LoadTls* tls)
    : sink_(sink),
      calls_(calls),
      call_(&calls.front()),
      endpoints_(endpoints),
      index_(index),
      timeout_(config.timeout),
      socket_(ioc),
      tls_(tls),
      watchdog_(ioc),
      pause_(ioc),
      judges_(calls.size()),
      decode_every_(config.decode_every) {}

LoadConnection::~LoadConnection() {
  if (session_ != nullptr) SSL_SESSION_free(session_);
}

void LoadConnection::start(LoadClock::time_point due, std::size_t which) {
  which_ = which;
  call_ = &calls_[which];
  due_ = due;
  deadline_ = LoadClock::now() + timeout_;
  busy_ = true;
  timed_out_ = false;
  watch();
  reused_ = socket_.is_open();
  if (reused_) {
    write();
  } else {
    connect();
  }
}

void LoadConnection::after(std::chrono::nanoseconds delay, std::function<void()> then) {
  pause_.expires_after(delay);
  pause_.async_wait([then = std::move(then)](error_code ec) {
    if (!ec) then();
  });
}

void LoadConnection::disarm() {
  if (busy_ || armed_ == LoadClock::time_point::max()) return;
  armed_ = LoadClock::time_point::max();
  watchdog_.cancel();
}

void LoadConnection::watch() {
  if (armed_ <= deadline_) return;  // it fires in time and then looks at the current deadline
  armed_ = deadline_;
  watchdog_.expires_at(armed_);  // a later wait still pending ends with operation_aborted
  watchdog_.async_wait([this, expiry = armed_](error_code ec) {
    if (!ec) on_watchdog(expiry);
  });
}

void LoadConnection::on_watchdog(LoadClock::time_point expiry) {
  if (expiry != armed_) return;  // re-armed (earlier) since this wait began
  armed_ = LoadClock::time_point::max();
  if (!busy_) return;  // idle: the next call arms it again
  if (LoadClock::now() < deadline_) return watch();
  timed_out_ = true;
  error_code ignored;
  socket_.close(ignored);  // the pending operation ends with operation_aborted
}

void LoadConnection::connect() {
  asio::async_connect(socket_, endpoints_, [this](error_code ec, const auto&) {
    if (ec) return fail(LoadError::connect, timed_out_ ? "connect timed out" : ec.message());
    ++connects_;
    socket_.set_option(asio::ip::tcp::no_delay(true), ec);
    socket_.non_blocking(true, ec);  // write(): a send that would block returns at once
    if (tls_ != nullptr) return handshake();
    write();
  });
}

void LoadConnection::handshake() {
  // A fresh TLS layer per TCP connection, made here where no operation of the old one is pending.
  tls_stream_.emplace(socket_, tls_->context);
  SSL* ssl = tls_stream_->native_handle();
  prepare_tls_client(ssl, tls_->host, false);
  if (tls_->resume && session_ != nullptr) SSL_set_session(ssl, session_);
  session_kept_ = false;
  const LoadClock::time_point t0 = LoadClock::now();
  tls_stream_->async_handshake(asio::ssl::stream_base::client, [this, t0](error_code ec) {
    if (ec) {
      return fail(LoadError::connect,
                  timed_out_ ? "TLS handshake timed out" : "TLS handshake: " + ec.message());
    }
    const bool resumed = SSL_session_reused(tls_stream_->native_handle()) == 1;
    ++(resumed ? handshakes_.resumed : handshakes_.full);
    handshakes_.total_ns += std::chrono::nanoseconds(LoadClock::now() - t0).count();
    write();
  });
}

void LoadConnection::keep_session() {
  // TLS 1.3 sends its tickets after the handshake: only once an answer was read is the session
  // resumable.
  session_kept_ = true;
  SSL_SESSION* s = SSL_get1_session(tls_stream_->native_handle());
  if (s == nullptr) return;
  if (SSL_SESSION_is_resumable(s) != 1) return SSL_SESSION_free(s);
  if (session_ != nullptr) SSL_SESSION_free(session_);
  session_ = s;
}

template <class Op>
void LoadConnection::with_stream(Op&& op) {
  if (tls_ != nullptr) return op(*tls_stream_);
  op(socket_);
}

void LoadConnection::write() {
  if (tls_ != nullptr) {  // the TLS layer writes its records asynchronously
    return asio::async_write(*tls_stream_, asio::buffer(call_->request),
                             [this](error_code ec, std::size_t) {
                               if (ec) return write_failed(ec);
                               read();
                             });
  }
  // The request is small: the socket almost always takes it whole at once. The read starts
  // from the queue, after the handlers already due: by then the answer has often arrived, and
  // the read's first attempt (Asio reads at once when it starts) finds it, without a wasted
  // read and a wait for readiness.
  error_code ec;
  const std::size_t sent = socket_.write_some(asio::buffer(call_->request), ec);
  if (!ec && sent == call_->request.size())
    return asio::post(socket_.get_executor(), [this] { read(); });
  if (ec && ec != asio::error::would_block) return write_failed(ec);
  asio::async_write(socket_, asio::buffer(call_->request) + sent,
                    [this](error_code ec, std::size_t) {
                      if (ec) return write_failed(ec);
                      read();
                    });
}

void LoadConnection::write_failed(const error_code& ec) {
  if (!timed_out_ && retry_stale()) return;
  fail(timed_out_ ? LoadError::timeout : LoadError::io, "write: " + ec.message());
}

void LoadConnection::read() {
  parser_.emplace(body_);
  parser_->body_limit(kMaxAnswerBytes);
  with_stream([this](auto& stream) {
    http::async_read(stream, buffer_, *parser_, [this](error_code ec, std::size_t) {
      if (!ec) return on_answer();
      // end_of_stream (TLS: stream_truncated): closed before any byte of an answer, as a server
      // closes an idle connection.
      const bool closed =
          ec == http::error::end_of_stream || ec == asio::ssl::error::stream_truncated;
      if (!timed_out_ && closed && retry_stale()) return;
      fail(timed_out_ ? LoadError::timeout : LoadError::io, "read: " + ec.message());
    });
  });
}

void LoadConnection::on_answer() {
  if (tls_ != nullptr && tls_->resume && !session_kept_) keep_session();
  bool decoded = false;
  std::optional<AnswerJudge>& judge = judges_[which_];
  if (!judge) judge.emplace(*call_, decode_every_);
  // A coded answer (a replayed request that accepts gzip, as it was recorded) is judged decoded.
  std::string_view body = body_;
  std::optional<LoadError> error;
  std::string why;
  if (!is_identity_coding(parser_->content_encoding())) {
    if (decode_content(body_, parser_->content_encoding(), kMaxAnswerBytes, decoded_, why)) {
      body = decoded_;
    } else {
      error = LoadError::wrong_answer;
      why_ = "HTTP " + std::to_string(parser_->status()) + ", body: " + why;
    }
  }
  if (!error) {
    error = judge->judge(parser_->status(), body, decoded);
    if (error) why_ = judge->why();
  }
  if (!parser_->keep_alive()) drop();
  finish(error, true, decoded);
}

bool LoadConnection::retry_stale() {
  if (!reused_) return false;
  reused_ = false;
  drop();
  connect();
  return true;
}

void LoadConnection::fail(LoadError kind, const std::string& what) {
  why_ = what;
  drop();
  finish(kind, false, false);
}

void LoadConnection::finish(std::optional<LoadError> error, bool answered, bool decoded) {
  busy_ = false;  // the watchdog stays armed: it finds the connection idle or a later call
  sink_.call_done(*this, {due_, LoadClock::now(), error, answered, decoded, timed_out_});
}

void LoadConnection::drop() {
  if (tls_stream_) {  // no close_notify; marked shut down so OpenSSL keeps the session resumable
    SSL* ssl = tls_stream_->native_handle();
    SSL_set_shutdown(ssl, SSL_get_shutdown(ssl) | SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
  }
  error_code ignored;
  socket_.close(ignored);
  buffer_.clear();
}

}  // namespace sb
