#include "harness/client/tls_client.h"

#include <boost/asio/ip/address.hpp>

namespace sb {

namespace ssl = boost::asio::ssl;

void configure_tls_client(ssl::context& ctx, bool verify_peer) {
  ctx.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                  ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
  if (verify_peer) {
    boost::system::error_code ec;
    ctx.set_default_verify_paths(ec);
    ctx.set_verify_mode(ssl::verify_peer);
  } else {
    ctx.set_verify_mode(ssl::verify_none);
  }
}

void prepare_tls_client(SSL* ssl, const std::string& host, bool verify_peer) {
  boost::system::error_code ec;
  boost::asio::ip::make_address(host, ec);
  if (ec) SSL_set_tlsext_host_name(ssl, host.c_str());  // SNI for names only
  if (verify_peer) SSL_set1_host(ssl, host.c_str());
}

}  // namespace sb
