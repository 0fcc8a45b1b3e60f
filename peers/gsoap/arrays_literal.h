// soapcpp2's input, not C++ (gSOAP's //gsoap directives must stay as written):
// clang-format off
// Literal arrays: a wrapper element (the param or member name) holding one <item> per value. The
// classes carry the ns prefix so that document/literal qualifies <item> (elementForm qualified)
// while rpc/literal leaves it unqualified; soapbench.h names them by the unprefixed aliases.
class ns__Person;  // defined in soapbench.h
class ns__PersonIn;
class ns__ChainStep;

class ns__ArrayOfint {
 public:
  std::vector<int> item;
};
typedef ns__ArrayOfint ArrayOfint;
class ns__ArrayOfdouble {
 public:
  std::vector<double> item;
};
typedef ns__ArrayOfdouble ArrayOfdouble;
class ns__ArrayOfstring {
 public:
  std::vector<std::string> item;
};
typedef ns__ArrayOfstring ArrayOfstring;
class ns__ArrayOfPerson {
 public:
  std::vector<ns__Person> item;
};
typedef ns__ArrayOfPerson ArrayOfPerson;
class ns__ArrayOfPersonIn {
 public:
  std::vector<ns__PersonIn> item;
};
typedef ns__ArrayOfPersonIn ArrayOfPersonIn;
class ns__ArrayOfChainStep {
 public:
  std::vector<ns__ChainStep> item;
};
typedef ns__ArrayOfChainStep ArrayOfChainStep;
