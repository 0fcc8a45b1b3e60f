// The client side of TLS, shared by RpcClient (harness/client/http_client.h) and the load generator
// (harness/load/load_connection.h): the context's protocols and verification, and what each
// connection sets before its handshake.
#pragma once

#include <openssl/ssl.h>

#include <string>

#include <boost/asio/ssl/context.hpp>

namespace sb {

// TLS 1.2 and 1.3 only; verify_peer: the server's certificate checked against the system's CAs
// (else not checked: soapbench serve's certificate is self-signed).
void configure_tls_client(boost::asio::ssl::context& ctx, bool verify_peer);

// Before a handshake with `host`: SNI when it is a name (not an IP literal), and with
// verify_peer the certificate must name it.
void prepare_tls_client(SSL* ssl, const std::string& host, bool verify_peer);

}  // namespace sb
