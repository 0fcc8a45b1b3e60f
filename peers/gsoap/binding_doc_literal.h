// soapcpp2's input, not C++ (gSOAP's //gsoap directives must stay as written):
// clang-format off
// The soapbench service in document/literal wrapped (soap11-doc-literal and soap12-doc-literal,
// which differ only in the envelope namespace): soapcpp2's input.
//gsoap ns service name: soapbench
//gsoap ns service style: document
//gsoap ns service encoding: literal
//gsoap ns service namespace: urn:soapbench
//gsoap ns schema namespace: urn:soapbench
//gsoap ex service style: document
//gsoap ex service encoding: literal
//gsoap ex schema namespace: urn:demo1:exchange
//gsoap ns schema elementForm: qualified
//gsoap ex schema elementForm: qualified
#import "stl.h"
#import "arrays_literal.h"
#import "soapbench.h"
