// soapcpp2's input, not C++ (gSOAP's //gsoap directives must stay as written):
// clang-format off
// The SOAP Header and Fault that every binding shares (soapcpp2 -penv): gSOAP's runtime calls the
// fault and header functions globally, while each binding lives in its own C++ namespace. Every
// service fault carries its code in the detail: <detail><ns1:fault><code>4</code></ns1:fault>.
//gsoap ns schema namespace: urn:soapbench
struct ns__fault {
  int code;
};
struct SOAP_ENV__Detail {
  struct ns__fault *ns__fault_;
  int __type;
  void *fault;
  _XML __any;
};
