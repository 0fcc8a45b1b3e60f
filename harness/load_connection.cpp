#include "harness/load_connection.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/read.hpp>

namespace sb {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using boost::system::error_code;

namespace {

// The largest answer body read (the corpus's biggest responses are a few MB).
constexpr std::uint64_t kMaxAnswerBytes = 256 * 1024 * 1024;

}  // namespace

LoadConnection::LoadConnection(asio::io_context& ioc, LoadSink& sink, const LoadCall& call,
                               std::span<const asio::ip::tcp::endpoint> endpoints,
                               std::size_t index, const PointConfig& config)
    : sink_(sink),
      call_(call),
      endpoints_(endpoints),
      index_(index),
      timeout_(config.timeout),
      socket_(ioc),
      timer_(ioc),
      judge_(call, config.decode_every) {}

void LoadConnection::start(LoadClock::time_point due) {
  due_ = due;
  busy_ = true;
  timed_out_ = false;
  ++generation_;
  arm_timer();
  reused_ = socket_.is_open();
  if (reused_) {
    write();
  } else {
    connect();
  }
}

void LoadConnection::after(std::chrono::nanoseconds delay, std::function<void()> then) {
  timer_.expires_after(delay);
  timer_.async_wait([then = std::move(then)](error_code ec) {
    if (!ec) then();
  });
}

void LoadConnection::arm_timer() {
  timer_.expires_after(timeout_);
  timer_.async_wait([this, g = generation_](error_code ec) {
    if (ec || g != generation_ || !busy_) return;
    timed_out_ = true;
    error_code ignored;
    socket_.close(ignored);  // the pending operation ends with operation_aborted
  });
}

void LoadConnection::connect() {
  asio::async_connect(socket_, endpoints_, [this](error_code ec, const auto&) {
    if (ec) return fail(LoadError::connect, timed_out_ ? "connect timed out" : ec.message());
    ++connects_;
    socket_.set_option(asio::ip::tcp::no_delay(true), ec);
    write();
  });
}

void LoadConnection::write() {
  asio::async_write(socket_, asio::buffer(call_.request), [this](error_code ec, std::size_t) {
    if (!ec) return read();
    if (!timed_out_ && retry_stale()) return;
    fail(timed_out_ ? LoadError::timeout : LoadError::io, "write: " + ec.message());
  });
}

void LoadConnection::read() {
  parser_.emplace();
  parser_->body_limit(kMaxAnswerBytes);
  http::async_read(socket_, buffer_, *parser_, [this](error_code ec, std::size_t) {
    if (!ec) return on_answer();
    // end_of_stream: closed before any byte of an answer, as a server closes an idle connection.
    if (!timed_out_ && ec == http::error::end_of_stream && retry_stale()) return;
    fail(timed_out_ ? LoadError::timeout : LoadError::io, "read: " + ec.message());
  });
}

void LoadConnection::on_answer() {
  const auto& answer = parser_->get();
  bool decoded = false;
  const std::optional<LoadError> error =
      judge_.judge(static_cast<int>(answer.result_int()), answer.body(), decoded);
  if (error) why_ = judge_.why();
  if (!answer.keep_alive()) drop();
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
  busy_ = false;
  timer_.cancel();
  sink_.call_done(*this, {due_, LoadClock::now(), error, answered, decoded});
}

void LoadConnection::drop() {
  error_code ignored;
  socket_.close(ignored);
  buffer_.clear();
}

}  // namespace sb
