// The URLs added since the last optimize, in arrival order (design.md §2: they get the next ids).
//
// Entry i holds the canonical key of the URL with id first_id + i (the store decides first_id).
// Keys are packed in an arena of fixed chunks (text_arena.h; no std::string per URL). A hash set
// of (entry index, 32-bit key hash), split in 1,024 parts by the hash, answers "which entry
// holds this key". Keeping the hash in the set means that growing it never reads a key again (a
// rehash of millions of entries would otherwise read and hash every key: half a second at 3.7 M
// URLs), and that a look-up compares key bytes only when the hashes agree. An entry can be taken
// out of the hash set (Unindex) when its URL was deleted and added again, so that the newer
// entry is the one found.
// Memory: the key bytes + 8 bytes of offset and length + about 10 bytes of hash set per entry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "extension/common/text_arena.h"

namespace crawldb::urls {

class UrlTail {
 public:
  UrlTail();
  // The hash set's functors point at this object: it stays where it was made.
  UrlTail(const UrlTail&) = delete;
  UrlTail& operator=(const UrlTail&) = delete;

  size_t size() const { return entries_.size(); }
  std::string_view Key(size_t index) const {
    return arena_.View(entries_[index].offset, entries_[index].length);
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
  struct Slot {
    uint32_t index;  // the entry
    uint32_t hash;   // KeyHash32 of its key
  };
  struct Probe {     // a key looked up, with its hash computed once
    std::string_view key;
    uint32_t hash;
  };
  static uint32_t KeyHash32(std::string_view key);
  // Hash and equality over slots and probes: the set is searched by key (Find) and by slot
  // (Unindex, Truncate: the index decides).
  struct SlotHash {
    using is_transparent = void;
    static size_t Spread(uint32_t hash) { return uint64_t{hash} * 0x9E3779B97F4A7C15u; }
    size_t operator()(const Slot& slot) const { return Spread(slot.hash); }
    size_t operator()(const Probe& probe) const { return Spread(probe.hash); }
  };
  struct SlotEq {
    using is_transparent = void;
    const UrlTail* tail;
    bool operator()(const Slot& a, const Slot& b) const { return a.index == b.index; }
    bool operator()(const Slot& slot, const Probe& probe) const {
      return slot.hash == probe.hash && tail->Key(slot.index) == probe.key;
    }
    bool operator()(const Probe& probe, const Slot& slot) const { return (*this)(slot, probe); }
  };
  using Index = absl::flat_hash_set<Slot, SlotHash, SlotEq>;
  Slot SlotOf(size_t index) const {
    return {static_cast<uint32_t>(index), KeyHash32(Key(index))};
  }
  // The index is split by the top bits of the hash, so that it grows a part at a time
  // (split_hash_map.h tells why).
  static constexpr int kIndexPartBits = 10;
  Index& PartOf(uint32_t hash) { return index_[hash >> (32 - kIndexPartBits)]; }
  const Index& PartOf(uint32_t hash) const { return index_[hash >> (32 - kIndexPartBits)]; }

  struct Entry {
    uint64_t offset : 43;  // of the key in arena_
    uint64_t length : 21;  // bytes of the key (at most codecs::kMaxUrlKeyBytes)
  };
  TextArena arena_;              // every key
  std::vector<Entry> entries_;
  std::vector<Index> index_;
};

}  // namespace crawldb::urls
