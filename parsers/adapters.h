// Declarations of every adapter's registry functions; each pair is defined in the adapter's
// own file (pugixml_dom.cpp defines pugixml_dom_info and make_pugixml_dom, ...).
#pragma once

#include <memory>

#include "parsers/adapter.h"

#define SB_DECLARE_ADAPTER(id)    \
  const AdapterInfo& id##_info(); \
  std::unique_ptr<Adapter> make_##id(const ParseLimits& limits)

namespace sb {

SB_DECLARE_ADAPTER(pugixml_dom);
SB_DECLARE_ADAPTER(pugixml_dom_inplace);
SB_DECLARE_ADAPTER(rapidxml_dom);
SB_DECLARE_ADAPTER(rapidxml_dom_fastest);
SB_DECLARE_ADAPTER(tinyxml2_dom);
SB_DECLARE_ADAPTER(libxml2_dom);
SB_DECLARE_ADAPTER(libxml2_sax);
SB_DECLARE_ADAPTER(libxml2_reader);
SB_DECLARE_ADAPTER(xerces_dom);
SB_DECLARE_ADAPTER(xerces_sax2);
SB_DECLARE_ADAPTER(expat_sax);
SB_DECLARE_ADAPTER(rapidjson_dom);
SB_DECLARE_ADAPTER(rapidjson_dom_insitu);
SB_DECLARE_ADAPTER(rapidjson_sax);
SB_DECLARE_ADAPTER(simdjson_dom);
SB_DECLARE_ADAPTER(simdjson_ondemand);

}  // namespace sb

#undef SB_DECLARE_ADAPTER
