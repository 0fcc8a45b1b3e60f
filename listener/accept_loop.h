// AcceptLoop: a listener's accepting, shared by RpcServer (server/http_server.cpp) and
// RecordProxy (record/record_proxy.cpp). Each connection is accepted onto the io_context its
// owner places it on and handed over; an accept that fails (out of descriptors: EMFILE, ENFILE;
// out of buffers) is tried again after kAcceptRetry instead of at once, so a listener out of
// descriptors neither spins nor stops, and accepts again as soon as connections close.
#pragma once

#include <chrono>
#include <functional>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

namespace sb::listener {

namespace net = boost::asio;

// A connection's executor: its io_context, named by type (no any_io_executor, no strand).
using ListenerExecutor = net::io_context::executor_type;
// An accepted socket bound to its connection's io_context.
using ListenerSocket = net::ip::tcp::socket::rebind_executor<ListenerExecutor>::other;

// The wait after a failed accept.
constexpr auto kAcceptRetry = std::chrono::milliseconds(50);

class AcceptLoop {
 public:
  // The io_context the next connection goes to.
  using Place = std::function<net::io_context&()>;
  // Takes an accepted connection; false: accept no more.
  using Take = std::function<bool(ListenerSocket)>;

  // Accepts on `acceptor` (which must outlive the loop), on the acceptor's thread.
  AcceptLoop(net::ip::tcp::acceptor& acceptor, Place place, Take take);
  AcceptLoop(const AcceptLoop&) = delete;
  AcceptLoop& operator=(const AcceptLoop&) = delete;

  // Starts accepting (on the acceptor's thread).
  void start();
  // Stops a back-off wait (on the acceptor's thread); closing the acceptor ends an accept.
  void cancel();
  // Accepts that failed and were tried again later.
  std::size_t failures() const { return failures_; }

 private:
  void accept();
  void on_accept(boost::system::error_code ec, ListenerSocket socket);

  net::ip::tcp::acceptor& acceptor_;  // the listening socket
  net::steady_timer retry_;           // the back-off after a failed accept
  Place place_;                       // where the next connection goes
  Take take_;                         // who takes it
  std::size_t failures_ = 0;          // failed accepts
};

}  // namespace sb::listener
