// soapcpp2's input, not C++ (gSOAP's //gsoap directives must stay as written):
// clang-format off
// The soapbench service in SOAP 1.1 rpc/encoded (soap11-rpc-encoded): soapcpp2's input.
//gsoap ns service name: soapbench
//gsoap ns service style: rpc
//gsoap ns service encoding: encoded
//gsoap ns service namespace: urn:soapbench
//gsoap ns schema namespace: urn:soapbench
//gsoap ex service style: rpc
//gsoap ex service encoding: encoded
//gsoap ex schema namespace: urn:demo1:exchange
#import "stl.h"
#import "arrays_encoded.h"
#import "soapbench.h"
