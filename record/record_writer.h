// RecordWriter: the thread that stores what `soapbench record` forwarded (record/record_store.h),
// so that the proxy's thread never waits for a file or a decode: the proxy hands each exchange
// over and goes on forwarding. The byte bound is one budget for every exchange: the proxy claims
// each body piece before it copies it, so the copies of all the exchanges in flight and the
// queue together never hold more than --max-bytes (each exchange alone could before); the
// message bound is applied when an exchange is handed over.
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

  // Claims `n` more body bytes for an exchange in flight (the proxy's thread only): false, and
  // full() from then on (no new exchange is recorded; those in flight go on within the bound),
  // when the byte bound would be passed by everything claimed and queued.
  bool claim(std::uint64_t n);
  // Gives back bytes claimed for an exchange that will not be handed over.
  void release(std::uint64_t n) { claimed_bytes_ -= n; }
  // Queues an exchange whose bodies were claimed (the claim becomes the queue's), unless it is
  // too_large or would pass the message bound: then it is dropped and full() becomes true, as
  // RecordStore::keep would decide. The proxy's thread only.
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
  const RecordLimits limits_;                // the store's bounds, applied in add()
  std::uint64_t accepted_messages_ = 0;      // messages handed over and queued (add()'s thread)
  std::uint64_t accepted_bytes_ = 0;         // body bytes handed over and queued (add()'s thread)
  std::uint64_t claimed_bytes_ = 0;          // body bytes copied by exchanges in flight (same)
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
