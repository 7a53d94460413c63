// ZeroedArray<T>: a fixed-size array of T whose bytes start at zero, taken from calloc, for a
// table that is written sparsely. calloc hands out large blocks of fresh pages without writing
// them, so pages nobody writes are never mapped: a new process pays a page fault (about 3 µs on
// the development machine) only for the pages it writes, where a value-initialized std::vector
// writes every page first. Prefaulted: for an array written whole, its pages mapped at once. T
// must be trivial (zero bytes are its zero value).
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
  explicit ZeroedArray(size_t size)
      : data_(static_cast<T*>(std::calloc(size == 0 ? 1 : size, sizeof(T)))), size_(size) {
    if (data_ == nullptr) throw std::bad_alloc();
  }
  // For an array the caller is about to write whole: its pages are mapped in one call
  // (MAP_POPULATE) rather than a fault at a time, which costs about 0.85 µs a page on the
  // development machine instead of 3 µs. Small arrays, and all of them under AddressSanitizer
  // (which guards heap blocks, not mappings), come from calloc.
  static ZeroedArray Prefaulted(size_t size) {
#if defined(__SANITIZE_ADDRESS__)
    return ZeroedArray(size);
#else
    if (size > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    const size_t bytes = size * sizeof(T);
    if (bytes < kPrefaultMinBytes) return ZeroedArray(size);
    void* mapped = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    ZeroedArray array;
    array.data_ = std::unique_ptr<T[], Free>(static_cast<T*>(mapped), Free{bytes});
    array.size_ = size;
    return array;
#endif
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
  // Below it calloc's few faults cost less than a system call and a mapping of its own.
  static constexpr size_t kPrefaultMinBytes = size_t{64} << 10;

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
