// PagedBytes: the bytes of a serialized object whose owner stores them cut into parts (rows of
// a shadow table, say), read part by part the first time a reader needs them, so that opening
// a large object and reading a little of it reads a little.
//
// The bytes live in one buffer of the object's size, allocated uninitialized: the operating
// system maps its pages as parts arrive, so memory grows with what was read. Part i holds bytes
// [i · part_bytes, min((i + 1) · part_bytes, size)). A reader calls Ensure(begin, end) before it
// reads bytes [begin, end); bytes not ensured hold garbage and must not be read.
//
// The fetch function fills one part; a failed fetch (an I/O error, a part missing or of the
// wrong size: the fetcher's error, whatever it is) leaves the part absent, so that a later
// Ensure tries again, and is kept as failure() until ClearFailure(): a reader that met one
// reports it instead of trusting what it decoded.
//
// Const methods may run concurrently (the fetches are serialized); the fetch function runs on
// the calling thread.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace crawldb::codecs {

class PagedBytes {
 public:
  // Fills `into` (exactly the part's bytes) with part `part`.
  using Fetch = std::function<absl::Status(size_t part, absl::Span<uint8_t> into)>;

  // `size` bytes in parts of `part_bytes` (> 0) bytes, none present yet.
  PagedBytes(uint64_t size, uint64_t part_bytes, Fetch fetch);
  PagedBytes(const PagedBytes&) = delete;
  PagedBytes& operator=(const PagedBytes&) = delete;

  // The whole buffer: only ensured bytes may be read.
  absl::Span<const uint8_t> bytes() const { return {buffer_.get(), size_}; }
  uint64_t size() const { return size_; }
  size_t part_count() const { return part_count_; }

  // Makes bytes [begin, min(end, size())) present, fetching the parts that hold them; false when
  // a fetch failed (failure() says why).
  bool Ensure(uint64_t begin, uint64_t end) const;
  bool EnsureAll() const { return Ensure(0, size_); }

  // Parts fetched so far, and the memory they take (the pages of the parts not fetched are
  // never touched).
  size_t parts_present() const { return parts_present_.load(std::memory_order_relaxed); }
  uint64_t present_bytes() const {
    return std::min<uint64_t>(size_, parts_present() * part_bytes_);
  }
  // The failure of a fetch since the last ClearFailure(), or OK.
  absl::Status failure() const;
  void ClearFailure() const;

 private:
  bool Present(size_t part) const { return present_[part].load(std::memory_order_acquire) != 0; }
  bool FetchPart(size_t part) const;

  uint64_t size_;
  uint64_t part_bytes_;
  size_t part_count_;
  Fetch fetch_;
  std::unique_ptr<uint8_t[]> buffer_;  // uninitialized until fetched
  std::unique_ptr<std::atomic<uint8_t>[]> present_;
  mutable std::atomic<size_t> parts_present_{0};
  mutable std::mutex fetch_mutex_;  // guards fetch_ calls and failure_
  mutable std::atomic<bool> failed_{false};
  mutable absl::Status failure_;
};

}  // namespace crawldb::codecs
