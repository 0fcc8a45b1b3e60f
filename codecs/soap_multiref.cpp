#include "codecs/soap_multiref.h"

namespace sb::rpc {

void SoapMultiRef::reset() {
  recordings_.clear();
  by_id_.clear();
  kept_.clear();
  kept_by_id_.clear();
  active_.clear();
  expansions_ = 0;
  has_references_ = false;
}

std::size_t SoapMultiRef::begin(std::string_view id, std::string_view name,
                                XmlAttributes attributes) {
  const std::size_t index = recordings_.size();
  recordings_.emplace_back();
  by_id_.emplace(std::string(id), index);
  record_start(index, name, attributes);
  return index;
}

void SoapMultiRef::keep(std::string_view id, const Value& value) {
  kept_by_id_.emplace(std::string(id), kept_.size());
  kept_.push_back(value);
}

void SoapMultiRef::record_start(std::size_t index, std::string_view qname,
                                XmlAttributes attributes) {
  Event ev{Event::Type::start, std::string(qname), {}};
  for (const XmlAttribute& a : attributes) ev.attributes.emplace_back(a.qname, a.value);
  recordings_[index].events.push_back(std::move(ev));
}

void SoapMultiRef::record_text(std::size_t index, std::string_view chars) {
  std::vector<Event>& events = recordings_[index].events;
  if (!events.empty() && events.back().type == Event::Type::text) {
    events.back().name.append(chars);  // one text event however the parser split it
  } else {
    events.push_back({Event::Type::text, std::string(chars), {}});
  }
}

void SoapMultiRef::record_end(std::size_t index, std::string_view qname) {
  recordings_[index].events.push_back({Event::Type::end, std::string(qname), {}});
}

bool SoapMultiRef::resolve(Value& v, const Type& type, ElementDecoder& decoder) {
  return resolve_at(v, type, 0, decoder);
}

bool SoapMultiRef::resolve_at(Value& v, const Type& type, int depth, ElementDecoder& decoder) {
  if (!has_references_) return true;  // the common case: nothing to resolve, no traversal
  if (depth > 1000) return session_.fail(fault::invalid_params, "multi-reference chain too deep");
  if (v.is_reference()) return expand(v, type, decoder);  // resolves inside it too
  if (type.dynamic) {
    // anyType (or a shape it took): items and members are anyType too.
    if (v.kind() == Kind::array || v.kind() == Kind::structure) {
      for (Value& item : v.items()) {
        if (!resolve_at(item, dynamic_type(), depth + 1, decoder)) return false;
      }
    }
    return true;
  }
  if (type.kind == Kind::array && v.kind() == Kind::array) {
    for (Value& item : v.items()) {
      if (!resolve_at(item, *type.element, depth + 1, decoder)) return false;
    }
  } else if (type.kind == Kind::structure && v.kind() == Kind::structure) {
    for (std::size_t i = 0; i < v.items().size(); ++i) {
      const Type* mt = member_type(type, v.names()[i]);
      if (mt != nullptr && !resolve_at(v.items()[i], *mt, depth + 1, decoder)) return false;
    }
  }
  return true;
}

bool SoapMultiRef::expand(Value& v, const Type& type, ElementDecoder& decoder) {
  const std::string id = v.text();
  auto it = by_id_.find(id);
  auto kept = it == by_id_.end() ? kept_by_id_.find(id) : kept_by_id_.end();
  if (it == by_id_.end() && kept == kept_by_id_.end()) {
    return session_.fail(fault::invalid_params, "href to unknown id #" + id);
  }
  for (const std::string& active : active_) {
    if (active == id) return session_.fail(fault::invalid_params, "cyclic href #" + id);
  }
  if (++expansions_ > max_expansions_) {
    return session_.fail(fault::invalid_params, "more than " + std::to_string(max_expansions_) +
                                                    " multi-reference expansions");
  }
  active_.push_back(id);
  if (kept != kept_by_id_.end()) {
    v = kept_[kept->second];  // a copy: another reference may name it too
  } else {
    v = Value();
    if (!decoder.decode_recorded(type, v, recordings_[it->second].events)) return false;
  }
  // The expanded value may itself hold references; active_ still holds this id.
  const bool ok = resolve_at(v, type, static_cast<int>(active_.size()), decoder);
  active_.pop_back();
  return ok;
}

}  // namespace sb::rpc
