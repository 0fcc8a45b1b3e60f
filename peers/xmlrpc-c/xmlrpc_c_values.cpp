#include "peers/xmlrpc-c/xmlrpc_c_values.h"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace sb::peers {

namespace {

using rpc::Kind;
using rpc::Value;

// An xmlrpc_env that throws its fault when one occurred.
class Env {
 public:
  Env() { xmlrpc_env_init(&env_); }
  ~Env() { xmlrpc_env_clean(&env_); }
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;

  xmlrpc_env* get() { return &env_; }
  // Throws std::runtime_error with the fault string when a call failed.
  void check() {
    if (env_.fault_occurred)
      throw std::runtime_error(std::string("xmlrpc-c: ") + env_.fault_string);
  }

 private:
  xmlrpc_env env_;  // the C library's error slot
};

// Wraps a C value we own a reference to: the C++ handle takes its own, ours is dropped.
xmlrpc_c::value adopt(xmlrpc_value* v) {
  xmlrpc_c::value out(v);
  xmlrpc_DECREF(v);
  return out;
}

// A string (or, with base64, the bytes of a base64 value).
Value read_text(xmlrpc_value* v, bool base64) {
  Env env;
  std::size_t len = 0;
  if (base64) {
    const unsigned char* bytes = nullptr;
    xmlrpc_read_base64(env.get(), v, &len, &bytes);
    env.check();
    Value out = Value::base64(std::string(reinterpret_cast<const char*>(bytes), len));
    std::free(const_cast<unsigned char*>(bytes));
    return out;
  }
  const char* text = nullptr;
  xmlrpc_read_string_lp(env.get(), v, &len, &text);
  env.check();
  Value out = Value::string(std::string(text, len));
  std::free(const_cast<char*>(text));
  return out;
}

// A dateTime in canonical text.
Value read_datetime(xmlrpc_value* v) {
  Env env;
  xmlrpc_datetime dt{};
  xmlrpc_read_datetime(env.get(), v, &dt);
  env.check();
  if (dt.u != 0) throw std::runtime_error("xmlrpc-c: dateTime with fractional seconds");
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04u-%02u-%02uT%02u:%02u:%02u", dt.Y, dt.M, dt.D, dt.h, dt.m,
                dt.s);
  return Value::datetime(buf);
}

// int, i8, boolean, double or nil.
Value read_scalar(xmlrpc_value* v) {
  Env env;
  switch (xmlrpc_value_type(v)) {
    case XMLRPC_TYPE_INT: {
      int i = 0;
      xmlrpc_read_int(env.get(), v, &i);
      env.check();
      return Value::integer(i);
    }
    case XMLRPC_TYPE_I8: {
      xmlrpc_int64 i = 0;
      xmlrpc_read_i8(env.get(), v, &i);
      env.check();
      if (i < INT32_MIN || i > INT32_MAX) throw std::runtime_error("xmlrpc-c: i8 beyond 32 bits");
      return Value::integer(static_cast<std::int32_t>(i));
    }
    case XMLRPC_TYPE_BOOL: {
      xmlrpc_bool b = 0;
      xmlrpc_read_bool(env.get(), v, &b);
      env.check();
      return Value::boolean(b != 0);
    }
    case XMLRPC_TYPE_DOUBLE: {
      double d = 0;
      xmlrpc_read_double(env.get(), v, &d);
      env.check();
      return Value::floating(d);
    }
    case XMLRPC_TYPE_NIL:
      return Value();
    default:
      throw std::runtime_error("xmlrpc-c: a value type the model lacks");
  }
}

// Any value, recursively.
Value read(xmlrpc_value* v) {
  Env env;
  switch (xmlrpc_value_type(v)) {
    case XMLRPC_TYPE_STRING:
      return read_text(v, false);
    case XMLRPC_TYPE_BASE64:
      return read_text(v, true);
    case XMLRPC_TYPE_DATETIME:
      return read_datetime(v);
    case XMLRPC_TYPE_ARRAY: {
      Value out = Value::array();
      const int n = xmlrpc_array_size(env.get(), v);
      env.check();
      for (int i = 0; i < n; ++i) {
        xmlrpc_value* item = nullptr;
        xmlrpc_array_read_item(env.get(), v, static_cast<unsigned>(i), &item);
        env.check();
        out.push(read(adopt(item).cValueP));
      }
      return out;
    }
    case XMLRPC_TYPE_STRUCT: {
      Value out = Value::structure();
      for (auto& [name, member] : struct_members(xmlrpc_c::value(v))) {
        out.add_member(name, read(member.cValueP));
      }
      return out;
    }
    default:
      return read_scalar(v);
  }
}

}  // namespace

xmlrpc_c::value ordered_struct(
    const std::vector<std::pair<std::string, xmlrpc_c::value>>& members) {
  Env env;
  xmlrpc_value* s = xmlrpc_struct_new(env.get());
  env.check();
  xmlrpc_c::value out = adopt(s);
  for (const auto& [name, member] : members) {
    xmlrpc_struct_set_value_n(env.get(), s, name.data(), name.size(), member.cValueP);
    env.check();
  }
  return out;
}

std::vector<std::pair<std::string, xmlrpc_c::value>> struct_members(const xmlrpc_c::value& v) {
  Env env;
  const int n = xmlrpc_struct_size(env.get(), v.cValueP);
  env.check();
  std::vector<std::pair<std::string, xmlrpc_c::value>> out;
  out.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    xmlrpc_value* key = nullptr;
    xmlrpc_value* member = nullptr;
    xmlrpc_struct_read_member(env.get(), v.cValueP, static_cast<unsigned>(i), &key, &member);
    env.check();
    xmlrpc_c::value k = adopt(key);
    out.emplace_back(read_text(k.cValueP, false).text(), adopt(member));
  }
  return out;
}

xmlrpc_c::value datetime_value(std::string_view canonical) {
  xmlrpc_datetime dt{};
  int used = 0;
  const std::string text(canonical);
  if (std::sscanf(text.c_str(), "%4u-%2u-%2uT%2u:%2u:%2u%n", &dt.Y, &dt.M, &dt.D, &dt.h, &dt.m,
                  &dt.s, &used) != 6 ||
      static_cast<std::size_t>(used) != text.size()) {
    throw std::runtime_error("not a canonical dateTime: " + text);
  }
  return xmlrpc_c::value_datetime(dt);
}

xmlrpc_c::value to_xmlrpc_c(const rpc::Value& v) {
  switch (v.kind()) {
    case Kind::nil:
      return xmlrpc_c::value_nil();
    case Kind::boolean:
      return xmlrpc_c::value_boolean(v.as_bool());
    case Kind::integer:
      return xmlrpc_c::value_int(v.as_int());
    case Kind::floating:
      return xmlrpc_c::value_double(v.as_double());
    case Kind::string:
      return xmlrpc_c::value_string(v.text());
    case Kind::datetime:
      return datetime_value(v.text());
    case Kind::base64:
      return xmlrpc_c::value_bytestring(xmlrpc_c::cbytestring(v.text().begin(), v.text().end()));
    case Kind::array: {
      xmlrpc_c::carray items;
      items.reserve(v.items().size());
      for (const Value& item : v.items()) items.push_back(to_xmlrpc_c(item));
      return xmlrpc_c::value_array(items);
    }
    case Kind::structure: {
      std::vector<std::pair<std::string, xmlrpc_c::value>> members;
      for (std::size_t i = 0; i < v.items().size(); ++i)
        members.emplace_back(v.names()[i], to_xmlrpc_c(v.items()[i]));
      return ordered_struct(members);
    }
  }
  throw std::logic_error("unknown value kind");
}

rpc::Value from_xmlrpc_c(const xmlrpc_c::value& v) { return read(v.cValueP); }

}  // namespace sb::peers
