// ArcRun: an immutable, compressed, sorted run of distinct 64-bit arc keys, key = major · 2^32 +
// minor (major the node whose list holds the arc, minor the other end), with random access to
// the minors of one major. A link store keeps the arcs added since its last optimize as a few
// such runs per direction (extension/links/delta_runs.h): about 2–3 bytes per arc where a hash
// map of vectors takes 30.
//
// Format. The keys are cut into blocks of kBlockKeys (the last shorter). Each block's first key
// is held plainly in heads_; the others are coded after the key before them:
//   key     := major_gap:varint minor
//   minor   := (major_gap = 0) varint(minor − previous minor − 1)
//              (major_gap > 0) signed varint(minor − previous minor), zig-zag
// (codecs/varint.h). Within a list the gaps are small; from one list to the next, crawl order
// makes neighbouring lists' ends close (a parent links a run of new URLs, consecutive new URLs
// share a parent), so the signed difference is short too. Block b's coded keys are
// bytes_[offsets_[b], offsets_[b + 1]) (the last ends at bytes_.size()). The gap coding of
// sorted successor lists is WebGraph's (docs/references.md, Boldi and Vigna 2004), without its
// references and intervals: a run is written once and merged, never searched for copies.
//
// Range: any strictly increasing uint64_t keys; a coded key takes 2 to 10 bytes (a major gap
// and a minor of up to 5 varint bytes each).
//
// Caller's obligations: the builder takes keys in strictly increasing order. A run is built in
// this process and trusted: nothing here reads untrusted bytes.
//
// Cost: the coded keys plus 16 bytes per block of 64 keys (0.25 bytes per key) and one decoded
// block (512 bytes) cached for look-ups in key order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace crawldb::codecs {

inline uint64_t ArcKey(uint32_t major, uint32_t minor) { return uint64_t{major} << 32 | minor; }
inline uint32_t ArcMajor(uint64_t key) { return static_cast<uint32_t>(key >> 32); }
inline uint32_t ArcMinor(uint64_t key) { return static_cast<uint32_t>(key); }

class ArcRun {
 public:
  static constexpr size_t kBlockKeys = 64;

  class Builder {
   public:
    // `key` must be above every key appended before.
    void Append(uint64_t key);
    ArcRun Finish() &&;

   private:
    std::vector<uint64_t> heads_;    // each block's first key
    std::vector<uint64_t> offsets_;  // each block's start in bytes_, in bytes
    std::vector<uint8_t> bytes_;     // the coded keys after each block's first
    uint64_t previous_ = 0;          // the key appended last
    size_t size_ = 0;                // keys appended
  };

  // Reads every key in increasing order.
  class Reader {
   public:
    explicit Reader(const ArcRun& run) : run_(&run) {}
    // The next key into *key; false after the last.
    bool Next(uint64_t* key);

   private:
    const ArcRun* run_;
    const uint8_t* at_ = nullptr;  // the next coded key
    uint64_t previous_ = 0;
    size_t read_ = 0;
  };

  ArcRun() = default;
  // A run moved from is empty.
  ArcRun(ArcRun&& other) noexcept { *this = std::move(other); }
  ArcRun& operator=(ArcRun&& other) noexcept;

  size_t size() const { return size_; }
  bool Contains(uint64_t key) const;
  // Appends the minors of the keys whose major is `major`, in increasing order, to *minors.
  void AppendMinors(uint32_t major, std::vector<uint32_t>* minors) const;
  // How many keys have major `major`.
  size_t CountMinors(uint32_t major) const;
  // Heap bytes held (the cached block included).
  size_t MemoryBytes() const;

 private:
  // The index of the last block whose head is ≤ key; 0 when key is below every head.
  size_t BlockAtMost(uint64_t key) const;
  // The keys of `block`, decoded into the cache.
  const std::vector<uint64_t>& Decoded(size_t block) const;
  size_t BlockSize(size_t block) const;
  // Calls visit(minor) for each key of major `major`, in increasing order.
  template <typename Visit>
  void VisitMinors(uint32_t major, Visit visit) const;

  std::vector<uint64_t> heads_;    // each block's first key
  std::vector<uint64_t> offsets_;  // each block's start in bytes_, in bytes
  std::vector<uint8_t> bytes_;     // the coded keys after each block's first
  size_t size_ = 0;                // keys
  // Look-ups in key order (a scan, a merge of lists node by node) decode each block once.
  mutable size_t cached_block_ = SIZE_MAX;
  mutable std::vector<uint64_t> cached_keys_;

  friend class Reader;
};

}  // namespace crawldb::codecs
