// LoadConnection: one keep-alive connection of a load run, owning its socket, its per-call
// timer and its answer judge; each call is a straight asynchronous chain connect (when needed) →
// write → read → judge → tell the run (LoadSink), which starts the next call.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include "harness/load_answer_judge.h"
#include "harness/load_call.h"
#include "harness/load_point.h"

namespace sb {

using LoadClock = std::chrono::steady_clock;

// How one call ended.
struct CallOutcome {
  LoadClock::time_point due;       // when it was due (closed loop: when it was started)
  LoadClock::time_point done;      // when it ended
  std::optional<LoadError> error;  // nullopt: a right answer
  bool answered = false;           // an HTTP response arrived (right or wrong)
  bool decoded = false;            // the answer was decoded in full
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
  // A connection (not yet open) to `endpoints` sending `call`; every argument outlives it.
  LoadConnection(boost::asio::io_context& ioc, LoadSink& sink, const LoadCall& call,
                 std::span<const boost::asio::ip::tcp::endpoint> endpoints, std::size_t index,
                 const PointConfig& config);

  // Starts a call due at `due`, connecting first when the connection is not open. Idle only.
  void start(LoadClock::time_point due);
  // Runs `then` after `delay` (idle only; a pause before retrying a refused connect).
  void after(std::chrono::nanoseconds delay, std::function<void()> then);
  // Its position in the run (0 ..).
  std::size_t index() const { return index_; }
  // Connections made so far.
  std::uint64_t connects() const { return connects_; }
  // Why the last failed call failed (one line).
  const std::string& why() const { return why_; }

 private:
  void arm_timer();
  void connect();
  void write();
  void read();
  void on_answer();
  // A reused connection the server had closed: reconnect once and send again.
  bool retry_stale();
  void fail(LoadError kind, const std::string& what);
  void finish(std::optional<LoadError> error, bool answered, bool decoded);
  void drop();

  LoadSink& sink_;                                             // told of every ended call
  const LoadCall& call_;                                       // the request bytes
  std::span<const boost::asio::ip::tcp::endpoint> endpoints_;  // the server's addresses
  std::size_t index_;                                          // position in the run
  std::chrono::nanoseconds timeout_;                           // per call
  boost::asio::ip::tcp::socket socket_;                        // the connection, when open
  boost::asio::steady_timer timer_;                            // the call's deadline, or a pause
  boost::beast::flat_buffer buffer_;                           // bytes read past an answer
  std::optional<boost::beast::http::response_parser<boost::beast::http::string_body>>
      parser_;                    // one per answer
  AnswerJudge judge_;             // right or wrong
  LoadClock::time_point due_;     // the current call's due time
  std::uint64_t generation_ = 0;  // calls started: stale timers
  std::uint64_t connects_ = 0;    // connections made
  bool busy_ = false;             // a call is in flight
  bool timed_out_ = false;        // the deadline closed the socket
  bool reused_ = false;           // the call began on an open one
  std::string why_;               // the last failure
};

}  // namespace sb
