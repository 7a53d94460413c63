// The URLs added since the last optimize, in arrival order (design.md §2: they get the next ids).
//
// Entry i stands for the URL with id first_id + i (the store decides first_id) and is in one of
// three states:
//   pending  its canonical key is held here, waiting for its part (url_part.h) to be rewritten;
//   merged   its key is in part p at rank r (Locate);
//   absent   it was deleted, and dropped when its part was rewritten (or never reached this
//            connection: a reload finds deleted ids only in <t>_deleted).
// Pending keys are packed in an arena of fixed chunks (text_arena.h; no std::string per URL),
// and listed per part in arrival order (Pending). Merging a part's keys leaves their bytes
// unused in the arena until it is compacted (ResolvePart does, once they outweigh the rest). A hash
// set of (entry index, 32-bit key hash), split in 1,024 parts by the hash, answers "which entry
// holds this key". Keeping the hash in the set means that growing it never reads a key again (a
// rehash of millions of entries would otherwise read and hash every key: half a second at 3.7 M
// URLs), and that a look-up compares key bytes only when the hashes agree. An entry can be taken
// out of the hash set (Unindex) when its URL was deleted and added again, so that the newer
// entry is the one found.
// Memory: 8 bytes per entry; for a pending one also its key bytes, about 10 bytes of hash set
// and 4 of part list.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "extension/containers/skewed_parts.h"
#include "extension/containers/text_arena.h"

namespace crawldb::urls {

class UrlTail {
 public:
  UrlTail();
  // The hash set's functors point at this object: it stays where it was made.
  UrlTail(const UrlTail&) = delete;
  UrlTail& operator=(const UrlTail&) = delete;

  size_t size() const { return entries_.size(); }
  bool IsPending(size_t index) const { return entries_[index].length != 0; }
  // The key of a pending entry.
  std::string_view Key(size_t index) const {
    return arena_.View(entries_[index].offset, entries_[index].length);
  }
  struct Location {
    size_t part;
    size_t rank;
  };
  // Where a merged entry's key is; nullopt for a pending or absent one.
  std::optional<Location> Locate(size_t index) const {
    const Entry entry = entries_[index];
    if (entry.length != 0 || entry.offset == kAbsent) return std::nullopt;
    return Location{static_cast<size_t>(entry.offset >> 32), entry.offset & 0xFFFFFFFFu};
  }
  // The pending entries of part `part`, oldest first.
  const std::vector<uint32_t>& Pending(size_t part) const { return pending_[part]; }
  size_t pending_count() const { return pending_count_; }
  size_t pending_bytes() const { return pending_bytes_; }

  // The indexed pending entry holding `key`, if any.
  std::optional<size_t> Find(std::string_view key) const;

  // Appends `key`, pending, and indexes it; returns its index. The caller makes sure no indexed
  // entry holds the same key (Find first, Unindex a deleted one).
  size_t Append(std::string_view key);
  // Appends absent entries up to `size` entries in all (loading).
  void Grow(size_t size);
  // Makes absent entry `index` pending with `key` (loading: entries are given in index order).
  void SetPending(size_t index, std::string_view key);

  // Makes merged entry `index` absent (its part is being replaced); a pending one is kept.
  void Unlocate(size_t index) {
    if (entries_[index].length == 0) entries_[index] = {kAbsent, 0};
  }

  // Takes entry `index` out of the hash set, or puts it back.
  void Unindex(size_t index);
  void Reindex(size_t index);

  // Drops the entries from `size` on (rollback); they are all pending.
  void Truncate(size_t size);

  // Part `part` was rewritten: its pending entries with an index below `through_index` are in
  // it now or were dropped (absent); index_of_rank(r) gives the entry that rank r holds.
  template <typename IndexOfRank>
  void ResolvePart(size_t part, size_t through_index, size_t part_size, IndexOfRank index_of_rank) {
    std::vector<uint32_t>& pending = pending_[part];
    size_t kept = 0;
    for (uint32_t index : pending) {
      if (index >= through_index) {
        pending[kept++] = index;
        continue;
      }
      Forget(index);
    }
    pending.resize(kept);
    for (size_t rank = 0; rank < part_size; ++rank) {
      entries_[index_of_rank(rank)] = {(uint64_t{part} << 32) | rank, 0};
    }
    if (dead_bytes_ > kCompactBytes && dead_bytes_ > pending_bytes_) Compact();
  }

  // Bytes of memory held: arena, entries, hash set and part lists.
  size_t MemoryBytes() const;

 private:
  struct Slot {
    uint32_t index;  // the entry
    uint32_t hash;   // KeyHash32 of its key
  };
  struct Probe {  // a key looked up, with its hash computed once
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
  Slot SlotOf(size_t index) const { return {static_cast<uint32_t>(index), KeyHash32(Key(index))}; }
  // The index is split into parts of skewed shares by the hash, so that it grows a part at a
  // time (split_hash_map.h and skewed_parts.h tell why).
  Index& PartOf(uint32_t hash) { return index_[SkewedPartOf(hash)]; }
  const Index& PartOf(uint32_t hash) const { return index_[SkewedPartOf(hash)]; }

  // Pending: the key's offset in arena_ and its length (a key is never empty). Merged: length 0,
  // offset = part << 32 | rank. Absent: length 0, offset kAbsent.
  struct Entry {
    uint64_t offset : 43;
    uint64_t length : 21;  // at most codecs::kMaxUrlKeyBytes
  };
  static constexpr uint64_t kAbsent = (uint64_t{1} << 43) - 1;
  // Unused arena bytes worth a compaction, once they also outweigh the pending keys.
  static constexpr size_t kCompactBytes = size_t{32} << 20;

  // Makes pending entry `index` absent.
  void Forget(size_t index);
  // Copies the pending keys into a new arena.
  void Compact();

  TextArena arena_;  // every pending key, and unused bytes
  std::vector<Entry> entries_;
  std::vector<Index> index_;
  std::vector<std::vector<uint32_t>> pending_;  // per part (url_part.h)
  size_t pending_count_ = 0;
  size_t pending_bytes_ = 0;
  size_t dead_bytes_ = 0;  // arena bytes of keys no longer pending
};

}  // namespace crawldb::urls
