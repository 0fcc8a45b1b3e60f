// The struct conversions of binding_values.h, compiled once per generated binding.
#include SB_GSOAP_HEADER
#include "peers/gsoap/binding_values.h"

namespace SB_GSOAP_NS {

Value to_value(const ns__Person& p) {
  Value v = Value::structure();
  v.add_member("id", to_value(p.id));
  v.add_member("name", to_value(p.name));
  v.add_member("weight", to_value(p.weight));
  v.add_member("birthdate", time_value(p.birthdate));
  v.add_member("children", to_value(p.children));
  return v;
}

Value to_value(const ns__PersonIn& p) {
  Value v = Value::structure();
  v.add_member("id", to_value(p.id));
  v.add_member("name", to_value(p.name));
  v.add_member("weight", to_value(p.weight));
  v.add_member("birthdate", to_value(p.birthdate));
  v.add_member("children", to_value(p.children));
  return v;
}

Value to_value(const ns__ChainStep& c) {
  Value v = Value::structure();
  v.add_member("step", to_value(c.step));
  v.add_member("name", to_value(c.name));
  v.add_member("host", to_value(c.host));
  v.add_member("start", time_value(c.start));
  v.add_member("duration", to_value(c.duration));
  v.add_member("status", to_value(c.status));
  v.add_member("args", to_value(c.args));
  return v;
}

Value to_value(const ns__Document& d) {
  Value v = Value::structure();
  const ns__Paragraph* paragraphs[] = {&d.e1, &d.e2, &d.e3, &d.e4, &d.e5};
  for (int i = 0; i < 5; ++i) {
    Value p = Value::structure();
    p.add_member("words", to_value(paragraphs[i]->words));
    v.add_member("e" + std::to_string(i + 1), std::move(p));
  }
  return v;
}

void from_value(soap* s, const Value& v, xsd__base64Binary& out) {
  out.__size = static_cast<int>(v.text().size());
  out.__ptr = static_cast<unsigned char*>(soap_malloc(s, v.text().size() + 1));
  std::copy(v.text().begin(), v.text().end(), out.__ptr);
}

void from_value(soap* s, const Value& v, ns__PersonIn& out) {
  // Members by name, as a JSON object gives them; an absent one stays default.
  if (const Value* m = v.member("id")) from_value(s, *m, out.id);
  if (const Value* m = v.member("name")) from_value(s, *m, out.name);
  if (const Value* m = v.member("weight")) from_value(s, *m, out.weight);
  if (const Value* m = v.member("birthdate")) out.birthdate = m->text();
  if (const Value* m = v.member("children")) from_value(s, *m, out.children);
}

}  // namespace SB_GSOAP_NS
