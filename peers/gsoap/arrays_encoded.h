// soapcpp2's input, not C++ (gSOAP's //gsoap directives must stay as written):
// clang-format off
// SOAP 1.1 Section 5 arrays (SOAP-ENC:Array, SOAP-ENC:arrayType="xsd:int[3]", <item> children):
// gSOAP's pointer-and-size form, named without a namespace prefix (soapcpp2 writes a prefixed one
// as a plain sequence of items, not as SOAP-ENC:Array).
class ns__Person;  // defined in soapbench.h
class ns__PersonIn;
class ns__ChainStep;

class ArrayOfint {
 public:
  int *__ptr;
  int __size;
};
class ArrayOfdouble {
 public:
  double *__ptr;
  int __size;
};
class ArrayOfstring {
 public:
  std::string *__ptr;
  int __size;
};
class ArrayOfPerson {
 public:
  ns__Person *__ptr;
  int __size;
};
class ArrayOfPersonIn {
 public:
  ns__PersonIn *__ptr;
  int __size;
};
class ArrayOfChainStep {
 public:
  ns__ChainStep *__ptr;
  int __size;
};
