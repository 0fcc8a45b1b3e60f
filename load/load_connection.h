// LoadConnection: one keep-alive connection of a load run, owning its socket (https: and its TLS
// layer), its watchdog and its answer judge; each call is a straight chain connect (when needed;
// https: and the TLS handshake, resuming the connection's last session when asked) → write (at
// once when the socket takes it, else asynchronous) → read → judge → tell the run (LoadSink),
// which starts the next call. The watchdog is lazy: a call's deadline is a plain member, and the
// timer is armed only when nothing earlier is armed; when it fires it closes the socket of a call
// past its deadline or waits again until the current call's deadline. So a call costs no timer
// syscall or handler, and no call is ever allowed more than the timeout.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>

#include "load/load_answer_judge.h"
#include "load/load_answer_parser.h"
#include "load/load_call.h"
#include "load/load_point.h"

namespace sb {

using LoadClock = std::chrono::steady_clock;

// How one call ended.
struct CallOutcome {
  LoadClock::time_point due;       // when it was due (closed loop: when it was started)
  LoadClock::time_point done;      // when it ended
  std::optional<LoadError> error;  // nullopt: a right answer
  bool answered = false;           // an HTTP response arrived (right or wrong)
  bool decoded = false;            // the answer was decoded in full
  bool timed_out = false;          // its deadline ended it (connect, handshake, write or read)
};

// The TLS side of an https load run, shared by its connections (every thread's).
struct LoadTls {
  // A client context for `host` (SNI when a name; the certificate is not verified); resume: a
  // reconnect resumes the connection's last session.
  LoadTls(std::string host, bool resume);

  boost::asio::ssl::context context;  // TLS 1.2 and 1.3, no verification
  std::string host;                   // SNI
  bool resume;                        // resume sessions on reconnect
};

// A connection's TLS handshakes.
struct TlsCounts {
  std::uint64_t full = 0;     // full handshakes
  std::uint64_t resumed = 0;  // handshakes that resumed a session
  std::int64_t total_ns = 0;  // time spent in all of them
};

class LoadConnection;

// The load run a connection reports to.
class LoadSink {
 public:
  virtual ~LoadSink() = default;
  // A call of `c` ended; `c` is idle again and may be started from here.
  virtual void call_done(LoadConnection& c, const CallOutcome& outcome) = 0;
};

class LoadConnection {
 public:
  // A connection (not yet open) to `endpoints` sending `calls`, over TLS when `tls` is not null;
  // every argument outlives it.
  LoadConnection(boost::asio::io_context& ioc, LoadSink& sink, std::span<const LoadCall> calls,
                 std::span<const boost::asio::ip::tcp::endpoint> endpoints, std::size_t index,
                 const PointConfig& config, LoadTls* tls);
  ~LoadConnection();
  LoadConnection(const LoadConnection&) = delete;
  LoadConnection& operator=(const LoadConnection&) = delete;

  // Starts call `which` (of the calls) due at `due`, connecting first when the connection is not
  // open. Idle only.
  void start(LoadClock::time_point due, std::size_t which = 0);
  // Runs `then` after `delay` (idle only; a pause before retrying a refused connect).
  void after(std::chrono::nanoseconds delay, std::function<void()> then);
  // Disarms the watchdog of an idle connection, so that nothing of it keeps the io_context
  // running (the run has ended; a later start() arms it again).
  void disarm();
  // Its position in the run (0 ..).
  std::size_t index() const { return index_; }
  // Connections made so far.
  std::uint64_t connects() const { return connects_; }
  // TLS handshakes made so far (https).
  const TlsCounts& handshakes() const { return handshakes_; }
  // Why the last failed call failed (one line).
  const std::string& why() const { return why_; }

 private:
  // Arms the watchdog for deadline_ unless it is armed for that time or earlier.
  void watch();
  // The watchdog fired for `expiry`: time the call out, or wait on until its deadline.
  void on_watchdog(LoadClock::time_point expiry);
  void connect();
  // https: the TLS handshake on the new TCP connection, then write().
  void handshake();
  // https: keeps the session of the connection's first answer for the next reconnect.
  void keep_session();
  // Runs `op` with the stream calls go through: the TLS stream (https) or the socket.
  template <class Op>
  void with_stream(Op&& op);
  void write();
  void write_failed(const boost::system::error_code& ec);
  void read();
  void on_answer();
  // A reused connection the server had closed: reconnect once and send again.
  bool retry_stale();
  void fail(LoadError kind, const std::string& what);
  void finish(std::optional<LoadError> error, bool answered, bool decoded);
  void drop();

  LoadSink& sink_;                                             // told of every ended call
  std::span<const LoadCall> calls_;                            // what it may send
  const LoadCall* call_;                                       // the current call's request
  std::span<const boost::asio::ip::tcp::endpoint> endpoints_;  // the server's addresses
  std::size_t index_;                                          // position in the run
  std::chrono::nanoseconds timeout_;                           // per call
  boost::asio::ip::tcp::socket socket_;                        // the connection, when open
  LoadTls* tls_;                                               // https: shared; null: http
  std::optional<boost::asio::ssl::stream<boost::asio::ip::tcp::socket&>> tls_stream_;  // https
  SSL_SESSION* session_ = nullptr;      // https: the last resumable session (owned reference)
  bool session_kept_ = false;           // https: this TCP connection's session was kept
  TlsCounts handshakes_;                // https: handshakes made
  boost::asio::steady_timer watchdog_;  // fires at armed_
  boost::asio::steady_timer pause_;     // after(): a pause
  boost::beast::flat_buffer buffer_;    // bytes read past an answer
  std::optional<AnswerParser> parser_;  // one per answer (no allocation)
  std::string body_;                    // the answer's body, its capacity reused
  std::string decoded_;                 // a coded answer's body, decoded (gzip, deflate)
  std::vector<std::optional<AnswerJudge>> judges_;  // per call, made at its first answer
  std::size_t which_ = 0;                           // the current call's index in calls_
  std::uint32_t decode_every_;                      // the judges' full-decode interval
  LoadClock::time_point due_;                       // the current call's due time
  LoadClock::time_point deadline_;                  // the current call's end: start + timeout
  LoadClock::time_point armed_ = LoadClock::time_point::max();  // the watchdog's; max: unarmed
  std::uint64_t connects_ = 0;                                  // connections made
  bool busy_ = false;                                           // a call is in flight
  bool timed_out_ = false;                                      // the deadline closed the socket
  bool reused_ = false;                                         // the call began on an open one
  std::string why_;                                             // the last failure
};

}  // namespace sb
