// ZeroedArray<T>: a fixed-size array of T whose bytes start at zero, for a table that is written
// sparsely: from 16 KB on, pages of its own mapped untouched, so that pages nobody writes are
// never mapped and a new process pays a page fault (about 1–3 µs on the development machine)
// only for the pages it writes, where a value-initialized std::vector writes every page first;
// smaller, from calloc. Prefaulted: for an array written whole, its pages mapped at once. T must
// be trivial (zero bytes are its zero value).
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace crawldb::codecs {

template <typename T>
class ZeroedArray {
  static_assert(std::is_trivial_v<T>, "zero bytes must be a T");

 public:
  ZeroedArray() = default;
  explicit ZeroedArray(size_t size) {
    if (!Map(size, 0, kSparseMapMinBytes)) Allocate(size);
  }
  // For an array the caller is about to write whole: its pages are mapped in one call
  // (MAP_POPULATE) rather than a fault at a time, which costs about 0.85 µs a page on the
  // development machine instead of 3 µs. Small arrays, and all of them under AddressSanitizer
  // (which guards heap blocks, not mappings), come from calloc.
  static ZeroedArray Prefaulted(size_t size) {
    ZeroedArray array;
    if (!array.Map(size, MAP_POPULATE, kPrefaultMinBytes)) array.Allocate(size);
    return array;
  }
  // A moved-from array is empty, as a moved-from std::vector is.
  ZeroedArray(ZeroedArray&& other) noexcept
      : data_(std::move(other.data_)), size_(std::exchange(other.size_, 0)) {}
  ZeroedArray& operator=(ZeroedArray&& other) noexcept {
    data_ = std::move(other.data_);
    size_ = std::exchange(other.size_, 0);
    return *this;
  }

  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Bytes allocated (whether or not their pages are mapped).
  size_t MemoryBytes() const { return size_ * sizeof(T); }

 private:
  // Below them calloc's few faults cost less than a system call and a mapping of its own. A
  // large calloc is not reliably fresh pages: glibc raises its mmap threshold as mappings are
  // freed, and then clears a reused heap block by writing every page of it.
  static constexpr size_t kPrefaultMinBytes = size_t{64} << 10;
  static constexpr size_t kSparseMapMinBytes = size_t{16} << 10;

  void Allocate(size_t size) {
    data_ = std::unique_ptr<T[], Free>(
        static_cast<T*>(std::calloc(size == 0 ? 1 : size, sizeof(T))), Free{});
    if (data_ == nullptr) throw std::bad_alloc();
    size_ = size;
  }
  // Maps `size` zeroed Ts of their own when they take at least `min_bytes`; false (nothing done)
  // when smaller, and always under AddressSanitizer, which guards heap blocks, not mappings.
  bool Map([[maybe_unused]] size_t size, [[maybe_unused]] int flags,
           [[maybe_unused]] size_t min_bytes) {
#if defined(__SANITIZE_ADDRESS__)
    return false;
#else
    if (size > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    const size_t bytes = size * sizeof(T);
    if (bytes < min_bytes) return false;
    void* mapped =
        mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    data_ = std::unique_ptr<T[], Free>(static_cast<T*>(mapped), Free{bytes});
    size_ = size;
    return true;
#endif
  }

  struct Free {
    size_t mapped_bytes = 0;  // 0: from calloc
    void operator()(T* p) const {
      if (mapped_bytes != 0) {
        munmap(p, mapped_bytes);
      } else {
        std::free(p);
      }
    }
  };
  std::unique_ptr<T[], Free> data_;
  size_t size_ = 0;
};

}  // namespace crawldb::codecs
