#include "peers/corba/corba_orb.h"

#include <omniORB4/IIOP.h>
#include <omniORB4/omniIOR.h>

#include <cstdlib>
#include <memory>

namespace sb::corba {

CORBA::ORB_ptr init_orb(const std::vector<std::pair<std::string, std::string>>& extra) {
  std::vector<std::pair<std::string, std::string>> all = {
      {"giopMaxMsgSize", kMaxMessageBytes},
      // Strings are the contract's UTF-8. A corbaloc reference carries no code set component,
      // so the client falls back to defaultCharCodeSet (ISO-8859-1 unless set, which would
      // refuse every character outside Latin-1: DATA_CONVERSION).
      {"nativeCharCodeSet", "UTF-8"},
      {"defaultCharCodeSet", "UTF-8"},
      {"clientCallTimeOutPeriod", "30000"},
  };
  all.insert(all.end(), extra.begin(), extra.end());
  // omniORB's option table: {name, value} rows, then {nullptr, nullptr} (value-initialized).
  auto table = std::make_unique<const char*[][2]>(all.size() + 1);
  for (std::size_t i = 0; i < all.size(); ++i) {
    table[i][0] = all[i].first.c_str();
    table[i][1] = all[i].second.c_str();
  }
  int argc = 1;
  char name[] = "soapbench-corba";
  char* argv[] = {name, nullptr};
  return CORBA::ORB_init(argc, argv, "omniORB4", table.get());
}

unsigned iiop_port(CORBA::Object_ptr obj) {
  const IOP::TaggedProfileList& profiles = obj->_PR_getobj()->_getIOR()->iopProfiles();
  for (CORBA::ULong i = 0; i < profiles.length(); ++i) {
    if (profiles[i].tag != IOP::TAG_INTERNET_IOP) continue;
    IIOP::ProfileBody body;
    IIOP::unmarshalProfile(profiles[i], body);
    return body.address.port;
  }
  return 0;
}

std::string corbaloc_url(const std::string& host, unsigned port) {
  const std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return "corbaloc:iiop:1.2@" + h + ":" + std::to_string(port) + "/" + kObjectKey;
}

unsigned corbaloc_port(const std::string& url) {
  const std::size_t slash = url.rfind('/');
  const std::size_t colon = url.rfind(':', slash);
  if (!url.starts_with("corbaloc:") || slash == std::string::npos || colon == std::string::npos)
    return 0;
  return static_cast<unsigned>(std::strtoul(url.c_str() + colon + 1, nullptr, 10));
}

}  // namespace sb::corba
