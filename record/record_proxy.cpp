#include "record/record_proxy.h"

#include <atomic>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>

#include "client/tls_client.h"

namespace sb {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using boost::system::error_code;
using ProxyClock = std::chrono::steady_clock;

std::string upstream_target(const Url& upstream, std::string_view target) {
  // A SOAP service is one endpoint: with a path in --upstream, every request goes there.
  if (upstream.path.empty()) return std::string(target);
  return upstream.path;
}

namespace {

// The interim answer to "Expect: 100-continue" (the proxy reads the whole body itself).
constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";

// What every connection of one proxy shares, read-only but for the counters.
struct ProxyShared {
  const RecordConfig& config;               // limits, timeouts, the upstream's URL
  std::vector<tcp::endpoint> upstream;      // the upstream's addresses, resolved at start
  std::optional<asio::ssl::context> tls;    // https upstream: the client context
  RecordWriter* writer;                     // null: forward only
  ProxyClock::time_point t0;                // the recording's start
  std::atomic<std::uint64_t> forwarded{0};  // answers passed back
  std::atomic<std::uint64_t> failed{0};     // requests answered 502/504 by the proxy
  std::atomic<std::uint64_t> clients{0};    // client connections accepted

  std::int64_t us_since_start() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(ProxyClock::now() - t0).count();
  }
};

// One client connection and the upstream connection it forwards over, as in Boost.Beast's
// examples: one owning object, a straight chain read request → (connect → handshake) → write
// upstream → read answer → write answer → record → read the next request.
class ProxyConnection : public std::enable_shared_from_this<ProxyConnection> {
 public:
  ProxyConnection(tcp::socket socket, ProxyShared& shared)
      : shared_(shared), client_(std::move(socket)), upstream_(client_.get_executor()) {}

  void start() { read_request(); }

 private:
  void read_request();
  void on_header(error_code ec);
  void read_body();
  void on_request();
  void forward();
  void connect_upstream();
  void handshake();
  void write_upstream();
  void read_answer();
  void on_answer(error_code ec);
  void write_answer();
  void on_answer_written(error_code ec);
  // A reused upstream connection the upstream had closed: reconnect once and send again.
  bool retry_stale();
  // Answers the client `status` with a one-line body naming the upstream and `why`.
  void reply_error(http::status status, const std::string& why, bool close);
  void close_upstream();
  void close_client();
  // Runs `op` on the stream upstream calls go through: the TLS stream (https) or the socket.
  template <class Op>
  void with_upstream(Op&& op) {
    if (upstream_tls_) return op(*upstream_tls_);
    op(upstream_);
  }

  ProxyShared& shared_;               // the proxy's configuration and counters
  beast::tcp_stream client_;          // the client's connection
  beast::flat_buffer client_buffer_;  // bytes read from the client past a request
  std::optional<http::request_parser<http::string_body>> request_parser_;  // one per request
  http::request<http::string_body> request_;  // the request being forwarded
  beast::tcp_stream upstream_;                // the upstream connection, when open
  std::optional<asio::ssl::stream<beast::tcp_stream&>> upstream_tls_;  // https: its TLS layer
  beast::flat_buffer upstream_buffer_;  // bytes read from the upstream past an answer
  std::optional<http::response_parser<http::string_body>> answer_parser_;  // one per answer
  http::response<http::string_body> answer_;  // the answer being passed back (or the 502)
  RecordedExchange exchange_;                 // what is recorded of this exchange
  ProxyClock::time_point forwarded_at_;       // when the request was first sent upstream
  bool client_keep_alive_ = true;             // the client wants the connection kept
  bool reused_ = false;                       // the request went on an already open upstream
  bool retried_ = false;                      // it was sent again after a stale connection
  bool failed_ = false;                       // the proxy answered this request itself
};

void ProxyConnection::read_request() {
  request_parser_.emplace();
  request_parser_->body_limit(shared_.config.max_body_bytes);
  client_.expires_after(shared_.config.idle_timeout);
  http::async_read_header(
      client_, client_buffer_, *request_parser_,
      [self = shared_from_this()](error_code ec, std::size_t) { self->on_header(ec); });
}

void ProxyConnection::on_header(error_code ec) {
  if (ec) return close_client();  // closed, idle too long, or not HTTP: nothing to answer
  const auto expect = request_parser_->get()[http::field::expect];
  if (!beast::iequals(expect, "100-continue")) return read_body();
  asio::async_write(client_, asio::buffer(kContinue.data(), kContinue.size()),
                    [self = shared_from_this()](error_code ec, std::size_t) {
                      if (ec) return self->close_client();
                      self->read_body();
                    });
}

void ProxyConnection::read_body() {
  if (request_parser_->is_done()) return on_request();
  client_.expires_after(shared_.config.upstream_timeout);
  http::async_read(client_, client_buffer_, *request_parser_,
                   [self = shared_from_this()](error_code ec, std::size_t) {
                     if (ec == http::error::body_limit) {
                       return self->reply_error(http::status::payload_too_large,
                                                "request body larger than --max-body", true);
                     }
                     if (ec) return self->close_client();
                     self->on_request();
                   });
}

void ProxyConnection::on_request() {
  request_ = request_parser_->release();
  exchange_ = RecordedExchange{};
  exchange_.target = std::string(request_.target());
  exchange_.request_content_type = std::string(request_[http::field::content_type]);
  exchange_.soap_action = std::string(request_[http::field::soapaction]);
  exchange_.request_at_us = shared_.us_since_start();
  client_keep_alive_ = request_.keep_alive();
  // Hop-by-hop fields are the proxy's own business; the rest goes as the client wrote it.
  request_.erase(http::field::expect);
  request_.erase(http::field::proxy_connection);
  request_.erase(http::field::keep_alive);
  request_.version(11);
  request_.keep_alive(true);
  request_.target(upstream_target(shared_.config.upstream, request_.target()));
  request_.set(http::field::host, shared_.config.upstream.authority);
  retried_ = false;
  failed_ = false;
  forwarded_at_ = ProxyClock::now();
  forward();
}

void ProxyConnection::forward() {
  reused_ = upstream_.socket().is_open();
  if (reused_) return write_upstream();
  connect_upstream();
}

void ProxyConnection::connect_upstream() {
  upstream_.expires_after(shared_.config.upstream_timeout);
  upstream_.async_connect(
      shared_.upstream, [self = shared_from_this()](error_code ec, const tcp::endpoint&) {
        if (ec)
          return self->reply_error(http::status::bad_gateway, "connect: " + ec.message(), false);
        self->upstream_.socket().set_option(tcp::no_delay(true), ec);
        if (self->shared_.tls) return self->handshake();
        self->write_upstream();
      });
}

void ProxyConnection::handshake() {
  upstream_tls_.emplace(upstream_, *shared_.tls);
  prepare_tls_client(upstream_tls_->native_handle(), shared_.config.upstream.host,
                     shared_.config.verify_peer);
  upstream_tls_->async_handshake(asio::ssl::stream_base::client, [self = shared_from_this()](
                                                                     error_code ec) {
    if (ec) {
      return self->reply_error(http::status::bad_gateway, "TLS handshake: " + ec.message(), false);
    }
    self->write_upstream();
  });
}

void ProxyConnection::write_upstream() {
  upstream_.expires_after(shared_.config.upstream_timeout);
  with_upstream([this](auto& stream) {
    http::async_write(stream, request_, [self = shared_from_this()](error_code ec, std::size_t) {
      if (!ec) return self->read_answer();
      if (ec != beast::error::timeout && self->retry_stale()) return;
      self->reply_error(
          ec == beast::error::timeout ? http::status::gateway_timeout : http::status::bad_gateway,
          "writing the request: " + ec.message(), false);
    });
  });
}

void ProxyConnection::read_answer() {
  answer_parser_.emplace();
  answer_parser_->body_limit(shared_.config.max_body_bytes);
  upstream_.expires_after(shared_.config.upstream_timeout);
  with_upstream([this](auto& stream) {
    http::async_read(
        stream, upstream_buffer_, *answer_parser_,
        [self = shared_from_this()](error_code ec, std::size_t) { self->on_answer(ec); });
  });
}

void ProxyConnection::on_answer(error_code ec) {
  if (ec == beast::error::timeout) {
    return reply_error(
        http::status::gateway_timeout,
        "no answer within " + std::to_string(shared_.config.upstream_timeout.count()) + " ms",
        false);
  }
  if (ec) {
    const bool nothing = !answer_parser_->got_some();
    // Closed before any byte of an answer on a reused connection: it idled out upstream.
    if (nothing && ec == http::error::end_of_stream && retry_stale()) return;
    if (ec == http::error::body_limit)
      return reply_error(http::status::bad_gateway, "answer body larger than --max-body", false);
    return reply_error(http::status::bad_gateway,
                       nothing ? "closed the connection without answering (" + ec.message() + ")"
                               : "closed the connection mid-response (" + ec.message() + ")",
                       false);
  }
  answer_ = answer_parser_->release();
  ++shared_.forwarded;
  exchange_.status = answer_.result_int();
  exchange_.response_content_type = std::string(answer_[http::field::content_type]);
  exchange_.response_at_us = shared_.us_since_start();
  exchange_.upstream_us =
      std::chrono::duration_cast<std::chrono::microseconds>(ProxyClock::now() - forwarded_at_)
          .count();
  if (!answer_.keep_alive()) close_upstream();
  answer_.erase(http::field::keep_alive);
  answer_.version(11);
  answer_.keep_alive(client_keep_alive_);
  write_answer();
}

void ProxyConnection::write_answer() {
  client_.expires_after(shared_.config.upstream_timeout);
  http::async_write(client_, answer_, [self = shared_from_this()](error_code ec, std::size_t) {
    self->on_answer_written(ec);
  });
}

void ProxyConnection::on_answer_written(error_code ec) {
  if (ec) return close_client();
  if (!failed_ && shared_.writer != nullptr && !request_.body().empty()) {
    exchange_.request_body = std::move(request_.body());
    exchange_.response_body = std::move(answer_.body());
    shared_.writer->add(std::move(exchange_));
  }
  if (!client_keep_alive_) return close_client();
  read_request();
}

bool ProxyConnection::retry_stale() {
  if (!reused_ || retried_) return false;
  retried_ = true;
  close_upstream();
  connect_upstream();
  return true;
}

void ProxyConnection::reply_error(http::status status, const std::string& why, bool close) {
  close_upstream();
  failed_ = true;
  ++shared_.failed;
  if (close) client_keep_alive_ = false;
  answer_ = {};
  answer_.version(11);
  answer_.result(status);
  answer_.set(http::field::content_type, "text/plain; charset=utf-8");
  answer_.set(http::field::server, "soapbench record");
  std::string upstream = shared_.config.upstream.tls ? "https://" : "http://";
  upstream += shared_.config.upstream.authority;
  answer_.body() = "soapbench record: upstream " + upstream + ": " + why + "\n";
  answer_.keep_alive(client_keep_alive_);
  answer_.prepare_payload();
  write_answer();
}

void ProxyConnection::close_upstream() {
  upstream_tls_.reset();  // no close_notify: the connection is dropped either way
  error_code ignored;
  upstream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
  upstream_.close();
  upstream_buffer_.clear();
}

void ProxyConnection::close_client() {
  close_upstream();
  error_code ignored;
  client_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  client_.close();
}

}  // namespace

class RecordProxy::Impl {
 public:
  Impl(RecordConfig config, RecordWriter* writer)
      : config_(std::move(config)), shared_{config_, {}, {}, writer, {}} {}

  void start();
  void stop();
  std::string url() const { return url_; }
  RecordCounts counts() const {
    return {shared_.forwarded.load(), shared_.failed.load(), shared_.clients.load()};
  }

 private:
  void accept();

  RecordConfig config_;           // what the proxy does
  asio::io_context ioc_{1};       // every handler, on thread_
  ProxyShared shared_;            // what the connections share
  tcp::acceptor acceptor_{ioc_};  // the listening socket
  std::string url_;               // http://address:port
  std::thread thread_;            // runs ioc_
};

void RecordProxy::Impl::start() {
  error_code ec;
  tcp::resolver resolver(ioc_);
  for (const auto& e : resolver.resolve(config_.upstream.host, config_.upstream.port, ec))
    shared_.upstream.push_back(e.endpoint());
  if (ec || shared_.upstream.empty())
    throw std::runtime_error("upstream " + config_.upstream.host + ": " + ec.message());
  if (config_.upstream.tls) {
    shared_.tls.emplace(asio::ssl::context::tls_client);
    configure_tls_client(*shared_.tls, config_.verify_peer);
  }
  const asio::ip::address address = asio::ip::make_address(config_.listen_address, ec);
  if (ec)
    throw std::runtime_error("listen address " + config_.listen_address + ": " + ec.message());
  const tcp::endpoint endpoint(address, config_.listen_port);
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(tcp::acceptor::reuse_address(true));
  acceptor_.bind(endpoint, ec);
  if (ec) throw std::runtime_error("listen on " + config_.listen_address + ": " + ec.message());
  acceptor_.listen();
  const tcp::endpoint bound = acceptor_.local_endpoint();
  url_ = "http://" + (address.is_v6() ? "[" + address.to_string() + "]" : address.to_string()) +
         ":" + std::to_string(bound.port());
  shared_.t0 = ProxyClock::now();
  accept();
  thread_ = std::thread([this] { ioc_.run(); });
}

void RecordProxy::Impl::accept() {
  acceptor_.async_accept([this](error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted) return;
    if (!ec) {
      ++shared_.clients;
      socket.set_option(tcp::no_delay(true), ec);
      std::make_shared<ProxyConnection>(std::move(socket), shared_)->start();
    }
    accept();
  });
}

void RecordProxy::Impl::stop() {
  if (!thread_.joinable()) return;
  ioc_.stop();
  thread_.join();
}

RecordProxy::RecordProxy(RecordConfig config, RecordWriter* writer)
    : impl_(std::make_unique<Impl>(std::move(config), writer)) {}
RecordProxy::~RecordProxy() { stop(); }
void RecordProxy::start() { impl_->start(); }
void RecordProxy::stop() { impl_->stop(); }
std::string RecordProxy::url() const { return impl_->url(); }
RecordCounts RecordProxy::counts() const { return impl_->counts(); }

}  // namespace sb
