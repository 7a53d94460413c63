// ZeroedArray<T>: a fixed-size array of T whose bytes start at zero, taken from calloc, for a
// table that is written sparsely. calloc hands out large blocks of fresh pages without writing
// them, so pages nobody writes are never mapped: a new process pays a page fault (about 3 µs on
// the development machine) only for the pages it writes, where a value-initialized std::vector
// writes every page first. T must be trivial (zero bytes are its zero value).
#pragma once

#include <cstddef>
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
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T[], Free> data_;
  size_t size_ = 0;
};

}  // namespace crawldb::codecs
