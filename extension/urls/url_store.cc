#include "extension/urls/url_store.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "extension/containers/radix_sort.h"

namespace crawldb::urls {
namespace {

constexpr size_t kDefaultCacheBytes = size_t{256} << 20;
// The share of the cache bound the id map's chunks may take.
constexpr size_t kIdChunkShare = 16;
// Look-ups by id a part answers by scanning its run's ids before it sorts them (ranks_by_id):
// a scan costs about 8 instructions per id, the sort about 60, and a part read for one
// look-up (the common case when parts are many and look-ups sparse) never needs the sort.
constexpr uint32_t kScannedIdLookups = 8;

const absl::Status& StatusOf(const absl::Status& status) { return status; }
template <typename T>
const absl::Status& StatusOf(const absl::StatusOr<T>& result) {
  return result.status();
}

}  // namespace

size_t LoadedPart::MemoryBytes() const {
  return sizeof(*this) + run->MemoryBytes() + pending.MemoryBytes() +
         ranks_by_id.capacity() * sizeof(uint32_t);
}

UrlStore::UrlStore(UrlStoreSource* source) : source_(source), slots_(kUrlParts) {
  set_cache_bytes(kDefaultCacheBytes);
  Reset(UrlBase());
}

void UrlStore::set_cache_bytes(size_t bytes) {
  cache_bytes_ = bytes;
  id_parts_.set_max_chunks(std::max<size_t>(4, bytes / kIdChunkShare / (2 * kIdsPerChunk)));
  Evict(kUrlParts);
}

void UrlStore::Reset(UrlBase base) {
  base_ = std::move(base);
  max_id_ = static_cast<int64_t>(base_.size());
  for (Slot& slot : slots_) slot = Slot();
  held_bytes_ = 0;
  IdPartMap::Loader loader;
  if (source_ != nullptr) {
    loader = [this](int64_t chunk) { return source_->ReadIdChunk(chunk); };
  }
  id_parts_.Reset(max_id_ + 1, std::move(loader));
  own_parts_model_.reset();
  deleted_.clear();
  undo_.clear();
}

void UrlStore::SetMaxId(int64_t max_id) { max_id_ = std::max(max_id_, max_id); }

void UrlStore::SetPartsModel(std::shared_ptr<const codecs::UrlBlockModel> model) {
  own_parts_model_ = std::move(model);
}

absl::Status UrlStore::ReplayAdds(int64_t first_id, int64_t count) {
  if (first_id != max_id_ + 1 || count < 0) {
    return absl::DataLossError(
        absl::StrCat("url log: ids from ", first_id, " follow id ", max_id_));
  }
  id_parts_.Forget(first_id);
  max_id_ += count;
  return absl::OkStatus();
}

absl::Status UrlStore::ReplayDelete(int64_t id) {
  if (!Delete(id)) {
    return absl::DataLossError(absl::StrCat("url log: deletes id ", id, ", which is not live"));
  }
  return absl::OkStatus();
}

void UrlStore::ForgetPart(size_t part) {
  Slot& slot = slots_[part];
  if (slot.held == nullptr || source_ == nullptr) return;
  held_bytes_ -= slot.bytes;
  slot = Slot();
}

std::shared_ptr<const codecs::UrlBlockModel> UrlStore::PartsModel() const {
  if (own_parts_model_ != nullptr) return own_parts_model_;
  if (base_.size() >= kMinBaseModelKeys) return base_.model();
  return nullptr;
}

absl::StatusOr<std::shared_ptr<LoadedPart>> UrlStore::LoadRun(size_t part) {
  auto loaded = std::make_shared<LoadedPart>();
  if (source_ == nullptr) return loaded;
  loaded->pending_loaded = false;
  absl::StatusOr<std::optional<UrlStoreSource::StoredRun>> run = source_->ReadRun(part);
  if (!run.ok()) return run.status();
  if (run->has_value()) {
    if (PartsModel() == nullptr) {
      return absl::DataLossError(absl::StrCat("url part ", part, " has no model to read it"));
    }
    absl::StatusOr<UrlPart> decoded = UrlPart::LoadStored(
        std::move((*run)->data), PartsModel(), static_cast<int64_t>(base_.size()) + 1, max_id_);
    if (!decoded.ok()) {
      return absl::DataLossError(absl::StrCat(
          "url part ", part, ": ", absl::StripPrefix(decoded.status().message(), "url part: ")));
    }
    loaded->run = std::make_shared<const UrlPart>(*std::move(decoded));
    loaded->run_seq = (*run)->seq;
  }
  return loaded;
}

absl::Status UrlStore::LoadPending(size_t part, LoadedPart* loaded) {
  const int64_t through_id = loaded->run->through_id();
  int64_t last_id = std::max(static_cast<int64_t>(base_.size()), through_id);
  auto add = [&](absl::Span<const int64_t> ids, absl::Span<const absl::string_view> keys) {
    size_t key_bytes = loaded->pending.key_bytes();
    for (absl::string_view key : keys) key_bytes += key.size();
    loaded->pending.Reserve(loaded->pending.size() + ids.size(), key_bytes);
    for (size_t i = 0; i < ids.size(); ++i) {
      const int64_t id = ids[i];
      // Look-ups of the ids the run holds do not read these rows (StoredKey): none may hold one.
      if (id <= through_id) {
        return absl::DataLossError(absl::StrCat("url part ", part, ": pending id ", id,
                                                " is not above its run's through id ", through_id));
      }
      if (id <= last_id || id > max_id_) {
        return absl::DataLossError(
            absl::StrCat("url part ", part, ": pending id ", id, " is out of order or range"));
      }
      if (UrlPartOf(keys[i]) != part) {
        return absl::DataLossError(
            absl::StrCat("url part ", part, ": pending id ", id, " belongs to another part"));
      }
      last_id = id;
      loaded->pending.AppendStored(id, keys[i]);
    }
    return absl::OkStatus();
  };
  absl::Status status = source_->ReadPending(
      part, loaded->run_seq,
      [&](absl::Span<const int64_t> ids, absl::Span<const absl::string_view> keys) {
        if (absl::Status added = add(ids, keys); !added.ok()) return added;
        loaded->row_sizes.push_back(static_cast<uint32_t>(ids.size()));
        return absl::OkStatus();
      });
  if (!status.ok()) return status;
  if (absl::Status tail = source_->ReadTail(part, add); !tail.ok()) return tail;
  loaded->pending_loaded = true;
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<LoadedPart>> UrlStore::HeldRun(size_t part) {
  Slot& slot = slots_[part];
  slot.used = ++tick_;
  if (slot.held != nullptr) return slot.held;
  absl::StatusOr<std::shared_ptr<LoadedPart>> loaded = LoadRun(part);
  if (!loaded.ok()) return loaded.status();
  slot.held = *std::move(loaded);
  slot.bytes = slot.held->MemoryBytes();
  held_bytes_ += slot.bytes;
  std::shared_ptr<LoadedPart> held = slot.held;
  Evict(part);
  return held;
}

absl::StatusOr<std::shared_ptr<LoadedPart>> UrlStore::Part(size_t part) {
  absl::StatusOr<std::shared_ptr<LoadedPart>> held = HeldRun(part);
  if (!held.ok() || (*held)->pending_loaded) return held;
  if (absl::Status status = LoadPending(part, held->get()); !status.ok()) {
    ForgetPart(part);  // half read
    return status;
  }
  GrewInPlace(part);
  return held;
}

void UrlStore::GrewInPlace(size_t part) {
  Recount(part);
  Evict(part);
}

template <typename LookUp>
auto UrlStore::InRun(size_t part, const UrlPart& run, const LookUp& look_up)
    -> decltype(look_up()) {
  const size_t groups = run.keys().groups_held();
  decltype(look_up()) result = look_up();
  if (run.keys().groups_held() != groups) GrewInPlace(part);
  if (const absl::Status& status = StatusOf(result); absl::IsDataLoss(status)) {
    result = absl::DataLossError(absl::StrCat("url part ", part, ": ", status.message()));
  }
  return result;
}

void UrlStore::Recount(size_t part) {
  Slot& slot = slots_[part];
  held_bytes_ -= slot.bytes;
  slot.bytes = slot.held == nullptr ? 0 : slot.held->MemoryBytes();
  held_bytes_ += slot.bytes;
}

void UrlStore::Evict(size_t keep) {
  if (source_ == nullptr) return;
  while (held_bytes_ > cache_bytes_) {
    size_t oldest = kUrlParts;
    for (size_t part = 0; part < kUrlParts; ++part) {
      const Slot& slot = slots_[part];
      if (part == keep || slot.held == nullptr || slot.uncommitted > 0) continue;
      if (oldest == kUrlParts || slot.used < slots_[oldest].used) oldest = part;
    }
    if (oldest == kUrlParts) return;
    ForgetPart(oldest);
  }
}

size_t UrlStore::held_parts() const {
  size_t held = 0;
  for (const Slot& slot : slots_) held += slot.held != nullptr;
  return held;
}

size_t UrlStore::HeldPendingBytes() const {
  size_t bytes = 0;
  for (const Slot& slot : slots_) bytes += slot.held ? slot.held->pending.key_bytes() : 0;
  return bytes;
}

absl::Status UrlStore::TrainPartsModel() {
  // Whole blocks of the pending keys in order, spread over all of them (UrlBaseSampler).
  std::vector<absl::string_view> keys;
  for (const Slot& slot : slots_) {
    if (slot.held == nullptr) continue;
    for (size_t i = 0; i < slot.held->pending.size(); ++i)
      keys.push_back(slot.held->pending.key(i));
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  UrlBaseSampler sampler(kPartsSampleBytes);
  for (absl::string_view key : keys) sampler.Add(key);
  absl::StatusOr<codecs::UrlBlockModel> model = sampler.Train();
  if (!model.ok()) return model.status();
  own_parts_model_ = std::make_shared<const codecs::UrlBlockModel>(std::move(*model));
  return absl::OkStatus();
}

absl::Status UrlStore::MergePart(size_t part, int64_t seq) {
  if (PartsModel() == nullptr) {
    if (absl::Status status = TrainPartsModel(); !status.ok()) return status;
  }
  absl::StatusOr<std::shared_ptr<LoadedPart>> held = Part(part);
  if (!held.ok()) return held.status();
  const LoadedPart& old = **held;
  // The pending keys, live ones, sorted; then merged with the run's live keys.
  struct Keyed {
    absl::string_view key;
    int64_t id;
  };
  std::vector<Keyed> pending;
  for (size_t i = 0; i < old.pending.size(); ++i) {
    if (!deleted_.contains(old.pending.id(i))) {
      pending.push_back({old.pending.key(i), old.pending.id(i)});
    }
  }
  std::sort(pending.begin(), pending.end(),
            [](const Keyed& a, const Keyed& b) { return a.key < b.key; });
  BlockKeys old_keys;  // every key of the old run, decoded
  {
    BlockKeys block;
    for (size_t b = 0; b < old.run->keys().block_count(); ++b) {
      if (absl::Status status = old.run->keys().DecodeBlock(b, &block); !status.ok()) {
        return status;
      }
      for (size_t i = 0; i < block.size(); ++i) old_keys.Append(block[i]);
    }
  }
  std::vector<absl::string_view> keys;
  std::vector<int64_t> ids;
  keys.reserve(old_keys.size() + pending.size());
  ids.reserve(keys.capacity());
  size_t next = 0;
  auto take_pending_below = [&](const absl::string_view* limit) {
    while (next < pending.size() && (limit == nullptr || pending[next].key < *limit)) {
      keys.push_back(pending[next].key);
      ids.push_back(pending[next++].id);
    }
  };
  for (size_t rank = 0; rank < old_keys.size(); ++rank) {
    const int64_t id = old.run->IdAt(rank);
    if (deleted_.contains(id)) continue;
    const absl::string_view key = old_keys[rank];
    take_pending_below(&key);
    keys.push_back(key);
    ids.push_back(id);
  }
  take_pending_below(nullptr);
  for (size_t i = 1; i < keys.size(); ++i) {
    if (keys[i] <= keys[i - 1]) {
      return absl::DataLossError(absl::StrCat("url part ", part, ": ids ", ids[i - 1], " and ",
                                              ids[i], " hold the same live URL"));
    }
  }
  absl::StatusOr<UrlPart> merged = UrlPart::Build(keys, ids, max_id_, PartsModel());
  if (!merged.ok()) return merged.status();
  auto next_part = std::make_shared<LoadedPart>();
  next_part->run = std::make_shared<const UrlPart>(*std::move(merged));
  next_part->run_seq = seq;
  Slot& slot = slots_[part];
  slot.held = std::move(next_part);
  slot.uncommitted = 0;
  Recount(part);
  return absl::OkStatus();
}

void UrlStore::RowWritten(size_t part, size_t count) {
  // Not held, or held without its pending keys: read with the row when next needed.
  if (slots_[part].held == nullptr || !slots_[part].held->pending_loaded) return;
  slots_[part].held->row_sizes.push_back(static_cast<uint32_t>(count));
}

size_t UrlStore::RowsToFold(size_t part) const {
  const std::vector<uint32_t>& sizes = slots_[part].held->row_sizes;
  size_t rows = 1;
  size_t newest = sizes.empty() ? 0 : sizes.back();
  while (rows < sizes.size() && sizes[sizes.size() - 1 - rows] <= newest) {
    newest += sizes[sizes.size() - 1 - rows];
    ++rows;
  }
  return rows >= 2 ? rows : 0;
}

void UrlStore::RowsFolded(size_t part, size_t rows) {
  std::vector<uint32_t>& sizes = slots_[part].held->row_sizes;
  uint32_t folded = 0;
  for (size_t i = 0; i < rows; ++i) folded += sizes[sizes.size() - 1 - i];
  sizes.resize(sizes.size() - rows);
  sizes.push_back(folded);
}

bool UrlStore::IsLive(int64_t id) const {
  return id >= 1 && id <= max_id_ && !deleted_.contains(id);
}

absl::StatusOr<std::optional<int64_t>> UrlStore::Find(absl::string_view key) {
  // A URL has one live id at most, wherever it is (a URL deleted and added again has deleted
  // ids elsewhere): the run first, so that a part read for a URL its run holds is read without
  // its pending keys, as for an id.
  const size_t part_number = UrlPartOf(key);
  absl::StatusOr<std::shared_ptr<LoadedPart>> held = HeldRun(part_number);
  if (!held.ok()) return held.status();
  if (const UrlPart& run = *(*held)->run; run.size() > 0) {
    absl::StatusOr<std::optional<size_t>> rank =
        InRun(part_number, run, [&] { return run.Find(key); });
    if (!rank.ok()) return rank.status();
    if (rank->has_value()) {
      const int64_t id = run.IdAt(**rank);
      if (!deleted_.contains(id)) return std::optional<int64_t>(id);
    }
  }
  held = Part(part_number);
  if (!held.ok()) return held.status();
  const LoadedPart& part = **held;
  const bool indexed = part.pending.indexed();
  const std::optional<size_t> index = part.pending.Find(key);
  if (!indexed) GrewInPlace(part_number);
  if (index.has_value()) {
    const int64_t id = part.pending.id(*index);
    if (!deleted_.contains(id)) return std::optional<int64_t>(id);
  }
  absl::StatusOr<std::optional<size_t>> rank = base_.Find(key);
  if (!rank.ok()) return rank.status();
  if (rank->has_value()) {
    const int64_t id = static_cast<int64_t>(**rank) + 1;
    if (!deleted_.contains(id)) return std::optional<int64_t>(id);
  }
  return std::optional<int64_t>();
}

absl::StatusOr<std::optional<std::string>> UrlStore::KeyOf(int64_t id) {
  if (!IsLive(id)) return std::optional<std::string>();
  absl::StatusOr<std::optional<std::string>> key = StoredKey(id);
  if (key.ok() && !key->has_value()) {
    return absl::DataLossError(absl::StrCat("url store: live id ", id, " has no URL"));
  }
  return key;
}

absl::StatusOr<std::optional<std::string>> UrlStore::StoredKey(int64_t id) {
  if (id < 1 || id > max_id_) return std::optional<std::string>();
  std::string key;
  if (static_cast<size_t>(id) <= base_.size()) {
    if (absl::Status status = base_.Get(static_cast<size_t>(id - 1), &key); !status.ok()) {
      return status;
    }
    return std::optional<std::string>(std::move(key));
  }
  absl::StatusOr<size_t> part_number = id_parts_.PartOf(id);
  if (!part_number.ok()) return part_number.status();
  // An id up to the run's through id is in the run or nowhere: its pending keys (ids above it)
  // are read only for a newer id.
  absl::StatusOr<std::shared_ptr<LoadedPart>> held = HeldRun(*part_number);
  if (held.ok() && id > (*held)->run->through_id()) held = Part(*part_number);
  if (!held.ok()) return held.status();
  LoadedPart& part = **held;
  if (id > part.run->through_id()) {
    std::optional<size_t> index = part.pending.FindId(id);
    if (!index.has_value()) return std::optional<std::string>();
    return std::optional<std::string>(part.pending.key(*index));
  }
  const UrlPart& run = *part.run;
  std::optional<size_t> rank;
  if (part.ranks_by_id.size() != run.size() && part.id_lookups < kScannedIdLookups) {
    // A part read for a few look-ups by id (a join's id -> URL, a crawler's lease) scans its
    // ids: about an eighth of what sorting them costs. Every id is compared, so that this id
    // repeating is found as the sort would find it.
    ++part.id_lookups;
    for (size_t at = 0; at < run.size(); ++at) {
      if (run.IdAt(at) != id) continue;
      if (rank.has_value()) {
        return absl::DataLossError(
            absl::StrCat("url part ", *part_number, ": id ", id, " repeats"));
      }
      rank = at;
    }
  } else {
    if (part.ranks_by_id.size() != run.size()) {
      // (id, rank) pairs, sorted by radix: a part looked up by id more than a few times pays
      // for the sort once.
      std::vector<std::pair<uint64_t, uint32_t>> by_id(run.size());
      for (size_t at = 0; at < run.size(); ++at) {
        by_id[at] = {static_cast<uint64_t>(run.IdAt(at)), static_cast<uint32_t>(at)};
      }
      RadixSortBy(&by_id, [](const std::pair<uint64_t, uint32_t>& pair) { return pair.first; });
      for (size_t i = 1; i < by_id.size(); ++i) {
        if (by_id[i].first == by_id[i - 1].first) {
          return absl::DataLossError(
              absl::StrCat("url part ", *part_number, ": id ", by_id[i].first, " repeats"));
        }
      }
      part.ranks_by_id.resize(run.size());
      for (size_t i = 0; i < by_id.size(); ++i) part.ranks_by_id[i] = by_id[i].second;
      Recount(*part_number);
    }
    auto it = std::lower_bound(part.ranks_by_id.begin(), part.ranks_by_id.end(), id,
                               [&](uint32_t at, int64_t value) { return run.IdAt(at) < value; });
    if (it != part.ranks_by_id.end() && run.IdAt(*it) == id) rank = *it;
  }
  if (!rank.has_value()) return std::optional<std::string>();
  if (absl::Status status = InRun(*part_number, run, [&] { return run.Get(*rank, &key); });
      !status.ok()) {
    return status;
  }
  return std::optional<std::string>(std::move(key));
}

absl::Status UrlStore::IdsInRange(size_t part_number, absl::string_view low, absl::string_view high,
                                  std::vector<int64_t>* ids) {
  absl::StatusOr<std::shared_ptr<LoadedPart>> held = Part(part_number);
  if (!held.ok()) return held.status();
  const LoadedPart& part = **held;
  if (part.run->size() > 0) {
    const UrlBase& keys = part.run->keys();
    absl::StatusOr<std::pair<size_t, size_t>> ranks =
        InRun(part_number, *part.run, [&]() -> absl::StatusOr<std::pair<size_t, size_t>> {
          absl::StatusOr<size_t> begin = keys.LowerBound(low);
          if (!begin.ok()) return begin.status();
          absl::StatusOr<size_t> end = keys.LowerBound(high);
          if (!end.ok()) return end.status();
          return std::make_pair(*begin, *end);
        });
    if (!ranks.ok()) return ranks.status();
    for (size_t rank = ranks->first; rank < ranks->second; ++rank) {
      ids->push_back(part.run->IdAt(rank));
    }
  }
  for (size_t i = 0; i < part.pending.size(); ++i) {
    const absl::string_view key = part.pending.key(i);
    if (key >= low && key < high) ids->push_back(part.pending.id(i));
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> UrlStore::Add(absl::string_view key) {
  const size_t part_number = UrlPartOf(key);
  absl::StatusOr<std::shared_ptr<LoadedPart>> held = Part(part_number);
  if (!held.ok()) return held.status();
  const int64_t id = max_id_ + 1;
  if (absl::Status status = id_parts_.Append(id, part_number); !status.ok()) return status;
  // A deleted copy among the pending keys stays indexed until now; the new entry replaces it.
  const bool indexed = (*held)->pending.indexed();
  std::optional<size_t> replaced = (*held)->pending.Append(id, key);
  max_id_ = id;
  undo_.push_back({Op::kAdd, static_cast<uint16_t>(part_number),
                   static_cast<int64_t>((*held)->pending.size() - 1),
                   replaced.has_value() ? static_cast<int64_t>(*replaced) : -1});
  Slot& slot = slots_[part_number];
  ++slot.uncommitted;
  if (!indexed) {
    GrewInPlace(part_number);  // counts the new key too
    return id;
  }
  const size_t grown = key.size() + 24;
  slot.bytes += grown;
  held_bytes_ += grown;
  return id;
}

bool UrlStore::Delete(int64_t id) {
  if (!IsLive(id)) return false;
  deleted_.insert(id);
  undo_.push_back({Op::kDelete, 0, id});
  return true;
}

void UrlStore::UndoTo(size_t mark) {
  while (undo_.size() > mark) {
    UndoEntry entry = undo_.back();
    undo_.pop_back();
    switch (entry.op) {
      case Op::kAdd: {
        Slot& slot = slots_[entry.part];
        slot.held->pending.PopBack(entry.reindex < 0 ? std::nullopt
                                                     : std::optional<size_t>(entry.reindex));
        --slot.uncommitted;
        --max_id_;
        id_parts_.Truncate(max_id_);
        ++tail_rewinds_;
        break;
      }
      case Op::kDelete:
        deleted_.erase(entry.value);
        break;
    }
  }
}

UrlStore::Pending UrlStore::PendingSince(size_t mark) {
  Pending pending;
  pending.first_added_id = max_id_ + 1;
  std::vector<size_t> index_of_part(kUrlParts, SIZE_MAX);
  for (size_t i = mark; i < undo_.size(); ++i) {
    const UndoEntry& entry = undo_[i];
    if (entry.op == Op::kDelete) {
      pending.deleted_ids.push_back(entry.value);
      continue;
    }
    const LoadedPart& part = *slots_[entry.part].held;
    const size_t index = static_cast<size_t>(entry.value);
    if (pending.added_count++ == 0) pending.first_added_id = part.pending.id(index);
    if (index_of_part[entry.part] == SIZE_MAX) {
      index_of_part[entry.part] = pending.parts.size();
      pending.parts.push_back({entry.part, {}, {}});
    }
    PartAdds& adds = pending.parts[index_of_part[entry.part]];
    adds.ids.push_back(part.pending.id(index));
    adds.keys.push_back(part.pending.key(index));
  }
  std::sort(pending.parts.begin(), pending.parts.end(),
            [](const PartAdds& a, const PartAdds& b) { return a.part < b.part; });
  return pending;
}

void UrlStore::ClearUndo() {
  undo_.clear();
  if (undo_.capacity() > 4096) undo_.shrink_to_fit();
  for (size_t part = 0; part < kUrlParts; ++part) {
    if (slots_[part].uncommitted > 0) {
      slots_[part].uncommitted = 0;
      Recount(part);
    }
  }
  Evict(kUrlParts);
}

size_t UrlStore::MemoryBytes() const {
  size_t bytes = base_.MemoryBytes() + held_bytes_ + id_parts_.MemoryBytes() +
                 slots_.capacity() * sizeof(Slot) + deleted_.capacity() * (sizeof(int64_t) + 1) +
                 undo_.capacity() * sizeof(UndoEntry);
  if (own_parts_model_ != nullptr) bytes += own_parts_model_->MemoryBytes();
  return bytes;
}

}  // namespace crawldb::urls
