// corba_server: the service contract's operations (soapbench.idl) served by omniORB over
// GIOP/IIOP, until SIGINT or SIGTERM. The object lives under omniORB's INS POA with the fixed key
// "soapbench", so clients reach it by corbaloc:iiop:1.2@ADDRESS:PORT/soapbench (no naming service).
// Prints "corba_server: serving corbaloc:iiop:1.2@ADDRESS:PORT/soapbench (...)" once it accepts
// connections. docs/peers.md "omniORB (CORBA)".

#include <csignal>
#include <cstdio>
#include <exception>
#include <string>

#include "harness/corpus.h"
#include "peers/corba/corba_orb.h"
#include "peers/corba/corba_servant.h"
#include "peers/peer_cli.h"
#include "peers/stop_signals.h"

namespace {

// Command-line settings; the defaults are the peer's documented settings (docs/peers.md).
struct Options {
  std::string address = "127.0.0.1";  // listen address (IPv4 or IPv6 literal)
  unsigned port = 0;                  // 0: any free port
  bool pool = false;                  // omniORB's thread pool instead of a thread per connection
  unsigned threads = 100;             // omniORB's maxServerThreadPoolSize (its default)
  std::string corpus;                 // getChain's document (empty: the default corpus)
};

// getChain's document, or "" (then getChain answers a fault, said on stderr).
std::string chain_document(const Options& o) {
  try {
    return sb::corba::load_chain_document(o.corpus.empty() ? sb::default_corpus_dir()
                                                           : std::filesystem::path(o.corpus));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "corba_server: %s; getChain answers a fault\n", e.what());
    return "";
  }
}

// omniORB's settings for these options: the endpoint and the thread model.
std::vector<std::pair<std::string, std::string>> orb_options(const Options& o) {
  const bool v6 = o.address.find(':') != std::string::npos;
  const std::string host = v6 ? "[" + o.address + "]" : o.address;
  return {{"endPoint", "giop:tcp:" + host + ":" + (o.port == 0 ? "" : std::to_string(o.port))},
          {"threadPerConnectionPolicy", o.pool ? "0" : "1"},
          {"maxServerThreadPoolSize", std::to_string(o.threads)}};
}

// Serves until SIGINT or SIGTERM (blocked in every thread, taken by sigwait here).
int serve(const Options& o) {
  const sigset_t stop = sb::peers::block_stop_signals();
  std::signal(SIGPIPE, SIG_IGN);  // a client closing mid-reply must not end the server
  CORBA::ORB_var orb = sb::corba::init_orb(orb_options(o));
  PortableServer::POA_var ins =
      PortableServer::POA::_narrow(orb->resolve_initial_references("omniINSPOA"));
  PortableServer::Servant_var<sb::corba::Servant> servant =
      new sb::corba::Servant(chain_document(o));
  PortableServer::ObjectId_var id = PortableServer::string_to_ObjectId(sb::corba::kObjectKey);
  ins->activate_object_with_id(id, servant);
  PortableServer::POAManager_var manager = ins->the_POAManager();
  manager->activate();
  CORBA::Object_var obj = ins->id_to_reference(id);
  std::printf("corba_server: serving %s (omniORB %s, %s, pool size %u, giopMaxMsgSize %s)\n",
              sb::corba::corbaloc_url(o.address, sb::corba::iiop_port(obj)).c_str(),
              omniORB::versionString(), o.pool ? "thread pool" : "thread per connection", o.threads,
              sb::corba::kMaxMessageBytes);
  std::fflush(stdout);
  sb::peers::wait_for_stop(stop);
  orb->destroy();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  sb::peers::PeerCommandLine app(
      "corba_server: the soapbench service's operations (soapbench.idl) on omniORB, reached at "
      "corbaloc:iiop:1.2@ADDRESS:PORT/soapbench");
  app.listen_options(o.address, o.port);
  app.flag("--thread-pool", o.pool,
           "omniORB's thread pool (threadPerConnectionPolicy 0) instead of its default, one "
           "thread per connection");
  app.option("--threads", o.threads,
             "omniORB's maxServerThreadPoolSize: the pool's size with --thread-pool (with a "
             "thread per connection, the pool serves only past 10000 connections)")
      .show_default()
      .positive();
  app.option("--corpus", o.corpus, "Corpus directory holding the getChain document")
      .existing_directory();
  if (const auto status = app.parse(argc, argv)) return *status;
  try {
    return serve(o);
  } catch (const CORBA::Exception& e) {
    std::fprintf(stderr, "corba_server: CORBA exception %s\n", e._name());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "corba_server: %s\n", e.what());
  }
  return 1;
}
