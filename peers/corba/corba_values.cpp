#include "peers/corba/corba_values.h"

namespace sb::corba {

namespace {

using rpc::Value;

// A sequence of the array's items, each converted by `item`.
template <class Seq, class F>
Seq to_seq(const Value& array, F item) {
  Seq seq;
  seq.length(static_cast<CORBA::ULong>(array.items().size()));
  for (CORBA::ULong i = 0; i < seq.length(); ++i) seq[i] = item(array.items()[i]);
  return seq;
}

// An array of the sequence's items, each converted by `item`.
template <class Seq, class F>
Value from_seq(const Seq& seq, F item) {
  Value array = Value::array();
  array.items().reserve(seq.length());
  for (CORBA::ULong i = 0; i < seq.length(); ++i) array.push(item(seq[i]));
  return array;
}

// The text of a member (a string's or a dateTime's), or "" when absent.
const char* member_text(const Value& s, const char* name) {
  const Value* m = s.member(name);
  return m != nullptr ? m->text().c_str() : "";
}

// One Person from its struct (members looked up by name).
soapbench::Person to_person(const Value& s) {
  soapbench::Person p;
  const Value* id = s.member("id");
  const Value* weight = s.member("weight");
  const Value* children = s.member("children");
  p.id = id != nullptr ? id->as_int() : 0;
  p.name = member_text(s, "name");
  p.weight = weight != nullptr ? as_number(*weight) : 0.0;
  p.birthdate = member_text(s, "birthdate");
  if (children != nullptr) p.children = to_people(*children);
  return p;
}

// One Person as the contract's struct, members in the contract's order.
Value from_person(const soapbench::Person& p, bool birthdate_as_datetime) {
  Value s = Value::structure();
  s.add_member("id", Value::integer(p.id));
  s.add_member("name", Value::string(p.name.in()));
  s.add_member("weight", Value::floating(p.weight));
  s.add_member("birthdate", birthdate_as_datetime ? Value::datetime(p.birthdate.in())
                                                  : Value::string(p.birthdate.in()));
  s.add_member("children", from_people(p.children, birthdate_as_datetime));
  return s;
}

}  // namespace

double as_number(const Value& v) {
  return v.kind() == rpc::Kind::integer ? static_cast<double>(v.as_int()) : v.as_double();
}

soapbench::Ints to_ints(const Value& array) {
  return to_seq<soapbench::Ints>(array, [](const Value& v) { return v.as_int(); });
}

Value from_ints(const soapbench::Ints& seq) {
  return from_seq(seq, [](CORBA::Long i) { return Value::integer(i); });
}

soapbench::Doubles to_doubles(const Value& array) {
  return to_seq<soapbench::Doubles>(array, as_number);
}

Value from_doubles(const soapbench::Doubles& seq) {
  return from_seq(seq, [](CORBA::Double d) { return Value::floating(d); });
}

soapbench::Strings to_strings(const Value& array) {
  return to_seq<soapbench::Strings>(array, [](const Value& v) { return v.text().c_str(); });
}

Value from_strings(const soapbench::Strings& seq) {
  return from_seq(seq, [](const char* s) { return Value::string(s); });
}

soapbench::Bytes to_bytes(const Value& data) {
  soapbench::Bytes seq;
  seq.length(static_cast<CORBA::ULong>(data.text().size()));
  for (CORBA::ULong i = 0; i < seq.length(); ++i)
    seq[i] = static_cast<CORBA::Octet>(data.text()[i]);
  return seq;
}

Value from_bytes(const soapbench::Bytes& seq) {
  std::string bytes(seq.length(), '\0');
  for (CORBA::ULong i = 0; i < seq.length(); ++i) bytes[i] = static_cast<char>(seq[i]);
  return Value::base64(std::move(bytes));
}

soapbench::People to_people(const Value& array) {
  return to_seq<soapbench::People>(array, to_person);
}

Value from_people(const soapbench::People& seq, bool birthdate_as_datetime) {
  return from_seq(
      seq, [&](const soapbench::Person& p) { return from_person(p, birthdate_as_datetime); });
}

soapbench::Document to_document(const Value& doc) {
  soapbench::Document d;
  soapbench::Paragraph* parts[] = {&d.e1, &d.e2, &d.e3, &d.e4, &d.e5};
  for (std::size_t i = 0; i < 5 && i < doc.items().size(); ++i)
    parts[i]->words = member_text(doc.items()[i], "words");
  return d;
}

Value from_document(const soapbench::Document& d) {
  const soapbench::Paragraph* parts[] = {&d.e1, &d.e2, &d.e3, &d.e4, &d.e5};
  Value doc = Value::structure();
  for (std::size_t i = 0; i < 5; ++i) {
    Value p = Value::structure();
    p.add_member("words", Value::string(parts[i]->words.in()));
    doc.add_member("e" + std::to_string(i + 1), std::move(p));
  }
  return doc;
}

}  // namespace sb::corba
