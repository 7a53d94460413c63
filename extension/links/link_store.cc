#include "extension/links/link_store.h"

#include <algorithm>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "extension/containers/radix_sort.h"

namespace crawldb::links {
namespace {

std::unique_ptr<codecs::EncodedGraph> EmptyGraph() {
  absl::StatusOr<std::unique_ptr<codecs::EncodedGraph>> graph =
      codecs::EncodeAdjacency("link1", codecs::AdjacencyListsView{});
  return std::move(graph).value();  // the empty graph is always well formed
}

// *out = the sorted union of `base` and `added` (disjoint, each sorted) less the entries
// `removed` rejects.
template <typename Removed>
void Merge(absl::Span<const uint32_t> base, absl::Span<const uint32_t> added, Removed removed,
           std::vector<uint32_t>* out) {
  out->clear();
  size_t a = 0;
  for (uint32_t value : base) {
    for (; a < added.size() && added[a] < value; ++a) {
      if (!removed(added[a])) out->push_back(added[a]);
    }
    if (!removed(value)) out->push_back(value);
  }
  for (; a < added.size(); ++a) {
    if (!removed(added[a])) out->push_back(added[a]);
  }
}

}  // namespace

LinkStore::LinkStore() : out_(EmptyGraph()), in_(EmptyGraph()) {}

void LinkStore::Reset(std::unique_ptr<codecs::EncodedGraph> out,
                      std::unique_ptr<codecs::EncodedGraph> in) {
  out_ = std::move(out);
  in_ = std::move(in);
  SetBaseBudget(base_budget_);
  delta_out_.Clear();
  delta_in_.Clear();
  runs_out_.Clear();
  runs_in_.Clear();
  tombstones_.clear();
  delta_limit_ = 0;
  delta_arcs_ = 0;
  buffer_arcs_ = 0;
  run_tombstones_ = 0;
  arc_count_ = out_->arc_count();
  undo_.clear();
  replayed_adds_.clear();
  ++version_;
}

uint32_t LinkStore::node_limit() const { return std::max(out_->size(), delta_limit_); }

absl::Span<const uint32_t> LinkStore::Added(Direction direction, uint32_t node) const {
  const DeltaLists& buffer = direction == Direction::kOut ? delta_out_ : delta_in_;
  const std::vector<uint32_t>* buffered = buffer.Find(node);
  const DeltaRuns& runs = direction == Direction::kOut ? runs_out_ : runs_in_;
  if (runs.size() == 0) {
    return buffered == nullptr ? absl::Span<const uint32_t>() : absl::MakeConstSpan(*buffered);
  }
  added_scratch_.clear();
  if (buffered != nullptr) added_scratch_.assign(buffered->begin(), buffered->end());
  const size_t buffered_size = added_scratch_.size();
  runs.AppendMinors(node, &added_scratch_);
  if (added_scratch_.size() > buffered_size) {
    std::sort(added_scratch_.begin(), added_scratch_.end());
  }
  return added_scratch_;
}

void LinkStore::List(Direction direction, uint32_t node, std::vector<uint32_t>* list) const {
  const codecs::EncodedGraph& graph = base(direction);
  if (node < graph.size()) {
    graph.Decode(node, &scratch_);
  } else {
    scratch_.clear();
  }
  const absl::Span<const uint32_t> added = Added(direction, node);
  if (tombstones_.empty()) {
    if (added.empty()) {
      list->swap(scratch_);
      return;
    }
    Merge(
        scratch_, added, [](uint32_t) { return false; }, list);
  } else if (direction == Direction::kOut) {
    Merge(
        scratch_, added, [&](uint32_t dst) { return tombstones_.contains(ArcKey(node, dst)); },
        list);
  } else {
    Merge(
        scratch_, added, [&](uint32_t src) { return tombstones_.contains(ArcKey(src, node)); },
        list);
  }
}

std::optional<uint32_t> LinkStore::Degree(Direction direction, uint32_t node) const {
  if (!tombstones_.empty()) return std::nullopt;
  const codecs::EncodedGraph& graph = base(direction);
  const DeltaLists& buffer = direction == Direction::kOut ? delta_out_ : delta_in_;
  const std::vector<uint32_t>* buffered = buffer.Find(node);
  const DeltaRuns& runs = direction == Direction::kOut ? runs_out_ : runs_in_;
  return static_cast<uint32_t>((node < graph.size() ? graph.Degree(node) : 0) +
                               (buffered == nullptr ? 0 : buffered->size()) +
                               runs.CountMinors(node));
}

bool LinkStore::InBase(uint32_t src, uint32_t dst) const {
  if (src >= out_->size() || dst >= out_->size()) return false;
  // The shorter of the two lists that would hold the arc.
  if (out_->Degree(src) <= in_->Degree(dst)) {
    out_->Decode(src, &scratch_);
    return std::binary_search(scratch_.begin(), scratch_.end(), dst);
  }
  in_->Decode(dst, &scratch_);
  return std::binary_search(scratch_.begin(), scratch_.end(), src);
}

bool LinkStore::InBuffer(uint32_t src, uint32_t dst) const {
  const std::vector<uint32_t>* added = delta_out_.Find(src);
  return added != nullptr && std::binary_search(added->begin(), added->end(), dst);
}

bool LinkStore::Contains(uint32_t src, uint32_t dst) const {
  if (InBuffer(src, dst)) return true;
  const uint64_t key = ArcKey(src, dst);
  if (tombstones_.contains(key)) return false;
  return runs_out_.Contains(key) || InBase(src, dst);
}

void LinkStore::DeltaInsert(DeltaLists* lists, uint32_t node, uint32_t value) {
  std::vector<uint32_t>& list = (*lists)[node];
  list.insert(std::lower_bound(list.begin(), list.end(), value), value);
}

void LinkStore::DeltaErase(DeltaLists* lists, uint32_t node, uint32_t value) {
  std::vector<uint32_t>& list = *lists->Find(node);
  list.erase(std::lower_bound(list.begin(), list.end(), value));
  if (list.empty()) lists->Erase(node);
}

void LinkStore::ApplyAdd(uint32_t src, uint32_t dst) {
  // A removed base or run arc comes back by losing its tombstone.
  const uint64_t key = ArcKey(src, dst);
  if (!tombstones_.empty() && tombstones_.erase(key)) {
    if (runs_out_.Contains(key)) --run_tombstones_;
  } else {
    DeltaInsert(&delta_out_, src, dst);
    DeltaInsert(&delta_in_, dst, src);
    delta_limit_ = std::max(delta_limit_, std::max(src, dst) + 1);
    ++delta_arcs_;
    if (++buffer_arcs_ >= buffer_limit_) FreezeBuffer();
  }
  ++arc_count_;
  ++version_;
}

void LinkStore::ApplyRemove(uint32_t src, uint32_t dst) {
  if (InBuffer(src, dst)) {
    DeltaErase(&delta_out_, src, dst);
    DeltaErase(&delta_in_, dst, src);
    --delta_arcs_;
    --buffer_arcs_;
  } else {
    const uint64_t key = ArcKey(src, dst);
    tombstones_.insert(key);
    if (runs_out_.Contains(key)) ++run_tombstones_;
  }
  --arc_count_;
  ++version_;
}

void LinkStore::FreezeBuffer() {
  // The in-buffer is the out-buffer's transpose (Check()): both runs come from the out one.
  std::vector<uint64_t> keys;
  keys.reserve(buffer_arcs_);
  delta_out_.ForEach([&](uint32_t src, const std::vector<uint32_t>& targets) {
    for (uint32_t dst : targets) keys.push_back(ArcKey(src, dst));
  });
  delta_out_.Clear();
  delta_in_.Clear();
  buffer_arcs_ = 0;
  RadixSortKeys(&keys);
  AddRuns(keys, Transposed(keys));
}

void LinkStore::PurgeRunTombstones() {
  absl::flat_hash_set<uint64_t> purged;
  for (uint64_t key : tombstones_) {
    if (runs_out_.Contains(key)) purged.insert(key);
  }
  runs_out_.Remove([&](uint64_t key) { return purged.contains(key); });
  runs_in_.Remove([&](uint64_t key) { return purged.contains(TransposedKey(key)); });
  for (uint64_t key : purged) tombstones_.erase(key);
  delta_arcs_ -= purged.size();
  run_tombstones_ = 0;
  ++version_;
}

void LinkStore::MaybePurgeRunTombstones() {
  if (run_tombstones_ >= std::max(kMinPurge, runs_out_.size() / 8)) PurgeRunTombstones();
}

void LinkStore::SetDeltaBufferArcs(size_t arcs) {
  buffer_limit_ = std::max<size_t>(arcs, 1);
  if (buffer_arcs_ >= buffer_limit_) FreezeBuffer();
}

absl::Status LinkStore::status() const {
  absl::Status status = out_->status();
  return status.ok() ? in_->status() : status;
}

absl::Status LinkStore::CheckBase() const {
  absl::Status status = out_->CheckAll();
  return status.ok() ? in_->CheckAll() : status;
}

bool LinkStore::Add(uint32_t src, uint32_t dst) {
  if (Contains(src, dst) || !status().ok()) return false;
  ApplyAdd(src, dst);
  undo_.push_back({.added = true, .src = src, .dst = dst});
  return true;
}

bool LinkStore::Remove(uint32_t src, uint32_t dst) {
  if (!Contains(src, dst) || !status().ok()) return false;
  ApplyRemove(src, dst);
  undo_.push_back({.added = false, .src = src, .dst = dst});
  MaybePurgeRunTombstones();
  return true;
}

absl::Status LinkStore::Replay(const LinkChange& change) {
  bool present = Contains(change.src, change.dst);
  if (absl::Status status = this->status(); !status.ok()) return status;
  if (present == change.added) {
    return absl::DataLossError(absl::StrCat("links log: ", change.added ? "adds" : "removes",
                                            " the arc ", change.src, " -> ", change.dst,
                                            change.added ? ", already present" : ", absent"));
  }
  if (change.added) {
    ApplyAdd(change.src, change.dst);
  } else {
    ApplyRemove(change.src, change.dst);
    MaybePurgeRunTombstones();
  }
  return absl::OkStatus();
}

absl::Status LinkStore::ReplayInBatches(absl::Span<const LinkChange> changes) {
  for (const LinkChange& change : changes) {
    if (change.added) {
      replayed_adds_.push_back(ArcKey(change.src, change.dst));
      if (replayed_adds_.size() < kReplayBatchArcs) continue;
    }
    if (absl::Status status = EndReplay(); !status.ok()) return status;
    if (!change.added) {
      if (absl::Status status = Replay(change); !status.ok()) return status;
    }
  }
  return absl::OkStatus();
}

absl::Status LinkStore::EndReplay() {
  std::vector<uint64_t> keys = std::move(replayed_adds_);
  replayed_adds_.clear();
  if (keys.size() < buffer_limit_) {  // fewer than a buffer's worth: through the buffer
    for (uint64_t key : keys) {
      absl::Status status =
          Replay({.added = true, .src = codecs::ArcMajor(key), .dst = codecs::ArcMinor(key)});
      if (!status.ok()) return status;
    }
    return absl::OkStatus();
  }
  // In log order a crawl's links come sorted by target (new URLs take increasing ids): their
  // transposes need no sort then. Else those of the sorted keys, whose minors come sorted.
  const bool in_sorted = std::ranges::is_sorted(keys, {}, TransposedKey);
  std::vector<uint64_t> in_keys = in_sorted ? Transposed(keys) : std::vector<uint64_t>();
  RadixSortKeys(&keys);
  size_t kept = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    const uint32_t src = codecs::ArcMajor(keys[i]);
    const uint32_t dst = codecs::ArcMinor(keys[i]);
    if (!tombstones_.empty() && tombstones_.contains(keys[i])) {
      // A removed arc added again: it loses its tombstone (Replay), it goes in no run.
      if (absl::Status status = Replay({.added = true, .src = src, .dst = dst}); !status.ok()) {
        return status;
      }
      continue;
    }
    if ((i > 0 && keys[i - 1] == keys[i]) || Contains(src, dst)) {
      // A corrupt base list reads as empty: its damage, if any, is the cause to report.
      if (absl::Status status = this->status(); !status.ok()) return status;
      return absl::DataLossError(
          absl::StrCat("links log: adds the arc ", src, " -> ", dst, ", already present"));
    }
    keys[kept++] = keys[i];
    delta_limit_ = std::max(delta_limit_, std::max(src, dst) + 1);
  }
  // A corrupt base list reads as empty: its arcs would have looked absent.
  if (absl::Status status = this->status(); !status.ok()) return status;
  if (kept < keys.size() || !in_sorted) {
    keys.resize(kept);
    in_keys = Transposed(keys);
  }
  AddRuns(keys, std::move(in_keys));
  delta_arcs_ += kept;
  arc_count_ += kept;
  ++version_;
  return absl::OkStatus();
}

std::vector<uint64_t> LinkStore::Transposed(absl::Span<const uint64_t> keys) {
  std::vector<uint64_t> transposed;
  transposed.reserve(keys.size());
  for (uint64_t key : keys) {
    transposed.push_back(TransposedKey(key));
  }
  return transposed;
}

void LinkStore::AddRuns(const std::vector<uint64_t>& keys, std::vector<uint64_t> in_keys) {
  codecs::ArcRun::Builder out;
  for (uint64_t key : keys) out.Append(key);
  runs_out_.Add(std::move(out).Finish());
  RadixSortKeys(&in_keys);
  codecs::ArcRun::Builder in;
  for (uint64_t key : in_keys) in.Append(key);
  runs_in_.Add(std::move(in).Finish());
}

void LinkStore::UndoTo(size_t mark) {
  while (undo_.size() > mark) {
    const LinkChange& change = undo_.back();
    if (change.added) {
      ApplyRemove(change.src, change.dst);
    } else {
      ApplyAdd(change.src, change.dst);
    }
    undo_.pop_back();
  }
  if (run_tombstones_ > 0) PurgeRunTombstones();
}

void LinkStore::ClearUndo() {
  undo_.clear();
  if (undo_.capacity() > 4096) undo_.shrink_to_fit();
}

absl::StatusOr<std::vector<codecs::Arc>> LinkStore::Arcs() const {
  // Checked whole first: a corrupt list would read as empty, and the arcs would be rewritten
  // without it.
  if (absl::Status status = CheckBase(); !status.ok()) return status;
  std::vector<codecs::Arc> arcs;
  arcs.reserve(arc_count_);
  std::vector<uint32_t> list;
  for (uint32_t src = 0, limit = node_limit(); src < limit; ++src) {
    List(Direction::kOut, src, &list);
    for (uint32_t dst : list) arcs.push_back({src, dst});
  }
  return arcs;
}

void LinkStore::Check(std::vector<std::string>* problems) const {
  auto problem = [&](std::string text) { problems->push_back(absl::StrCat("links: ", text)); };
  if (absl::Status status = CheckBase(); !status.ok()) {
    // A part of the stored graph that is missing or of the wrong size is named "links: …"
    // already (link_graph_format.h).
    const std::string message(status.message());
    problems->push_back(absl::StartsWith(message, "links: ") ? message : "links: " + message);
    return;
  }
  size_t mirrored = 0;
  delta_out_.ForEach([&](uint32_t src, const std::vector<uint32_t>& targets) {
    for (uint32_t dst : targets) {
      const std::vector<uint32_t>* sources = delta_in_.Find(dst);
      if (sources == nullptr || !std::binary_search(sources->begin(), sources->end(), src)) {
        problem(absl::StrCat("buffered arc ", src, " -> ", dst, " is missing from the in-buffer"));
      }
      if (InBase(src, dst) || runs_out_.Contains(ArcKey(src, dst))) {
        problem(absl::StrCat("buffered arc ", src, " -> ", dst, " is in the base or a run"));
      }
      ++mirrored;
    }
  });
  size_t in_arcs = 0;
  delta_in_.ForEach(
      [&](uint32_t, const std::vector<uint32_t>& sources) { in_arcs += sources.size(); });
  if (mirrored != buffer_arcs_ || in_arcs != buffer_arcs_) {
    problem(absl::StrCat("buffer holds ", mirrored, " out and ", in_arcs, " in arcs, counted ",
                         buffer_arcs_));
  }
  // The runs: in is the transpose of out (an order-free sum of mixed keys), no run arc is a
  // base arc.
  uint64_t runs_out_sum = 0;
  uint64_t runs_in_sum = 0;
  runs_out_.ForEachKey([&](uint64_t key) {
    runs_out_sum += MixArcKey(key);
    if (InBase(codecs::ArcMajor(key), codecs::ArcMinor(key))) {
      problem(absl::StrCat("run arc ", key >> 32, " -> ", key & 0xffffffff, " is in the base"));
    }
  });
  runs_in_.ForEachKey([&](uint64_t key) { runs_in_sum += MixArcKey(TransposedKey(key)); });
  if (runs_out_.size() != runs_in_.size() || runs_out_sum != runs_in_sum) {
    problem("the delta runs' in-arcs are not the transpose of their out-arcs");
  }
  size_t run_tombstones = 0;
  for (uint64_t key : tombstones_) run_tombstones += runs_out_.Contains(key) ? 1 : 0;
  if (run_tombstones != run_tombstones_) {
    problem(absl::StrCat(run_tombstones, " tombstones name run arcs, counted ", run_tombstones_));
  }
  if (delta_arcs_ != buffer_arcs_ + runs_out_.size()) {
    problem(absl::StrCat("delta counted ", delta_arcs_, " arcs, buffer and runs hold ",
                         buffer_arcs_ + runs_out_.size()));
  }
  for (uint64_t key : tombstones_) {
    if (!InBase(static_cast<uint32_t>(key >> 32), static_cast<uint32_t>(key)) &&
        !runs_out_.Contains(key)) {
      problem(absl::StrCat("tombstone ", key >> 32, " -> ", key & 0xffffffff,
                           " names no base or run arc"));
    }
  }
  if (out_->size() != in_->size() || out_->arc_count() != in_->arc_count()) {
    problem("the base's two directions differ in nodes or arcs");
    return;
  }
  // in must be the transpose of out: the same arcs, compared through an order-free sum of
  // their mixed keys (one pass over each direction).
  uint64_t out_sum = 0;
  uint64_t in_sum = 0;
  std::vector<uint32_t> list;
  for (uint32_t node = 0; node < out_->size(); ++node) {
    out_->Decode(node, &list);
    for (uint32_t dst : list) out_sum += MixArcKey(ArcKey(node, dst));
    in_->Decode(node, &list);
    for (uint32_t src : list) in_sum += MixArcKey(ArcKey(src, node));
  }
  if (out_sum != in_sum) problem("the base's in-lists are not the transpose of its out-lists");
  if (arc_count_ != out_->arc_count() - tombstones_.size() + delta_arcs_) {
    problem(absl::StrCat("arc count ", arc_count_, " does not add up"));
  }
}

void LinkStore::SetBaseBudget(uint64_t bytes) {
  base_budget_ = bytes;
  const uint64_t each = bytes == codecs::PagedBytes::kUnbounded ? bytes : bytes / 2;
  out_->SetMemoryBudget(each);
  in_->SetMemoryBudget(each);
}

size_t LinkStore::MemoryBytes() const {
  size_t bytes =
      out_->MemoryBytes() + in_->MemoryBytes() + runs_out_.MemoryBytes() + runs_in_.MemoryBytes();
  for (const DeltaLists* lists : {&delta_out_, &delta_in_}) {
    bytes += lists->capacity() * (sizeof(uint32_t) + sizeof(std::vector<uint32_t>) + 1);
    lists->ForEach([&](uint32_t, const std::vector<uint32_t>& list) {
      bytes += list.capacity() * sizeof(uint32_t);
    });
  }
  return bytes + tombstones_.capacity() * (sizeof(uint64_t) + 1) +
         undo_.capacity() * sizeof(LinkChange) +
         (scratch_.capacity() + added_scratch_.capacity()) * sizeof(uint32_t);
}

}  // namespace crawldb::links
