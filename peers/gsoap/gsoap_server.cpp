// gsoap_server: the soapbench service (docs/service.md) served by gSOAP's own HTTP server and
// generated dispatcher (soap_serve), for one SOAP family; a thread per connection, keep-alive on.
// docs/peers.md "gSOAP".
#include <fmt/core.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "harness/corpus.h"
#include "peers/gsoap/context.h"
#include "peers/peer_cli.h"
#include "stdsoap2.h"

namespace {

using sb::gsoap::Family;

volatile std::sig_atomic_t g_stop = 0;  // set by SIGINT/SIGTERM

// The connections being served: their sockets (shut down at stop) and a count to wait on.
class Connections {
 public:
  // Waits until fewer than `limit` connections are open (0: no limit), or a stop.
  void wait_below(int limit) {
    std::unique_lock<std::mutex> lock(mutex_);
    while (limit > 0 && static_cast<int>(open_.size()) >= limit && g_stop == 0) {
      changed_.wait_for(lock, std::chrono::milliseconds(100));
    }
  }
  void add(SOAP_SOCKET fd) {
    std::lock_guard<std::mutex> lock(mutex_);
    open_.insert(fd);
  }
  void remove(SOAP_SOCKET fd) {
    std::lock_guard<std::mutex> lock(mutex_);
    open_.erase(fd);
    changed_.notify_all();
  }
  // Shuts every open connection down and waits (up to 5 s) for their threads to finish.
  void close_all() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (SOAP_SOCKET fd : open_) shutdown(fd, SHUT_RDWR);
    changed_.wait_for(lock, std::chrono::seconds(5), [this] { return open_.empty(); });
  }

 private:
  std::mutex mutex_;                 // guards open_
  std::condition_variable changed_;  // signalled when a connection ends
  std::set<SOAP_SOCKET> open_;       // sockets of the connections being served
};

// Serves one accepted connection (its own copy of the context) until the client closes it.
void serve_connection(soap* s, const Family* family, Connections* connections) {
  const SOAP_SOCKET fd = s->socket;
  family->binding().serve(s);
  soap_destroy(s);
  soap_end(s);
  connections->remove(fd);  // before the socket closes: its number may be reused at once
  soap_free(s);             // closes the socket
}

// Loads the family's getChain document (the corpus response) into generated types held by
// `store`; a warning when there is none, so getChain answers a fault as `soapbench serve` does.
void load_chain(soap* store, const Family& family, const std::string& corpus) {
  const std::filesystem::path dir =
      (corpus.empty() ? sb::default_corpus_dir() : std::filesystem::path(corpus)) / family.name;
  for (const char* name : {"getChain.response.xml", "getChain.response.xml.gz"}) {
    if (!std::filesystem::exists(dir / name)) continue;
    const std::string bytes = sb::read_message_file(dir / name);
    if (family.binding().load_chain(store, bytes) != SOAP_OK) {
      fmt::print(stderr, "gsoap_server: {}: {}\n", (dir / name).string(),
                 sb::gsoap::error_text(store));
    }
    return;
  }
  fmt::print(stderr, "gsoap_server: no getChain document under {}; getChain answers a fault\n",
             dir.string());
}

// The port s->master is bound to.
int bound_port(soap* s) {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  getsockname(s->master, reinterpret_cast<sockaddr*>(&addr), &len);
  return addr.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port)
                                    : ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
}

// Server options.
struct Options {
  std::string family = "soap11-doc-literal";  // the SOAP family served
  std::string address = "127.0.0.1";          // listen address
  int port = 8080;                            // listen port (0: any)
  int threads = 0;                            // concurrent connections (0: no limit)
  int backlog = 1024;                         // listen queue length
  int idle_timeout = 30;                      // seconds a connection may stall
  std::string corpus;                         // corpus directory for getChain
};

// Accepts connections until a signal; each is served by its own thread.
int run(const Options& o, const Family& family) {
  soap* master = soap_new2(SOAP_IO_KEEPALIVE, SOAP_IO_KEEPALIVE);
  sb::gsoap::configure(master, family);
  master->bind_flags = SO_REUSEADDR;
  master->accept_timeout = 1;  // seconds: the accept loop looks at the stop flag this often
  master->recv_timeout = o.idle_timeout;
  master->send_timeout = o.idle_timeout;
  if (!soap_valid_socket(soap_bind(master, o.address.c_str(), o.port, o.backlog))) {
    fmt::print(stderr, "gsoap_server: cannot listen on {}:{}: {}\n", o.address, o.port,
               sb::gsoap::error_text(master));
    return 1;
  }
  soap* chain = soap_new();
  sb::gsoap::configure(chain, family);
  load_chain(chain, family, o.corpus);
  const std::string host =
      o.address.find(':') != std::string::npos ? "[" + o.address + "]" : o.address;
  fmt::print("gsoap_server: serving http://{}:{} (family {}, gSOAP {}.{}.{}, {})\n", host,
             bound_port(master), family.name, GSOAP_VERSION / 100000, GSOAP_VERSION / 1000 % 100,
             GSOAP_VERSION % 1000,
             o.threads > 0 ? fmt::format("at most {} connection threads", o.threads)
                           : std::string("a thread per connection"));
  std::fflush(stdout);
  Connections connections;
  while (g_stop == 0) {
    connections.wait_below(o.threads);
    if (g_stop != 0 || !soap_valid_socket(soap_accept(master))) continue;
    soap* s = soap_copy(master);
    connections.add(s->socket);
    std::thread(serve_connection, s, &family, &connections).detach();
    master->socket = SOAP_INVALID_SOCKET;  // the copy owns it now
  }
  soap_closesock(master);
  connections.close_all();
  soap_free(master);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  sb::peers::PeerCommandLine app(
      "gsoap_server: the soapbench service served by gSOAP (one SOAP family)");
  Options o;
  app.option("--family", o.family, "SOAP family: " + sb::gsoap::family_names()).show_default();
  app.listen_options(o.address, o.port);
  app.option("--threads", o.threads,
             "Connections served at once, a thread each (0: no limit; beyond, accepting "
             "waits)")
      .show_default();
  app.option("--backlog", o.backlog, "Listen queue length").show_default();
  app.option("--idle-timeout", o.idle_timeout, "Seconds a connection may stall").show_default();
  app.option("--corpus", o.corpus, "Corpus directory holding the getChain documents")
      .existing_directory();
  if (const auto status = app.parse(argc, argv)) return *status;
  const Family* family = sb::gsoap::find_family(o.family);
  if (family == nullptr) {
    fmt::print(stderr, "gsoap_server: unknown --family {} ({})\n", o.family,
               sb::gsoap::family_names());
    return 1;
  }
  std::signal(SIGPIPE, SIG_IGN);
  struct sigaction stop {};
  stop.sa_handler = [](int) { g_stop = 1; };
  sigaction(SIGINT, &stop, nullptr);
  sigaction(SIGTERM, &stop, nullptr);
  return run(o, *family);
}
