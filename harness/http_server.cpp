// RpcServer (harness/http_server.h) on Boost.Beast over Asio, modelled on Beast's http_server_fast
// and advanced_server_flex examples: one io_context run by a thread pool, one owning Session object
// per connection (its own strand, preallocated buffers, a deadline on every read and write),
// keep-alive, TCP_NODELAY, each response's header and body sent by one gathered write.
//
// A request's life: [TLS handshake] → idle wait for the first byte (keep-alive only) → header
// (header_timeout) → size check (413 before any body byte is read) → body (request_deadline) →
// decode (adapter) → dispatch (Service) → encode (Encoder) → [respond's delay, on a timer] →
// write (request_deadline) → next request or close. Every failure inside an RPC is a protocol
// fault in the request's family; only broken HTTP or limits end a connection.
#include "harness/http_server.h"

#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <unordered_set>
#include <utility>
#include <vector>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "codecs/service_contract.h"
#include "codecs/wsdl.h"
#include "harness/corpus.h"
#include "harness/encoders.h"
#include "harness/service.h"
#include "parsers/registry.h"

namespace sb {

namespace server_detail {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kHeaderLimit = 16 * 1024;     // request line + fields; beyond: 431
constexpr std::size_t kReadChunk = 16 * 1024;       // idle wait and lingering-close reads
constexpr std::size_t kBufferLimit = 1024 * 1024;   // flat_buffer ceiling (header + one read)
constexpr std::size_t kKeepCapacity = 1024 * 1024;  // body storage kept across requests
constexpr auto kLinger = std::chrono::seconds(2);   // draining a client after a closing response
constexpr auto kAcceptRetry = std::chrono::milliseconds(50);  // after EMFILE and friends
constexpr auto kStopGrace = std::chrono::seconds(2);          // stop(): wait for sessions to close

// ------------------------------------------------------------------ JSON-RPC id scanning
//
// The JSON-RPC decoder drops "id", but a response must echo it as written. These helpers find a
// top-level member's value bytes in a body the adapter has already accepted as JSON; they are
// bounds-checked, so malformed input can only make them answer "not found".

constexpr std::size_t npos = std::string_view::npos;

bool json_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::size_t skip_ws(std::string_view s, std::size_t i) {
  while (i < s.size() && json_ws(s[i])) ++i;
  return i;
}

// From the opening quote at s[i]: the index just past the closing quote, or npos.
std::size_t skip_string(std::string_view s, std::size_t i) {
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\') {
      ++i;
    } else if (s[i] == '"') {
      return i + 1;
    }
  }
  return npos;
}

// From the first byte of a value at s[i]: the index just past it, or npos.
std::size_t skip_value(std::string_view s, std::size_t i) {
  if (i >= s.size()) return npos;
  if (s[i] == '"') return skip_string(s, i);
  if (s[i] == '{' || s[i] == '[') {
    std::size_t depth = 0;
    while (i < s.size()) {
      const char c = s[i];
      if (c == '"') {
        i = skip_string(s, i);
        if (i == npos) return npos;
        continue;
      }
      if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (--depth == 0) return i + 1;
      }
      ++i;
    }
    return npos;
  }
  std::size_t j = i;  // a number or a literal: up to the next delimiter
  while (j < s.size() && s[j] != ',' && s[j] != '}' && s[j] != ']' && !json_ws(s[j])) ++j;
  return j == i ? npos : j;
}

// Whether the raw (still escaped) key equals the ASCII string `want`.
bool key_is(std::string_view raw, std::string_view want) {
  if (raw.find('\\') == npos) return raw == want;
  std::string decoded;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '\\') {
      decoded += raw[i];
      continue;
    }
    if (++i >= raw.size()) return false;
    switch (raw[i]) {
      case 'u': {
        unsigned cp = 0;
        if (i + 4 >= raw.size()) return false;
        const auto r = std::from_chars(raw.data() + i + 1, raw.data() + i + 5, cp, 16);
        if (r.ptr != raw.data() + i + 5 || cp >= 0x80) return false;  // want is ASCII
        decoded += static_cast<char>(cp);
        i += 4;
        break;
      }
      case 'b':
        decoded += '\b';
        break;
      case 'f':
        decoded += '\f';
        break;
      case 'n':
        decoded += '\n';
        break;
      case 'r':
        decoded += '\r';
        break;
      case 't':
        decoded += '\t';
        break;
      default:
        decoded += raw[i];
        break;  // \" \\ \/
    }
  }
  return decoded == want;
}

// Fast path: the value of the object's last member when that member is `key` (JSON-RPC clients
// usually write "id" last), scanning back from the end; nullopt when it is not (or unsure).
std::optional<std::string_view> last_member_if(std::string_view s, std::string_view key) {
  std::size_t j = s.size();
  while (j > 0 && json_ws(s[j - 1])) --j;
  if (j == 0 || s[j - 1] != '}') return std::nullopt;
  --j;
  while (j > 0 && json_ws(s[j - 1])) --j;
  if (j == 0) return std::nullopt;
  const std::size_t value_end = j;
  // Index of the unescaped quote that opens the string whose closing quote is at s[close].
  auto opening_quote = [&](std::size_t close) -> std::size_t {
    for (std::size_t k = close; k-- > 0;) {
      if (s[k] != '"') continue;
      std::size_t slashes = 0;
      while (k - slashes > 0 && s[k - slashes - 1] == '\\') ++slashes;
      if (slashes % 2 == 0) return k;
    }
    return npos;
  };
  std::size_t value_begin;
  if (s[j - 1] == '"') {
    if (j < 2) return std::nullopt;
    value_begin = opening_quote(j - 1);
    if (value_begin == npos) return std::nullopt;
  } else {
    if (s[j - 1] == '}' || s[j - 1] == ']') return std::nullopt;  // a container: slow path
    value_begin = j;
    while (value_begin > 0 && s[value_begin - 1] != ':' && s[value_begin - 1] != ',' &&
           s[value_begin - 1] != '{' && s[value_begin - 1] != '[' && !json_ws(s[value_begin - 1]))
      --value_begin;
  }
  std::size_t k = value_begin;
  while (k > 0 && json_ws(s[k - 1])) --k;
  if (k == 0 || s[k - 1] != ':') return std::nullopt;
  --k;
  while (k > 0 && json_ws(s[k - 1])) --k;
  if (k < 2 || s[k - 1] != '"') return std::nullopt;
  const std::size_t key_begin = opening_quote(k - 1);
  if (key_begin == npos) return std::nullopt;
  std::size_t before = key_begin;
  while (before > 0 && json_ws(s[before - 1])) --before;
  if (before == 0 || (s[before - 1] != ',' && s[before - 1] != '{')) return std::nullopt;
  if (!key_is(s.substr(key_begin + 1, k - 1 - key_begin - 1), key)) return std::nullopt;
  return s.substr(value_begin, value_end - value_begin);
}

// The value bytes of the top-level member `key` of the JSON object `s` (the last one when the
// key repeats, as JSON.parse and Python's json do), or nullopt.
std::optional<std::string_view> top_level_member(std::string_view s, std::string_view key) {
  if (auto fast = last_member_if(s, key)) return fast;
  std::size_t i = skip_ws(s, 0);
  if (i >= s.size() || s[i] != '{') return std::nullopt;
  i = skip_ws(s, i + 1);
  std::optional<std::string_view> found;
  if (i < s.size() && s[i] == '}') return found;
  for (;;) {
    if (i >= s.size() || s[i] != '"') return found;
    const std::size_t key_end = skip_string(s, i);
    if (key_end == npos) return found;
    const std::string_view k = s.substr(i + 1, key_end - i - 2);
    i = skip_ws(s, key_end);
    if (i >= s.size() || s[i] != ':') return found;
    i = skip_ws(s, i + 1);
    const std::size_t value_end = skip_value(s, i);
    if (value_end == npos) return found;
    if (key_is(k, key)) found = s.substr(i, value_end - i);
    i = skip_ws(s, value_end);
    if (i >= s.size() || s[i] != ',') return found;
    i = skip_ws(s, i + 1);
  }
}

// Whether `t` is a JSON number token (RFC 8259 grammar).
bool json_number(std::string_view t) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    return i > start;
  };
  if (i < t.size() && t[i] == '-') ++i;
  if (i < t.size() && t[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < t.size() && t[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == t.size();
}

// A JSON-RPC request id as the response must echo it.
struct JsonId {
  bool present = false;                // the request has an "id" member (else: a notification)
  std::string_view raw = "null";       // bytes to write: the request's token, or null if invalid
  std::optional<std::int64_t> number;  // the id when it is an integer the encoder can write
};

JsonId find_json_id(std::string_view body) {
  JsonId id;
  const std::optional<std::string_view> raw = top_level_member(body, "id");
  if (!raw) return id;
  id.present = true;
  const std::string_view t = *raw;
  bool valid = t == "null" || json_number(t);
  if (!valid && t.size() >= 2 && t.front() == '"' && t.back() == '"') {
    valid = std::none_of(t.begin(), t.end(),
                         [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  }
  if (!valid) return id;  // objects, arrays, booleans: answered with null
  id.raw = t;
  std::int64_t n = 0;
  if (json_number(t) && t.find_first_of(".eE") == npos) {
    const auto r = std::from_chars(t.data(), t.data() + t.size(), n);
    if (r.ec == std::errc() && r.ptr == t.data() + t.size() && !(n == 0 && t.front() == '-')) {
      id.number = n;
    }
  }
  return id;
}

// ------------------------------------------------------------------ response body

// A response body of up to three pieces sent with the header in one gathered write: bytes the
// response owns (the encoder's output, or the JSON-RPC envelope head of getChain) followed by two
// views of bytes the server keeps alive (a stored getChain document, its closing brace).
struct ResponseBody {
  struct value_type {
    std::string owned;        // encoded body, reused across responses
    std::string_view middle;  // server-owned bytes after owned (getChain passthrough)
    std::string_view tail;    // server-owned bytes after middle

    void clear() {
      owned.clear();
      middle = {};
      tail = {};
    }
  };

  static std::uint64_t size(const value_type& v) {
    return v.owned.size() + v.middle.size() + v.tail.size();
  }

  class writer {
   public:
    using const_buffers_type = std::array<net::const_buffer, 3>;

    template <bool isRequest, class Fields>
    writer(const http::header<isRequest, Fields>&, const value_type& body) : body_(body) {}

    void init(beast::error_code& ec) { ec = {}; }

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

using Request = http::request<http::string_body>;
using Response = http::response<ResponseBody>;

// ------------------------------------------------------------------ TLS

struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct X509Free {
  void operator()(X509* p) const { X509_free(p); }
};

std::string openssl_error(const char* what) {
  char buf[256] = "unknown error";
  if (unsigned long e = ERR_get_error()) ERR_error_string_n(e, buf, sizeof buf);
  return std::string("TLS: ") + what + ": " + buf;
}

// A self-signed EC P-256 certificate for CN=localhost (SAN localhost, 127.0.0.1, ::1), in memory.
void use_self_signed(SSL_CTX* ctx) {
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

// ------------------------------------------------------------------ per-thread state

// What one pool thread reuses for every request it serves (adapters and encoders are not
// thread-safe; a request's decode → dispatch → encode runs within one handler on one thread).
struct Worker {
  std::map<std::string, std::unique_ptr<Adapter>, std::less<>> adapters;  // by name, made lazily
  std::unique_ptr<Encoder> encoder;  // config.encoder, made on first use
  std::unique_ptr<Encoder> direct;   // "direct", for families config.encoder does not write
  MessageBuffer buffer;              // the request body, padded (storage reused)
  rpc::Message call;                 // the decoded request (storage reused)

  // The adapter named `name`, or nullptr when no such adapter is compiled in.
  Adapter* adapter(std::string_view name) {
    auto it = adapters.find(name);
    if (it != adapters.end()) return it->second.get();
    std::unique_ptr<Adapter> a = make_adapter(name);
    if (!a) return nullptr;
    return adapters.emplace(std::string(name), std::move(a)).first->second.get();
  }
};

thread_local Worker* t_worker = nullptr;  // the Worker of the pool thread running this code

// ------------------------------------------------------------------ the server core

class SessionBase;

// What handle() decided beyond the response itself.
struct Outcome {
  std::chrono::milliseconds delay{0};  // respond(…, delay): wait before writing
};

// Where an RPC request was posted.
enum class Endpoint { xmlrpc, soap, jsonrpc };

class Core {
 public:
  explicit Core(ServerConfig config) : config_(std::move(config)) {}

  void start();
  void stop();
  void wait();
  std::uint16_t port() const { return port_; }
  std::string base_url() const { return base_url_; }
  void on_request(std::function<void(const ServerTiming&)> cb) { callback_ = std::move(cb); }

  // Builds the response to one complete request (runs on a pool thread).
  Outcome handle(const Request& req, Response& res, const tcp::endpoint& local);

  const ServerConfig& config() const { return config_; }
  // Removes a session from the registry (its destructor).
  void forget(SessionBase* s, bool counted);

 private:
  Outcome rpc(Endpoint ep, const Request& req, Response& res);
  void wsdl(Response& res, const tcp::endpoint& local);
  void plain(Response& res, http::status status, std::string_view text);
  void load_chain();
  void do_accept();
  void on_accept(beast::error_code ec, tcp::socket socket);
  // Writes m in family f into res (status, content type, body); JSON-RPC echoes id.
  void encode_reply(Worker& w, const rpc::Message& m, rpc::Family f, const JsonId& id,
                    Response& res);

  ServerConfig config_;                                // as given (threads resolved at start)
  std::function<void(const ServerTiming&)> callback_;  // on_request, set before start()
  Service service_;                                    // the dispatcher
  std::array<std::string, 6> chain_;                   // stored getChain bytes per family
  std::string_view chain_json_result_;                 // the "result" value inside chain_[jsonrpc]
  std::string wsdl_;                              // the WSDL for base_url_ (bound to an address)
  bool bound_any_ = false;                        // bound to 0.0.0.0/::: WSDL per local address
  std::uint16_t port_ = 0;                        // the bound port
  std::string base_url_;                          // http(s)://address:port
  std::atomic<std::size_t> active_{0};            // counted (non-rejected) sessions alive
  std::mutex sessions_mutex_;                     // guards sessions_ and stopping_
  std::unordered_set<SessionBase*> sessions_;     // every live session, for stop()
  bool stopping_ = false;                         // stop() began: accept nothing more
  std::vector<std::unique_ptr<Worker>> workers_;  // one per pool thread
  std::optional<ssl::context> tls_;               // the TLS context (config.tls)
  std::optional<net::io_context> ioc_;            // the one io_context
  std::optional<net::strand<net::io_context::executor_type>> accept_strand_;  // acceptor's strand
  std::optional<tcp::acceptor> acceptor_;          // the listening socket
  std::optional<net::steady_timer> accept_retry_;  // back-off after an accept error
  std::vector<std::thread> threads_;               // the pool
  std::mutex state_mutex_;                         // guards running_ and live_threads_
  std::condition_variable state_cv_;               // signals running_/live_threads_ changes
  bool running_ = false;                           // between start() and stop()
  std::size_t live_threads_ = 0;                   // pool threads still inside run()
};

// The part of a session stop() needs without knowing the stream type.
class SessionBase : public std::enable_shared_from_this<SessionBase> {
 public:
  SessionBase(Core& core, bool counted) : core_(core), counted_(counted) {}
  virtual ~SessionBase() { core_.forget(this, counted_); }
  SessionBase(const SessionBase&) = delete;
  SessionBase& operator=(const SessionBase&) = delete;

  // Starts serving (posts onto the session's strand).
  virtual void run() = 0;
  // Closes the connection now; called on the session's strand by stop().
  virtual void abort() = 0;
  // The session's strand.
  virtual net::any_io_executor executor() = 0;

 protected:
  Core& core_;    // the server
  bool counted_;  // counts against max_connections (not a 503 rejection)
};

// One connection: owns the stream, its buffers and timers; every step re-arms a deadline.
template <class Stream>
class Session final : public SessionBase {
 public:
  static constexpr bool kTls = !std::is_same_v<Stream, beast::tcp_stream>;

  // A plain connection.
  Session(Core& core, tcp::socket&& socket, bool reject) requires(!kTls)
      : SessionBase(core, !reject),
        stream_(std::move(socket)),
        delay_(stream_.get_executor()),
        reject_(reject) {
    init();
  }
  // A TLS connection.
  Session(Core& core, tcp::socket&& socket, ssl::context& ctx, bool reject) requires(kTls)
      : SessionBase(core, !reject),
        stream_(std::move(socket), ctx),
        delay_(stream_.get_executor()),
        reject_(reject) {
    init();
  }

  void run() override {
    net::dispatch(stream_.get_executor(), beast::bind_front_handler(&Session::start, self()));
  }

  void abort() override {
    aborted_ = true;
    close_now();
  }

  net::any_io_executor executor() override { return stream_.get_executor(); }

 private:
  std::shared_ptr<Session> self() { return std::static_pointer_cast<Session>(shared_from_this()); }
  beast::tcp_stream& tcp() { return beast::get_lowest_layer(stream_); }
  const ServerConfig& config() const { return core_.config(); }

  void init() {
    buffer_.reserve(kReadChunk);
    beast::error_code ec;
    local_ = tcp().socket().local_endpoint(ec);
  }

  void start() {
    if constexpr (kTls) {
      tcp().expires_after(config().header_timeout);
      stream_.async_handshake(ssl::stream_base::server,
                              beast::bind_front_handler(&Session::on_handshake, self()));
    } else {
      begin();
    }
  }

  void on_handshake(beast::error_code ec) {
    if (ec) return close_now();
    begin();
  }

  void begin() {
    if (reject_) return send_status(http::status::service_unavailable, "too many connections");
    read_header();
  }

  // Keep-alive: wait for the next request's first byte for up to idle_timeout; the header
  // deadline starts once it has arrived.
  void next_request() {
    if (buffer_.size() > 0) return read_header();  // pipelined: already here
    tcp().expires_after(config().idle_timeout);
    stream_.async_read_some(buffer_.prepare(kReadChunk),
                            beast::bind_front_handler(&Session::on_idle, self()));
  }

  void on_idle(beast::error_code ec, std::size_t n) {
    if (ec) return close_now();  // idle timeout, peer closed, or stop()
    buffer_.commit(n);
    read_header();
  }

  void read_header() {
    parser_.emplace();
    parser_->header_limit(kHeaderLimit);
    parser_->body_limit(config().max_body_bytes);
    parser_->get().body() = std::move(spare_body_);  // reuse the previous body's storage
    tcp().expires_after(config().header_timeout);
    http::async_read_header(stream_, buffer_, *parser_,
                            beast::bind_front_handler(&Session::on_header, self()));
  }

  // Whether ec is the peer's fault at the HTTP level (answered with a status, then closed).
  static bool http_error(const beast::error_code& ec) {
    return &ec.category() == &beast::error_code(http::error::bad_method).category();
  }

  void on_header(beast::error_code ec, std::size_t) {
    if (ec == http::error::body_limit) {  // Content-Length above max_body_bytes: no body read
      return send_status(http::status::payload_too_large, "request body too large");
    }
    if (ec == http::error::header_limit) {
      return send_status(http::status::request_header_fields_too_large, "request header too large");
    }
    if (ec == http::error::end_of_stream || ec == http::error::partial_message) return close_now();
    if (ec && http_error(ec)) return send_status(http::status::bad_request, "malformed request");
    if (ec) return close_now();  // header_timeout, reset, stop()
    const Request& req = parser_->get();
    if (!parser_->is_done() && beast::iequals(req[http::field::expect], "100-continue")) {
      continue_.version(11);
      continue_.result(http::status::continue_);
      tcp().expires_after(config().request_deadline);
      return http::async_write(stream_, continue_,
                               beast::bind_front_handler(&Session::on_continue, self()));
    }
    read_body();
  }

  void on_continue(beast::error_code ec, std::size_t) {
    if (ec) return close_now();
    read_body();
  }

  void read_body() {
    tcp().expires_after(config().request_deadline);
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&Session::on_body, self()));
  }

  void on_body(beast::error_code ec, std::size_t) {
    if (ec == http::error::body_limit) {  // chunked body above max_body_bytes
      return send_status(http::status::payload_too_large, "request body too large");
    }
    if (ec && http_error(ec) && ec != http::error::end_of_stream &&
        ec != http::error::partial_message) {
      return send_status(http::status::bad_request, "malformed request");
    }
    if (ec) return close_now();  // request_deadline, reset, stop()
    process();
  }

  void process() {
    tcp().expires_never();
    Request& req = parser_->get();
    res_.clear();  // header fields
    res_.body().clear();
    const Outcome outcome = core_.handle(req, res_, local_);
    closing_ = !res_.keep_alive();
    res_.prepare_payload();
    if (req.method() == http::verb::head) res_.body().clear();  // GET's header, no body
    spare_body_ = std::move(req.body());
    spare_body_.clear();
    if (spare_body_.capacity() > kKeepCapacity) std::string().swap(spare_body_);
    if (outcome.delay.count() > 0) {
      delay_.expires_after(outcome.delay);
      return delay_.async_wait(beast::bind_front_handler(&Session::on_delay, self()));
    }
    write();
  }

  void on_delay(beast::error_code ec) {
    if (ec || aborted_) return close_now();
    write();
  }

  void write() {
    tcp().expires_after(config().request_deadline);
    http::async_write(stream_, res_, beast::bind_front_handler(&Session::on_write, self()));
  }

  void on_write(beast::error_code ec, std::size_t) {
    if (res_.body().owned.capacity() > kKeepCapacity) std::string().swap(res_.body().owned);
    res_.body().clear();
    if (ec) return close_now();
    if (closing_) return graceful_close();
    next_request();
  }

  // A plain-text answer that ends the connection (limits, malformed HTTP, 503).
  void send_status(http::status status, std::string_view text) {
    tcp().expires_never();
    res_.clear();
    res_.body().clear();
    res_.version(11);
    res_.result(status);
    res_.set(http::field::content_type, "text/plain; charset=utf-8");
    res_.keep_alive(false);
    res_.body().owned.append(text).append("\n");
    res_.prepare_payload();
    closing_ = true;
    write();
  }

  // After a closing response: TLS close_notify, or TCP half-close and a bounded drain of what
  // the client still sends (so it reads our response instead of a reset); nothing is buffered.
  void graceful_close() {
    tcp().expires_after(kLinger);
    if constexpr (kTls) {
      stream_.async_shutdown(beast::bind_front_handler(&Session::on_shutdown, self()));
    } else {
      beast::error_code ec;
      tcp().socket().shutdown(tcp::socket::shutdown_send, ec);
      if (ec) return close_now();
      buffer_.clear();
      drain();
    }
  }

  void on_shutdown(beast::error_code) { close_now(); }

  void drain() {
    tcp().async_read_some(buffer_.prepare(kReadChunk),
                          beast::bind_front_handler(&Session::on_drain, self()));
  }

  void on_drain(beast::error_code ec, std::size_t) {
    if (ec || aborted_) return close_now();  // EOF, kLinger expired, stop()
    drain();
  }

  void close_now() {
    delay_.cancel();
    beast::error_code ec;
    tcp().socket().shutdown(tcp::socket::shutdown_both, ec);
    tcp().close();
  }

  Stream stream_;                            // the connection; tcp() holds the deadline
  beast::flat_buffer buffer_{kBufferLimit};  // bytes read, not yet parsed
  std::optional<http::request_parser<http::string_body>> parser_;  // this request's parser
  std::string spare_body_;                     // request body storage between requests
  Response res_;                               // the response; body storage reused
  http::response<http::empty_body> continue_;  // "100 Continue"
  net::steady_timer delay_;                    // respond's delay (never blocks a thread)
  tcp::endpoint local_;                        // our address (WSDL when bound to any)
  bool reject_;                                // over max_connections: 503 and close
  bool closing_ = false;                       // close after the current response
  bool aborted_ = false;                       // stop() closed this session
};

using PlainSession = Session<beast::tcp_stream>;
using TlsSession = Session<beast::ssl_stream<beast::tcp_stream>>;

// ------------------------------------------------------------------ Core: lifecycle

void Core::load_chain() {
  const std::filesystem::path dir =
      config_.corpus_dir.empty() ? default_corpus_dir() : config_.corpus_dir;
  std::string missing;
  for (rpc::Family f : rpc::kAllFamilies) {
    const std::filesystem::path fdir = dir / std::string(rpc::family_name(f));
    std::error_code ec;
    std::filesystem::path file;
    for (std::filesystem::directory_iterator it(fdir, ec), end; !ec && it != end;
         it.increment(ec)) {
      if (it->path().filename().string().starts_with("getChain.response.")) file = it->path();
    }
    std::string& doc = chain_[static_cast<std::size_t>(f)];
    if (!file.empty()) {
      try {
        doc = read_message_file(file);
      } catch (const std::exception&) {
        doc.clear();
      }
    }
    if (f == rpc::Family::jsonrpc && !doc.empty()) {
      const auto result = top_level_member(doc, "result");
      if (result) {
        chain_json_result_ = *result;
      } else {
        doc.clear();
      }
    }
    if (doc.empty()) missing += (missing.empty() ? "" : ", ") + std::string(rpc::family_name(f));
  }
  if (!missing.empty()) {
    std::fprintf(stderr,
                 "soapbench: serve: no getChain document for %s under %s; getChain answers "
                 "fault -32603\n",
                 missing.c_str(), dir.string().c_str());
  }
}

void Core::start() {
  {
    std::lock_guard lock(state_mutex_);
    if (running_ || ioc_) throw std::runtime_error("server already started");
  }
  for (const auto& [name, format] :
       {std::pair{config_.parser, Format::xml}, std::pair{config_.json_parser, Format::json}}) {
    const AdapterEntry* e = find_adapter(name);
    if (e == nullptr) throw std::runtime_error("no adapter named '" + name + "'");
    if (e->info().format != format) {
      throw std::runtime_error("adapter '" + name + "' does not read " +
                               (format == Format::xml ? "XML" : "JSON"));
    }
  }
  if (find_encoder(config_.encoder) == nullptr) {
    throw std::runtime_error("no encoder named '" + config_.encoder + "'");
  }
  if (config_.tls) {
    tls_.emplace(ssl::context::tls_server);
    tls_->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                      ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
    SSL_CTX* ctx = tls_->native_handle();
    // Resumption: a server-side session cache for TLS 1.2 session ids, and (default on) TLS 1.3
    // session tickets; the id context is required for either to be accepted.
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_SERVER);
    static constexpr unsigned char kIdContext[] = "soapbench";
    SSL_CTX_set_session_id_context(ctx, kIdContext, sizeof kIdContext - 1);
    SSL_CTX_clear_options(ctx, SSL_OP_NO_TICKET);
    if (!config_.cert_file.empty() || !config_.key_file.empty()) {
      beast::error_code ec;
      tls_->use_certificate_chain_file(config_.cert_file.string(), ec);
      if (!ec) tls_->use_private_key_file(config_.key_file.string(), ssl::context::pem, ec);
      if (ec)
        throw std::runtime_error("TLS: " + config_.cert_file.string() + ", " +
                                 config_.key_file.string() + ": " + ec.message());
    } else {
      use_self_signed(ctx);
    }
  }
  load_chain();

  beast::error_code ec;
  const net::ip::address address = net::ip::make_address(config_.address, ec);
  if (ec) throw std::runtime_error("bad listen address '" + config_.address + "'");
  ioc_.emplace();
  accept_strand_.emplace(net::make_strand(*ioc_));
  acceptor_.emplace(*accept_strand_);
  accept_retry_.emplace(*accept_strand_);
  const tcp::endpoint endpoint(address, config_.port);
  auto fail = [&](const char* what) {
    acceptor_.reset();
    accept_retry_.reset();
    accept_strand_.reset();
    ioc_.reset();
    tls_.reset();
    throw std::runtime_error(std::string(what) + " " + config_.address + ":" +
                             std::to_string(config_.port) + ": " + ec.message());
  };
  acceptor_->open(endpoint.protocol(), ec);
  if (ec) fail("cannot open");
  acceptor_->set_option(net::socket_base::reuse_address(true), ec);
  acceptor_->bind(endpoint, ec);
  if (ec) fail("cannot bind");
  acceptor_->listen(net::socket_base::max_listen_connections, ec);
  if (ec) fail("cannot listen on");
  port_ = acceptor_->local_endpoint().port();
  bound_any_ = address.is_unspecified();
  const std::string host = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
  base_url_ =
      std::string(config_.tls ? "https" : "http") + "://" + host + ":" + std::to_string(port_);
  wsdl_ = rpc::generate_wsdl(rpc::service_contract(), base_url_);

  const unsigned n =
      config_.threads != 0 ? config_.threads : std::max(1u, std::thread::hardware_concurrency());
  config_.threads = n;
  {
    std::lock_guard lock(state_mutex_);
    running_ = true;
    live_threads_ = n;
  }
  {
    std::lock_guard lock(sessions_mutex_);
    stopping_ = false;
  }
  net::dispatch(*accept_strand_, [this] { do_accept(); });
  workers_.clear();
  for (unsigned i = 0; i < n; ++i) workers_.push_back(std::make_unique<Worker>());
  for (unsigned i = 0; i < n; ++i) {
    threads_.emplace_back([this, i] {
      t_worker = workers_[i].get();
      // Made here, on the thread that uses them, so that no request's timing includes them.
      t_worker->encoder = make_encoder(config_.encoder);
      t_worker->direct = make_encoder("direct");
      t_worker->adapter(config_.parser);
      t_worker->adapter(config_.json_parser);
      for (;;) {
        try {
          ioc_->run();
          break;
        } catch (const std::exception& e) {
          std::fprintf(stderr, "soapbench: serve: %s\n", e.what());  // handler threw: keep serving
        }
      }
      t_worker = nullptr;
      std::lock_guard lock(state_mutex_);
      --live_threads_;
      state_cv_.notify_all();
    });
  }
}

void Core::stop() {
  {
    std::lock_guard lock(state_mutex_);
    if (!ioc_) return;
  }
  for (const std::thread& t : threads_) {
    if (t.get_id() == std::this_thread::get_id()) {
      throw std::logic_error("RpcServer::stop() called from a server thread");
    }
  }
  // Collected under the lock, released outside it: the last reference to a session may be ours,
  // and its destructor takes sessions_mutex_ (forget()).
  std::vector<std::shared_ptr<SessionBase>> live;
  {
    std::lock_guard lock(sessions_mutex_);
    stopping_ = true;
    for (SessionBase* s : sessions_) {
      if (std::shared_ptr<SessionBase> p = s->weak_from_this().lock()) live.push_back(std::move(p));
    }
  }
  for (std::shared_ptr<SessionBase>& p : live) net::post(p->executor(), [p] { p->abort(); });
  live.clear();
  net::post(*accept_strand_, [this] {
    beast::error_code ec;
    acceptor_->close(ec);
    accept_retry_->cancel();
  });
  {
    std::unique_lock lock(state_mutex_);
    if (!state_cv_.wait_for(lock, kStopGrace, [&] { return live_threads_ == 0; })) ioc_->stop();
  }
  for (std::thread& t : threads_) t.join();
  threads_.clear();
  accept_retry_.reset();
  acceptor_.reset();
  accept_strand_.reset();
  ioc_.reset();  // destroys handlers a forced stop left behind (and their sessions)
  tls_.reset();
  std::lock_guard lock(state_mutex_);
  running_ = false;
  state_cv_.notify_all();
}

void Core::wait() {
  std::unique_lock lock(state_mutex_);
  state_cv_.wait(lock, [&] { return !running_; });
}

void Core::forget(SessionBase* s, bool counted) {
  if (counted) active_.fetch_sub(1);
  std::lock_guard lock(sessions_mutex_);
  sessions_.erase(s);
}

void Core::do_accept() {
  acceptor_->async_accept(net::make_strand(*ioc_), [this](beast::error_code ec, tcp::socket s) {
    on_accept(ec, std::move(s));
  });
}

void Core::on_accept(beast::error_code ec, tcp::socket socket) {
  if (!acceptor_->is_open() || ec == net::error::operation_aborted) return;
  if (ec) {  // out of descriptors and the like: back off instead of spinning
    accept_retry_->expires_after(kAcceptRetry);
    accept_retry_->async_wait([this](beast::error_code e) {
      if (!e && acceptor_->is_open()) do_accept();
    });
    return;
  }
  socket.set_option(tcp::no_delay(true), ec);
  // Only this strand adds to active_ (sessions only leave), so check-then-add cannot overshoot.
  const bool reject = active_.load() >= config_.max_connections;
  if (!reject) active_.fetch_add(1);
  std::shared_ptr<SessionBase> session;
  if (tls_) {
    session = std::make_shared<TlsSession>(*this, std::move(socket), *tls_, reject);
  } else {
    session = std::make_shared<PlainSession>(*this, std::move(socket), reject);
  }
  {
    std::lock_guard lock(sessions_mutex_);
    if (stopping_) return;  // unlocked before `session` dies (its destructor locks too)
    sessions_.insert(session.get());
  }
  session->run();
  do_accept();
}

// ------------------------------------------------------------------ Core: requests

std::string_view content_type_of(rpc::Family f) {
  switch (f) {
    case rpc::Family::soap12_doc_literal:
      return "application/soap+xml; charset=utf-8";
    case rpc::Family::jsonrpc:
      return "application/json";
    default:
      return "text/xml; charset=utf-8";
  }
}

// HTTP status of an RPC answer: faults are 200 in XML-RPC and JSON-RPC, 500 in SOAP 1.1, and in
// SOAP 1.2 400 for Sender faults (the client's: -32700..-32600) else 500 (Receiver).
http::status status_of(const rpc::Message& m, rpc::Family f) {
  if (m.kind != rpc::MessageKind::fault || !rpc::is_soap(f)) return http::status::ok;
  if (f == rpc::Family::soap12_doc_literal && m.fault_code >= rpc::fault::parse_error &&
      m.fault_code <= rpc::fault::invalid_request) {
    return http::status::bad_request;
  }
  return http::status::internal_server_error;
}

// The fault message docs/service.md gives each code ("parse error: …", "invalid params: …").
std::string fault_text(int code, std::string detail) {
  std::string_view prefix;
  switch (code) {
    case rpc::fault::parse_error:
      prefix = "parse error: ";
      break;
    case rpc::fault::invalid_request:
      prefix = "invalid request: ";
      break;
    case rpc::fault::invalid_params:
      prefix = "invalid params: ";
      break;
    case rpc::fault::internal_error:
      prefix = "internal error: ";
      break;
    default:
      return detail;
  }
  if (std::string_view(detail).starts_with(prefix)) return detail;
  return std::string(prefix) + detail;
}

std::int64_t ns_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(b - a).count();
}

void Core::plain(Response& res, http::status status, std::string_view text) {
  res.result(status);
  res.set(http::field::content_type, "text/plain; charset=utf-8");
  res.body().owned.assign(text).append("\n");
}

void Core::wsdl(Response& res, const tcp::endpoint& local) {
  res.result(http::status::ok);
  res.set(http::field::content_type, "text/xml; charset=utf-8");
  if (!bound_any_) {
    res.body().middle = wsdl_;
    return;
  }
  const net::ip::address a = local.address();
  const std::string host = a.is_v6() ? "[" + a.to_string() + "]" : a.to_string();
  res.body().owned =
      rpc::generate_wsdl(rpc::service_contract(), std::string(config_.tls ? "https" : "http") +
                                                      "://" + host + ":" + std::to_string(port_));
}

Outcome Core::handle(const Request& req, Response& res, const tcp::endpoint& local) {
  res.version(req.version());
  res.keep_alive(req.keep_alive());
  const std::string_view target = req.target();
  const std::size_t q = target.find('?');
  const std::string_view path = target.substr(0, q);
  const std::string_view query = q == npos ? std::string_view() : target.substr(q + 1);
  std::optional<Endpoint> ep;
  if (path == "/RPC2") ep = Endpoint::xmlrpc;
  if (path == "/soap") ep = Endpoint::soap;
  if (path == "/jsonrpc") ep = Endpoint::jsonrpc;
  if (!ep) {
    plain(res, http::status::not_found, "not found (POST /RPC2, /soap, /jsonrpc; GET /soap?wsdl)");
    return {};
  }
  if (req.method() == http::verb::post) return rpc(*ep, req, res);
  const bool get = req.method() == http::verb::get || req.method() == http::verb::head;
  if (*ep == Endpoint::soap && get && beast::iequals(query, "wsdl")) {
    wsdl(res, local);
    return {};
  }
  if (const std::string_view xsd = rpc::served_schema(query);  // what the WSDL imports
      *ep == Endpoint::soap && get && !xsd.empty()) {
    res.result(http::status::ok);
    res.set(http::field::content_type, "text/xml; charset=utf-8");
    res.body().middle = xsd;
    return {};
  }
  plain(res, http::status::method_not_allowed, "method not allowed");
  res.set(http::field::allow, *ep == Endpoint::soap ? "POST, GET" : "POST");
  return {};
}

void Core::encode_reply(Worker& w, const rpc::Message& m, rpc::Family f, const JsonId& id,
                        Response& res) {
  Encoder* enc = w.encoder->entry().supports(f) ? w.encoder.get() : w.direct.get();
  rpc::JsonRpcOptions options;
  const bool splice = f == rpc::Family::jsonrpc && !id.number;  // written as "id":0, replaced
  options.id = id.number.value_or(0);
  std::string& out = res.body().owned;
  std::string error;
  const rpc::Message* sent = &m;
  rpc::Message fallback;
  if (!enc->encode(m, f, out, error, options)) {
    // The response cannot be written (NaN, malformed UTF-8 from the request, …): say so instead.
    fallback = make_fault(rpc::fault::internal_error, "internal error: " + error);
    if (!w.direct->encode(fallback, f, out, error, options)) {
      res.result(http::status::internal_server_error);
      res.set(http::field::content_type, "text/plain; charset=utf-8");
      out = "cannot encode the response: " + error + "\n";
      return;
    }
    sent = &fallback;
  }
  if (splice) {  // a string, fractional or null id: the encoder wrote "id":0 last
    constexpr std::string_view kPlaceholder = "\"id\":0}";
    if (std::string_view(out).ends_with(kPlaceholder)) {
      out.resize(out.size() - 2);
      out.append(id.raw).push_back('}');
    }
  }
  res.result(status_of(*sent, f));
  res.set(http::field::content_type, content_type_of(f));
}

Outcome Core::rpc(Endpoint ep, const Request& req, Response& res) {
  Worker& w = *t_worker;
  Outcome outcome;
  rpc::Protocol protocol = rpc::Protocol::jsonrpc;
  rpc::Family family = rpc::Family::jsonrpc;  // answers before the request's family is known
  if (ep == Endpoint::xmlrpc) {
    protocol = rpc::Protocol::xmlrpc;
    family = rpc::Family::xmlrpc;
  } else if (ep == Endpoint::soap) {
    const std::string_view ct = req[http::field::content_type];
    std::string_view media = ct.substr(0, ct.find(';'));
    while (!media.empty() && (media.back() == ' ' || media.back() == '\t')) media.remove_suffix(1);
    const bool soap12 = beast::iequals(media, "application/soap+xml");
    protocol = soap12 ? rpc::Protocol::soap12 : rpc::Protocol::soap11;
    family = soap12 ? rpc::Family::soap12_doc_literal : rpc::Family::soap11_doc_literal;
  }
  const bool json = protocol == rpc::Protocol::jsonrpc;
  const auto x_parser = req.find("X-Parser");
  const std::string_view parser =
      x_parser != req.end() ? x_parser->value()
                            : std::string_view(json ? config_.json_parser : config_.parser);

  ServerTiming timing;
  timing.family = family;
  timing.parser = std::string(parser);
  JsonId id;
  auto finish = [&] {
    if (callback_) callback_(timing);
    if (config_.server_timing) {
      char header[160];
      std::snprintf(header, sizeof header, "decode;dur=%.6f, dispatch;dur=%.6f, encode;dur=%.6f",
                    static_cast<double>(timing.decode_ns) / 1e6,
                    static_cast<double>(timing.dispatch_ns) / 1e6,
                    static_cast<double>(timing.encode_ns) / 1e6);
      res.set("Server-Timing", header);
    }
    return outcome;
  };

  Adapter* adapter = w.adapter(parser);
  if (adapter == nullptr || adapter->info().format != (json ? Format::json : Format::xml)) {
    const std::string why = adapter == nullptr
                                ? "no parser named '" + std::string(parser) + "' (X-Parser)"
                                : "parser '" + std::string(parser) + "' does not read " +
                                      (json ? "JSON" : "XML") + " (X-Parser)";
    const Clock::time_point t0 = Clock::now();
    encode_reply(w, make_fault(rpc::fault::invalid_request, "invalid request: " + why), family, id,
                 res);
    timing.encode_ns = ns_between(t0, Clock::now());
    res.result(http::status::bad_request);
    return finish();
  }

  try {
    const Clock::time_point t0 = Clock::now();
    w.buffer.assign(req.body());
    rpc::DecodeContext context;
    context.protocol = protocol;
    DecodeReport report;
    const Status status = adapter->decode(w.buffer, context, w.call, report);
    if (json && (status.ok() || report.fault_code != rpc::fault::parse_error)) {
      id = find_json_id(req.body());
    }
    const Clock::time_point t1 = Clock::now();
    timing.decode_ns = ns_between(t0, t1);

    std::optional<rpc::Message> fault;
    if (!status.ok()) {
      const int code = report.fault_code != 0 ? report.fault_code : rpc::fault::parse_error;
      fault = make_fault(
          code, fault_text(code, status.code() == StatusCode::invalid ? status.reason()
                                                                      : status.describe()));
    } else {
      family = report.family;
      timing.family = family;
      if (w.call.kind != rpc::MessageKind::call) {
        fault = make_fault(rpc::fault::invalid_request, "invalid request: expected a call");
      }
    }
    // JSON-RPC notifications (no id) get no answer, errors included, unless the id could not
    // be read at all (parse error, invalid request).
    const bool notification = json && !id.present &&
                              !(fault && (fault->fault_code == rpc::fault::parse_error ||
                                          fault->fault_code == rpc::fault::invalid_request));

    if (fault) {
      const Clock::time_point t2 = Clock::now();
      encode_reply(w, *fault, family, id, res);
      timing.encode_ns = ns_between(t2, Clock::now());
    } else if (w.call.method == "getChain" && w.call.params.empty() &&
               !chain_[static_cast<std::size_t>(family)].empty()) {
      // Passthrough: the stored bytes go out as they are (XML), or inside a fresh envelope that
      // carries the request's id (JSON-RPC); nothing is decoded or re-serialized.
      const Clock::time_point t2 = Clock::now();
      const std::string& doc = chain_[static_cast<std::size_t>(family)];
      const Clock::time_point t3 = Clock::now();
      timing.dispatch_ns = ns_between(t2, t3);
      res.result(http::status::ok);
      res.set(http::field::content_type, content_type_of(family));
      if (json) {
        res.body()
            .owned.assign("{\"jsonrpc\":\"2.0\",\"id\":")
            .append(id.raw)
            .append(",\"result\":");
        res.body().middle = chain_json_result_;
        res.body().tail = "}";
      } else {
        res.body().middle = doc;
      }
      timing.encode_ns = ns_between(t3, Clock::now());
    } else {
      const Clock::time_point t2 = Clock::now();
      DispatchResult result = service_.dispatch(w.call);
      const Clock::time_point t3 = Clock::now();
      timing.dispatch_ns = ns_between(t2, t3);
      encode_reply(w, result.response, family, id, res);
      timing.encode_ns = ns_between(t3, Clock::now());
      outcome.delay = result.delay;
    }
    if (notification) {
      res.result(http::status::no_content);
      res.erase(http::field::content_type);
      res.body().clear();
    }
  } catch (const std::exception& e) {  // bad_alloc from a huge request or response, say
    res.body().clear();
    encode_reply(w,
                 make_fault(rpc::fault::internal_error, std::string("internal error: ") + e.what()),
                 family, id, res);
  }
  return finish();
}

}  // namespace server_detail

// ------------------------------------------------------------------ RpcServer

class RpcServer::Impl {
 public:
  explicit Impl(ServerConfig config) : core(std::move(config)) {}
  server_detail::Core core;  // everything; Session needs to name it, so it lives outside Impl
};

RpcServer::RpcServer(ServerConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {}

RpcServer::~RpcServer() { stop(); }

void RpcServer::start() { impl_->core.start(); }
void RpcServer::stop() { impl_->core.stop(); }
void RpcServer::wait() { impl_->core.wait(); }
std::uint16_t RpcServer::port() const { return impl_->core.port(); }
std::string RpcServer::base_url() const { return impl_->core.base_url(); }
void RpcServer::on_request(std::function<void(const ServerTiming&)> callback) {
  impl_->core.on_request(std::move(callback));
}

}  // namespace sb
