// UpstreamLink: the recording proxy's connection to the upstream service
// (harness/record/record_proxy.h), plain TCP or TLS: connect (and handshake), write a request piece
// by piece, read what comes back. The Beast client side of the proxy, apart from its server side
// (proxy_connection.cpp), so that neither file compiles the other's templates. Completions go to an
// UpstreamUser, on the proxy's thread; a plain write that the socket takes at once completes before
// write() returns.
#pragma once

#include <cstddef>
#include <memory>

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/serializer.hpp>

#include "harness/record/proxy_shared.h"

namespace sb::record_detail {

namespace beast = boost::beast;
namespace http = beast::http;

// A request forwarded upstream, one body piece at a time.
using RequestSerializer = http::request_serializer<http::buffer_body>;

// Bytes asked of the socket per read (a body piece is at most this much more than the parser
// holds).
constexpr std::size_t kReadChunk = 64 * 1024;

// Who hears of an UpstreamLink's completions; kept alive by each pending operation.
class UpstreamUser : public std::enable_shared_from_this<UpstreamUser> {
 public:
  virtual ~UpstreamUser() = default;
  // connect() ended; on failure `step` names what failed ("connect", "TLS handshake").
  virtual void on_upstream_connected(error_code ec, const char* step) = 0;
  // write() ended: the piece is written (or the request ended), or `ec`.
  virtual void on_upstream_written(error_code ec) = 0;
  // read_some() ended: `n` bytes were added to the buffer, or `ec` (end_of_stream: closed).
  virtual void on_upstream_read(error_code ec, std::size_t n) = 0;
};

struct TlsLayer;  // an https link's TLS stream (upstream_link.cpp: only it compiles OpenSSL's)

class UpstreamLink {
 public:
  // A closed link on `executor`, reporting to `user` (which owns the link).
  UpstreamLink(ProxyExecutor executor, UpstreamUser& user, UpstreamPlace& place);
  UpstreamLink(const UpstreamLink&) = delete;
  UpstreamLink& operator=(const UpstreamLink&) = delete;
  ~UpstreamLink();

  // Connected (and handshaken) and not closed since.
  bool is_open() const { return open_; }
  // Connects to the first address that answers, with TCP_NODELAY, then the TLS handshake.
  void connect();
  // Writes what `sr` has ready: the header on the first call, then the current body piece (the
  // message's buffer_body), until the piece is used up or the message ends.
  void write(RequestSerializer& sr);
  // Reads what the upstream sent next into `buffer` (at most kReadChunk).
  void read_some(beast::flat_buffer& buffer);
  // Drops the connection (no TLS close_notify); a pending operation ends with an error.
  // Idempotent.
  void close();

 private:
  // Connected: TCP_NODELAY, non-blocking; https: the TLS handshake.
  void handshake();

  UpstreamUser& user_;             // hears every completion
  UpstreamPlace& place_;           // addresses and TLS context
  ProxySocket socket_;             // the TCP connection
  std::unique_ptr<TlsLayer> tls_;  // https: its TLS layer
  bool open_ = false;              // connected and not closed since
};

}  // namespace sb::record_detail
