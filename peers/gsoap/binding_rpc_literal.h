// soapcpp2's input, not C++ (gSOAP's //gsoap directives must stay as written):
// clang-format off
// The soapbench service in SOAP 1.1 rpc/literal (soap11-rpc-literal): soapcpp2's input.
//gsoap ns service name: soapbench
//gsoap ns service style: rpc
//gsoap ns service encoding: literal
//gsoap ns service namespace: urn:soapbench
//gsoap ns schema namespace: urn:soapbench
//gsoap ex service style: rpc
//gsoap ex service encoding: literal
//gsoap ex schema namespace: urn:demo1:exchange
#import "stl.h"
#import "arrays_literal.h"
#import "soapbench.h"
