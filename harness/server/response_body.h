// ResponseBody: the Beast body type of RpcServer's responses, and the server's HTTP message types
// (shared by harness/server/http_session.cpp, which writes them, and
// harness/server/rpc_endpoint.cpp, which fills them).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <boost/asio/buffer.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http.hpp>
#include <boost/optional.hpp>

namespace sb::server_detail {

// Shorthands for the server's files.
namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

// A response body of up to three pieces sent with the header in one gathered write: bytes the
// response owns (the encoder's output, or the JSON-RPC envelope head of getChain) followed by two
// views of bytes the server keeps alive (a stored getChain document, its closing brace).
struct ResponseBody {
  // The message's body: owned, then middle, then tail.
  struct value_type {
    std::string owned;        // encoded body, reused across responses
    std::string_view middle;  // server-owned bytes after owned (getChain passthrough)
    std::string_view tail;    // server-owned bytes after middle

    // Empties owned (keeping its storage) and drops the views.
    void clear() {
      owned.clear();
      middle = {};
      tail = {};
    }
  };

  // Content-Length.
  static std::uint64_t size(const value_type& v) {
    return v.owned.size() + v.middle.size() + v.tail.size();
  }

  // Beast's BodyWriter: hands out the three pieces at once, then nothing.
  class writer {
   public:
    // owned, middle, tail.
    using const_buffers_type = std::array<net::const_buffer, 3>;

    // Writes `body` of the message whose header is given.
    template <bool isRequest, class Fields>
    writer(const http::header<isRequest, Fields>&, const value_type& body) : body_(body) {}

    // Nothing to prepare.
    void init(beast::error_code& ec) { ec = {}; }

    // All three buffers on the first call (no more to come), none afterwards.
    boost::optional<std::pair<const_buffers_type, bool>> get(beast::error_code& ec) {
      ec = {};
      if (sent_ || size(body_) == 0) return boost::none;
      sent_ = true;
      return {{const_buffers_type{net::const_buffer(body_.owned.data(), body_.owned.size()),
                                  net::const_buffer(body_.middle.data(), body_.middle.size()),
                                  net::const_buffer(body_.tail.data(), body_.tail.size())},
               false}};
    }

   private:
    const value_type& body_;  // the message's body
    bool sent_ = false;       // everything was handed out
  };
};

// A request, its body read into a string (storage reused by the session).
using Request = http::request<http::string_body>;
// A response with a ResponseBody.
using Response = http::response<ResponseBody>;

}  // namespace sb::server_detail
