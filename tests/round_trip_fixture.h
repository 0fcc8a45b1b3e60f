// What the client tests and the binary control's tests share: calls with their answers written by
// hand (standard_cases), a byte-counting TCP proxy, and one call observed through it.
#pragma once

#include <boost/asio.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <unordered_set>
#include <utility>
#include <vector>

#include "codecs/service_contract.h"
#include "codecs/value.h"
#include "harness/client/http_client.h"

namespace sb::round_trip_test {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;
using rpc::Family;
using rpc::Message;
using rpc::MessageKind;
using rpc::Value;

// ---------------------------------------------------------------- calls and expected answers

inline Message call(std::string method, std::vector<Value> params = {}) {
  Message m;
  m.kind = MessageKind::call;
  m.method = std::move(method);
  m.params = std::move(params);
  return m;
}

inline Value person(int id, std::string name, double weight, std::string born,
                    std::vector<Value> children) {
  Value p = Value::structure();
  p.add_member("id", Value::integer(id));
  p.add_member("name", Value::string(std::move(name)));
  p.add_member("weight", Value::floating(weight));
  p.add_member("birthdate", Value::datetime(std::move(born)));
  Value kids = Value::array();
  for (Value& c : children) kids.push(std::move(c));
  p.add_member("children", std::move(kids));
  return p;
}

struct Case {
  Message request;       // the call
  std::string expected;  // canonical JSON of the response
};

// add, concat, complex, getRate, echoDoubles: one of each value shape, answers written by hand.
inline std::vector<Case> standard_cases() {
  std::vector<Case> cases;
  cases.push_back({call("add", {Value::integer(2), Value::integer(3)}),
                   R"({"kind":"response","method":"add","result":5})"});
  cases.push_back(
      {call("concat", {Value::string("a<&"), Value::string("\xC3\xA9\""), Value::string("c")}),
       R"({"kind":"response","method":"concat","result":"a<&é\"c"})"});
  Value people = Value::array();
  people.push(person(1, "Ann", 61.5, "1990-01-02T03:04:05",
                     {person(2, "Bo", 3.25, "2020-05-06T07:08:09", {})}));
  cases.push_back(
      {call("complex", {people}),
       R"({"kind":"response","method":"complex","result":[{"id":1,"name":"Ann","weight":61.5,)"
       R"("birthdate":{"$dateTime":"1990-01-02T03:04:05"},"children":[{"id":2,"name":"Bo",)"
       R"("weight":3.25,"birthdate":{"$dateTime":"2020-05-06T07:08:09"},"children":[]}]}]})"});
  cases.push_back({call("getRate", {Value::string("USA"), Value::string("Japan")}),
                   R"({"kind":"response","method":"getRate","result":1.25})"});
  Value doubles = Value::array();
  for (double d : {1.5, -0.25, 1e300, 0.1}) doubles.push(Value::floating(d));
  cases.push_back(
      {call("echoDoubles", {doubles}),
       R"({"kind":"response","method":"echoDoubles","result":[1.5,-0.25,1e+300,0.1]})"});
  return cases;
}

inline std::string name_of(Family f) { return std::string(rpc::family_name(f)); }

// ---------------------------------------------------------------- byte-counting proxy

// A transparent TCP proxy on 127.0.0.1, port 0, one I/O thread: counts every byte in each
// direction as it reads it, before forwarding it. Once a client has read a whole response, the
// counters hold that exchange completely (the server answered, so the request went through; the
// client read the response, so it was counted first).
class CountingProxy {
 public:
  explicit CountingProxy(std::uint16_t target)
      : target_(asio::ip::make_address("127.0.0.1"), target) {
    acceptor_.open(tcp::v4());
    acceptor_.bind(tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    acceptor_.listen();
    accept();
    thread_ = std::thread([this] { ioc_.run(); });
  }

  ~CountingProxy() {
    asio::post(ioc_, [this] {
      error_code ec;
      acceptor_.close(ec);
      for (Pipe* p : pipes_) p->close();
      ioc_.stop();
    });
    thread_.join();
  }

  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
  // Bytes client → server and server → client so far.
  std::uint64_t up() const { return up_.load(); }
  std::uint64_t down() const { return down_.load(); }
  // Connections accepted so far.
  int connections() const { return connections_.load(); }

 private:
  // One proxied connection: two pumps, each half-closing its far side on EOF.
  class Pipe : public std::enable_shared_from_this<Pipe> {
   public:
    Pipe(CountingProxy& proxy, tcp::socket client)
        : proxy_(proxy), client_(std::move(client)), server_(proxy.ioc_) {
      proxy_.pipes_.insert(this);
    }
    ~Pipe() { proxy_.pipes_.erase(this); }

    void start() {
      server_.async_connect(proxy_.target_, [self = shared_from_this()](error_code ec) {
        if (ec) return self->close();
        error_code ignored;
        self->client_.set_option(tcp::no_delay(true), ignored);
        self->server_.set_option(tcp::no_delay(true), ignored);
        self->pump(self->client_, self->server_, self->up_buf_, self->proxy_.up_);
        self->pump(self->server_, self->client_, self->down_buf_, self->proxy_.down_);
      });
    }

    void close() {
      error_code ec;
      client_.close(ec);
      server_.close(ec);
    }

   private:
    void pump(tcp::socket& from, tcp::socket& to, std::array<char, 16384>& buf,
              std::atomic<std::uint64_t>& counter) {
      from.async_read_some(asio::buffer(buf), [self = shared_from_this(), &from, &to, &buf,
                                               &counter](error_code ec, std::size_t n) {
        if (ec) {
          error_code ignored;
          to.shutdown(tcp::socket::shutdown_send, ignored);
          if (++self->done_ == 2 || ec != asio::error::eof) self->close();
          return;
        }
        counter += n;
        asio::async_write(to, asio::buffer(buf.data(), n),
                          [self, &from, &to, &buf, &counter](error_code ec2, std::size_t) {
                            if (ec2) return self->close();
                            self->pump(from, to, buf, counter);
                          });
      });
    }

    CountingProxy& proxy_;                // counters, target, registry
    tcp::socket client_;                  // accepted connection
    tcp::socket server_;                  // connection to the target
    std::array<char, 16384> up_buf_{};    // client → server bytes in flight
    std::array<char, 16384> down_buf_{};  // server → client bytes in flight
    int done_ = 0;                        // directions that reached EOF
  };

  void accept() {
    acceptor_.async_accept([this](error_code ec, tcp::socket s) {
      if (ec) return;
      ++connections_;
      std::make_shared<Pipe>(*this, std::move(s))->start();
      accept();
    });
  }

  // Declared before ioc_: pipes still queued in ioc_ deregister when it is destroyed.
  std::unordered_set<Pipe*> pipes_;     // live connections (I/O thread only)
  asio::io_context ioc_{1};             // the proxy's one thread
  tcp::acceptor acceptor_{ioc_};        // 127.0.0.1:0
  tcp::endpoint target_;                // the server
  std::thread thread_;                  // runs ioc_
  std::atomic<std::uint64_t> up_{0};    // client → server bytes
  std::atomic<std::uint64_t> down_{0};  // server → client bytes
  std::atomic<int> connections_{0};     // accepted connections
};

// ---------------------------------------------------------------- wire bytes vs the proxy

struct Observed {
  CallResult result;   // what the client reported
  std::uint64_t up;    // proxy: client → server bytes during the call
  std::uint64_t down;  // proxy: server → client bytes during the call
};

template <class Client>
inline Observed observe(Client& client, const CountingProxy& proxy, const Message& m) {
  const std::uint64_t up0 = proxy.up();
  const std::uint64_t down0 = proxy.down();
  Observed o{client.call(m), 0, 0};
  o.up = proxy.up() - up0;
  o.down = proxy.down() - down0;
  return o;
}

}  // namespace sb::round_trip_test
