// The list arithmetic of LimitSelect-K-L (paper 001 §4.2, §4.4), shared by link3 and link3+huff,
// which write the same fields with different codes: choosing a representative list for each
// list, the difference of two lists as deletes and adds, and rebuilding a list from them in
// place.
//
// A list v is either absolute (ref = 0) or refers to list v − ref (1 ≤ ref ≤ K, the
// representative R) with deletes — the strictly increasing indices i_1 < … < i_D of the elements
// of R that v lacks, written as gaps i_1 and i_j − i_{j−1} − 1 (each index less one past the
// previous one) — and adds, the ids of v missing from R. chain(v) is 0 for an absolute or empty
// list and chain(v − ref) + 1 otherwise; LimitSelect keeps chain(v) ≤ L.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "codecs/adjacency_lists.h"

namespace crawldb::codecs {

// The largest K and L the link3 codecs accept (and store in 16 and 8 bits).
inline constexpr uint32_t kMaxLink3Window = 1024;
inline constexpr uint32_t kMaxLink3Chain = 64;

// The indices of the elements of `from` missing in `to` (*deletes) and the elements of `to`
// missing in `from` (*adds), both adjacency lists.
void Diff(absl::Span<const uint32_t> from, absl::Span<const uint32_t> to,
          std::vector<uint32_t>* deletes, std::vector<uint32_t>* adds);

// The greedy choice of LimitSelect-K-L, in node order. For each non-empty list v, Choose costs
// the absolute encoding and every reference to v − 1 … v − K whose chain is below L and whose
// list is not empty, and returns the cheapest ref; ties go to the absolute encoding, then to the
// nearest reference. The chooser remembers every chain.
class ReferenceChooser {
 public:
  // K = window ≥ 1, L = max_chain ≤ kMaxLink3Chain, for a graph of node_count nodes.
  ReferenceChooser(uint32_t window, uint32_t max_chain, uint32_t node_count)
      : window_(window), max_chain_(max_chain), chain_(node_count) {}

  // Chooses for list v (non-empty; lists 0 … v − 1 chosen before, empty ones skipped). `cost`
  // is called as cost(ref, deletes, adds) → uint64_t, in any unit: ref 0 with no deletes and the
  // whole list as adds, then each candidate ref; UINT64_MAX rules a choice out. After the call,
  // deletes() and adds() hold the winner's fields when it is a reference (for ref 0 the list
  // itself is the adds).
  template <typename Cost>
  uint32_t Choose(AdjacencyListsView graph, uint32_t v, Cost cost) {
    const absl::Span<const uint32_t> list = graph.list(v);
    uint32_t best_ref = 0;
    uint64_t best_cost = cost(0u, absl::Span<const uint32_t>(), list);
    const uint32_t last = v < window_ ? v : window_;
    for (uint32_t ref = 1; ref <= last; ++ref) {
      const uint32_t j = v - ref;
      if (chain_[j] >= max_chain_ || graph.list(j).empty()) continue;
      Diff(graph.list(j), list, &deletes_, &adds_);
      const uint64_t c =
          cost(ref, absl::Span<const uint32_t>(deletes_), absl::Span<const uint32_t>(adds_));
      if (c < best_cost) {
        best_cost = c;
        best_ref = ref;
        best_deletes_.swap(deletes_);
        best_adds_.swap(adds_);
      }
    }
    chain_[v] = best_ref == 0 ? 0 : static_cast<uint8_t>(chain_[v - best_ref] + 1);
    return best_ref;
  }

  absl::Span<const uint32_t> deletes() const { return best_deletes_; }
  absl::Span<const uint32_t> adds() const { return best_adds_; }

 private:
  uint32_t window_;
  uint32_t max_chain_;
  std::vector<uint8_t> chain_;  // chain(v) of the lists chosen so far; 0 for empty ones.
  std::vector<uint32_t> deletes_;
  std::vector<uint32_t> adds_;
  std::vector<uint32_t> best_deletes_;
  std::vector<uint32_t> best_adds_;
};

// Removes from *list the elements at `count` indices read one gap at a time by next_gap(&gap)
// (false on a read error). False when the deletes are corrupt: a read error, count > the list's
// size, or an index past its end; *list then holds some of its elements.
template <typename NextGap>
bool DeleteIndices(uint64_t count, NextGap next_gap, std::vector<uint32_t>* list) {
  std::vector<uint32_t>& ids = *list;
  const uint64_t size = ids.size();
  if (count > size) return false;
  uint64_t read = 0;  // One past the last deleted index: the first gap counts from 0.
  uint64_t write = 0;
  for (uint64_t k = 0; k < count; ++k) {
    uint64_t gap;
    if (!next_gap(&gap) || gap >= size - read) return false;
    const uint64_t index = read + gap;
    while (read < index) ids[write++] = ids[read++];
    read = index + 1;
  }
  while (read < size) ids[write++] = ids[read++];
  ids.resize(write);
  return true;
}

// A record's deletes and adds, read for RebuildList; the buffers are reused from record to
// record.
struct RecordFields {
  std::vector<uint32_t> deletes;  // Indices into the representative, strictly increasing.
  std::vector<uint32_t> adds;     // Ids, strictly increasing.
};

// Reads `count` deleted indices of a representative of `size` elements, one gap at a time by
// next_gap(&gap) (false on a read error), into *deletes (replaced), strictly increasing. False
// when the deletes are corrupt, as for DeleteIndices.
template <typename NextGap>
bool ReadDeletedIndices(uint64_t count, size_t size, NextGap next_gap,
                        std::vector<uint32_t>* deletes) {
  deletes->clear();
  if (count > size) return false;
  uint64_t read = 0;  // One past the last deleted index.
  for (uint64_t k = 0; k < count; ++k) {
    uint64_t gap;
    if (!next_gap(&gap) || gap >= size - read) return false;
    deletes->push_back(static_cast<uint32_t>(read + gap));
    read += gap + 1;
  }
  return true;
}

// Rebuilds a list out of place: writes to `out` the elements of `representative` but those at
// the indices `deletes` (strictly increasing, each below representative.size()), merged with
// `adds` (strictly increasing). `out` has room for representative.size() − deletes.size() +
// adds.size() ids and overlaps none of the inputs. False if an add is also a kept element
// (`out` then holds some ids).
bool RebuildList(absl::Span<const uint32_t> representative, absl::Span<const uint32_t> deletes,
                 absl::Span<const uint32_t> adds, uint32_t* out);

// *list holds kept elements [0, kept) then adds, both strictly increasing: merges them in place
// into one strictly increasing list. False if an add is also a kept element (*list then holds
// some ids). Needs no memory beyond *list: the adds move to the very end, and the merge fills
// the list from the back. Grows *list to kept + 2 · adds on the way.
bool MergeAdds(size_t kept, std::vector<uint32_t>* list);

}  // namespace crawldb::codecs
