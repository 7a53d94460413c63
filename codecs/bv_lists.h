// The list form of BVGraph (P. Boldi and S. Vigna, "The WebGraph Framework I: Compression
// Techniques", WWW 2004), shared by LAW's file format (bvgraph_files.h) and the bv codec (bv.h),
// which write the same components with different codes.
//
// List v of outdegree d is written as
//   list       := outdegree                                      d = 0
//               | outdegree [reference] copy extras              d > 0
//   reference  := r, 0 (none) or 1..window: the list of v − r is the *reference*; absent when
//                 the window is 0
//   copy       := ε                                              r = 0
//               | block_count block{block_count}                 r > 0
//   extras     := [interval_count interval{interval_count}] residuals
//   interval   := left length
// Copy blocks cut the reference into runs, alternately copied and skipped, the first copied:
// the first block is its run's length, the others their run's length less one; the last run is
// not written (it is copied when block_count is even, skipped when odd). The extras (the ids of
// v not copied) are cut into intervals — maximal runs of consecutive ids of length at least
// min_interval_length — and residuals, the rest. The interval part is present only when
// min_interval_length > 0 and ids are left to write after the copy; the residuals only when ids
// are left after the intervals. Values (all natural numbers):
//   interval 1:  left = nat(left_1 − v), later ones left_i − end_{i−1} − 1 where end is one past
//                an interval; length − min_interval_length
//   residual 1:  nat(residual_1 − v), later ones residual_i − residual_{i−1} − 1
// with nat(x) = 2x for x ≥ 0, −2x − 1 for x < 0. List v is the copied ids, the intervals and the
// residuals merged. This is WebGraph's form; bv's extended form (BvShape::extended) writes the
// reference before the outdegree and the outdegree relative to the reference's.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "codecs/adjacency_lists.h"
#include "codecs/bit_reader.h"

namespace crawldb::codecs {

// The components of a list, in the order written.
enum class BvComponent {
  kOutdegree,
  kReference,
  kBlockCount,
  kBlock,
  kIntervalCount,
  kIntervalLeft,
  kIntervalLength,
  kFirstResidual,
  kResidual,
};
inline constexpr int kBvComponents = 9;

// Parameters of the list form.
struct BvShape {
  uint32_t window;               // References reach back 1..window lists; 0: no references.
  uint32_t min_interval_length;  // 0: no intervals; at most 2^16 (ReadBvList relies on it).
  // false: WebGraph's form above. true: bv's, which differs in two ways:
  //  - the reference comes first, for every list (when the window is not 0), then the
  //    outdegree, written as nat(d − |reference|) when r > 0 (so a list like its reference has
  //    a small one) and as d otherwise;
  //  - the interval count is written only when at least min_interval_length ids are left to
  //    write after the copy (otherwise no interval fits).
  bool extended = false;
};

// A list split against its reference: the values of the copy and extras as written.
struct BvParts {
  uint32_t reference_size = 0;             // Ids in the reference.
  std::vector<uint32_t> blocks;            // As written (the first whole, the others less one).
  std::vector<uint32_t> interval_lefts;    // Ids.
  std::vector<uint32_t> interval_lengths;  // Ids per interval, ≥ min_interval_length.
  std::vector<uint32_t> residuals;         // Ids, increasing.
};

// Splits adjacency list `list` against adjacency list `reference` (empty for r = 0).
void SplitBvList(absl::Span<const uint32_t> reference, absl::Span<const uint32_t> list,
                 uint32_t min_interval_length, BvParts* parts);

inline uint64_t BvNat(int64_t x) {
  return x >= 0 ? 2 * static_cast<uint64_t>(x) : 2 * static_cast<uint64_t>(-(x + 1)) + 1;
}

// The inverse of BvNat, for x < 2^63.
inline int64_t BvInt(uint64_t x) {
  return (x & 1) ? -static_cast<int64_t>(x >> 1) - 1 : static_cast<int64_t>(x >> 1);
}

// Calls visit(component, value, hint) for each value of list `node` (outdegree `degree`,
// reference `ref`, split into `parts`) in the order written. The hint is what a decoder knows
// at that point and a code may use as a context: for the block count 0, 1 or 2 as the outdegree
// is equal to the reference's, below or above it; a block's index among the blocks; for the
// interval count the ids left to write, for a residual the number of residuals; 1 for an
// outdegree relative to the reference; 0 otherwise.
template <typename Visit>
void VisitBvList(uint32_t node, uint32_t degree, uint32_t ref, const BvShape& shape,
                 const BvParts& parts, Visit visit) {
  if (shape.extended) {
    if (shape.window > 0) visit(BvComponent::kReference, ref, 0);
    if (ref > 0) {
      visit(BvComponent::kOutdegree, BvNat(int64_t{degree} - parts.reference_size), 1);
    } else {
      visit(BvComponent::kOutdegree, degree, 0);
    }
    if (degree == 0) return;
  } else {
    visit(BvComponent::kOutdegree, degree, 0);
    if (degree == 0) return;
    if (shape.window > 0) visit(BvComponent::kReference, ref, 0);
  }
  if (ref > 0) {
    visit(BvComponent::kBlockCount, parts.blocks.size(),
          degree == parts.reference_size  ? 0
          : degree < parts.reference_size ? 1
                                          : 2);
    for (size_t b = 0; b < parts.blocks.size(); ++b) visit(BvComponent::kBlock, parts.blocks[b], b);
  }
  uint64_t extras = parts.residuals.size();
  for (uint32_t length : parts.interval_lengths) extras += length;
  if (extras > 0 && shape.min_interval_length > 0 &&
      (!shape.extended || extras >= shape.min_interval_length)) {
    visit(BvComponent::kIntervalCount, parts.interval_lefts.size(), extras);
    uint64_t end = 0;
    for (size_t i = 0; i < parts.interval_lefts.size(); ++i) {
      const uint32_t left = parts.interval_lefts[i];
      visit(BvComponent::kIntervalLeft, i == 0 ? BvNat(int64_t{left} - node) : left - end - 1, 0);
      visit(BvComponent::kIntervalLength, parts.interval_lengths[i] - shape.min_interval_length, 0);
      end = uint64_t{left} + parts.interval_lengths[i];
    }
  }
  for (size_t i = 0; i < parts.residuals.size(); ++i) {
    const uint32_t id = parts.residuals[i];
    visit(i == 0 ? BvComponent::kFirstResidual : BvComponent::kResidual,
          i == 0 ? BvNat(int64_t{id} - node) : uint64_t{id} - parts.residuals[i - 1] - 1,
          parts.residuals.size());
  }
}

// The choice of references by measured cost, in node order: for each list, no reference and
// every one of the previous `window` lists whose chain is below max_chain are split and costed,
// and the cheapest wins (ties to no reference, then to the nearest). A reference that gives the
// list a chain of max_chain, so that no later list can refer to it, costs `dead_end_penalty`
// more. The chooser remembers every chain (max_chain ≤ 255).
class BvReferenceChooser {
 public:
  BvReferenceChooser(const BvShape& shape, uint32_t max_chain, uint32_t node_count,
                     uint64_t dead_end_penalty = 0)
      : shape_(shape),
        max_chain_(max_chain),
        dead_end_penalty_(dead_end_penalty),
        chain_(node_count) {}

  // Chooses for list v (lists 0 … v − 1 chosen before); cost(ref, parts) → bits of the list
  // so written. After the call, parts() holds the winner's split.
  template <typename Cost>
  uint32_t Choose(AdjacencyListsView graph, uint32_t v, Cost cost) {
    const absl::Span<const uint32_t> list = graph.list(v);
    SplitBvList({}, list, shape_.min_interval_length, &best_);
    uint32_t best_ref = 0;
    uint64_t best_cost = cost(0u, static_cast<const BvParts&>(best_));
    const uint32_t last = list.empty() ? 0 : std::min(v, shape_.window);
    for (uint32_t r = 1; r <= last; ++r) {
      if (chain_[v - r] >= max_chain_) continue;
      SplitBvList(graph.list(v - r), list, shape_.min_interval_length, &parts_);
      const uint64_t c = cost(r, static_cast<const BvParts&>(parts_)) +
                         (chain_[v - r] + 1u == max_chain_ ? dead_end_penalty_ : 0);
      if (c < best_cost) {
        best_cost = c;
        best_ref = r;
        std::swap(parts_, best_);
      }
    }
    chain_[v] = best_ref == 0 ? 0 : static_cast<uint8_t>(chain_[v - best_ref] + 1);
    return best_ref;
  }

  const BvParts& parts() const { return best_; }

 private:
  BvShape shape_;
  uint32_t max_chain_;
  uint64_t dead_end_penalty_;
  std::vector<uint8_t> chain_;  // References followed to rebuild each list chosen so far.
  BvParts parts_;
  BvParts best_;
};

// Buffers ReadBvList reuses from list to list.
struct BvScratch {
  std::vector<uint32_t> copied;
  std::vector<uint32_t> intervals;
  std::vector<uint32_t> residuals;
};

// Reads list `node` of a graph of `node_count` nodes from `in` into *out (replaced), the values
// read by read(component, in, hint) → uint64_t (the hint as VisitBvList's). reference(r) gives the list of node − r for r in
// 1..min(window, node) as a span that stays valid during the call. *ref gets r. False when the
// input is corrupt: a failed read, a reference out of the window, blocks past the reference's
// end, ids out of range, a list that is not strictly increasing or not of its outdegree.
template <typename Read, typename Reference>
bool ReadBvList(BitReader& in, uint32_t node, uint32_t node_count, const BvShape& shape, Read read,
                Reference reference, BvScratch* scratch, std::vector<uint32_t>* out,
                uint32_t* ref) {
  out->clear();
  *ref = 0;
  const auto read_reference = [&]() {
    const uint64_t r = read(BvComponent::kReference, in, 0);
    if (!in.ok() || r > shape.window || r > node) return false;
    *ref = static_cast<uint32_t>(r);
    return true;
  };
  absl::Span<const uint32_t> from;  // The reference.
  uint64_t degree;
  if (shape.extended) {
    if (shape.window > 0 && !read_reference()) return false;
    if (*ref > 0) from = reference(*ref);
    const uint64_t code = read(BvComponent::kOutdegree, in, *ref > 0 ? 1 : 0);
    if (!in.ok() || code >= (uint64_t{1} << 34)) return false;
    const int64_t d =
        *ref == 0 ? static_cast<int64_t>(code) : static_cast<int64_t>(from.size()) + BvInt(code);
    if (d < 0 || d > node_count) return false;
    degree = static_cast<uint64_t>(d);
    if (degree == 0) return true;
  } else {
    degree = read(BvComponent::kOutdegree, in, 0);
    if (!in.ok() || degree > node_count) return false;
    if (degree == 0) return true;
    if (shape.window > 0 && !read_reference()) return false;
    if (*ref > 0) from = reference(*ref);
  }
  std::vector<uint32_t>& copied = scratch->copied;
  std::vector<uint32_t>& intervals = scratch->intervals;
  std::vector<uint32_t>& residuals = scratch->residuals;
  copied.clear();
  intervals.clear();
  residuals.clear();
  if (*ref > 0) {
    const uint64_t block_count = read(BvComponent::kBlockCount, in,
                                      degree == from.size()  ? 0
                                      : degree < from.size() ? 1
                                                             : 2);
    if (!in.ok() || block_count > from.size() + 1) return false;
    uint64_t at = 0;  // Index into `from` where the next run starts.
    for (uint64_t b = 0; b < block_count; ++b) {
      const uint64_t code = read(BvComponent::kBlock, in, b);
      if (!in.ok() || code > from.size()) return false;
      const uint64_t length = code + (b == 0 ? 0 : 1);
      if (length > from.size() - at) return false;
      if (b % 2 == 0) copied.insert(copied.end(), from.begin() + at, from.begin() + at + length);
      at += length;
    }
    if (block_count % 2 == 0) copied.insert(copied.end(), from.begin() + at, from.end());
    if (copied.size() > degree) return false;
  }
  uint64_t left_to_read = degree - copied.size();
  if (left_to_read > 0 && shape.min_interval_length > 0 &&
      (!shape.extended || left_to_read >= shape.min_interval_length)) {
    const uint64_t count = read(BvComponent::kIntervalCount, in, left_to_read);
    // count ≤ left_to_read < 2^32 and min_interval_length ≤ 2^16: the product fits.
    if (!in.ok() || count > left_to_read || count * shape.min_interval_length > left_to_read) {
      return false;
    }
    uint64_t next = 0;  // One past the previous interval.
    for (uint64_t i = 0; i < count; ++i) {
      const uint64_t left_code = read(BvComponent::kIntervalLeft, in, 0);
      const uint64_t length_code = read(BvComponent::kIntervalLength, in, 0);
      if (!in.ok() || left_code >= (uint64_t{1} << 34) || length_code > left_to_read) return false;
      const uint64_t length = length_code + shape.min_interval_length;
      if (length > left_to_read) return false;
      int64_t left;
      if (i == 0) {
        left = int64_t{node} + BvInt(left_code);
      } else {
        left = static_cast<int64_t>(next + left_code + 1);
      }
      if (left < 0 || static_cast<uint64_t>(left) + length > node_count) return false;
      for (uint64_t id = static_cast<uint64_t>(left); id < left + length; ++id) {
        intervals.push_back(static_cast<uint32_t>(id));
      }
      next = static_cast<uint64_t>(left) + length;
      left_to_read -= length;
    }
  }
  for (uint64_t i = 0; i < left_to_read; ++i) {
    const uint64_t code =
        read(i == 0 ? BvComponent::kFirstResidual : BvComponent::kResidual, in, left_to_read);
    if (!in.ok() || code >= (uint64_t{1} << 34)) return false;
    int64_t id;
    if (i == 0) {
      id = int64_t{node} + BvInt(code);
    } else {
      id = int64_t{residuals.back()} + static_cast<int64_t>(code) + 1;
    }
    if (id < 0 || id >= node_count) return false;
    residuals.push_back(static_cast<uint32_t>(id));
  }
  // Each part is increasing (the copy as a part of an adjacency list); merge the three,
  // checking the result is strictly increasing. Ids are below node_count ≤ UINT32_MAX, so
  // UINT32_MAX ends each part.
  copied.push_back(UINT32_MAX);
  intervals.push_back(UINT32_MAX);
  residuals.push_back(UINT32_MAX);
  out->resize(degree);
  const uint32_t* a = copied.data();
  const uint32_t* b = intervals.data();
  const uint32_t* c = residuals.data();
  int64_t last = -1;
  for (uint32_t& id : *out) {
    if (*a < *b) {
      id = *a < *c ? *a++ : *c++;
    } else {
      id = *b < *c ? *b++ : *c++;
    }
    if (int64_t{id} <= last) return false;
    last = id;
  }
  return true;
}

}  // namespace crawldb::codecs
