#include "harness/record/upstream_link.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/http/write.hpp>

#include "harness/client/tls_client.h"

namespace sb::record_detail {

// An https link's TLS layer over its socket.
struct TlsLayer {
  asio::ssl::stream<ProxySocket&> stream;  // TLS over the link's socket
};

namespace {

// A write that stopped because the body piece was used up has done its part.
error_code piece_written(error_code ec) {
  return ec == http::error::need_buffer ? error_code{} : ec;
}

}  // namespace

UpstreamLink::UpstreamLink(ProxyExecutor executor, UpstreamUser& user, UpstreamPlace& place)
    : user_(user), place_(place), socket_(executor) {}

UpstreamLink::~UpstreamLink() = default;

void UpstreamLink::connect() {
  tls_.reset();  // a previous connection's TLS layer (no operation of it is pending)
  asio::async_connect(socket_, place_.endpoints,
                      [self = user_.shared_from_this(), this](error_code ec, const tcp::endpoint&) {
                        if (ec) return self->on_upstream_connected(ec, "connect");
                        handshake();
                      });
}

void UpstreamLink::handshake() {
  error_code ec;
  socket_.set_option(tcp::no_delay(true), ec);
  socket_.non_blocking(true, ec);  // plain writes try without waiting
  if (!place_.tls) {
    open_ = true;
    return user_.on_upstream_connected({}, "");
  }
  tls_.reset(new TlsLayer{{socket_, *place_.tls}});
  prepare_tls_client(tls_->stream.native_handle(), place_.host, place_.verify_peer);
  tls_->stream.async_handshake(asio::ssl::stream_base::client,
                               [self = user_.shared_from_this(), this](error_code ec) {
                                 open_ = !ec;
                                 self->on_upstream_connected(ec, "TLS handshake");
                               });
}

void UpstreamLink::write(RequestSerializer& sr) {
  auto done = [self = user_.shared_from_this()](error_code ec, std::size_t) {
    self->on_upstream_written(piece_written(ec));
  };
  if (tls_) return http::async_write(tls_->stream, sr, std::move(done));
  // Plain TCP: what the socket takes at once is written now (one sendmsg, no trip through the
  // scheduler); only the rest waits for the socket.
  error_code ec;
  while (!sr.is_done() && !ec) http::write_some(socket_, sr, ec);
  if (ec != asio::error::would_block) return user_.on_upstream_written(piece_written(ec));
  http::async_write(socket_, sr, std::move(done));
}

void UpstreamLink::read_some(beast::flat_buffer& buffer) {
  auto done = [self = user_.shared_from_this(), &buffer](error_code ec, std::size_t n) {
    buffer.commit(n);
    // A TLS peer that closes without close_notify has closed all the same.
    if (ec == asio::error::eof || ec == asio::ssl::error::stream_truncated)
      ec = http::error::end_of_stream;
    self->on_upstream_read(ec, n);
  };
  // Asio tries a plain read at once only when the last one filled its buffer: a read that waits
  // for an answer costs no failed recvmsg (nor an epoll_ctl, as async_wait would).
  if (tls_) return tls_->stream.async_read_some(buffer.prepare(kReadChunk), std::move(done));
  socket_.async_read_some(buffer.prepare(kReadChunk), std::move(done));
}

void UpstreamLink::close() {
  // No close_notify: the connection is dropped either way. The TLS layer stays until the next
  // connect(): an operation pending on it ends with operation_aborted first.
  open_ = false;
  error_code ignored;
  socket_.shutdown(tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
}

}  // namespace sb::record_detail
