// soapbench.proto's RPCs as one list for C++ (X(Method, Request, Reply)): the server's
// overrides (grpc_service.h) and the client's stub calls by name (grpc_client_stub.cpp) are
// written from it. check_proto_contract() compares the .proto itself with the contract.
#pragma once

#define SB_GRPC_METHODS(X)                            \
  X(Add, AddRequest, IntReply)                        \
  X(Concat, ConcatRequest, StringReply)               \
  X(EchoArray, EchoArrayRequest, IntsReply)           \
  X(Boolean, Empty, BoolReply)                        \
  X(Now, Empty, DateTimeReply)                        \
  X(Complex, ComplexRequest, PeopleReply)             \
  X(Fail, Empty, Empty)                               \
  X(GetRate, GetRateRequest, DoubleReply)             \
  X(Respond, RespondRequest, DocumentReply)           \
  X(SendString, SendStringRequest, Empty)             \
  X(ReceiveString, ReceiveStringRequest, StringReply) \
  X(SendInt, SendIntRequest, Empty)                   \
  X(GetChain, Empty, ChainReply)                      \
  X(EchoInts, EchoIntsRequest, IntsReply)             \
  X(EchoDoubles, EchoDoublesRequest, DoublesReply)    \
  X(EchoStrings, EchoStringsRequest, StringsReply)    \
  X(EchoBase64, EchoBase64Request, BytesReply)
