#include "record/exchange_recording.h"

#include <string>
#include <utility>

namespace sb {

void ExchangeRecording::start(RecordedExchange fields) {
  stop();
  active_ = writer_ != nullptr && !writer_->full();
  if (active_) exchange_ = std::move(fields);
}

void ExchangeRecording::keep(std::string_view piece, bool response) {
  if (!active_ || exchange_.too_large || piece.empty()) return;
  if (!writer_->claim(piece.size())) {
    // Past what may be kept, counting every exchange in flight: nothing more is kept (as
    // RecordStore::keep), and this exchange's copies are given up now.
    writer_->release(claimed_);
    claimed_ = 0;
    exchange_.too_large = true;
    std::string().swap(exchange_.request_body);
    std::string().swap(exchange_.response_body);
    return;
  }
  claimed_ += piece.size();
  (response ? exchange_.response_body : exchange_.request_body).append(piece);
}

void ExchangeRecording::finish() {
  if (!active_) return;
  writer_->add(std::move(exchange_));  // takes over the claim
  exchange_ = RecordedExchange{};
  claimed_ = 0;
  active_ = false;
}

void ExchangeRecording::stop() {
  if (claimed_ > 0) writer_->release(claimed_);
  claimed_ = 0;
  if (active_) exchange_ = RecordedExchange{};
  active_ = false;
}

}  // namespace sb
