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
// libraries), made from the adapter list (sb_adapter() declarations): a row per compiled adapter.
std::span<const AdapterEntry> adapters() {
  static const std::vector<AdapterEntry> table = {
#define SB_ADAPTER(id) {&id##_info, &make_##id},
#define SB_WRITER(id)
#include "parsers/adapter_list.inc"
#undef SB_ADAPTER
#undef SB_WRITER
  };
  return table;
}

// The writers of the same list, in list order.
std::span<const WriterInfo* const> library_writers() {
  static const std::vector<const WriterInfo*> table = {
#define SB_ADAPTER(id)
#define SB_WRITER(id) &id##_writer_info(),
#include "parsers/adapter_list.inc"
#undef SB_ADAPTER
#undef SB_WRITER
  };
  return table;
}

const AdapterEntry* find_adapter(std::string_view name) {
  for (const AdapterEntry& e : adapters()) {
    if (e.info().name == name) return &e;
  }
  return nullptr;
}

std::unique_ptr<Adapter> make_adapter(std::string_view name, const Limits& limits) {
  const AdapterEntry* e = find_adapter(name);
  return e ? e->make(limits) : nullptr;
}

}  // namespace sb
