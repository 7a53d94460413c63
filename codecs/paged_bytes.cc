#include "codecs/paged_bytes.h"

#include <sys/mman.h>
#include <unistd.h>

#include <new>
#include <utility>

namespace crawldb::codecs {
namespace {

// Linux 5.14's madvise advice MADV_POPULATE_WRITE (older headers lack the name).
constexpr int kPopulateWrite = 23;

// Maps the pages of bytes [begin, begin + length) of `buffer` (page-aligned) in one call, which
// costs about half what a fault per page does (4 pages: 10 µs against 21 on the development
// machine). A kernel without the advice refuses it, and the fetch's copy faults them in.
void MapPages(uint8_t* buffer, uint64_t begin, uint64_t length) {
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint64_t first = begin / page * page;
  const uint64_t end = (begin + length + page - 1) / page * page;
  madvise(buffer + first, end - first, kPopulateWrite);
}

}  // namespace

PagedBytes::PagedBytes(uint64_t size, uint64_t part_bytes, Fetch fetch)
    : size_(size),
      part_bytes_(part_bytes),
      part_count_(static_cast<size_t>((size + part_bytes - 1) / part_bytes)),
      fetch_(std::move(fetch)),
      present_(std::make_unique<std::atomic<uint8_t>[]>(part_count_ == 0 ? 1 : part_count_)),
      used_(std::make_unique<std::atomic<uint64_t>[]>(part_count_ == 0 ? 1 : part_count_)) {
  if (size_ == 0) return;
  // Mapped, not allocated: no page is touched before its part arrives, and a dropped part's
  // pages go back to the system (madvise).
  void* mapped = mmap(nullptr, size_, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  buffer_ = static_cast<uint8_t*>(mapped);
}

PagedBytes::~PagedBytes() {
  if (buffer_ != nullptr) munmap(buffer_, size_);
}

void PagedBytes::SetBudget(uint64_t bytes) const {
  std::lock_guard<std::mutex> lock(fetch_mutex_);
  budget_ = bytes;
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  bounded_.store(bytes < size_ && part_bytes_ % page == 0, std::memory_order_relaxed);
  held_.clear();
  if (!bounded()) return;
  for (size_t part = 0; part < part_count_; ++part) {
    if (Present(part)) held_.push_back(part);
  }
  DropOverBudget();
}

bool PagedBytes::Ensure(uint64_t begin, uint64_t end) const {
  end = std::min(end, size_);
  if (begin >= end) return true;
  // Every part read and none to drop: a warm look-up's steps cost no more than this test.
  if (!bounded() && parts_present_.load(std::memory_order_acquire) == part_count_) return true;
  const uint64_t epoch = epoch_.load(std::memory_order_relaxed);
  const size_t last = static_cast<size_t>((end - 1) / part_bytes_);
  for (size_t part = static_cast<size_t>(begin / part_bytes_); part <= last; ++part) {
    used_[part].store(epoch, std::memory_order_relaxed);
    if (!Present(part) && !FetchPart(part)) return false;
  }
  return true;
}

bool PagedBytes::FetchPart(size_t part) const {
  std::lock_guard<std::mutex> lock(fetch_mutex_);
  if (Present(part)) return true;  // another thread fetched it meanwhile
  const uint64_t begin = part * part_bytes_;
  const uint64_t length = std::min(part_bytes_, size_ - begin);
  MapPages(buffer_, begin, length);
  absl::Status status = fetch_(part, {buffer_ + begin, static_cast<size_t>(length)});
  if (!status.ok()) {
    if (!failed_.load(std::memory_order_relaxed)) failure_ = std::move(status);
    failed_.store(true, std::memory_order_release);
    return false;
  }
  present_[part].store(1, std::memory_order_release);
  parts_present_.fetch_add(1, std::memory_order_release);  // pairs with Ensure's acquire
  fetches_.fetch_add(1, std::memory_order_relaxed);
  if (bounded()) {
    held_.push_back(part);
    DropOverBudget();
  }
  return true;
}

void PagedBytes::DropOverBudget() const {
  const uint64_t epoch = epoch_.load(std::memory_order_relaxed);
  // Each part held is looked at once at most: a part in use goes to the back.
  for (size_t looked = held_.size(); looked > 0 && present_bytes() > budget_; --looked) {
    const size_t part = held_.front();
    held_.pop_front();
    if (used_[part].load(std::memory_order_relaxed) == epoch) {
      held_.push_back(part);
      continue;
    }
    const uint64_t begin = part * part_bytes_;
    const uint64_t length = std::min(part_bytes_, size_ - begin);
    present_[part].store(0, std::memory_order_release);
    parts_present_.fetch_sub(1, std::memory_order_relaxed);
    // Whole pages (bounded() requires it); the last part's tail page is the buffer's own.
    madvise(buffer_ + begin, length, MADV_DONTNEED);
  }
}

absl::Status PagedBytes::failure() const {
  if (!failed_.load(std::memory_order_acquire)) return absl::OkStatus();
  std::lock_guard<std::mutex> lock(fetch_mutex_);
  return failure_;
}

void PagedBytes::ClearFailure() const {
  if (!failed_.load(std::memory_order_acquire)) return;  // Every cursor open asks: no lock then.
  std::lock_guard<std::mutex> lock(fetch_mutex_);
  failure_ = absl::OkStatus();
  failed_.store(false, std::memory_order_release);
}

}  // namespace crawldb::codecs
