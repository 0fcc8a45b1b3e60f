// RpcServer's connections: one owning Session per connection (http_session.cpp), and the registry
// that admits them through the listener's gate (listener/connection_gate.h), counts the answers
// waiting for their clients, and closes them all at stop().
#pragma once

#include <atomic>
#include <cstddef>
#include <mutex>
#include <unordered_set>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "listener/accept_loop.h"
#include "listener/connection_gate.h"
#include "server/rpc_endpoint.h"
#include "server/server_config.h"

namespace sb::server_detail {

namespace ssl = net::ssl;
using tcp = net::ip::tcp;

// A connection's executor: its thread's io_context, named by type. Each I/O thread runs an
// io_context of its own, so a connection's handlers never run concurrently and need no strand
// (a strand cost a scheduler round, and with it an epoll_wait, per completion); held in an
// any_io_executor a strand also allocated on every rebinding (docs/load.md "Servers under load").
using SessionExecutor = listener::ListenerExecutor;
// An accepted socket bound to its connection's io_context.
using SessionSocket = listener::ListenerSocket;
// A timer on a connection's io_context.
using SessionTimer = net::steady_timer::rebind_executor<SessionExecutor>::other;

class SessionBase;  // a live connection, whatever its stream (http_session.cpp)

// Every live session of one server.
class SessionRegistry {
 public:
  // Sessions answer through `endpoint` within `config`'s limits; both must outlive the registry.
  SessionRegistry(const ServerConfig& config, RpcEndpoint& endpoint)
      : config_(config), endpoint_(endpoint) {}
  SessionRegistry(const SessionRegistry&) = delete;
  SessionRegistry& operator=(const SessionRegistry&) = delete;

  // Limits and timeouts every session applies.
  const ServerConfig& config() const { return config_; }
  // What builds every response.
  RpcEndpoint& endpoint() { return endpoint_; }

  // Admits sessions again (start() after a stop()), with the cap the descriptors allow.
  void reopen();
  // Starts serving a new connection (over TLS when tls is set); over the cap it is answered 503
  // and closed, or closed at once when too many are being refused already. False once
  // close_all() began (the connection is dropped). Called on the acceptor's thread only.
  bool admit(SessionSocket socket, ssl::context* tls);
  // Admits nothing more and closes every live session, each on its own thread.
  void close_all();
  // Removes a session (from its destructor).
  void forget(SessionBase* s, listener::ConnectionGate::Admission admission);
  // More than 3/4 of the cap are in use: connections that have sent nothing are closed at their
  // next crowding check (ListenerLimits::crowded_first_byte).
  bool crowded() const { return gate_.crowded(); }

  // An answer of `bytes` waits for its client to read it (until unqueue()).
  void queue(std::size_t bytes) { queued_.fetch_add(bytes, std::memory_order_relaxed); }
  void unqueue(std::size_t bytes) { queued_.fetch_sub(bytes, std::memory_order_relaxed); }
  // More than max_queued_answer_bytes of answers wait for their clients: new requests get 503.
  bool answers_backed_up() const {
    return queued_.load(std::memory_order_relaxed) > config_.max_queued_answer_bytes;
  }

 private:
  const ServerConfig& config_;                 // limits and timeouts
  RpcEndpoint& endpoint_;                      // builds every response
  listener::ConnectionGate gate_;              // who is let in
  std::atomic<std::size_t> queued_{0};         // answer bytes waiting for their clients
  std::mutex mutex_;                           // guards sessions_ and stopping_
  std::unordered_set<SessionBase*> sessions_;  // every live session, for close_all()
  bool stopping_ = false;                      // close_all() began: admit nothing more
};

}  // namespace sb::server_detail
