// PagedBytes: the bytes of a serialized object whose owner stores them cut into parts (rows of
// a shadow table, say), read part by part the first time a reader needs them, so that opening
// a large object and reading a little of it reads a little.
//
// The bytes live in one buffer of the object's size, mapped but untouched: the operating system
// gives it pages as parts arrive, so memory grows with what was read. Part i holds bytes
// [i · part_bytes, min((i + 1) · part_bytes, size)). A reader calls Ensure(begin, end) before it
// reads bytes [begin, end); bytes not ensured read as garbage and must not be read.
//
// A budget bounds the bytes of the parts held (SetBudget): past it, the parts least recently
// ensured are dropped (their pages returned to the system) and fetched again when needed. Only
// parts not ensured since the last BeginUse() are dropped, so that what one call reads stays
// while it runs: a reader calls BeginUse() at the start of each call, then Ensure()s what it
// reads as it goes. Dropping needs parts that are whole pages; with other part sizes the budget
// is not enforced.
//
// The fetch function fills one part; a failed fetch (an I/O error, a part missing or of the
// wrong size: the fetcher's error, whatever it is) leaves the part absent, so that a later
// Ensure tries again, and is kept as failure() until ClearFailure(): a reader that met one
// reports it instead of trusting what it decoded.
//
// Without a budget, const methods may run concurrently (the fetches are serialized); with one,
// calls must not overlap (a part could be dropped under another reader). The fetch function
// runs on the calling thread.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
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
  static constexpr uint64_t kUnbounded = UINT64_MAX;

  // `size` bytes in parts of `part_bytes` (> 0) bytes, none present yet, no budget.
  // std::bad_alloc when the buffer cannot be mapped.
  PagedBytes(uint64_t size, uint64_t part_bytes, Fetch fetch);
  ~PagedBytes();
  PagedBytes(const PagedBytes&) = delete;
  PagedBytes& operator=(const PagedBytes&) = delete;

  // The whole buffer: only ensured bytes may be read.
  absl::Span<const uint8_t> bytes() const { return {buffer_, size_}; }
  uint64_t size() const { return size_; }
  size_t part_count() const { return part_count_; }
  uint64_t part_bytes() const { return part_bytes_; }

  // The bound on the bytes of the parts held (kUnbounded: none); parts past it are dropped at
  // the next fetch.
  void SetBudget(uint64_t bytes) const;
  // Whether parts may be dropped: a budget below the size, and parts of whole pages.
  bool bounded() const { return bounded_.load(std::memory_order_relaxed); }
  // Starts a call: the parts it ensures stay until the next BeginUse().
  void BeginUse() const { epoch_.fetch_add(1, std::memory_order_relaxed); }

  // Makes bytes [begin, min(end, size())) present, fetching the parts that hold them; false when
  // a fetch failed (failure() says why).
  bool Ensure(uint64_t begin, uint64_t end) const;
  bool EnsureAll() const { return Ensure(0, size_); }

  // Parts held now, and the memory they take (the pages of the parts not held are not touched).
  size_t parts_present() const { return parts_present_.load(std::memory_order_relaxed); }
  uint64_t present_bytes() const {
    return std::min<uint64_t>(size_, parts_present() * part_bytes_);
  }
  // Parts fetched so far, again after a drop included.
  uint64_t fetches() const { return fetches_.load(std::memory_order_relaxed); }
  // The failure of a fetch since the last ClearFailure(), or OK.
  absl::Status failure() const;
  void ClearFailure() const;

 private:
  bool Present(size_t part) const { return present_[part].load(std::memory_order_acquire) != 0; }
  bool FetchPart(size_t part) const;
  // Drops the parts held longest and not used since BeginUse() until the held bytes fit the
  // budget or none is left to drop. Under fetch_mutex_.
  void DropOverBudget() const;

  uint64_t size_;
  uint64_t part_bytes_;
  size_t part_count_;
  Fetch fetch_;
  uint8_t* buffer_ = nullptr;  // mapped, size_ bytes (nullptr when 0)
  std::unique_ptr<std::atomic<uint8_t>[]> present_;
  // The epoch of each part's last Ensure.
  std::unique_ptr<std::atomic<uint64_t>[]> used_;
  mutable std::atomic<uint64_t> epoch_{1};
  mutable std::atomic<size_t> parts_present_{0};
  mutable std::atomic<uint64_t> fetches_{0};
  mutable std::atomic<bool> bounded_{false};
  mutable std::mutex fetch_mutex_;  // guards fetch_ calls, held_, budget_ and failure_
  mutable uint64_t budget_ = kUnbounded;
  mutable std::deque<size_t> held_;  // parts present, in the order they were fetched
  mutable std::atomic<bool> failed_{false};
  mutable absl::Status failure_;
};

}  // namespace crawldb::codecs
