#include "codecs/url_avl_tree.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/varint.h"

namespace crawldb::codecs {
namespace {

constexpr uint64_t kLow36 = (uint64_t{1} << 36) - 1;
constexpr uint64_t kRightMask = uint64_t{UrlAvlTree::kNoChild} << 4;
constexpr uint64_t kHeightMask = (uint64_t{0xF} << 32) | 0xF;

// An AVL tree of fewer than 2^28 nodes is at most 41 high (1.44 log2(n + 2)); a search path
// longer than this means a corrupt tree.
constexpr int kMaxDepth = 64;

uint64_t PackNode(uint32_t left, uint32_t right, uint32_t height) {
  return (uint64_t{left} << 36) | (uint64_t{height >> 4} << 32) | (uint64_t{right} << 4) |
         (height & 0xF);
}

const uint8_t* Bytes(const char* p) { return reinterpret_cast<const uint8_t*>(p); }

// Reads one varint of a record: bounded by the record's end, and a value that fits 32 bits.
// nullptr when the bytes are not such a varint.
const char* ReadField(const char* p, const char* end, uint32_t* value) {
  uint64_t v;
  const uint8_t* next = ReadVarint(Bytes(p), Bytes(end), &v);
  if (next == nullptr || v > UINT32_MAX) return nullptr;
  *value = static_cast<uint32_t>(v);
  return p + (next - Bytes(p));
}

// Index of the first differing byte of a[0, n) and b[0, n); n when they are equal.
size_t Mismatch(const char* a, const char* b, size_t n) {
  size_t i = 0;
  if constexpr (std::endian::native == std::endian::little) {
    for (; i + 8 <= n; i += 8) {
      uint64_t x, y;
      std::memcpy(&x, a + i, 8);
      std::memcpy(&y, b + i, 8);
      if (x != y) return i + static_cast<size_t>(std::countr_zero(x ^ y) / 8);
    }
  }
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

// Grows `v` geometrically so that `extra` more elements fit without reallocating.
template <typename T>
void ReserveExtra(std::vector<T>& v, size_t extra) {
  if (v.capacity() - v.size() >= extra) return;
  v.reserve(std::max(v.size() + extra, 2 * v.capacity()));
}

absl::Status Corrupt(const std::string& what) {
  return absl::InternalError(absl::StrCat("url_avl_tree: ", what));
}

}  // namespace

struct UrlAvlTree::Descent {
  uint32_t path[kMaxDepth];      // node ids from the root down, the last one a leaf's parent
  bool right[kMaxDepth];         // right[i]: the search went to path[i]'s right child
  int depth = 0;                 // entries in path
  uint32_t found = kNoChild;     // the query's id when stored
  uint32_t best_ref = kNoChild;  // the visited URL sharing the longest prefix, oldest on ties
  size_t best_lcp = 0;           // its common prefix with the query (bytes)
};

UrlAvlTree::UrlAvlTree(UrlAvlTreeOptions options) : options_(options) {
  options_.max_urls = std::min(options_.max_urls, kMaxUrls);
}

uint32_t UrlAvlTree::Height(uint32_t id) const {
  if (id == kNoChild) return 0;
  const uint64_t n = tree_[id];
  return static_cast<uint32_t>(((n >> 28) & 0xF0) | (n & 0xF));
}

void UrlAvlTree::SetLeft(uint32_t id, uint32_t left) {
  tree_[id] = (tree_[id] & kLow36) | (uint64_t{left} << 36);
}

void UrlAvlTree::SetRight(uint32_t id, uint32_t right) {
  tree_[id] = (tree_[id] & ~kRightMask) | (uint64_t{right} << 4);
}

void UrlAvlTree::FixHeight(uint32_t id) {
  const uint32_t h = std::max(Height(Left(id)), Height(Right(id))) + 1;
  tree_[id] = (tree_[id] & ~kHeightMask) | PackNode(0, 0, h);
}

uint32_t UrlAvlTree::RotateLeft(uint32_t id) {
  const uint32_t r = Right(id);
  SetRight(id, Left(r));
  SetLeft(r, id);
  FixHeight(id);
  FixHeight(r);
  return r;
}

uint32_t UrlAvlTree::RotateRight(uint32_t id) {
  const uint32_t l = Left(id);
  SetLeft(id, Right(l));
  SetRight(l, id);
  FixHeight(id);
  FixHeight(l);
  return l;
}

uint32_t UrlAvlTree::Rebalance(uint32_t id) {
  const uint32_t l = Left(id);
  const uint32_t r = Right(id);
  const uint32_t hl = Height(l);
  const uint32_t hr = Height(r);
  if (hl > hr + 1) {
    if (Height(Left(l)) < Height(Right(l))) SetLeft(id, RotateLeft(l));
    return RotateRight(id);
  }
  if (hr > hl + 1) {
    if (Height(Right(r)) < Height(Left(r))) SetRight(id, RotateRight(r));
    return RotateLeft(id);
  }
  FixHeight(id);
  return id;
}

UrlAvlTree::Decoded UrlAvlTree::Decode(uint32_t id) const {
  const size_t end = id + 1 < data_ptr_.size() ? data_ptr_[id + 1] : arena_.size();
  const char* p = arena_.data() + data_ptr_[id];
  const char* stop = arena_.data() + end;
  Decoded rec;
  uint32_t delta = 0;
  // Add wrote the record and CheckInvariants validates it: the asserts document, not defend.
  p = ReadField(p, stop, &delta);
  assert(p != nullptr);
  if (delta == 0) {
    rec.ref = kNoChild;
    rec.common = 0;
  } else {
    rec.ref = id - delta;
    p = ReadField(p, stop, &rec.common);
    assert(p != nullptr);
  }
  rec.diff = p;
  rec.diff_size = static_cast<uint32_t>(arena_.data() + end - p);
  return rec;
}

void UrlAvlTree::CopyUrlTail(const Decoded& rec, uint32_t from, char* out) const {
  const uint32_t lo = std::max(rec.common, from);
  std::memcpy(out + (lo - from), rec.diff + (lo - rec.common), rec.Length() - lo);
  // Positions [from, need) are still unknown; each older URL of the chain knows them up to its
  // own common prefix. A record without a reference has common 0, so the walk ends there.
  uint32_t need = lo;
  uint32_t cur = rec.ref;
  while (need > from) {
    const Decoded r = Decode(cur);
    if (r.common < need) {
      const uint32_t l = std::max(r.common, from);
      std::memcpy(out + (l - from), r.diff + (l - r.common), need - l);
      need = l;
    }
    cur = r.ref;
  }
}

int UrlAvlTree::CompareWith(uint32_t id, absl::string_view query, size_t known, size_t* lcp) const {
  const Decoded rec = Decode(id);
  const size_t length = rec.Length();
  // URL(id)[known, length): in place when the diff holds it all, else rebuilt.
  const char* tail;
  char stack_buffer[256];
  std::string heap_buffer;
  if (known >= rec.common) {
    tail = rec.diff + (known - rec.common);
  } else {
    char* buffer = stack_buffer;
    if (length - known > sizeof(stack_buffer)) {
      heap_buffer.resize(length - known);
      buffer = heap_buffer.data();
    }
    CopyUrlTail(rec, static_cast<uint32_t>(known), buffer);
    tail = buffer;
  }
  const size_t node_rest = length - known;
  const size_t query_rest = query.size() - known;
  const size_t n = std::min(node_rest, query_rest);
  const size_t i = Mismatch(query.data() + known, tail, n);
  *lcp = known + i;
  if (i < n) {
    return static_cast<uint8_t>(query[known + i]) < static_cast<uint8_t>(tail[i]) ? -1 : 1;
  }
  if (query_rest == node_rest) return 0;
  return query_rest < node_rest ? -1 : 1;
}

void UrlAvlTree::Search(absl::string_view query, Descent* d) const {
  // lcp of the query with the nearest visited URL below it and above it: every URL of the
  // current subtree lies between those two, so it shares min(lo, hi) bytes with the query.
  size_t lo = 0;
  size_t hi = 0;
  uint32_t x = root_;
  while (x != kNoChild && d->depth < kMaxDepth) {
    const size_t known = options_.skip_known_prefix ? std::min(lo, hi) : 0;
    size_t lcp;
    const int c = CompareWith(x, query, known, &lcp);
    if (lcp > d->best_lcp || (lcp == d->best_lcp && lcp > 0 && x < d->best_ref)) {
      d->best_lcp = lcp;
      d->best_ref = x;
    }
    if (c == 0) {
      d->found = x;
      return;
    }
    d->path[d->depth] = x;
    d->right[d->depth] = c > 0;
    ++d->depth;
    if (c > 0) {
      lo = lcp;
      x = Right(x);
    } else {
      hi = lcp;
      x = Left(x);
    }
  }
}

absl::StatusOr<UrlAvlTree::AddResult> UrlAvlTree::Add(absl::string_view url) {
  Descent d;
  Search(url, &d);
  if (d.found != kNoChild) return AddResult{d.found, false};
  if (size() >= options_.max_urls) {
    return absl::ResourceExhaustedError(
        absl::StrCat("url_avl_tree: full at ", options_.max_urls,
                     " URLs (node ids are 28 bits); start another tree"));
  }
  const uint32_t id = size();
  const uint32_t common = static_cast<uint32_t>(std::min<size_t>(d.best_lcp, UINT32_MAX));
  const uint32_t delta = common > 0 ? id - d.best_ref : 0;
  uint8_t header_bytes[2 * kMaxVarintBytes];
  size_t header = WriteVarint(delta, header_bytes);
  if (delta > 0) header += WriteVarint(common, header_bytes + header);
  const size_t record = header + (url.size() - common);
  if (url.size() > options_.max_arena_bytes || record > options_.max_arena_bytes - arena_.size()) {
    return absl::ResourceExhaustedError(
        absl::StrCat("url_avl_tree: a ", url.size(), "-byte URL does not fit: the arena holds ",
                     arena_.size(), " of at most ", options_.max_arena_bytes,
                     " bytes (DataPtr offsets are 32 bits); start another tree"));
  }
  // Allocate first so that nothing changes if an allocation throws.
  ReserveExtra(tree_, 1);
  ReserveExtra(data_ptr_, 1);
  ReserveExtra(arena_, record);

  const size_t start = arena_.size();
  arena_.resize(start + record);
  char* p = arena_.data() + start;
  std::memcpy(p, header_bytes, header);
  if (url.size() > common) std::memcpy(p + header, url.data() + common, url.size() - common);
  data_ptr_.push_back(static_cast<uint32_t>(start));
  tree_.push_back(PackNode(kNoChild, kNoChild, 1));

  if (d.depth == 0) {
    root_ = id;
    return AddResult{id, true};
  }
  if (d.right[d.depth - 1]) {
    SetRight(d.path[d.depth - 1], id);
  } else {
    SetLeft(d.path[d.depth - 1], id);
  }
  // Back up the path: fix heights, rotate where unbalanced. Once a subtree keeps its old height
  // (always the case after a rotation) the ancestors above it are unchanged.
  for (int i = d.depth - 1; i >= 0; --i) {
    const uint32_t x = d.path[i];
    const uint32_t before = Height(x);
    const uint32_t top = Rebalance(x);
    if (top != x) {
      if (i == 0) {
        root_ = top;
      } else if (d.right[i - 1]) {
        SetRight(d.path[i - 1], top);
      } else {
        SetLeft(d.path[i - 1], top);
      }
    }
    if (Height(top) == before) break;
  }
  return AddResult{id, true};
}

std::optional<uint32_t> UrlAvlTree::Find(absl::string_view url) const {
  Descent d;
  Search(url, &d);
  if (d.found == kNoChild) return std::nullopt;
  return d.found;
}

absl::Status UrlAvlTree::RetrieveInto(uint32_t id, std::string* out) const {
  if (id >= size()) {
    return absl::OutOfRangeError(
        absl::StrCat("url_avl_tree: no URL with id ", id, "; the tree holds ", size(), " URLs"));
  }
  const Decoded rec = Decode(id);
  out->resize(rec.Length());
  CopyUrlTail(rec, 0, out->data());
  return absl::OkStatus();
}

absl::StatusOr<std::string> UrlAvlTree::Retrieve(uint32_t id) const {
  std::string url;
  absl::Status status = RetrieveInto(id, &url);
  if (!status.ok()) return status;
  return url;
}

uint64_t UrlAvlTree::BytesWithTree() const {
  return tree_.size() * sizeof(uint64_t) + BytesWithoutTree();
}

uint64_t UrlAvlTree::BytesWithoutTree() const {
  return data_ptr_.size() * sizeof(uint32_t) + arena_.size();
}

uint64_t UrlAvlTree::AllocatedBytes() const {
  return tree_.capacity() * sizeof(uint64_t) + data_ptr_.capacity() * sizeof(uint32_t) +
         arena_.capacity();
}

void UrlAvlTree::Reserve(uint32_t urls, uint64_t arena_bytes) {
  urls = std::min(urls, options_.max_urls);
  arena_bytes = std::min<uint64_t>(arena_bytes, options_.max_arena_bytes);
  tree_.reserve(urls);
  data_ptr_.reserve(urls);
  arena_.reserve(arena_bytes);
}

void UrlAvlTree::ShrinkToFit() {
  tree_.shrink_to_fit();
  data_ptr_.shrink_to_fit();
  arena_.shrink_to_fit();
}

UrlAvlTree::TreeNode UrlAvlTree::Node(uint32_t id) const {
  return TreeNode{Left(id), Right(id), Height(id)};
}

UrlAvlTree::CompressedUrl UrlAvlTree::Record(uint32_t id) const {
  const Decoded rec = Decode(id);
  return CompressedUrl{rec.ref == kNoChild ? id : rec.ref, rec.common,
                       absl::string_view(rec.diff, rec.diff_size)};
}

UrlAvlTree::Stats UrlAvlTree::ComputeStats() const {
  Stats s;
  s.urls = size();
  s.tree_bytes = tree_.size() * sizeof(uint64_t);
  s.data_ptr_bytes = data_ptr_.size() * sizeof(uint32_t);
  s.arena_bytes = arena_.size();
  s.height = Height(root_);
  uint64_t chain_total = 0;
  for (uint32_t id = 0; id < size(); ++id) {
    const Decoded rec = Decode(id);
    s.raw_bytes += rec.Length();
    s.diff_bytes += rec.diff_size;
    if (rec.ref == kNoChild) ++s.urls_without_ref;
    s.paper_layout_bytes += 8 + 4 + 4 + 1 + (rec.Length() - std::min(rec.common, 255u)) + 1;
    // The records CopyUrlTail reads to rebuild the whole URL.
    uint32_t chain = 1;
    uint32_t need = rec.common;
    uint32_t cur = rec.ref;
    while (need > 0) {
      const Decoded r = Decode(cur);
      ++chain;
      need = std::min(need, r.common);
      cur = r.ref;
    }
    chain_total += chain;
    s.max_chain = std::max(s.max_chain, chain);
  }
  s.header_bytes = s.arena_bytes - s.diff_bytes;
  if (s.urls > 0) s.mean_chain = static_cast<double>(chain_total) / static_cast<double>(s.urls);
  return s;
}

absl::Status UrlAvlTree::CheckInvariants() const {
  const size_t n = data_ptr_.size();
  if (tree_.size() != n) {
    return Corrupt(absl::StrCat("TreeNode has ", tree_.size(), " entries, DataPtr ", n));
  }
  if (n > options_.max_urls) return Corrupt(absl::StrCat(n, " URLs, more than the limit"));
  if (arena_.size() > options_.max_arena_bytes) {
    return Corrupt(absl::StrCat("the arena has ", arena_.size(), " bytes, more than the limit"));
  }
  if (n == 0) {
    if (root_ != kNoChild) return Corrupt("empty tree with a root");
    if (!arena_.empty()) return Corrupt("empty tree with arena bytes");
    return absl::OkStatus();
  }
  if (data_ptr_[0] != 0) return Corrupt("record 0 does not start the arena");

  // Records: bounded decode, references to older URLs only, prefixes no longer than the URL
  // referred to. Hence every chain ends and rebuilds a URL of the recorded length.
  std::vector<uint32_t> length(n);
  for (uint32_t id = 0; id < n; ++id) {
    const size_t start = data_ptr_[id];
    const size_t end = id + 1 < n ? data_ptr_[id + 1] : arena_.size();
    if (start > end || end > arena_.size()) {
      return Corrupt(absl::StrCat("record ", id, " spans bytes [", start, ", ", end, ") of a ",
                                  arena_.size(), "-byte arena"));
    }
    const char* p = arena_.data() + start;
    const char* stop = arena_.data() + end;
    uint32_t delta = 0;
    if ((p = ReadField(p, stop, &delta)) == nullptr) {
      return Corrupt(absl::StrCat("record ", id, ": bad RefID varint"));
    }
    uint32_t common = 0;
    if (delta > 0) {
      if (delta > id) {
        return Corrupt(absl::StrCat("record ", id, " refers ", delta, " ids back"));
      }
      if ((p = ReadField(p, stop, &common)) == nullptr) {
        return Corrupt(absl::StrCat("record ", id, ": bad CommonPrefix varint"));
      }
      const uint32_t ref = id - delta;
      if (common == 0 || common > length[ref]) {
        return Corrupt(absl::StrCat("record ", id, " shares ", common, " bytes with URL ", ref,
                                    " of ", length[ref], " bytes"));
      }
    }
    const uint64_t total = uint64_t{common} + static_cast<uint64_t>(stop - p);
    if (total > UINT32_MAX) return Corrupt(absl::StrCat("URL ", id, " is too long"));
    length[id] = static_cast<uint32_t>(total);
  }

  // Tree: every id reached once, heights right, balanced; in-order ids collected.
  if (root_ >= n) return Corrupt(absl::StrCat("root ", root_, " of ", n, " URLs"));
  std::vector<bool> seen(n);
  std::vector<uint32_t> in_order;
  in_order.reserve(n);
  struct Frame {
    uint32_t id;
    int depth;
    bool left_done;
  };
  std::vector<Frame> stack;
  seen[root_] = true;
  stack.push_back({root_, 1, false});
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.depth > kMaxDepth) return Corrupt(absl::StrCat("node ", f.id, " is too deep"));
    const uint32_t id = f.id;
    const int depth = f.depth;
    uint32_t next;
    if (!f.left_done) {
      f.left_done = true;
      next = Left(id);
    } else {
      in_order.push_back(id);
      stack.pop_back();
      next = Right(id);
    }
    if (next == kNoChild) continue;
    if (next >= n) return Corrupt(absl::StrCat("node ", id, " has child ", next));
    if (seen[next]) return Corrupt(absl::StrCat("node ", next, " is reached twice"));
    seen[next] = true;
    stack.push_back({next, depth + 1, false});
  }
  if (in_order.size() != n) {
    return Corrupt(absl::StrCat("the tree reaches ", in_order.size(), " of ", n, " URLs"));
  }
  // Now known to be a tree over all ids: check heights and balance from the leaves up.
  std::vector<uint32_t> height(n, 0);
  std::vector<std::pair<uint32_t, bool>> walk{{root_, false}};
  while (!walk.empty()) {
    auto [id, expanded] = walk.back();
    walk.pop_back();
    if (!expanded) {
      walk.push_back({id, true});
      if (Left(id) != kNoChild) walk.push_back({Left(id), false});
      if (Right(id) != kNoChild) walk.push_back({Right(id), false});
      continue;
    }
    const uint32_t hl = Left(id) == kNoChild ? 0 : height[Left(id)];
    const uint32_t hr = Right(id) == kNoChild ? 0 : height[Right(id)];
    height[id] = std::max(hl, hr) + 1;
    if (Height(id) != height[id]) {
      return Corrupt(
          absl::StrCat("node ", id, " records height ", Height(id), ", has ", height[id]));
    }
    if (hl > hr + 1 || hr > hl + 1) {
      return Corrupt(absl::StrCat("node ", id, " is unbalanced: left ", hl, ", right ", hr));
    }
  }
  // Order: the in-order URLs strictly increase.
  std::string previous;
  std::string current;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t id = in_order[i];
    const Decoded rec = Decode(id);
    current.resize(rec.Length());
    CopyUrlTail(rec, 0, current.data());
    if (i > 0 && !(previous < current)) {
      return Corrupt(absl::StrCat("URL ", id, " is not above URL ", in_order[i - 1],
                                  " that precedes it in order"));
    }
    std::swap(previous, current);
  }
  return absl::OkStatus();
}

}  // namespace crawldb::codecs
