// RecordProxy's listener and thread; each client connection is a ProxyConnection
// (record/proxy_connection.cpp), its upstream side an UpstreamLink (record/upstream_link.cpp).
// Connections are accepted as the server accepts them (listener/accept_loop.h: a back-off when
// out of descriptors) and let in by the same gate (listener/connection_gate.h), whose cap keeps
// two descriptors per connection (client and upstream) within RLIMIT_NOFILE.
#include "record/record_proxy.h"

#include <optional>
#include <stdexcept>
#include <thread>

#include "client/tls_client.h"
#include "record/proxy_shared.h"

namespace sb {

namespace asio = boost::asio;
using record_detail::error_code;
using record_detail::ProxyClock;
using record_detail::ProxyShared;
using record_detail::ProxySocket;
using tcp = asio::ip::tcp;

std::string upstream_target(const Url& upstream, std::string_view target) {
  // A SOAP service is one endpoint: with a path in --upstream, every request goes there.
  if (upstream.path.empty()) return std::string(target);
  return upstream.path;
}

class RecordProxy::Impl {
 public:
  Impl(RecordConfig config, RecordWriter* writer)
      : config_(std::move(config)), shared_{config_, {}, writer, {}} {}

  void start();
  void stop();
  std::string url() const { return url_; }
  RecordCounts counts() const {
    return {shared_.forwarded.load(), shared_.failed.load(), shared_.cut.load(),
            shared_.clients.load(), shared_.refused.load()};
  }

 private:
  // Lets an accepted client in through the gate (or closes it at once).
  bool take(ProxySocket socket);

  RecordConfig config_;           // what the proxy does
  ProxyShared shared_;            // what the connections share (outlives ioc_'s handlers)
  asio::io_context ioc_{1};       // every handler, on thread_
  tcp::acceptor acceptor_{ioc_};  // the listening socket
  std::optional<listener::AcceptLoop> accepting_;  // accepts on acceptor_, backs off on errors
  std::string url_;                                // http://address:port
  std::thread thread_;                             // runs ioc_
};

void RecordProxy::Impl::start() {
  error_code ec;
  tcp::resolver resolver(ioc_);
  for (const auto& e : resolver.resolve(config_.upstream.host, config_.upstream.port, ec))
    shared_.upstream.endpoints.push_back(e.endpoint());
  if (ec || shared_.upstream.endpoints.empty())
    throw std::runtime_error("upstream " + config_.upstream.host + ": " + ec.message());
  shared_.upstream.host = config_.upstream.host;
  shared_.upstream.verify_peer = config_.verify_peer;
  if (config_.upstream.tls) {
    shared_.upstream.tls.emplace(asio::ssl::context::tls_client);
    configure_tls_client(*shared_.upstream.tls, config_.verify_peer);
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
  shared_.gate.open(config_.limits.max_connections, 2);  // the client's and the upstream's
  accepting_.emplace(
      acceptor_, [this]() -> asio::io_context& { return ioc_; },
      [this](ProxySocket socket) { return take(std::move(socket)); });
  accepting_->start();
  thread_ = std::thread([this] { ioc_.run(); });
}

bool RecordProxy::Impl::take(ProxySocket socket) {
  ++shared_.clients;
  const record_detail::Admission admission = shared_.gate.enter();
  if (admission == record_detail::Admission::drop) return true;  // closed by its destructor
  record_detail::serve_client(std::move(socket), shared_, admission);
  return true;
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
