#include "record/record_writer.h"

#include <chrono>
#include <exception>

namespace sb {

RecordWriter::RecordWriter(RecordStore& store)
    : store_(store), limits_(store.limits()), thread_([this] { run(); }) {}

RecordWriter::~RecordWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

bool RecordWriter::claim(std::uint64_t n) {
  // Exchanges already in flight go on within the bound; a new one starts only while !full_.
  if (accepted_bytes_ + claimed_bytes_ + n > limits_.max_bytes) {
    full_ = true;  // as RecordStore::keep: once a bound would be passed, nothing more starts
    return false;
  }
  claimed_bytes_ += n;
  return true;
}

void RecordWriter::add(RecordedExchange e) {
  // RecordStore::keep's test, on what was handed over: the store keeps exactly what is queued.
  // The bodies were claimed piece by piece, so the byte bound holds already; an exchange whose
  // claims all succeeded is kept even if another one found the bound since.
  const std::uint64_t size = e.request_body.size() + e.response_body.size();
  claimed_bytes_ -= size;
  if (e.too_large || accepted_messages_ + 2 > limits_.max_messages) {
    full_ = true;
    return;
  }
  accepted_messages_ += 2;
  accepted_bytes_ += size;
  {
    std::lock_guard lock(mutex_);
    if (!error_.empty()) return;
    queue_.push_back(std::move(e));
  }
  wake_.notify_one();
}

std::string RecordWriter::error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

void RecordWriter::run() {
  // The manifest is rewritten at most once a second (a crash loses at most a second of entries)
  // rather than per exchange, which would make a long recording quadratic.
  auto flushed = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_ || !queue_.empty(); });
    while (!queue_.empty()) {
      RecordedExchange e = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      std::string failed;
      try {
        store_.keep(e);
      } catch (const std::exception& x) {
        failed = x.what();
      }
      exchanges_ = store_.exchanges();
      bytes_ = store_.bytes();
      if (store_.full()) full_ = true;
      if (failed.empty()) failed = store_.stopped();  // the disk: no room for the manifest
      lock.lock();
      if (!failed.empty() && error_.empty()) error_ = failed;
    }
    const auto now = std::chrono::steady_clock::now();
    if (stopping_ || now - flushed >= std::chrono::seconds(1)) {
      lock.unlock();
      try {
        store_.flush();
      } catch (const std::exception& x) {
        lock.lock();
        if (error_.empty()) error_ = x.what();
        lock.unlock();
      }
      flushed = now;
      lock.lock();
    }
    if (stopping_) return;
  }
}

}  // namespace sb
