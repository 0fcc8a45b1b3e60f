// soapcpp2's input, not C++ (gSOAP's //gsoap directives must stay as written):
// clang-format off
// The soapbench service (docs/service.md) as a gSOAP interface header: the input of soapcpp2.
// Each binding header (binding_*.h) sets the style and encoding, declares the array types of its
// SOAP family and imports this file. Names: `ns` is urn:soapbench, `ex` urn:demo1:exchange (getRate
// only); a trailing underscore is dropped on the wire (`return_` is the element `return`).

// base64 bytes (xsd:base64Binary).
class xsd__base64Binary {
 public:
  unsigned char *__ptr;
  int __size;
};

class ns__Person {
 public:
  int id;
  std::string name;
  double weight;
  time_t birthdate;
  ArrayOfPerson children;
};

// What complex accepts: the birthdate is a dateTime or a string (tns:dateTimeOrString), read as text.
class ns__PersonIn {
 public:
  int id;
  std::string name;
  double weight;
  std::string birthdate;
  ArrayOfPersonIn children;
};

class ns__Paragraph {
 public:
  std::string words;
};

class ns__Document {
 public:
  ns__Paragraph e1;
  ns__Paragraph e2;
  ns__Paragraph e3;
  ns__Paragraph e4;
  ns__Paragraph e5;
};

class ns__ChainStep {
 public:
  int step;
  std::string name;
  std::string host;
  time_t start;
  double duration;
  std::string status;
  ArrayOfstring args;
};

// Void results: an empty response element.
struct ns__failResponse {};
struct ns__sendStringResponse {};
struct ns__sendIntResponse {};

// A class result needs its response wrapper declared: gSOAP would otherwise make the class
// itself the response element.
struct ns__echoArrayResponse {
  ArrayOfint return_;
};
struct ns__complexResponse {
  ArrayOfPerson return_;
};
struct ns__respondResponse {
  ns__Document return_;
};
struct ns__getChainResponse {
  ArrayOfChainStep return_;
};
struct ns__echoIntsResponse {
  ArrayOfint return_;
};
struct ns__echoDoublesResponse {
  ArrayOfdouble return_;
};
struct ns__echoStringsResponse {
  ArrayOfstring return_;
};
struct ns__echoBase64Response {
  xsd__base64Binary return_;
};

int ns__add(int a, int b, int &return_);
int ns__concat(std::string s1, std::string s2, std::string *s3, std::string &return_);
int ns__echoArray(ArrayOfint a, ArrayOfint b, struct ns__echoArrayResponse &out);
int ns__boolean(bool &return_);
int ns__now(time_t &return_);
int ns__complex(ArrayOfPersonIn obj, struct ns__complexResponse &out);
int ns__fail(struct ns__failResponse *out);
int ex__getRate(std::string country1, std::string country2, double &return_);
int ns__respond(int wordcount, int delay, struct ns__respondResponse &out);
int ns__sendString(std::string s, struct ns__sendStringResponse *out);
int ns__receiveString(int length, std::string &return_);
int ns__sendInt(int i, struct ns__sendIntResponse *out);
int ns__getChain(struct ns__getChainResponse &out);
int ns__echoInts(ArrayOfint values, struct ns__echoIntsResponse &out);
int ns__echoDoubles(ArrayOfdouble values, struct ns__echoDoublesResponse &out);
int ns__echoStrings(ArrayOfstring values, struct ns__echoStringsResponse &out);
int ns__echoBase64(xsd__base64Binary data, struct ns__echoBase64Response &out);
