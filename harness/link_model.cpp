#include "harness/link_model.h"

namespace sb {

double projected_seconds(const CallCost& c, const Link& link) {
  if (link.bits_per_second == 0) return c.measured_total;
  const double cpu =
      c.client_encode + c.server_decode + c.dispatch + c.server_encode + c.client_decode;
  return cpu + link.rtt_seconds * c.round_trips + c.bytes * 8 / link.bits_per_second;
}

double parser_share(const CallCost& c, const Link& link) {
  const double total = projected_seconds(c, link);
  return total > 0 ? (c.server_decode + c.client_decode) / total : 0;
}

}  // namespace sb
