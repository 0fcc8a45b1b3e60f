// Conversions between the suite's values (codecs/value.h) and the IDL's types (soapbench.idl):
// what the servant and the client share. The caller has checked the values' shapes against the
// contract (the service does it for the servant; the contract types the client's params).
#pragma once

#include <string>

#include "codecs/value.h"
#include "soapbench.hh"

namespace sb::corba {

// An int[] as Ints; non-integers count as 0.
soapbench::Ints to_ints(const rpc::Value& array);
// Ints as an int[].
rpc::Value from_ints(const soapbench::Ints& seq);

// A double[] (ints widened) as Doubles.
soapbench::Doubles to_doubles(const rpc::Value& array);
// Doubles as a double[].
rpc::Value from_doubles(const soapbench::Doubles& seq);

// A string[] as Strings.
soapbench::Strings to_strings(const rpc::Value& array);
// Strings as a string[].
rpc::Value from_strings(const soapbench::Strings& seq);

// base64's bytes as Bytes.
soapbench::Bytes to_bytes(const rpc::Value& data);
// Bytes as a base64 value.
rpc::Value from_bytes(const soapbench::Bytes& seq);

// A Person[] or PersonIn[] as People: a birthdate travels as its text (dateTime or string).
soapbench::People to_people(const rpc::Value& array);
// People as Person[] (birthdates as dateTime: an answer) or PersonIn[] (as strings: a call).
rpc::Value from_people(const soapbench::People& seq, bool birthdate_as_datetime);

// respond's Document (e1..e5, each {words}) as the IDL's Document.
soapbench::Document to_document(const rpc::Value& doc);
// The IDL's Document as the contract's struct.
rpc::Value from_document(const soapbench::Document& doc);

// A number as a double (an int widened): what a double param holds.
double as_number(const rpc::Value& v);

}  // namespace sb::corba
