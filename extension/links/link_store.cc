#include "extension/links/link_store.h"

#include <algorithm>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace crawldb::links {
namespace {

std::unique_ptr<codecs::EncodedGraph> EmptyGraph() {
  absl::StatusOr<std::unique_ptr<codecs::EncodedGraph>> graph =
      codecs::EncodeAdjacency("link1", codecs::AdjacencyListsView{});
  return std::move(graph).value();  // the empty graph is always well formed
}

// *out = the sorted union of `base` less the entries `removed` rejects, and `added`.
template <typename Removed>
void Merge(absl::Span<const uint32_t> base, const std::vector<uint32_t>* added, Removed removed,
           std::vector<uint32_t>* out) {
  out->clear();
  size_t a = 0;
  const size_t added_size = added == nullptr ? 0 : added->size();
  for (uint32_t value : base) {
    if (removed(value)) continue;
    while (a < added_size && (*added)[a] < value) out->push_back((*added)[a++]);
    out->push_back(value);
  }
  while (a < added_size) out->push_back((*added)[a++]);
}

// splitmix64's finaliser: spreads an arc key over 64 bits.
uint64_t MixArc(uint64_t key) {
  key = (key ^ (key >> 30)) * 0xbf58476d1ce4e5b9u;
  key = (key ^ (key >> 27)) * 0x94d049bb133111ebu;
  return key ^ (key >> 31);
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
  tombstones_.clear();
  delta_limit_ = 0;
  delta_arcs_ = 0;
  arc_count_ = out_->arc_count();
  undo_.clear();
  ++version_;
}

uint32_t LinkStore::node_limit() const { return std::max(out_->size(), delta_limit_); }

void LinkStore::List(Direction direction, uint32_t node, std::vector<uint32_t>* list) const {
  const codecs::EncodedGraph& graph = base(direction);
  const DeltaLists& delta = direction == Direction::kOut ? delta_out_ : delta_in_;
  const std::vector<uint32_t>* added = delta.Find(node);
  if (node < graph.size()) {
    graph.Decode(node, &scratch_);
  } else {
    scratch_.clear();
  }
  if (tombstones_.empty()) {
    if (added == nullptr) {
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
  const std::vector<uint32_t>* added =
      (direction == Direction::kOut ? delta_out_ : delta_in_).Find(node);
  return (node < graph.size() ? graph.Degree(node) : 0) +
         (added == nullptr ? 0 : static_cast<uint32_t>(added->size()));
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

bool LinkStore::Contains(uint32_t src, uint32_t dst) const {
  const std::vector<uint32_t>* added = delta_out_.Find(src);
  if (added != nullptr && std::binary_search(added->begin(), added->end(), dst)) {
    return true;
  }
  return !tombstones_.contains(ArcKey(src, dst)) && InBase(src, dst);
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
  if (!tombstones_.erase(ArcKey(src, dst))) {
    DeltaInsert(&delta_out_, src, dst);
    DeltaInsert(&delta_in_, dst, src);
    delta_limit_ = std::max(delta_limit_, std::max(src, dst) + 1);
    ++delta_arcs_;
  }
  ++arc_count_;
  ++version_;
}

void LinkStore::ApplyRemove(uint32_t src, uint32_t dst) {
  const std::vector<uint32_t>* added = delta_out_.Find(src);
  if (added != nullptr && std::binary_search(added->begin(), added->end(), dst)) {
    DeltaErase(&delta_out_, src, dst);
    DeltaErase(&delta_in_, dst, src);
    --delta_arcs_;
  } else {
    tombstones_.insert(ArcKey(src, dst));
  }
  --arc_count_;
  ++version_;
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
  }
  return absl::OkStatus();
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
        problem(absl::StrCat("delta arc ", src, " -> ", dst, " is missing from the in-delta"));
      }
      if (InBase(src, dst))
        problem(absl::StrCat("delta arc ", src, " -> ", dst, " is in the base"));
      ++mirrored;
    }
  });
  size_t in_arcs = 0;
  delta_in_.ForEach(
      [&](uint32_t, const std::vector<uint32_t>& sources) { in_arcs += sources.size(); });
  if (mirrored != delta_arcs_ || in_arcs != delta_arcs_) {
    problem(absl::StrCat("delta holds ", mirrored, " out and ", in_arcs, " in arcs, counted ",
                         delta_arcs_));
  }
  for (uint64_t key : tombstones_) {
    if (!InBase(static_cast<uint32_t>(key >> 32), static_cast<uint32_t>(key))) {
      problem(
          absl::StrCat("tombstone ", key >> 32, " -> ", key & 0xffffffff, " names no base arc"));
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
    for (uint32_t dst : list) out_sum += MixArc(ArcKey(node, dst));
    in_->Decode(node, &list);
    for (uint32_t src : list) in_sum += MixArc(ArcKey(src, node));
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
  size_t bytes = out_->MemoryBytes() + in_->MemoryBytes();
  for (const DeltaLists* lists : {&delta_out_, &delta_in_}) {
    bytes += lists->capacity() * (sizeof(uint32_t) + sizeof(std::vector<uint32_t>) + 1);
    lists->ForEach([&](uint32_t, const std::vector<uint32_t>& list) {
      bytes += list.capacity() * sizeof(uint32_t);
    });
  }
  return bytes + tombstones_.capacity() * (sizeof(uint64_t) + 1) +
         undo_.capacity() * sizeof(LinkChange);
}

}  // namespace crawldb::links
