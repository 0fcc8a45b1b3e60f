#include "codecs/service_contract.h"

namespace sb::rpc {

namespace {

// All types live here, built once; pointers between them are stable.
struct Types {
  Type nil{Kind::nil, "void"};
  Type boolean{Kind::boolean, "boolean"};
  Type integer{Kind::integer, "int"};
  Type floating{Kind::floating, "double"};
  Type string{Kind::string, "string"};
  Type datetime{Kind::datetime, "dateTime"};
  Type base64{Kind::base64, "base64Binary"};
  Type datetime_or_string{Kind::string, "dateTimeOrString", nullptr, nullptr, Kind::datetime};
  Type dynamic{Kind::nil, "anyType", nullptr, nullptr, Kind::nil, true};

  StructDef person_def{"Person", {}};
  StructDef person_in_def{"PersonIn", {}};
  StructDef paragraph_def{"Paragraph", {}};
  StructDef document_def{"Document", {}};
  StructDef chain_step_def{"ChainStep", {}};

  Type person{Kind::structure, "Person", nullptr, &person_def};
  Type person_in{Kind::structure, "PersonIn", nullptr, &person_in_def};
  Type paragraph{Kind::structure, "Paragraph", nullptr, &paragraph_def};
  Type document{Kind::structure, "Document", nullptr, &document_def};
  Type chain_step{Kind::structure, "ChainStep", nullptr, &chain_step_def};

  Type ints{Kind::array, "ArrayOfInt", &integer};
  Type doubles{Kind::array, "ArrayOfDouble", &floating};
  Type strings{Kind::array, "ArrayOfString", &string};
  Type persons{Kind::array, "ArrayOfPerson", &person};
  Type persons_in{Kind::array, "ArrayOfPersonIn", &person_in};
  Type chain{Kind::array, "ArrayOfChainStep", &chain_step};

  Types() {
    person_def.members = {{"id", &integer},
                          {"name", &string},
                          {"weight", &floating},
                          {"birthdate", &datetime},
                          {"children", &persons}};
    // What `complex` accepts: the classic client sends birthdates as str(datetime).
    person_in_def.members = {{"id", &integer},
                             {"name", &string},
                             {"weight", &floating},
                             {"birthdate", &datetime_or_string},
                             {"children", &persons_in}};
    paragraph_def.members = {{"words", &string}};
    document_def.members = {{"e1", &paragraph},
                            {"e2", &paragraph},
                            {"e3", &paragraph},
                            {"e4", &paragraph},
                            {"e5", &paragraph}};
    chain_step_def.members = {{"step", &integer},   {"name", &string},       {"host", &string},
                              {"start", &datetime}, {"duration", &floating}, {"status", &string},
                              {"args", &strings}};
  }
};

const Types& types() {
  static const Types t;
  return t;
}

}  // namespace

const Type& type_of(Kind scalar) {
  const Types& t = types();
  switch (scalar) {
    case Kind::boolean:
      return t.boolean;
    case Kind::integer:
      return t.integer;
    case Kind::floating:
      return t.floating;
    case Kind::string:
      return t.string;
    case Kind::datetime:
      return t.datetime;
    case Kind::base64:
      return t.base64;
    default:
      return t.nil;
  }
}

const Type& datetime_or_string() { return types().datetime_or_string; }

const Type& dynamic_type() { return types().dynamic; }

bool Operation::is_response_element(std::string_view local) const {
  if (!response_element.empty()) return local == response_element;
  return local.size() == name.size() + 8 && local.starts_with(name) && local.ends_with("Response");
}

const Operation* Contract::find(std::string_view name) const {
  for (const Operation& op : operations_) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

const Operation* Contract::find_body_element(std::string_view local, bool* response) const {
  for (const Operation& op : operations_) {
    if (op.call_element() == local) {
      *response = false;
      return &op;
    }
  }
  for (const Operation& op : operations_) {
    if (op.is_response_element(local)) {
      *response = true;
      return &op;
    }
  }
  return nullptr;
}

std::string_view Contract::refusal(std::string_view local) const {
  for (const auto& [element, why] : refused_) {
    const bool response = local.size() == element.size() + 8 && local.starts_with(element) &&
                          local.ends_with("Response");
    if (element == local || response) return why;
  }
  return {};
}

std::string params_in_order(const Operation& op, const Message& call, std::vector<Value>& out) {
  out.clear();
  if (call.param_names.empty()) {
    out = call.params;
    return "";
  }
  for (const std::string& name : call.param_names) {
    bool known = false;
    for (const Param& p : op.params) known = known || p.name == name;
    if (!known) return "unknown parameter " + name + " of " + std::string(op.name);
  }
  std::string_view absent;  // an optional param not given: positions end there
  for (const Param& p : op.params) {
    const Value* given = nullptr;
    for (std::size_t i = 0; i < call.param_names.size(); ++i) {
      if (call.param_names[i] != p.name) continue;
      if (given != nullptr) return "parameter " + std::string(p.name) + " given twice";
      given = &call.params[i];
    }
    if (given == nullptr && !p.optional) {
      return "missing parameter " + std::string(p.name) + " of " + std::string(op.name);
    }
    if (given == nullptr) {
      absent = p.name;
    } else if (!absent.empty()) {
      return "parameter " + std::string(p.name) + " given without " + std::string(absent) +
             " before it";
    } else {
      out.push_back(*given);
    }
  }
  return "";
}

ContractBuilder::ContractBuilder() : storage_(std::make_shared<Storage>()) {}

std::string_view ContractBuilder::name(std::string_view s) {
  return storage_->names.emplace_back(s);
}

Type& ContractBuilder::new_type(Kind kind, std::string_view type_name) {
  return storage_->types.emplace_back(Type{kind, name(type_name)});
}

StructDef& ContractBuilder::new_struct(std::string_view struct_name) {
  StructDef& s = storage_->structs.emplace_back(StructDef{name(struct_name), {}});
  contract_.structs_.push_back(&s);
  return s;
}

void ContractBuilder::refuse(std::string_view element, std::string_view why) {
  contract_.refused_.emplace_back(name(element), name(why));
}

Contract ContractBuilder::finish() {
  contract_.storage_ = std::move(storage_);
  return std::move(contract_);
}

const Contract& service_contract() {
  static const Contract contract = [] {
    const Types& t = types();
    const std::string_view svc = ns::service;
    Contract c;
    c.operations_ = {
        {"add", svc, {{"a", &t.integer}, {"b", &t.integer}}, &t.integer},
        {"concat", svc, {{"s1", &t.string}, {"s2", &t.string}, {"s3", &t.string, true}}, &t.string},
        {"echoArray", svc, {{"a", &t.ints}, {"b", &t.ints}}, &t.ints},
        {"boolean", svc, {}, &t.boolean},
        {"now", svc, {}, &t.datetime},
        {"complex", svc, {{"obj", &t.persons_in}}, &t.persons},
        {"fail", svc, {}, &t.nil, true},
        {"getRate",
         "urn:demo1:exchange",
         {{"country1", &t.string}, {"country2", &t.string}},
         &t.floating},
        {"respond", svc, {{"wordcount", &t.integer}, {"delay", &t.integer}}, &t.document},
        {"sendString", svc, {{"s", &t.string}}, &t.nil},
        {"receiveString", svc, {{"length", &t.integer}}, &t.string},
        {"sendInt", svc, {{"i", &t.integer}}, &t.nil},
        {"getChain", svc, {}, &t.chain},
        {"echoInts", svc, {{"values", &t.ints}}, &t.ints},
        {"echoDoubles", svc, {{"values", &t.doubles}}, &t.doubles},
        {"echoStrings", svc, {{"values", &t.strings}}, &t.strings},
        {"echoBase64", svc, {{"data", &t.base64}}, &t.base64},
    };
    c.structs_ = {&t.person_def, &t.person_in_def, &t.paragraph_def, &t.document_def,
                  &t.chain_step_def};
    c.arrays_ = {&t.ints, &t.doubles, &t.strings, &t.persons, &t.persons_in, &t.chain};
    return c;
  }();
  return contract;
}

}  // namespace sb::rpc
