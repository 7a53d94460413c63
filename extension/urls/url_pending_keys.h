// PendingKeys: the URLs of one part (url_part.h) added since the part's stored run was written,
// in arrival order (so in increasing id order), each with its id: what a look-up checks before
// the run, and what the part's next merge folds into it (url_store.h).
//
// Keys are packed back to back in one buffer (no std::string per URL). A hash set of (entry,
// 32-bit key hash) answers "which entry holds this key"; an entry can be taken out of it
// (Append does, for an older entry with the same key: a URL deleted and added again, so that
// the newer entry is the one found) and put back by PopBack (rollback). The set is built at the
// first Append, or at the first Find after kScannedFinds (which scan the keys, newest first:
// about 1/25 of what building the set costs), not while a part's stored keys are read
// (AppendStored): a part read for look-ups by id (a lease reading its URLs) or for a few look-ups
// of URLs never hashes its keys.
// Memory: per entry its key bytes, 4 bytes of end offset, 8 of id and, once built, 10 to 21 of
// hash set (8-byte slots and a control byte, at 7/8 to 7/16 load).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"

namespace crawldb::urls {

// Finds a PendingKeys answers by scanning its keys before it builds its hash set.
inline constexpr uint32_t kScannedFinds = 8;

class PendingKeys {
 public:
  PendingKeys();
  // The hash set's functors point at this object: it stays where it was made.
  PendingKeys(const PendingKeys&) = delete;
  PendingKeys& operator=(const PendingKeys&) = delete;

  size_t size() const { return ids_.size(); }
  bool empty() const { return ids_.empty(); }
  int64_t id(size_t index) const { return ids_[index]; }
  absl::string_view key(size_t index) const {
    const size_t begin = index == 0 ? 0 : ends_[index - 1];
    return absl::string_view(bytes_).substr(begin, ends_[index] - begin);
  }
  // Bytes of all the keys.
  size_t key_bytes() const { return bytes_.size(); }
  // Whether the hash set is built (MemoryBytes counts it from then on).
  bool indexed() const { return indexed_; }

  // The newest entry holding `key`, if any.
  std::optional<size_t> Find(absl::string_view key) const;
  // The entry of `id`, if any (ids increase with the index).
  std::optional<size_t> FindId(int64_t id) const;

  // Appends (id, key); id must exceed every id held. Returns the entry with the same key it
  // took out of the hash set, if there was one.
  std::optional<size_t> Append(int64_t id, absl::string_view key);
  // Appends (id, key) read from the stored form: nothing to undo, and indexed only when the
  // hash set is built already.
  void AppendStored(int64_t id, absl::string_view key);
  // Room for `entries` entries of `key_bytes` bytes of keys in all, so that appending them does
  // not grow the containers one step at a time.
  void Reserve(size_t entries, size_t key_bytes);
  // Removes the last entry, and puts entry `reindex` (what its Append returned) back in the
  // hash set.
  void PopBack(std::optional<size_t> reindex);

  size_t MemoryBytes() const;

 private:
  struct Slot {
    uint32_t index;  // the entry
    uint32_t hash;   // KeyHash32 of its key
  };
  struct Probe {  // a key looked up, with its hash computed once
    absl::string_view key;
    uint32_t hash;
  };
  static uint32_t KeyHash32(absl::string_view key);
  struct SlotHash {
    using is_transparent = void;
    static size_t Spread(uint32_t hash) { return uint64_t{hash} * 0x9E3779B97F4A7C15u; }
    size_t operator()(const Slot& slot) const { return Spread(slot.hash); }
    size_t operator()(const Probe& probe) const { return Spread(probe.hash); }
  };
  struct SlotEq {
    using is_transparent = void;
    const PendingKeys* keys;
    bool operator()(const Slot& a, const Slot& b) const { return a.index == b.index; }
    bool operator()(const Slot& slot, const Probe& probe) const {
      return slot.hash == probe.hash && keys->key(slot.index) == probe.key;
    }
    bool operator()(const Probe& probe, const Slot& slot) const { return (*this)(slot, probe); }
  };
  Slot SlotOf(size_t index) const { return {static_cast<uint32_t>(index), KeyHash32(key(index))}; }
  // Appends the entry's key and id (not the hash set).
  void Push(int64_t id, absl::string_view key);
  // Indexes every entry, the newest of each key, unless done already.
  void BuildIndex() const;
  // Indexes entry `index` (the newest), taking out the older entry with its key, if any.
  std::optional<size_t> Index(size_t index, uint32_t hash) const;

  std::string bytes_;
  std::vector<uint32_t> ends_;  // key i is bytes_[ends_[i − 1], ends_[i])
  std::vector<int64_t> ids_;
  // Built by the first Append or the Find after kScannedFinds (BuildIndex), kept up to date
  // from then on.
  mutable absl::flat_hash_set<Slot, SlotHash, SlotEq> index_;
  mutable bool indexed_ = false;
  mutable uint32_t scanned_finds_ = 0;  // Finds answered by a scan, before the set was built
};

}  // namespace crawldb::urls
