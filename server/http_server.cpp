// RpcServer (server/http_server.h): the listener and its lifetime. One io_context per I/O thread,
// each run by its thread alone (as nginx's workers, but in one process): the acceptor, on the
// first (listener/accept_loop.h: backing off when out of descriptors), hands each connection
// round robin to a thread's io_context through the SessionRegistry (server/http_session.h), and
// the connection stays there, so its handlers need no strand; RpcEndpoint
// (server/rpc_endpoint.h) builds every response.
#include "server/http_server.h"

#include <openssl/ssl.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core/error.hpp>

#include "server/http_session.h"
#include "server/rpc_endpoint.h"
#include "server/tls_certificate.h"

namespace sb {

namespace {

namespace net = server_detail::net;
namespace beast = server_detail::beast;
namespace ssl = server_detail::ssl;
using tcp = server_detail::tcp;
using server_detail::SessionExecutor;

constexpr auto kStopGrace = std::chrono::seconds(2);  // stop(): wait for sessions to close

}  // namespace

class RpcServer::Impl {
 public:
  explicit Impl(ServerConfig config)
      : config_(std::move(config)), endpoint_(config_), sessions_(config_, endpoint_) {}

  // RpcServer::start(): checks the configuration, then TLS, getChain documents, listen, threads.
  void start();
  // RpcServer::stop().
  void stop();
  // RpcServer::wait().
  void wait();
  // The bound port.
  std::uint16_t port() const { return port_; }
  // The URL the WSDL advertises.
  std::string base_url() const { return endpoint_.base_url(); }
  // RpcServer::on_request().
  void on_request(std::function<void(const ServerTiming&)> cb) {
    endpoint_.on_request(std::move(cb));
  }

 private:
  // Makes the TLS context: modern protocols, resumption, the configured or a self-signed
  // certificate.
  void make_tls();
  // Opens, binds and listens on the configured address; the endpoint learns the bound address.
  void listen();
  // Starts accepting and the I/O threads, one io_context each.
  void start_threads();
  // I/O thread i's body: serves its io_context until it runs dry or stops; a throwing handler
  // is logged.
  void run_thread(unsigned i);
  // Closes the acceptor (on its thread), lets the io_contexts run dry and waits kStopGrace for
  // them; then stops them.
  void close_listener();
  // Destroys the acceptor, its timer and the io_contexts (with any handlers left behind).
  void release();
  // The io_context the next connection goes to, round robin (on the acceptor's thread).
  net::io_context& next_context();

  ServerConfig config_;                      // as given (threads resolved at start)
  server_detail::RpcEndpoint endpoint_;      // builds every response
  server_detail::SessionRegistry sessions_;  // live connections (declared first: outlives them)
  std::uint16_t port_ = 0;                   // the bound port
  std::optional<ssl::context> tls_;          // the TLS context (config.tls)
  std::vector<std::unique_ptr<net::io_context>> contexts_;       // one per I/O thread; [0] accepts
  std::vector<net::executor_work_guard<SessionExecutor>> work_;  // keep them running until stop
  std::optional<tcp::acceptor> acceptor_;          // the listening socket (on contexts_[0])
  std::optional<listener::AcceptLoop> accepting_;  // accepts on acceptor_, backs off on errors
  std::size_t next_context_ = 0;                   // where the next connection goes
  std::vector<std::thread> threads_;               // the I/O threads, thread i runs contexts_[i]
  std::mutex state_mutex_;                         // guards running_ and live_threads_
  std::condition_variable state_cv_;               // signals running_/live_threads_ changes
  bool running_ = false;                           // between start() and stop()
  std::size_t live_threads_ = 0;                   // I/O threads still inside run()
};

// ------------------------------------------------------------------ start

void RpcServer::Impl::start() {
  {
    std::lock_guard lock(state_mutex_);
    if (running_ || !contexts_.empty()) throw std::runtime_error("server already started");
  }
  endpoint_.check_config();
  if (config_.tls) make_tls();
  endpoint_.load_chain();
  listen();
  start_threads();
}

void RpcServer::Impl::make_tls() {
  tls_.emplace(ssl::context::tls_server);
  tls_->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                    ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
  SSL_CTX* ctx = tls_->native_handle();
  // Resumption: a server-side session cache for TLS 1.2 session ids, and (default on) TLS 1.3
  // session tickets; the id context is required for either to be accepted.
  SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_SERVER);
  static constexpr unsigned char kIdContext[] = "soapbench";
  SSL_CTX_set_session_id_context(ctx, kIdContext, sizeof kIdContext - 1);
  SSL_CTX_clear_options(ctx, SSL_OP_NO_TICKET);
  if (config_.cert_file.empty() && config_.key_file.empty()) {
    use_self_signed_certificate(ctx);
    return;
  }
  beast::error_code ec;
  tls_->use_certificate_chain_file(config_.cert_file.string(), ec);
  if (!ec) tls_->use_private_key_file(config_.key_file.string(), ssl::context::pem, ec);
  if (ec) {
    throw std::runtime_error("TLS: " + config_.cert_file.string() + ", " +
                             config_.key_file.string() + ": " + ec.message());
  }
}

void RpcServer::Impl::listen() {
  beast::error_code ec;
  const net::ip::address address = net::ip::make_address(config_.address, ec);
  if (ec) throw std::runtime_error("bad listen address '" + config_.address + "'");
  config_.threads =
      config_.threads != 0 ? config_.threads : std::max(1u, std::thread::hardware_concurrency());
  for (unsigned i = 0; i < config_.threads; ++i) {
    contexts_.push_back(std::make_unique<net::io_context>(1));  // 1: run by one thread
  }
  acceptor_.emplace(contexts_[0]->get_executor());
  accepting_.emplace(
      *acceptor_, [this]() -> net::io_context& { return next_context(); },
      [this](server_detail::SessionSocket s) {
        return sessions_.admit(std::move(s), tls_ ? &*tls_ : nullptr);
      });
  const tcp::endpoint endpoint(address, config_.port);
  auto fail = [&](const char* what) {
    release();
    tls_.reset();
    throw std::runtime_error(std::string(what) + " " + config_.address + ":" +
                             std::to_string(config_.port) + ": " + ec.message());
  };
  acceptor_->open(endpoint.protocol(), ec);
  if (ec) fail("cannot open");
  acceptor_->set_option(net::socket_base::reuse_address(true), ec);
  acceptor_->bind(endpoint, ec);
  if (ec) fail("cannot bind");
  acceptor_->listen(net::socket_base::max_listen_connections, ec);
  if (ec) fail("cannot listen on");
  port_ = acceptor_->local_endpoint().port();
  endpoint_.serve_at(address, port_);
}

void RpcServer::Impl::start_threads() {
  const unsigned n = config_.threads;  // resolved by listen()
  for (auto& ioc : contexts_) work_.push_back(net::make_work_guard(ioc->get_executor()));
  {
    std::lock_guard lock(state_mutex_);
    running_ = true;
    live_threads_ = n;
  }
  sessions_.reopen();
  net::dispatch(contexts_[0]->get_executor(), [this] { accepting_->start(); });
  endpoint_.make_workers(n);
  for (unsigned i = 0; i < n; ++i) threads_.emplace_back([this, i] { run_thread(i); });
}

void RpcServer::Impl::run_thread(unsigned i) {
  endpoint_.enter_thread(i);
  for (;;) {
    try {
      contexts_[i]->run();
      break;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "soapbench: serve: %s\n", e.what());  // handler threw: keep serving
    }
  }
  endpoint_.leave_thread();
  std::lock_guard lock(state_mutex_);
  --live_threads_;
  state_cv_.notify_all();
}

// ------------------------------------------------------------------ stop, wait

void RpcServer::Impl::stop() {
  {
    std::lock_guard lock(state_mutex_);
    if (contexts_.empty()) return;
  }
  for (const std::thread& t : threads_) {
    if (t.get_id() == std::this_thread::get_id()) {
      throw std::logic_error("RpcServer::stop() called from a server thread");
    }
  }
  sessions_.close_all();
  close_listener();
  for (std::thread& t : threads_) t.join();
  threads_.clear();
  release();
  tls_.reset();
  std::lock_guard lock(state_mutex_);
  running_ = false;
  state_cv_.notify_all();
}

void RpcServer::Impl::close_listener() {
  net::post(contexts_[0]->get_executor(), [this] {
    beast::error_code ec;
    acceptor_->close(ec);
    accepting_->cancel();
  });
  work_.clear();  // each io_context returns once its sessions have closed
  std::unique_lock lock(state_mutex_);
  if (!state_cv_.wait_for(lock, kStopGrace, [&] { return live_threads_ == 0; })) {
    for (auto& ioc : contexts_) ioc->stop();
  }
}

void RpcServer::Impl::release() {
  work_.clear();
  accepting_.reset();
  acceptor_.reset();
  contexts_.clear();  // destroys handlers a forced stop left behind (and their sessions)
}

void RpcServer::Impl::wait() {
  std::unique_lock lock(state_mutex_);
  state_cv_.wait(lock, [&] { return !running_; });
}

// ------------------------------------------------------------------ accept

net::io_context& RpcServer::Impl::next_context() {
  net::io_context& target = *contexts_[next_context_];
  next_context_ = (next_context_ + 1) % contexts_.size();
  return target;
}

// ------------------------------------------------------------------ RpcServer

RpcServer::RpcServer(ServerConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {}

RpcServer::~RpcServer() { stop(); }

void RpcServer::start() { impl_->start(); }
void RpcServer::stop() { impl_->stop(); }
void RpcServer::wait() { impl_->wait(); }
std::uint16_t RpcServer::port() const { return impl_->port(); }
std::string RpcServer::base_url() const { return impl_->base_url(); }
void RpcServer::on_request(std::function<void(const ServerTiming&)> callback) {
  impl_->on_request(std::move(callback));
}

}  // namespace sb
