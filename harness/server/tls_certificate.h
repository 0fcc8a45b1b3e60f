// A self-signed certificate for `soapbench serve --tls` when no certificate file is given.
#pragma once

#include <openssl/ssl.h>

namespace sb {

// Generates an EC P-256 key and a certificate for CN=localhost (SAN localhost, 127.0.0.1, ::1)
// signed with it, in memory, and installs both in ctx. Throws std::runtime_error with the reason.
void use_self_signed_certificate(SSL_CTX* ctx);

}  // namespace sb
