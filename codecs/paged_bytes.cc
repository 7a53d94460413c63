#include "codecs/paged_bytes.h"

#include <algorithm>
#include <utility>

namespace crawldb::codecs {

PagedBytes::PagedBytes(uint64_t size, uint64_t part_bytes, Fetch fetch)
    : size_(size),
      part_bytes_(part_bytes),
      part_count_(static_cast<size_t>((size + part_bytes - 1) / part_bytes)),
      fetch_(std::move(fetch)),
      // Default-initialized: no page is touched before its part arrives.
      buffer_(new uint8_t[size == 0 ? 1 : size]),
      present_(std::make_unique<std::atomic<uint8_t>[]>(part_count_ == 0 ? 1 : part_count_)) {}

bool PagedBytes::Ensure(uint64_t begin, uint64_t end) const {
  end = std::min(end, size_);
  if (begin >= end) return true;
  const size_t last = static_cast<size_t>((end - 1) / part_bytes_);
  for (size_t part = static_cast<size_t>(begin / part_bytes_); part <= last; ++part) {
    if (!Present(part) && !FetchPart(part)) return false;
  }
  return true;
}

bool PagedBytes::FetchPart(size_t part) const {
  std::lock_guard<std::mutex> lock(fetch_mutex_);
  if (Present(part)) return true;  // another thread fetched it meanwhile
  const uint64_t begin = part * part_bytes_;
  const uint64_t length = std::min(part_bytes_, size_ - begin);
  absl::Status status = fetch_(part, {buffer_.get() + begin, static_cast<size_t>(length)});
  if (!status.ok()) {
    if (!failed_.load(std::memory_order_relaxed)) failure_ = std::move(status);
    failed_.store(true, std::memory_order_release);
    return false;
  }
  present_[part].store(1, std::memory_order_release);
  parts_present_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

absl::Status PagedBytes::failure() const {
  if (!failed_.load(std::memory_order_acquire)) return absl::OkStatus();
  std::lock_guard<std::mutex> lock(fetch_mutex_);
  return failure_;
}

void PagedBytes::ClearFailure() const {
  std::lock_guard<std::mutex> lock(fetch_mutex_);
  failure_ = absl::OkStatus();
  failed_.store(false, std::memory_order_release);
}

}  // namespace crawldb::codecs
