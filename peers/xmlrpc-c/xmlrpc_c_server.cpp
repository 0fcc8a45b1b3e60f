// xmlrpc_c_server: the service contract's XML-RPC operations served by xmlrpc-c's Abyss server
// (xmlrpc_c::serverAbyss, a thread per connection) at /RPC2 (or --path), until SIGINT or
// SIGTERM. Prints "xmlrpc_c_server: serving http://ADDRESS:PORT (...)" once it accepts
// connections.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <xmlrpc-c/server_abyss.hpp>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>

#include "harness/corpus.h"
#include "peers/peer_cli.h"
#include "peers/stop_signals.h"
#include "peers/xmlrpc-c/xmlrpc_c_service.h"

namespace {

// Command-line settings; the defaults are the peer's documented settings (docs/peers.md).
struct Options {
  std::string address = "127.0.0.1";   // listen address (IPv4 or IPv6 literal)
  unsigned port = 0;                   // 0: any free port
  unsigned max_conn = 64;              // concurrent connections (= threads); Abyss: 15
  unsigned keepalive_timeout = 30;     // s an idle keep-alive connection stays; Abyss: 15
  unsigned keepalive_max = 1'000'000;  // requests per connection; Abyss: 30
  unsigned timeout = 15;               // s to receive one request (Abyss's default)
  std::size_t max_xml = 64 << 20;      // largest XML document; xmlrpc-c: 512 KiB
  std::string corpus;                  // getChain's document (empty: the default corpus)
  std::string path = "/RPC2";          // the URI path served (xmlrpc-c's default)
};

// A socket bound to address:port and listening, so that the port is known (and connectable)
// before Abyss takes it. Returns the fd; sets url to "http://address:port".
int bind_socket(const Options& o, std::string& url) {
  sockaddr_storage addr{};
  socklen_t len = 0;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&addr);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&addr);
  if (inet_pton(AF_INET, o.address.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(static_cast<std::uint16_t>(o.port));
    len = sizeof *v4;
  } else if (inet_pton(AF_INET6, o.address.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(static_cast<std::uint16_t>(o.port));
    len = sizeof *v6;
  } else {
    throw std::runtime_error("not an IP address: " + o.address);
  }
  const int fd = socket(addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int one = 1;
  if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
      bind(fd, reinterpret_cast<sockaddr*>(&addr), len) != 0 ||
      listen(fd, static_cast<int>(o.max_conn)) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    throw std::runtime_error("cannot listen on " + o.address + ":" + std::to_string(o.port) + ": " +
                             std::strerror(errno));
  }
  const unsigned port = ntohs(addr.ss_family == AF_INET ? v4->sin_port : v6->sin6_port);
  url = "http://" + (addr.ss_family == AF_INET6 ? "[" + o.address + "]" : o.address) + ":" +
        std::to_string(port);
  return fd;
}

// getChain's document, or none (then getChain answers a fault, said on stderr).
std::optional<xmlrpc_c::value> chain_document(const Options& o) {
  try {
    return sb::peers::load_chain(o.corpus.empty() ? sb::default_corpus_dir()
                                                  : std::filesystem::path(o.corpus));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "xmlrpc_c_server: %s; getChain answers a fault\n", e.what());
    return std::nullopt;
  }
}

// Serves until SIGINT or SIGTERM (blocked in every thread, taken by sigwait here).
int serve(const Options& o) {
  const sigset_t stop = sb::peers::block_stop_signals();
  std::signal(SIGPIPE, SIG_IGN);  // a client closing mid-response must not end the server
  xmlrpc_limit_set(XMLRPC_XML_SIZE_LIMIT_ID, o.max_xml);
  std::string url;
  const int fd = bind_socket(o, url);
  xmlrpc_c::serverAbyss server(xmlrpc_c::serverAbyss::constrOpt()
                                   .registryPtr(sb::peers::make_registry(chain_document(o)))
                                   .socketFd(fd)
                                   .uriPath(o.path)
                                   .maxConn(o.max_conn)
                                   .maxConnBacklog(o.max_conn)
                                   .keepaliveTimeout(o.keepalive_timeout)
                                   .keepaliveMaxConn(o.keepalive_max)
                                   .timeout(o.timeout)
                                   .serverOwnsSignals(false));
  std::thread runner([&server] { server.run(); });
  unsigned major = 0, minor = 0, point = 0;
  xmlrpc_version(&major, &minor, &point);
  std::printf(
      "xmlrpc_c_server: serving %s (xmlrpc-c %u.%u.%u, path %s, max-conn %u, keep-alive %u s / "
      "%u requests)\n",
      url.c_str(), major, minor, point, o.path.c_str(), o.max_conn, o.keepalive_timeout,
      o.keepalive_max);
  std::fflush(stdout);
  sb::peers::wait_for_stop(stop);
  server.terminate();
  runner.join();
  close(fd);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  sb::peers::PeerCommandLine app(
      "xmlrpc_c_server: the soapbench service's XML-RPC operations on xmlrpc-c's Abyss "
      "server (POST /RPC2)");
  app.listen_options(o.address, o.port);
  app.option("--max-conn", o.max_conn,
             "Concurrent connections, one thread each (Abyss's default: 15)")
      .show_default()
      .positive();
  app.option("--keepalive-timeout", o.keepalive_timeout, "s an idle connection is kept")
      .show_default()
      .positive();
  app.option("--keepalive-max", o.keepalive_max,
             "Requests per connection before Abyss closes it (Abyss's default: 30)")
      .show_default()
      .positive();
  app.option("--timeout", o.timeout, "s to receive one request").show_default();
  app.option("--max-xml", o.max_xml, "Largest XML document (xmlrpc-c's default: 512 KiB)")
      .show_default()
      .positive();
  app.option("--corpus", o.corpus, "Corpus directory holding the getChain document")
      .existing_directory();
  app.option("--path", o.path, "The URI path served (a service at a path of its own)")
      .show_default();
  if (const auto status = app.parse(argc, argv)) return *status;
  try {
    return serve(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "xmlrpc_c_server: %s\n", e.what());
    return 1;
  }
}
