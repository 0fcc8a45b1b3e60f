// RecordWriter: the thread that stores what `soapbench record` forwarded (record/record_store.h),
// so that the proxy's thread never waits for a file or a decode: the proxy hands each exchange
// over and goes on forwarding. The store's bounds are applied when an exchange is handed over, so
// the queue never holds more than --max-bytes of bodies and --max-messages messages.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "record/record_store.h"

namespace sb {

class RecordWriter {
 public:
  // Stores into `store`, which must outlive it; starts the thread.
  explicit RecordWriter(RecordStore& store);
  ~RecordWriter();  // stores what is queued, writes the manifest, joins
  RecordWriter(const RecordWriter&) = delete;
  RecordWriter& operator=(const RecordWriter&) = delete;

  // Queues an exchange, unless it would pass the store's bounds (or is too_large): then it is
  // dropped and full() becomes true, as RecordStore::keep would decide. The proxy's thread only.
  void add(RecordedExchange e);
  // Body bytes an exchange handed over now may hold and still be kept (the proxy's thread only):
  // the proxy copies no more of a body than this.
  std::uint64_t room() const { return full_ ? 0 : limits_.max_bytes - accepted_bytes_; }
  // The store's bound was reached: nothing more is kept.
  bool full() const { return full_; }
  // Exchanges and body bytes kept so far.
  std::uint64_t exchanges() const { return exchanges_; }
  std::uint64_t bytes() const { return bytes_; }
  // The first error writing a file (empty: none); recording stops after it.
  std::string error() const;

 private:
  void run();

  RecordStore& store_;                       // owned by the caller; touched by the thread only
  const RecordLimits limits_;                // the store's bounds, applied in add()
  std::uint64_t accepted_messages_ = 0;      // messages handed over and queued (add()'s thread)
  std::uint64_t accepted_bytes_ = 0;         // body bytes handed over and queued (add()'s thread)
  mutable std::mutex mutex_;                 // guards queue_, stopping_, error_
  std::condition_variable wake_;             // something queued, or stopping
  std::deque<RecordedExchange> queue_;       // handed over, not yet stored
  bool stopping_ = false;                    // the destructor runs: drain and end
  std::string error_;                        // the first write error
  std::atomic<bool> full_{false};            // the store's bound was reached
  std::atomic<std::uint64_t> exchanges_{0};  // kept
  std::atomic<std::uint64_t> bytes_{0};      // body bytes kept
  std::thread thread_;                       // stores, and flushes the manifest every second
};

}  // namespace sb
