#include "binary/binary_rpc.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>

#include <boost/asio.hpp>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <thread>
#include <unordered_set>
#include <utility>

#include "client/wire_meter.h"
#include "harness/corpus.h"
#include "harness/service.h"
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
        : server_(server),
          socket_(std::move(socket)),
          idle_timer_(server.ioc_),
          delay_timer_(server.ioc_) {
      server_.sessions_.insert(this);
    }
    ~Session() { server_.sessions_.erase(this); }

    void start() {
      error_code ec;
      socket_.set_option(tcp::no_delay(true), ec);
      touch();
      watch_idle();
      read_request();
    }

    // Closes the socket and cancels the timers: pending operations finish with operation_aborted.
    void shutdown() {
      error_code ec;
      idle_timer_.cancel();
      delay_timer_.cancel();
      socket_.close(ec);
    }

   private:
    // Each step of a call (waiting for a request, reading it, answering) marks the time; the
    // idle watch closes the connection when no step started within the idle timeout. A timer
    // re-armed per step instead cost a timerfd_settime system call per step (3 per call).
    void touch() { last_step_ = Clock::now(); }

    // One timer per connection, re-armed only when it fires. It holds the session weakly: a
    // finished connection is not kept for the idle timeout.
    void watch_idle() {
      idle_timer_.expires_at(last_step_ + server_.config_.idle_timeout);
      idle_timer_.async_wait([weak = weak_from_this()](error_code ec) {
        const std::shared_ptr<Session> self = weak.lock();
        if (ec || !self) return;
        if (Clock::now() - self->last_step_ >= self->server_.config_.idle_timeout) {
          self->shutdown();
        } else {
          self->watch_idle();
        }
      });
    }

    // Reads what the client sent into in_ (a request's header and payload usually arrive in
    // one recv: one system call, where reading the header and then the payload took two).
    void read_request() {
      touch();
      if (in_.size() - have_ < 4096) in_.resize(have_ + 4096);
      socket_.async_read_some(asio::buffer(in_.data() + have_, in_.size() - have_),
                              [self = shared_from_this()](error_code ec, std::size_t n) {
                                if (ec) return self->shutdown();
                                self->have_ += n;
                                self->on_bytes();
                              });
    }

    // Answers the frame at the start of in_ once it is whole; reads on otherwise.
    void on_bytes() {
      if (have_ < kBinaryFrameHeader) return read_request();
      const std::uint32_t length =
          read_frame_length(reinterpret_cast<const unsigned char*>(in_.data()));
      if (length > server_.config_.max_frame) {
        // The payload is not read, so the stream cannot be resynchronised: answer, then close.
        reply(make_fault(rpc::fault::invalid_request,
                         "invalid request: frame of " + std::to_string(length) +
                             " bytes exceeds the limit of " +
                             std::to_string(server_.config_.max_frame)),
              /*close_after=*/true);
        return;
      }
      frame_ = kBinaryFrameHeader + length;
      if (have_ < frame_) {
        if (in_.size() < frame_) in_.resize(frame_);
        return read_request();
      }
      on_payload(std::string_view(in_).substr(kBinaryFrameHeader, length));
    }

    // After an answer: drops the answered frame from in_ and answers the next one (a client may
    // send several before reading).
    void next_request() {
      in_.erase(0, frame_);
      have_ -= frame_;
      frame_ = 0;
      on_bytes();
    }

    void on_payload(std::string_view payload) {
      std::string error;
      if (!decode_binary(payload, request_, error)) {
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
        touch();  // the delay is the service's, not the client's silence
        delay_timer_.expires_after(result.delay);
        delay_timer_.async_wait(
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
      touch();
      asio::async_write(socket_, asio::buffer(frame),
                        [self = shared_from_this(), close_after](error_code ec, std::size_t) {
                          if (ec) return self->shutdown();
                          if (close_after) {
                            error_code ignored;
                            self->socket_.shutdown(tcp::socket::shutdown_send, ignored);
                            self->drain();
                            return;
                          }
                          self->next_request();
                        });
    }

    // After a fatal fault: discard what the client still sends until it closes (closing with
    // unread data would reset the connection and could destroy the fault before it is read).
    void drain() {
      touch();
      socket_.async_read_some(asio::buffer(discard_),
                              [self = shared_from_this()](error_code ec, std::size_t) {
                                if (ec) return self->shutdown();
                                self->drain();
                              });
    }

    Impl& server_;                      // owner: config, service, chain frame, registry
    tcp::socket socket_;                // the connection
    asio::steady_timer idle_timer_;     // fires at the idle deadline (see watch_idle)
    asio::steady_timer delay_timer_;    // respond's delay
    Clock::time_point last_step_;       // when the latest step of a call started
    std::string in_;                    // bytes read and not yet answered
    std::size_t have_ = 0;              // bytes of in_ that were read
    std::size_t frame_ = 0;             // size of the frame being answered, header included
    std::string out_;                   // response frame being written
    rpc::Message request_;              // decoded request
    std::array<char, 4096> discard_{};  // drain() target
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
  // Runs one asynchronous operation (the connect) to completion, or until the I/O timeout: then
  // the socket is closed and the result is timed_out. A synchronous Asio connect cannot time out;
  // the calls' send and recv are bounded by socket timeouts instead (make_blocking).
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
    if (!make_blocking(r)) return false;
    // Baseline before any payload: absorbs a counted SYN, and the whole connection is this call's.
    meter_.start(socket_.native_handle());
    r.connected = true;
    return true;
  }

  // After the connect, the call's I/O is plain blocking send/recv on the socket, bounded by the
  // I/O timeout as SO_SNDTIMEO/SO_RCVTIMEO: one system call each way, as the raw loopback floor
  // (roundtrip/floor/*) does. Asio's asynchronous operations cost a speculative recv that fails,
  // epoll_wait calls and a timer per operation (docs/benchmarks.md, "The raw loopback floor").
  bool make_blocking(CallResult& r) {
    const int fd = socket_.native_handle();
    const auto ms = config_.io_timeout.count();
    const timeval tv{static_cast<time_t>(ms / 1000), static_cast<suseconds_t>(ms % 1000 * 1000)};
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 ||
        ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0 ||
        ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv) != 0) {
      fail(r, std::string("socket options: ") + std::strerror(errno));
      return false;
    }
    return true;
  }

  // Writes all of out_; "" or the reason.
  std::string send_request() {
    std::string_view rest(out_);
    while (!rest.empty()) {
      const ssize_t n = ::send(socket_.native_handle(), rest.data(), rest.size(), MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return n < 0 && errno == EAGAIN ? "timed out" : std::strerror(errno);
      rest.remove_prefix(static_cast<std::size_t>(n));
    }
    return "";
  }

  // Reads one response frame into in_ (header and payload, as few recv calls as the bytes need);
  // "" or the reason.
  std::string read_response() {
    std::size_t have = 0;
    std::size_t want = kBinaryFrameHeader;
    if (in_.size() < 4096) in_.resize(4096);
    while (have < want) {
      const ssize_t n = ::recv(socket_.native_handle(), in_.data() + have, in_.size() - have, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n == 0) return "connection closed";
      if (n < 0) return errno == EAGAIN ? "timed out" : std::strerror(errno);
      have += static_cast<std::size_t>(n);
      if (want == kBinaryFrameHeader && have >= want) {
        const std::uint32_t length =
            read_frame_length(reinterpret_cast<const unsigned char*>(in_.data()));
        if (length > config_.max_frame) {
          return "response frame of " + std::to_string(length) + " bytes exceeds " +
                 std::to_string(config_.max_frame);
        }
        want += length;
        if (in_.size() < want) in_.resize(want);
      }
    }
    if (have > want) return "bytes beyond the response frame";
    frame_size_ = want;
    return "";
  }

  void call_into(const rpc::Message& request, CallResult& r) {
    // The byte counters' baseline is measurement, not the call: read before the clock starts
    // (two getsockopt calls; inside, they counted as transport). A new connection takes its own.
    if (socket_.is_open()) meter_.start(socket_.native_handle());
    const Clock::time_point t0 = Clock::now();
    std::string error;
    if (!encode_binary_frame(request, out_, error)) {
      r.error = error;
      return;
    }
    const Clock::time_point t1 = Clock::now();
    if (socket_.is_open() && stale()) close();
    if (!socket_.is_open() && !connect(r)) return;
    std::string why = send_request();
    if (!why.empty()) return fail(r, "write: " + why);
    why = read_response();
    if (!why.empty()) return fail(r, "read response frame: " + why);
    const Clock::time_point t2 = Clock::now();
    const std::string_view payload(in_.data() + kBinaryFrameHeader,
                                   frame_size_ - kBinaryFrameHeader);
    const bool decoded = decode_binary(payload, r.response, error);
    const Clock::time_point t3 = Clock::now();
    const SocketBytes bytes = meter_.delta(socket_.native_handle());
    r.wire = {bytes.sent, bytes.received};
    r.timing = {ns_between(t0, t1), ns_between(t0, t3), ns_between(t2, t3)};
    if (!decoded) return fail(r, error);
    if (r.response.kind == rpc::MessageKind::call) return fail(r, "binary response is a call");
    r.ok = true;
    if (!config_.keep_alive) close();
  }

  BinaryClientConfig config_;             // as given
  asio::io_context ioc_{1};               // driven by the calling thread only
  tcp::socket socket_{ioc_};              // the connection, when open
  std::vector<tcp::endpoint> endpoints_;  // resolved once
  WireMeter meter_;                       // per-call byte counts
  std::string out_;                       // request frame
  std::string in_;                        // response frame (header and payload), grown as needed
  std::size_t frame_size_ = 0;            // bytes of in_ the last response frame holds
};

BinaryClient::BinaryClient(BinaryClientConfig config)
    : impl_(std::make_unique<Impl>(std::move(config))) {}
BinaryClient::~BinaryClient() = default;
CallResult BinaryClient::call(const rpc::Message& request) { return impl_->call(request); }
void BinaryClient::close() { impl_->close(); }

}  // namespace sb
