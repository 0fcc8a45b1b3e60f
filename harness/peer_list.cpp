// The peer list (peer_list.h), compiled from the rows peers/CMakeLists.txt generates.
#include "harness/peer_list.h"

#include <algorithm>
#include <stdexcept>

namespace sb {

bool Peer::speaks(std::string_view family) const {
  return std::ranges::find(families, family) != families.end();
}

std::string Peer::not_served(std::string_view operation) const {
  for (const PeerUnexpressible& u : unexpressible) {
    if (u.operation == operation) return "not expressible (" + u.why + ")";
  }
  if (operations.empty() || std::ranges::find(operations, operation) != operations.end()) return "";
  return "not expressible (not implemented by that server)";
}

const std::vector<Peer>& peer_list() {
  static const std::vector<Peer> list{
#include "peer_list.inc"
  };
  return list;
}

const Peer* find_peer(std::string_view name) {
  for (const Peer& p : peer_list()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

const std::string& peer_server(std::string_view name) {
  const Peer* p = find_peer(name);
  if (p == nullptr) throw std::logic_error("no peer " + std::string(name) + " is declared");
  return p->server;
}

}  // namespace sb
