#include "harness/binary_rpc.h"

#include <poll.h>

#include <boost/asio.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <thread>
#include <unordered_set>
#include <utility>

#include "harness/corpus.h"
#include "harness/service.h"
#include "harness/wire_meter.h"
#include "parsers/registry.h"

namespace sb {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;
using Clock = std::chrono::steady_clock;

namespace {

std::int64_t ns_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(b - a).count();
}

// The corpus's getChain response, decoded once (JSON-RPC: the smallest parse) and binary-encoded
// once as a whole frame; empty when the corpus or a JSON adapter is missing.
std::string load_chain_frame(const std::filesystem::path& corpus_dir) {
  try {
    const std::string json = read_message_file(corpus_dir / "jsonrpc" / "getChain.response.json");
    std::unique_ptr<Adapter> adapter = make_adapter(kDefaultJsonAdapter);
    if (!adapter) return {};
    MessageBuffer buffer(json);
    rpc::DecodeContext context;
    context.protocol = rpc::Protocol::jsonrpc;
    context.method = "getChain";
    rpc::Message message;
    DecodeReport report;
    if (!adapter->decode(buffer, context, message, report).ok()) return {};
    std::string frame;
    std::string error;
    if (!encode_binary_frame(message, frame, error)) return {};
    return frame;
  } catch (const std::exception&) {
    return {};
  }
}

}  // namespace

// ------------------------------------------------------------------------------------ server

class BinaryServer::Impl {
 public:
  // One connection: read a frame, answer it, read the next. Lives on the I/O thread only.
  class Session : public std::enable_shared_from_this<Session> {
   public:
    Session(Impl& server, tcp::socket socket)
        : server_(server), socket_(std::move(socket)), timer_(server.ioc_) {
      server_.sessions_.insert(this);
    }
    ~Session() { server_.sessions_.erase(this); }

    void start() {
      error_code ec;
      socket_.set_option(tcp::no_delay(true), ec);
      read_header();
    }

    // Closes the socket and cancels the timer: pending operations finish with operation_aborted.
    void shutdown() {
      error_code ec;
      timer_.cancel();
      socket_.close(ec);
    }

   private:
    // Closes the connection if the next step does not complete within the idle timeout.
    void arm_idle_timer() {
      timer_.expires_after(server_.config_.idle_timeout);
      timer_.async_wait([self = shared_from_this()](error_code ec) {
        if (!ec) self->shutdown();
      });
    }

    void read_header() {
      arm_idle_timer();
      asio::async_read(socket_, asio::buffer(header_),
                       [self = shared_from_this()](error_code ec, std::size_t) {
                         self->timer_.cancel();
                         if (!ec) self->on_header();
                       });
    }

    void on_header() {
      const std::uint32_t length = read_frame_length(header_.data());
      if (length > server_.config_.max_frame) {
        // The payload is not read, so the stream cannot be resynchronised: answer, then close.
        reply(make_fault(rpc::fault::invalid_request,
                         "invalid request: frame of " + std::to_string(length) +
                             " bytes exceeds the limit of " +
                             std::to_string(server_.config_.max_frame)),
              /*close_after=*/true);
        return;
      }
      payload_.resize(length);
      arm_idle_timer();
      asio::async_read(socket_, asio::buffer(payload_),
                       [self = shared_from_this()](error_code ec, std::size_t) {
                         self->timer_.cancel();
                         if (!ec) self->on_payload();
                       });
    }

    void on_payload() {
      std::string error;
      if (!decode_binary(payload_, request_, error)) {
        // The frame length kept the stream in sync: answer the fault and keep the connection.
        reply(make_fault(rpc::fault::parse_error, "parse error: " + error), false);
        return;
      }
      if (request_.kind != rpc::MessageKind::call) {
        reply(make_fault(rpc::fault::invalid_request, "invalid request: not a call"), false);
        return;
      }
      if (request_.method == "getChain" && request_.params.empty() &&
          !server_.chain_frame_.empty()) {
        write_frame(server_.chain_frame_, false);  // passthrough: never re-encoded
        return;
      }
      DispatchResult result = server_.service_.dispatch(request_);
      if (result.delay.count() > 0) {
        timer_.expires_after(result.delay);
        timer_.async_wait(
            [self = shared_from_this(), response = std::move(result.response)](error_code ec) {
              if (!ec) self->reply(response, false);
            });
        return;
      }
      reply(result.response, false);
    }

    void reply(const rpc::Message& response, bool close_after) {
      std::string error;
      if (!encode_binary_frame(response, out_, error) &&
          !encode_binary_frame(make_fault(rpc::fault::internal_error, "internal error: " + error),
                               out_, error)) {
        shutdown();
        return;
      }
      write_frame(out_, close_after);
    }

    // `frame` outlives the write: it is out_ or the server's chain frame.
    void write_frame(const std::string& frame, bool close_after) {
      arm_idle_timer();
      asio::async_write(socket_, asio::buffer(frame),
                        [self = shared_from_this(), close_after](error_code ec, std::size_t) {
                          self->timer_.cancel();
                          if (ec) return;
                          if (close_after) {
                            error_code ignored;
                            self->socket_.shutdown(tcp::socket::shutdown_send, ignored);
                            self->drain();
                            return;
                          }
                          self->read_header();
                        });
    }

    // After a fatal fault: discard what the client still sends until it closes (closing with
    // unread data would reset the connection and could destroy the fault before it is read).
    void drain() {
      arm_idle_timer();
      socket_.async_read_some(asio::buffer(discard_),
                              [self = shared_from_this()](error_code ec, std::size_t) {
                                self->timer_.cancel();
                                if (!ec) self->drain();
                              });
    }

    Impl& server_;                           // owner: config, service, chain frame, registry
    tcp::socket socket_;                     // the connection
    asio::steady_timer timer_;               // idle timeout, or respond's delay
    std::array<unsigned char, 4> header_{};  // frame header being read
    std::string payload_;                    // frame payload being read
    std::string out_;                        // response frame being written
    rpc::Message request_;                   // decoded request
    std::array<char, 4096> discard_{};       // drain() target
  };

  explicit Impl(BinaryServerConfig config) : config_(std::move(config)) {}

  void start() {
    if (thread_.joinable()) return;
    chain_frame_ =
        load_chain_frame(config_.corpus_dir.empty() ? default_corpus_dir() : config_.corpus_dir);
    error_code ec;
    const asio::ip::address address = asio::ip::make_address(config_.address, ec);
    if (ec) throw std::runtime_error("binary server: bad address " + config_.address);
    const tcp::endpoint endpoint(address, config_.port);
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
      acceptor_.close(ec);
      throw std::runtime_error("binary server: cannot listen on " + config_.address + ":" +
                               std::to_string(config_.port) + ": " + ec.message());
    }
    port_ = acceptor_.local_endpoint().port();
    accept();
    thread_ = std::thread([this] { ioc_.run(); });
  }

  void stop() {
    if (!thread_.joinable()) return;
    asio::post(ioc_, [this] {
      error_code ec;
      acceptor_.close(ec);
      // Copy first: shutting a session down never destroys it here (handlers still hold it), but
      // the set must not be iterated while anything could change it.
      std::vector<Session*> live(sessions_.begin(), sessions_.end());
      for (Session* s : live) s->shutdown();
      ioc_.stop();
    });
    thread_.join();
  }

  ~Impl() { stop(); }

  void accept() {
    acceptor_.async_accept([this](error_code ec, tcp::socket socket) {
      if (ec) {
        if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
      } else {
        std::make_shared<Session>(*this, std::move(socket))->start();
      }
      accept();
    });
  }

  BinaryServerConfig config_;  // as given
  Service service_;            // the dispatcher every family shares
  std::string chain_frame_;    // pre-encoded getChain response frame, or empty
  std::uint16_t port_ = 0;     // bound port
  // Declared before ioc_: sessions still queued in ioc_ deregister when it is destroyed.
  std::unordered_set<Session*> sessions_;  // live connections (I/O thread only)
  asio::io_context ioc_{1};                // the one I/O thread's context
  tcp::acceptor acceptor_{ioc_};           // listening socket
  std::thread thread_;                     // runs ioc_
};

BinaryServer::BinaryServer(BinaryServerConfig config)
    : impl_(std::make_unique<Impl>(std::move(config))) {}
BinaryServer::~BinaryServer() = default;
void BinaryServer::start() { impl_->start(); }
void BinaryServer::stop() { impl_->stop(); }
std::uint16_t BinaryServer::port() const { return impl_->port_; }
bool BinaryServer::has_chain_document() const { return !impl_->chain_frame_.empty(); }

// ------------------------------------------------------------------------------------ client

class BinaryClient::Impl {
 public:
  explicit Impl(BinaryClientConfig config) : config_(std::move(config)) {}

  CallResult call(const rpc::Message& request) {
    CallResult r;
    try {
      call_into(request, r);
    } catch (const std::exception& e) {
      // Nothing is expected to throw (error codes everywhere); an allocation failure still must
      // not escape call().
      fail(r, std::string("binary call: ") + e.what());
    }
    return r;
  }

  void close() {
    error_code ec;
    socket_.close(ec);
  }

 private:
  // Runs one asynchronous operation to completion, or until the I/O timeout: then the socket is
  // closed and the result is timed_out. Synchronous Asio calls cannot time out (they poll
  // forever), hence async operations driven on this thread.
  template <class Start>
  error_code run(Start&& start) {
    error_code result = asio::error::would_block;
    start([&result](error_code ec, auto&&...) { result = ec; });
    ioc_.restart();
    ioc_.run_for(config_.io_timeout);
    if (result == asio::error::would_block) {
      close();
      ioc_.restart();
      ioc_.run();
      return asio::error::timed_out;
    }
    return result;
  }

  void fail(CallResult& r, std::string error) {
    close();
    r.ok = false;
    r.error = std::move(error);
  }

  // A kept-alive connection the server has closed (or written to unasked) is readable: drop it
  // rather than send a request that would fail.
  bool stale() {
    pollfd p{socket_.native_handle(), POLLIN, 0};
    return ::poll(&p, 1, 0) != 0;
  }

  bool connect(CallResult& r) {
    if (endpoints_.empty()) {
      tcp::resolver resolver(ioc_);
      error_code ec;
      auto results = resolver.resolve(config_.host, std::to_string(config_.port), ec);
      if (ec) {
        fail(r, "resolve " + config_.host + ": " + ec.message());
        return false;
      }
      for (const auto& e : results) endpoints_.push_back(e.endpoint());
    }
    error_code ec = run([&](auto handler) { asio::async_connect(socket_, endpoints_, handler); });
    if (ec) {
      fail(r, "connect " + config_.host + ":" + std::to_string(config_.port) + ": " + ec.message());
      return false;
    }
    socket_.set_option(tcp::no_delay(true), ec);
    // Baseline before any payload: absorbs a counted SYN, and the whole connection is this call's.
    meter_.start(socket_.native_handle());
    r.connected = true;
    return true;
  }

  void call_into(const rpc::Message& request, CallResult& r) {
    const Clock::time_point t0 = Clock::now();
    std::string error;
    if (!encode_binary_frame(request, out_, error)) {
      r.error = error;
      return;
    }
    const Clock::time_point t1 = Clock::now();
    if (socket_.is_open() && stale()) close();
    if (!socket_.is_open()) {
      if (!connect(r)) return;
    } else {
      meter_.start(socket_.native_handle());
    }
    error_code ec =
        run([&](auto handler) { asio::async_write(socket_, asio::buffer(out_), handler); });
    if (ec) return fail(r, "write: " + ec.message());
    ec = run([&](auto handler) { asio::async_read(socket_, asio::buffer(header_), handler); });
    if (ec) return fail(r, "read frame header: " + ec.message());
    const std::uint32_t length = read_frame_length(header_.data());
    if (length > config_.max_frame) {
      return fail(r, "response frame of " + std::to_string(length) + " bytes exceeds " +
                         std::to_string(config_.max_frame));
    }
    payload_.resize(length);
    ec = run([&](auto handler) { asio::async_read(socket_, asio::buffer(payload_), handler); });
    if (ec) return fail(r, "read frame payload: " + ec.message());
    const Clock::time_point t2 = Clock::now();
    const bool decoded = decode_binary(payload_, r.response, error);
    const Clock::time_point t3 = Clock::now();
    const SocketBytes bytes = meter_.delta(socket_.native_handle());
    r.wire = {bytes.sent, bytes.received};
    r.timing = {ns_between(t0, t1), ns_between(t0, t3), ns_between(t2, t3)};
    if (!decoded) return fail(r, error);
    if (r.response.kind == rpc::MessageKind::call) return fail(r, "binary response is a call");
    r.ok = true;
    if (!config_.keep_alive) close();
  }

  BinaryClientConfig config_;              // as given
  asio::io_context ioc_{1};                // driven by the calling thread only
  tcp::socket socket_{ioc_};               // the connection, when open
  std::vector<tcp::endpoint> endpoints_;   // resolved once
  WireMeter meter_;                        // per-call byte counts
  std::string out_;                        // request frame
  std::array<unsigned char, 4> header_{};  // response frame header
  std::string payload_;                    // response payload
};

BinaryClient::BinaryClient(BinaryClientConfig config)
    : impl_(std::make_unique<Impl>(std::move(config))) {}
BinaryClient::~BinaryClient() = default;
CallResult BinaryClient::call(const rpc::Message& request) { return impl_->call(request); }
void BinaryClient::close() { impl_->close(); }

}  // namespace sb
