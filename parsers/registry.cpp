#include "parsers/registry.h"

#include <vector>

#include "parsers/adapters.h"

namespace sb {

std::string_view model_name(Model m) {
  switch (m) {
    case Model::dom:
      return "dom";
    case Model::sax:
      return "sax";
    case Model::pull:
      return "pull";
  }
  return "?";
}

// An explicit table, not static-constructor self-registration (that breaks in static
// libraries). SB_HAVE_<LIB> comes from cmake/dependencies.cmake.
std::span<const AdapterEntry> adapters() {
  static const std::vector<AdapterEntry> table = {
#if SB_HAVE_PUGIXML
    {&pugixml_dom_info, &make_pugixml_dom},
    {&pugixml_dom_inplace_info, &make_pugixml_dom_inplace},
#endif
#if SB_HAVE_RAPIDXML
    {&rapidxml_dom_info, &make_rapidxml_dom},
    {&rapidxml_dom_fastest_info, &make_rapidxml_dom_fastest},
#endif
#if SB_HAVE_TINYXML2
    {&tinyxml2_dom_info, &make_tinyxml2_dom},
#endif
#if SB_HAVE_LIBXML2
    {&libxml2_dom_info, &make_libxml2_dom},
    {&libxml2_sax_info, &make_libxml2_sax},
    {&libxml2_reader_info, &make_libxml2_reader},
#endif
#if SB_HAVE_XERCES
    {&xerces_dom_info, &make_xerces_dom},
    {&xerces_sax2_info, &make_xerces_sax2},
#endif
#if SB_HAVE_EXPAT
    {&expat_sax_info, &make_expat_sax},
#endif
#if SB_HAVE_RAPIDJSON
    {&rapidjson_dom_info, &make_rapidjson_dom},
    {&rapidjson_dom_insitu_info, &make_rapidjson_dom_insitu},
    {&rapidjson_sax_info, &make_rapidjson_sax},
#endif
#if SB_HAVE_SIMDJSON
    {&simdjson_dom_info, &make_simdjson_dom},
    {&simdjson_ondemand_info, &make_simdjson_ondemand},
#endif
  };
  return table;
}

const AdapterEntry* find_adapter(std::string_view name) {
  for (const AdapterEntry& e : adapters()) {
    if (e.info().name == name) return &e;
  }
  return nullptr;
}

std::unique_ptr<Adapter> make_adapter(std::string_view name, const ParseLimits& limits) {
  const AdapterEntry* e = find_adapter(name);
  return e ? e->make(limits) : nullptr;
}

}  // namespace sb
