#include "codecs/adjacency_lists.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"

namespace crawldb::codecs {
namespace {

absl::Status Invalid(const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat("adjacency_lists: ", what));
}

// Sorts and deduplicates each list of a CSR graph in place, compacting targets.
void SortLists(std::vector<uint64_t>* offsets, std::vector<uint32_t>* targets) {
  uint64_t write = 0;
  uint64_t begin = 0;
  for (size_t v = 0; v + 1 < offsets->size(); ++v) {
    const uint64_t end = (*offsets)[v + 1];
    const auto first = targets->begin() + static_cast<ptrdiff_t>(begin);
    const auto last = targets->begin() + static_cast<ptrdiff_t>(end);
    std::sort(first, last);
    const auto unique_end = std::unique(first, last);
    (*offsets)[v] = write;
    for (auto it = first; it != unique_end; ++it) (*targets)[write++] = *it;  // write ≤ begin.
    begin = end;
  }
  offsets->back() = write;
  targets->resize(write);
}

}  // namespace

absl::Status CheckAdjacencyLists(AdjacencyListsView graph) {
  if (graph.offsets.empty()) {
    if (!graph.targets.empty()) return Invalid("targets without offsets");
    return absl::OkStatus();
  }
  if (graph.offsets.size() - 1 > kMaxGraphNodes) {
    return Invalid(absl::StrCat("more than ", kMaxGraphNodes, " nodes"));
  }
  if (graph.offsets[0] != 0) return Invalid("offsets[0] is not 0");
  if (graph.offsets.back() != graph.targets.size()) {
    return Invalid(absl::StrCat("offsets[n] = ", graph.offsets.back(), " but there are ",
                                graph.targets.size(), " targets"));
  }
  const uint32_t n = graph.size();
  for (uint32_t v = 0; v < n; ++v) {
    if (graph.offsets[v + 1] < graph.offsets[v]) {
      return Invalid(absl::StrCat("offsets decrease at node ", v));
    }
    const absl::Span<const uint32_t> list = graph.list(v);
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i] >= n) {
        return Invalid(absl::StrCat("node ", v, " links to ", list[i], ", not below ", n));
      }
      if (i > 0 && list[i] <= list[i - 1]) {
        return Invalid(absl::StrCat("the list of node ", v, " is not strictly increasing"));
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<AdjacencyLists> AdjacencyLists::FromArcs(uint32_t node_count,
                                                        absl::Span<const Arc> arcs) {
  AdjacencyLists graph;
  graph.offsets_.assign(uint64_t{node_count} + 1, 0);
  for (const Arc& arc : arcs) {
    if (arc.src >= node_count || arc.dst >= node_count) {
      return Invalid(
          absl::StrCat("arc ", arc.src, " -> ", arc.dst, " has an id not below ", node_count));
    }
    ++graph.offsets_[arc.src + 1];
  }
  for (uint32_t v = 0; v < node_count; ++v) graph.offsets_[v + 1] += graph.offsets_[v];
  graph.targets_.resize(arcs.size());
  std::vector<uint64_t> fill(graph.offsets_.begin(), graph.offsets_.end() - 1);
  for (const Arc& arc : arcs) graph.targets_[fill[arc.src]++] = arc.dst;
  SortLists(&graph.offsets_, &graph.targets_);
  return graph;
}

absl::StatusOr<AdjacencyLists> AdjacencyLists::FromLists(
    const std::vector<std::vector<uint32_t>>& lists) {
  AdjacencyLists graph;
  graph.offsets_.reserve(lists.size() + 1);
  graph.offsets_.push_back(0);
  for (const std::vector<uint32_t>& list : lists) {
    for (uint32_t id : list) graph.targets_.push_back(id);
    graph.offsets_.push_back(graph.targets_.size());
  }
  if (absl::Status status = CheckAdjacencyLists(graph.view()); !status.ok()) return status;
  return graph;
}

absl::StatusOr<AdjacencyLists> AdjacencyLists::FromCsr(std::vector<uint64_t> offsets,
                                                       std::vector<uint32_t> targets) {
  AdjacencyLists graph;
  graph.offsets_ = std::move(offsets);
  graph.targets_ = std::move(targets);
  if (absl::Status status = CheckAdjacencyLists(graph.view()); !status.ok()) return status;
  return graph;
}

AdjacencyLists AdjacencyLists::Transpose() const {
  const uint32_t n = size();
  AdjacencyLists result;
  result.offsets_.assign(uint64_t{n} + 1, 0);
  for (uint32_t target : targets_) ++result.offsets_[target + 1];
  for (uint32_t v = 0; v < n; ++v) result.offsets_[v + 1] += result.offsets_[v];
  result.targets_.resize(targets_.size());
  std::vector<uint64_t> fill(result.offsets_.begin(), result.offsets_.end() - 1);
  for (uint32_t v = 0; v < n; ++v) {
    for (uint32_t target : list(v)) result.targets_[fill[target]++] = v;
  }
  return result;
}

AdjacencyLists AdjacencyLists::Renumber(absl::Span<const uint32_t> new_id) const {
  const uint32_t n = size();
  AdjacencyLists result;
  result.offsets_.assign(uint64_t{n} + 1, 0);
  for (uint32_t v = 0; v < n; ++v) result.offsets_[new_id[v] + 1] = list(v).size();
  for (uint32_t v = 0; v < n; ++v) result.offsets_[v + 1] += result.offsets_[v];
  result.targets_.resize(targets_.size());
  for (uint32_t v = 0; v < n; ++v) {
    uint64_t out = result.offsets_[new_id[v]];
    for (uint32_t target : list(v)) result.targets_[out++] = new_id[target];
  }
  SortLists(&result.offsets_, &result.targets_);
  return result;
}

}  // namespace crawldb::codecs
