// RecordWriter: the thread that stores what `soapbench record` forwarded (record/record_store.h),
// so that the proxy's thread never waits for a file or a decode: the proxy hands each exchange
// over and goes on forwarding.
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

  // Queues an exchange (dropped once the store is full).
  void add(RecordedExchange e);
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
