// ExchangeRecording: what the proxy records of one exchange while it streams through
// (record/proxy_connection.cpp): the header fields the manifest keeps, and the bodies, copied
// piece by piece while the recording's byte bound allows. That bound is one budget for every
// exchange in flight (RecordWriter::claim): the copies of concurrent exchanges together never
// pass --max-bytes. The proxy's thread only.
#pragma once

#include <cstdint>
#include <string_view>

#include "record/record_store.h"
#include "record/record_writer.h"

namespace sb {

class ExchangeRecording {
 public:
  // Records for `writer` (null: records nothing), which must outlive it.
  explicit ExchangeRecording(RecordWriter* writer) : writer_(writer) {}

  // Starts recording an exchange, when the writer keeps anything more; the request's fields.
  void start(RecordedExchange fields);
  // An exchange is being recorded.
  bool active() const { return active_; }
  // The exchange being recorded (active() only): its fields are set as they become known.
  RecordedExchange& exchange() { return exchange_; }
  // Copies a piece of the request's or the response's body, while the bound allows; past it,
  // the exchange keeps nothing (too_large) and gives back what it claimed.
  void keep(std::string_view piece, bool response);
  // Hands the exchange to the writer, its claim with it.
  void finish();
  // Gives the exchange up, and the bytes it claimed.
  void stop();

 private:
  RecordWriter* writer_;       // where exchanges go (null: nowhere)
  RecordedExchange exchange_;  // what is recorded of this exchange
  std::uint64_t claimed_ = 0;  // body bytes exchange_ claimed of the bound
  bool active_ = false;        // exchange_ is being filled for the writer
};

}  // namespace sb
