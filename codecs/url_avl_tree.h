// The AVL URL tree of paper 000: K. Koht-arsa and S. Sanguanpong, "In-memory URL Compression",
// Kasetsart University (../shared/seeds/002_91c4f3a252c4f70b.txt: §2 the method and the
// sun.com/sgi.com example of Figure 2; §3 the three arrays of Figures 3-6; §4 28 bytes/URL with
// the tree and 20 without, for 55-byte URLs).
//
// Every URL is a node of an AVL tree ordered by its bytes (unsigned, shorter prefix first). A URL
// is stored as a reference to an older URL, the number of leading bytes it shares with it, and the
// bytes that follow. The referenced URL is the node on the insertion path sharing the longest
// prefix; that path holds the new URL's in-order predecessor and successor, one of which shares
// the longest prefix of all stored URLs. Ties go to the oldest node (smallest id), which keeps
// reference chains short: on the reddit set, mean 7.4 and max 16 records against 17.4 and 38 when
// ties go to the newest, for 0.14 more bytes per URL. A node id names the same URL forever:
// rotations rewrite only TreeNode links, never the arena, so references made before a rotation
// stay valid. (The paper's Figure 2 stores http://www.sgi.com/ as 11 + "sgi.com/" under the root's
// right; by its own rules, and here, it is 12 + "gi.com/", "http://www.s" being shared, and it
// hangs on the left since it sorts below http://www.sun.com/.)
//
// Layout. Three arrays, each indexed by the URL id; ids are dense, 0, 1, 2, ... in arrival order.
//
//   TreeNode (tree_): one uint64_t per URL, exactly the paper's Figure 3, most significant first:
//       bits 63..36  left child id   (28 bits)
//       bits 35..32  HH, height >> 4  (4 bits)
//       bits 31..4   right child id  (28 bits)
//       bits  3..0   HL, height & 15  (4 bits)
//     height: a leaf is 1, an empty subtree 0; an AVL tree of fewer than 2^28 nodes is at most
//     41 high, far below the 255 that 8 bits hold. A missing child is kNoChild = 2^28 - 1, so ids
//     run 0 .. 2^28 - 2 and the tree holds at most kMaxUrls = 2^28 - 1 URLs. Used by Add and
//     Find only; Retrieve never reads it (BytesWithoutTree is the paper's "TreeNode discarded").
//
//   DataPtr (data_ptr_): one uint32_t per URL (Figure 5): the byte offset of the URL's record in
//     the arena. Records are appended in id order, so record `id` ends where record `id + 1`
//     starts, and the last one at the arena's end: DataPtr is non-decreasing, and the arena is at
//     most kMaxArenaBytes = 2^32 - 1 bytes.
//
//   CompressedURL (arena_): the records, back to back, no padding, no version byte (the tree
//   lives in memory only):
//       record        := ref_delta [common_prefix] diff
//       ref_delta     := varint (unsigned LEB128, codecs/varint.h): id - RefID, >= 1 since a
//                        URL refers only to an older one; 0 means "no reference" (the root, or a
//                        URL sharing no byte with any stored URL): common_prefix is then absent
//                        and diff is the whole URL.
//       common_prefix := varint, present when ref_delta > 0: how many leading bytes the URL
//                        shares with URL RefID; 1 <= common_prefix <= length of URL RefID.
//       diff          := the URL's bytes from position common_prefix on, raw (any byte value,
//                        NUL included); its length is implicit: the record's end minus here.
//     The paper's Figure 4 has a 32-bit RefID, an 8-bit CommonPrefix and a NUL-terminated
//     diffURL: 6 bytes besides the diff, common prefixes capped at 255, no NUL inside a URL. Here
//     the RefID costs 1 byte when the referenced URL is fewer than 128 arrivals older, 2 below
//     2^14, 3 below 2^21, 4 at most; the common prefix 1 byte below 128, 2 below 2^14; the
//     terminator is gone. Stats::paper_layout_bytes gives the paper's size for comparison.
//
// Reconstruction: URL(id) = URL(RefID)[0, common_prefix) + diff, so rebuilding walks the chain of
// references back to a record without one; RefID < id, so every chain ends. Walking from the
// newest record back, each record supplies only the bytes below the lowest position already
// known, and the walk stops once it reaches position 0 (in a search, the position the comparison
// starts from).
//
// Search (Add and Find) descends the tree comparing the query with each visited URL. The query
// shares m = min(lcp with the nearest smaller ancestor, lcp with the nearest larger ancestor)
// bytes with every URL of the current subtree, so only the visited URL's bytes from m on are
// rebuilt (when m >= its common_prefix, none: its diff is read in place). The paper keeps no
// cache and describes none; nor does this tree.
//
// Complexity, n URLs, URL length L, reference chain length c (number of records read to rebuild a
// URL): Add and Find O(log n) levels, each O(c + L) at worst; Retrieve O(c + L). c is O(log n)
// for URLs arriving in random order (a reference goes to an ancestor in the insertion-order tree)
// but O(n) in the worst case (e.g. "a", "aa", "aaa", ... in that order). Memory: 12 bytes per URL
// plus its record with the tree, 4 plus the record without.
//
// Not thread-safe for writers; const methods may run concurrently with each other.

#ifndef CRAWLDB_CODECS_URL_AVL_TREE_H_
#define CRAWLDB_CODECS_URL_AVL_TREE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace crawldb::codecs {

struct UrlAvlTreeOptions {
  // Add refuses a URL that would make the tree hold more than this many URLs (count); values
  // above kMaxUrls mean kMaxUrls.
  uint32_t max_urls = (uint32_t{1} << 28) - 1;
  // Add refuses a URL whose record would grow the arena past this many bytes; values above
  // kMaxArenaBytes mean kMaxArenaBytes.
  uint32_t max_arena_bytes = UINT32_MAX;
  // true: a search rebuilds a visited URL only from the first position the query may not share
  // with it (see the top of this file). false: the paper's plain search, which rebuilds every
  // visited URL in full; kept so that the benchmark can measure the difference. On the reddit
  // set a Find visits 17 nodes and reads 22 older records to rebuild them with true, 69 with
  // false.
  bool skip_known_prefix = true;
};

class UrlAvlTree {
 public:
  // Largest number of URLs (count): node ids are 28 bits and 2^28 - 1 means "no child".
  static constexpr uint32_t kMaxUrls = (uint32_t{1} << 28) - 1;
  // The "no child" / "empty tree" node id.
  static constexpr uint32_t kNoChild = kMaxUrls;
  // Largest arena (bytes): DataPtr entries are 32 bits.
  static constexpr uint32_t kMaxArenaBytes = UINT32_MAX;

  struct AddResult {
    uint32_t id;    // the URL's id, new or existing
    bool inserted;  // true when the URL was not there before and now has the id `id`
  };

  // One record of the CompressedURL array, decoded. `diff` points into the tree's arena and is
  // valid until the next Add, Reserve or ShrinkToFit.
  struct CompressedUrl {
    uint32_t ref_id;         // the URL sharing the prefix; the URL's own id when it has none
                             // (the paper's root shows RefID 0, its own id)
    uint32_t common_prefix;  // bytes shared with URL ref_id; 0 when there is no reference
    absl::string_view diff;  // the URL's bytes from position common_prefix on
  };

  // One TreeNode entry, unpacked.
  struct TreeNode {
    uint32_t left;    // child id, kNoChild when absent
    uint32_t right;   // child id, kNoChild when absent
    uint32_t height;  // levels in the subtree rooted here; a leaf is 1
  };

  // Sizes and shape, for tests and benchmarks. All byte counts are bytes in use (not capacity).
  struct Stats {
    uint64_t urls = 0;                // URLs stored (count)
    uint64_t raw_bytes = 0;           // sum of the URLs' lengths (bytes)
    uint64_t tree_bytes = 0;          // TreeNode array (bytes, 8 per URL)
    uint64_t data_ptr_bytes = 0;      // DataPtr array (bytes, 4 per URL)
    uint64_t arena_bytes = 0;         // CompressedURL arena (bytes) = header_bytes + diff_bytes
    uint64_t header_bytes = 0;        // ref_delta and common_prefix varints (bytes)
    uint64_t diff_bytes = 0;          // diff bytes (bytes)
    uint64_t urls_without_ref = 0;    // records with no reference (count)
    uint64_t paper_layout_bytes = 0;  // what Figures 3-5 would take: 8 + 4 + 4 (RefID) + 1
                                      // (CommonPrefix, capped at 255) + diff + 1 (NUL) per URL
    uint32_t height = 0;              // tree height (levels; 0 when empty)
    double mean_chain = 0;            // records read to rebuild a URL, mean over all URLs
    uint32_t max_chain = 0;           // the same, the largest
  };

  explicit UrlAvlTree(UrlAvlTreeOptions options = UrlAvlTreeOptions());

  UrlAvlTree(const UrlAvlTree&) = delete;
  UrlAvlTree& operator=(const UrlAvlTree&) = delete;
  UrlAvlTree(UrlAvlTree&&) = default;
  UrlAvlTree& operator=(UrlAvlTree&&) = default;

  // Inserts `url` (any bytes, any length, empty included) unless it is already there. Returns
  // its id and whether it is new; a new URL gets id size(). Fails with kResourceExhausted,
  // changing nothing, when the tree already holds max_urls URLs or the record would grow the
  // arena past max_arena_bytes.
  absl::StatusOr<AddResult> Add(absl::string_view url);

  // The id of `url`, or nullopt when it is not stored.
  std::optional<uint32_t> Find(absl::string_view url) const;

  // The URL with id `id`; kOutOfRange when id >= size().
  absl::StatusOr<std::string> Retrieve(uint32_t id) const;
  // The same into `*out` (replacing its content), reusing its buffer.
  absl::Status RetrieveInto(uint32_t id, std::string* out) const;

  // URLs stored (count).
  uint32_t size() const { return static_cast<uint32_t>(data_ptr_.size()); }
  bool empty() const { return data_ptr_.empty(); }

  // Bytes in use by TreeNode + DataPtr + CompressedURL: what Add and Find need.
  uint64_t BytesWithTree() const;
  // Bytes in use by DataPtr + CompressedURL: what Retrieve needs (the paper's tree discarded).
  uint64_t BytesWithoutTree() const;
  // Bytes the three arrays have allocated (capacity; >= BytesWithTree()).
  uint64_t AllocatedBytes() const;

  // Pre-allocates room for `urls` URLs and `arena_bytes` arena bytes, as the paper does.
  void Reserve(uint32_t urls, uint64_t arena_bytes);
  // Releases unused capacity.
  void ShrinkToFit();

  // The root's id; kNoChild when the tree is empty.
  uint32_t root() const { return root_; }
  // TreeNode entry and CompressedURL record of `id`. Precondition: id < size().
  TreeNode Node(uint32_t id) const;
  CompressedUrl Record(uint32_t id) const;

  // Walks every record and every reference chain: O(n * c).
  Stats ComputeStats() const;

  // Checks every invariant: array sizes; every record decodes within its bounds, refers to an
  // older URL and shares no more bytes than that URL has (so every chain ends); the tree reaches
  // every id exactly once, each stored height is right, each node is AVL-balanced, and the
  // in-order URLs are strictly increasing. O(n * (c + L)). OK or kInternal naming the problem.
  absl::Status CheckInvariants() const;

 private:
  friend class UrlAvlTreeTestPeer;  // reads and corrupts the arrays in tests

  struct Decoded {
    uint32_t ref;        // referenced id; kNoChild when none
    uint32_t common;     // common_prefix
    const char* diff;    // first diff byte, in arena_
    uint32_t diff_size;  // bytes
    uint32_t Length() const { return common + diff_size; }
  };
  struct Descent;

  // Trusted decode of the record of `id` (id < size()).
  Decoded Decode(uint32_t id) const;
  // Writes URL(id)[from, rec.Length()) to out[0, rec.Length() - from), where rec = Decode(id)
  // and from <= rec.Length().
  void CopyUrlTail(const Decoded& rec, uint32_t from, char* out) const;
  // Compares `query` with URL(id), both known to share their first `known` bytes. Returns <0, 0,
  // >0 as query <, ==, > URL(id) and sets *lcp to their common prefix length.
  int CompareWith(uint32_t id, absl::string_view query, size_t known, size_t* lcp) const;
  // Descends from the root looking for `query`; fills *d.
  void Search(absl::string_view query, Descent* d) const;

  uint32_t Left(uint32_t id) const { return static_cast<uint32_t>(tree_[id] >> 36); }
  uint32_t Right(uint32_t id) const { return static_cast<uint32_t>(tree_[id] >> 4) & kNoChild; }
  uint32_t Height(uint32_t id) const;  // 0 for kNoChild
  void SetLeft(uint32_t id, uint32_t left);
  void SetRight(uint32_t id, uint32_t right);
  void FixHeight(uint32_t id);
  uint32_t RotateLeft(uint32_t id);   // returns the subtree's new root
  uint32_t RotateRight(uint32_t id);  // returns the subtree's new root
  uint32_t Rebalance(uint32_t id);    // fixes the height, rotates if needed; new subtree root

  UrlAvlTreeOptions options_;
  uint32_t root_ = kNoChild;
  std::vector<uint64_t> tree_;      // TreeNode, see the top of the file
  std::vector<uint32_t> data_ptr_;  // DataPtr: arena offset of each record (bytes)
  std::vector<char> arena_;         // CompressedURL records
};

}  // namespace crawldb::codecs

#endif  // CRAWLDB_CODECS_URL_AVL_TREE_H_
