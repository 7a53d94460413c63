// The URLs added since the last optimize, in arrival order (design.md §2: they get the next ids).
//
// Entry i holds the canonical key of the URL with id first_id + i (the store decides first_id).
// Keys are packed in one arena (no std::string per URL); a hash set of entry indices, hashed by
// key, answers "which entry holds this key". An entry can be taken out of the hash set
// (Unindex) when its URL was deleted and added again, so that the newer entry is the one found.
// Memory: the key bytes + 4 bytes of offset + about 5 bytes of hash set per entry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"

namespace crawldb::urls {

class UrlTail {
 public:
  UrlTail();
  // The hash set's functors point at this object: it stays where it was made.
  UrlTail(const UrlTail&) = delete;
  UrlTail& operator=(const UrlTail&) = delete;

  size_t size() const { return offsets_.size() - 1; }
  std::string_view Key(size_t index) const {
    return std::string_view(arena_).substr(offsets_[index], offsets_[index + 1] - offsets_[index]);
  }

  // The indexed entry holding `key`, if any.
  std::optional<size_t> Find(std::string_view key) const;

  // Appends `key` and indexes it; returns its index. The caller makes sure no indexed entry
  // holds the same key (Find first, Unindex a deleted one).
  size_t Append(std::string_view key);

  // Takes entry `index` out of the hash set, or puts it back.
  void Unindex(size_t index);
  void Reindex(size_t index);

  // Drops the entries from `size` on (rollback).
  void Truncate(size_t size);

  // Bytes of memory held: arena, offsets and hash set.
  size_t MemoryBytes() const;

 private:
  // Hash and equality over entry indices and over keys, so that the set stores 4-byte indices
  // and is searched by key.
  struct KeyHash {
    using is_transparent = void;
    const UrlTail* tail;
    size_t operator()(uint32_t index) const { return (*this)(tail->Key(index)); }
    size_t operator()(std::string_view key) const;
  };
  struct KeyEq {
    using is_transparent = void;
    const UrlTail* tail;
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      return View(a) == View(b);
    }
    std::string_view View(uint32_t index) const { return tail->Key(index); }
    std::string_view View(std::string_view key) const { return key; }
  };

  std::string arena_;              // every key, back to back
  std::vector<uint32_t> offsets_;  // entry i is arena_[offsets_[i], offsets_[i + 1])
  absl::flat_hash_set<uint32_t, KeyHash, KeyEq> index_;
};

}  // namespace crawldb::urls
