// Self-signed X.509 generation with OpenSSL 3 (EVP_EC_gen, X509V3 extensions), for TLS tests and
// quick HTTPS runs; a real deployment passes cert_file and key_file instead.
#include "harness/server/tls_certificate.h"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

namespace sb {

namespace {

// Deleters for OpenSSL objects held in std::unique_ptr.
struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct X509Free {
  void operator()(X509* p) const { X509_free(p); }
};

// "TLS: what: " and OpenSSL's oldest queued error.
std::string openssl_error(const char* what) {
  char buf[256] = "unknown error";
  if (unsigned long e = ERR_get_error()) ERR_error_string_n(e, buf, sizeof buf);
  return std::string("TLS: ") + what + ": " + buf;
}

}  // namespace

void use_self_signed_certificate(SSL_CTX* ctx) {
  std::unique_ptr<EVP_PKEY, PkeyFree> key(EVP_EC_gen("P-256"));
  if (!key) throw std::runtime_error(openssl_error("EC key generation"));
  std::unique_ptr<X509, X509Free> cert(X509_new());
  if (!cert) throw std::runtime_error(openssl_error("X509_new"));
  X509_set_version(cert.get(), 2);  // v3
  unsigned char serial[8];
  if (RAND_bytes(serial, sizeof serial) != 1) throw std::runtime_error(openssl_error("RAND_bytes"));
  serial[0] &= 0x7f;  // positive
  std::uint64_t serial_value = 0;
  for (unsigned char b : serial) serial_value = (serial_value << 8) | b;
  ASN1_INTEGER_set_uint64(X509_get_serialNumber(cert.get()), serial_value);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 365L * 24 * 3600);
  X509_set_pubkey(cert.get(), key.get());
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
  X509_set_issuer_name(cert.get(), name);
  X509V3_CTX v3;
  X509V3_set_ctx_nodb(&v3);
  X509V3_set_ctx(&v3, cert.get(), cert.get(), nullptr, nullptr, 0);
  const std::pair<int, const char*> extensions[] = {
      {NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1,IP:::1"},
      {NID_basic_constraints, "critical,CA:FALSE"},
      {NID_ext_key_usage, "serverAuth"},
  };
  for (const auto& [nid, value] : extensions) {
    X509_EXTENSION* ext = X509V3_EXT_nconf_nid(nullptr, &v3, nid, value);
    if (ext == nullptr) throw std::runtime_error(openssl_error("certificate extension"));
    X509_add_ext(cert.get(), ext, -1);
    X509_EXTENSION_free(ext);
  }
  if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) {
    throw std::runtime_error(openssl_error("signing the certificate"));
  }
  if (SSL_CTX_use_certificate(ctx, cert.get()) != 1 ||
      SSL_CTX_use_PrivateKey(ctx, key.get()) != 1) {
    throw std::runtime_error(openssl_error("installing the certificate"));
  }
}

}  // namespace sb
