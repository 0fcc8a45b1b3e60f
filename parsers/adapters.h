// Declarations of every adapter's and writer's registry functions, made from the adapter list
// (the sb_adapter() declarations, generated into adapter_list.inc). Each is defined in the
// library's own file: pugixml_dom.cpp defines pugixml_dom_info and make_pugixml_dom,
// pugixml_writer.cpp pugixml_writer_info.
#pragma once

#include <memory>

#include "parsers/adapter.h"
#include "parsers/writers.h"

namespace sb {

#define SB_ADAPTER(id)            \
  const AdapterInfo& id##_info(); \
  std::unique_ptr<Adapter> make_##id(const Limits& limits);
#define SB_WRITER(id) const WriterInfo& id##_writer_info();
#include "parsers/adapter_list.inc"
#undef SB_ADAPTER
#undef SB_WRITER

}  // namespace sb
