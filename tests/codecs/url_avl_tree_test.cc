#include "codecs/url_avl_tree.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "tests/shared_data.h"

namespace crawldb::codecs {

// Reads and corrupts the three arrays, to pin the byte layout and exercise CheckInvariants.
class UrlAvlTreeTestPeer {
 public:
  static std::vector<uint64_t>& TreeNodes(UrlAvlTree& t) { return t.tree_; }
  static std::vector<uint32_t>& DataPtr(UrlAvlTree& t) { return t.data_ptr_; }
  static std::vector<char>& Arena(UrlAvlTree& t) { return t.arena_; }
  // Figure 3, written independently of the implementation.
  static uint64_t Pack(uint32_t left, uint32_t right, uint32_t height) {
    return (uint64_t{left} << 36) | (uint64_t{height >> 4} << 32) | (uint64_t{right} << 4) |
           (height & 0xF);
  }
};

namespace {

using ::testing::TestWithParam;
using Peer = UrlAvlTreeTestPeer;

std::string MustRetrieve(const UrlAvlTree& tree, uint32_t id) {
  absl::StatusOr<std::string> url = tree.Retrieve(id);
  EXPECT_TRUE(url.ok()) << url.status();
  return url.ok() ? *url : std::string();
}

uint32_t MustAdd(UrlAvlTree& tree, absl::string_view url, bool expect_new = true) {
  absl::StatusOr<UrlAvlTree::AddResult> r = tree.Add(url);
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok()) return UrlAvlTree::kNoChild;
  EXPECT_EQ(r->inserted, expect_new) << url;
  return r->id;
}

// Paper 000 §2, Figure 2: four URLs in this order.
TEST(UrlAvlTree, PaperExampleRecords) {
  UrlAvlTree tree;
  EXPECT_EQ(MustAdd(tree, "http://www.sun.com/"), 0u);
  EXPECT_EQ(MustAdd(tree, "http://www.sgi.com/"), 1u);
  EXPECT_EQ(MustAdd(tree, "http://www.sun.com/news/"), 2u);
  EXPECT_EQ(MustAdd(tree, "http://www.sun.com/news/archive/"), 3u);

  // The root: RefID 0 (the paper leaves it undefined and shows 0), CommonPrefix 0, whole URL.
  UrlAvlTree::CompressedUrl r0 = tree.Record(0);
  EXPECT_EQ(r0.ref_id, 0u);
  EXPECT_EQ(r0.common_prefix, 0u);
  EXPECT_EQ(r0.diff, "http://www.sun.com/");
  // The paper prints 11 and "sgi.com/" (the prefix "http://www."), but its own rule, "the number
  // of common characters", gives 12: "http://www.s" is shared too.
  UrlAvlTree::CompressedUrl r1 = tree.Record(1);
  EXPECT_EQ(r1.ref_id, 0u);
  EXPECT_EQ(r1.common_prefix, 12u);
  EXPECT_EQ(r1.diff, "gi.com/");
  // As in the paper: 19 bytes shared with URL 0, "news/".
  UrlAvlTree::CompressedUrl r2 = tree.Record(2);
  EXPECT_EQ(r2.ref_id, 0u);
  EXPECT_EQ(r2.common_prefix, 19u);
  EXPECT_EQ(r2.diff, "news/");
  // As in the paper: 24 bytes shared with URL 2, "archive/".
  UrlAvlTree::CompressedUrl r3 = tree.Record(3);
  EXPECT_EQ(r3.ref_id, 2u);
  EXPECT_EQ(r3.common_prefix, 24u);
  EXPECT_EQ(r3.diff, "archive/");

  EXPECT_EQ(MustRetrieve(tree, 0), "http://www.sun.com/");
  EXPECT_EQ(MustRetrieve(tree, 1), "http://www.sgi.com/");
  EXPECT_EQ(MustRetrieve(tree, 2), "http://www.sun.com/news/");
  EXPECT_EQ(MustRetrieve(tree, 3), "http://www.sun.com/news/archive/");
  EXPECT_TRUE(tree.CheckInvariants().ok()) << tree.CheckInvariants();
}

TEST(UrlAvlTree, PaperExampleTreeShape) {
  UrlAvlTree tree;
  for (const char* url : {"http://www.sun.com/", "http://www.sgi.com/", "http://www.sun.com/news/",
                          "http://www.sun.com/news/archive/"}) {
    MustAdd(tree, url);
  }
  // sgi.com sorts below sun.com, so it is the root's left child (the paper's text says "right").
  EXPECT_EQ(tree.root(), 0u);
  UrlAvlTree::TreeNode n0 = tree.Node(0);
  EXPECT_EQ(n0.left, 1u);
  EXPECT_EQ(n0.right, 2u);
  EXPECT_EQ(n0.height, 3u);
  UrlAvlTree::TreeNode n1 = tree.Node(1);
  EXPECT_EQ(n1.left, UrlAvlTree::kNoChild);
  EXPECT_EQ(n1.right, UrlAvlTree::kNoChild);
  EXPECT_EQ(n1.height, 1u);
  UrlAvlTree::TreeNode n2 = tree.Node(2);
  EXPECT_EQ(n2.left, UrlAvlTree::kNoChild);
  EXPECT_EQ(n2.right, 3u);
  EXPECT_EQ(n2.height, 2u);
  EXPECT_EQ(tree.Node(3).height, 1u);
}

TEST(UrlAvlTree, PaperExampleBytes) {
  UrlAvlTree tree;
  for (const char* url : {"http://www.sun.com/", "http://www.sgi.com/", "http://www.sun.com/news/",
                          "http://www.sun.com/news/archive/"}) {
    MustAdd(tree, url);
  }
  // Records: [0] + 19 bytes; [1][12] + 7; [2][19] + 5; [1][24] + 8 (RefID 2 is 1 id back).
  const uint64_t arena = (1 + 19) + (2 + 7) + (2 + 5) + (2 + 8);
  EXPECT_EQ(tree.BytesWithoutTree(), 4 * 4 + arena);
  EXPECT_EQ(tree.BytesWithTree(), 4 * 8 + 4 * 4 + arena);
  UrlAvlTree::Stats s = tree.ComputeStats();
  EXPECT_EQ(s.urls, 4u);
  EXPECT_EQ(s.raw_bytes, 19u + 19 + 24 + 32);
  EXPECT_EQ(s.arena_bytes, arena);
  EXPECT_EQ(s.header_bytes, 7u);
  EXPECT_EQ(s.diff_bytes, 39u);
  EXPECT_EQ(s.urls_without_ref, 1u);
  EXPECT_EQ(s.height, 3u);
  EXPECT_EQ(s.max_chain, 3u);  // URL 3 reads records 3, 2 (bytes 19..23) and 0 (bytes 0..18)
  // Paper's Figures 3-5: 18 bytes per URL plus the diff.
  EXPECT_EQ(s.paper_layout_bytes, 4 * 18 + 39u);
  EXPECT_GE(tree.AllocatedBytes(), tree.BytesWithTree());
}

UrlAvlTree PaperExampleTree() {
  UrlAvlTree tree;
  for (const char* url : {"http://www.sun.com/", "http://www.sgi.com/", "http://www.sun.com/news/",
                          "http://www.sun.com/news/archive/"}) {
    EXPECT_TRUE(tree.Add(url).ok());
  }
  return tree;
}

TEST(UrlAvlTree, PaperExampleRawArrays) {
  UrlAvlTree tree = PaperExampleTree();
  // TreeNode: left id | HH | right id | HL, 28 + 4 + 28 + 4 bits.
  EXPECT_EQ(Peer::TreeNodes(tree),
            (std::vector<uint64_t>{0x0000'0010'0000'0023, 0xFFFF'FFF0'FFFF'FFF1,
                                   0xFFFF'FFF0'0000'0032, 0xFFFF'FFF0'FFFF'FFF1}));
  EXPECT_EQ(Peer::TreeNodes(tree)[0], Peer::Pack(1, 2, 3));
  EXPECT_EQ(Peer::TreeNodes(tree)[2], Peer::Pack(UrlAvlTree::kNoChild, 3, 2));
  // DataPtr and CompressedURL: ref_delta [common_prefix] diff.
  EXPECT_EQ(Peer::DataPtr(tree), (std::vector<uint32_t>{0, 20, 29, 36}));
  const std::string arena(Peer::Arena(tree).begin(), Peer::Arena(tree).end());
  EXPECT_EQ(arena, std::string("\x00http://www.sun.com/"
                               "\x01\x0cgi.com/"
                               "\x02\x13news/"
                               "\x01\x18"
                               "archive/",
                               46));
}

TEST(UrlAvlTree, HeightNibblesHoldEightBits) {
  UrlAvlTree tree;
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(tree.Add(std::to_string(i)).ok());
  // A height of 0x5A stored by hand reads back through both nibbles.
  Peer::TreeNodes(tree)[1] = Peer::Pack(0, 2, 0x5A);
  EXPECT_EQ(tree.Node(1).height, 0x5Au);
  EXPECT_EQ(tree.Node(1).left, 0u);
  EXPECT_EQ(tree.Node(1).right, 2u);
  EXPECT_EQ(tree.CheckInvariants(),
            absl::InternalError("url_avl_tree: node 1 records height 90, has 2"));
}

// Each corruption is caught with a message naming it.
TEST(UrlAvlTree, CheckInvariantsCatchesCorruption) {
  struct Case {
    const char* name;
    void (*corrupt)(UrlAvlTree&);
    const char* message;
  };
  const Case cases[] = {
      {"size mismatch", [](UrlAvlTree& t) { Peer::TreeNodes(t).pop_back(); },
       "url_avl_tree: TreeNode has 3 entries, DataPtr 4"},
      {"wrong height", [](UrlAvlTree& t) { Peer::TreeNodes(t)[0] = Peer::Pack(1, 2, 4); },
       "url_avl_tree: node 0 records height 4, has 3"},
      {"children swapped", [](UrlAvlTree& t) { Peer::TreeNodes(t)[0] = Peer::Pack(2, 1, 3); },
       "url_avl_tree: URL 0 is not above URL 3 that precedes it in order"},
      {"cycle",
       [](UrlAvlTree& t) { Peer::TreeNodes(t)[2] = Peer::Pack(UrlAvlTree::kNoChild, 0, 2); },
       "url_avl_tree: node 0 is reached twice"},
      {"child out of range",
       [](UrlAvlTree& t) { Peer::TreeNodes(t)[2] = Peer::Pack(UrlAvlTree::kNoChild, 99, 2); },
       "url_avl_tree: node 2 has child 99"},
      {"unreached node",
       [](UrlAvlTree& t) { Peer::TreeNodes(t)[0] = Peer::Pack(UrlAvlTree::kNoChild, 2, 3); },
       "url_avl_tree: the tree reaches 3 of 4 URLs"},
      {"unbalanced",
       [](UrlAvlTree& t) {
         // 1 moves below 3: root 0 -> right 2 -> right 3 -> right 1, heights kept consistent;
         // node 2 has no left child and a right subtree 2 high.
         Peer::TreeNodes(t)[0] = Peer::Pack(UrlAvlTree::kNoChild, 2, 4);
         Peer::TreeNodes(t)[2] = Peer::Pack(UrlAvlTree::kNoChild, 3, 3);
         Peer::TreeNodes(t)[3] = Peer::Pack(UrlAvlTree::kNoChild, 1, 2);
       },
       "url_avl_tree: node 2 is unbalanced: left 0, right 2"},
      {"RefID too far back", [](UrlAvlTree& t) { Peer::Arena(t)[20] = '\x85'; },
       "url_avl_tree: record 1 refers 1541 ids back"},
      {"endless varint",
       [](UrlAvlTree& t) {
         for (int i = 29; i < 36; ++i) Peer::Arena(t)[i] = '\x80';
       },
       "url_avl_tree: record 2: bad RefID varint"},
      {"truncated CommonPrefix",
       [](UrlAvlTree& t) {
         Peer::Arena(t)[21] = '\x80';  // continues past the record's end...
         Peer::DataPtr(t)[2] = 22;     // ...which is here
       },
       "url_avl_tree: record 1: bad CommonPrefix varint"},
      {"two-byte CommonPrefix too long", [](UrlAvlTree& t) { Peer::Arena(t)[21] = '\x80'; },
       "url_avl_tree: record 1 shares 13184 bytes with URL 0 of 19 bytes"},
      {"prefix longer than the reference", [](UrlAvlTree& t) { Peer::Arena(t)[21] = 127; },
       "url_avl_tree: record 1 shares 127 bytes with URL 0 of 19 bytes"},
      {"DataPtr past the arena", [](UrlAvlTree& t) { Peer::DataPtr(t)[2] = 1000; },
       "url_avl_tree: record 1 spans bytes [20, 1000) of a 46-byte arena"},
      {"DataPtr not from 0", [](UrlAvlTree& t) { Peer::DataPtr(t)[0] = 1; },
       "url_avl_tree: record 0 does not start the arena"},
  };
  for (const Case& c : cases) {
    UrlAvlTree tree = PaperExampleTree();
    ASSERT_TRUE(tree.CheckInvariants().ok());
    c.corrupt(tree);
    EXPECT_EQ(tree.CheckInvariants(), absl::InternalError(c.message)) << c.name;
  }
}

TEST(UrlAvlTree, FindsWhatItHoldsOnly) {
  UrlAvlTree tree;
  EXPECT_EQ(tree.Find("http://a/"), std::nullopt);
  MustAdd(tree, "http://www.sun.com/");
  MustAdd(tree, "http://www.sun.com/news/");
  EXPECT_EQ(tree.Find("http://www.sun.com/"), 0u);
  EXPECT_EQ(tree.Find("http://www.sun.com/news/"), 1u);
  EXPECT_EQ(tree.Find("http://www.sun.com"), std::nullopt);
  EXPECT_EQ(tree.Find("http://www.sun.com/news"), std::nullopt);
  EXPECT_EQ(tree.Find("http://www.sun.com/news/x"), std::nullopt);
  EXPECT_EQ(tree.Find(""), std::nullopt);
}

TEST(UrlAvlTree, DuplicatesKeepTheirIdAndChangeNothing) {
  UrlAvlTree tree;
  EXPECT_EQ(MustAdd(tree, "http://b/"), 0u);
  EXPECT_EQ(MustAdd(tree, "http://a/"), 1u);
  const uint64_t bytes = tree.BytesWithTree();
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(MustAdd(tree, "http://a/", /*expect_new=*/false), 1u);
    EXPECT_EQ(MustAdd(tree, "http://b/", /*expect_new=*/false), 0u);
  }
  EXPECT_EQ(tree.size(), 2u);
  EXPECT_EQ(tree.BytesWithTree(), bytes);
}

TEST(UrlAvlTree, EmptyStringIsAUrlLikeAnyOther) {
  UrlAvlTree tree;
  EXPECT_EQ(MustAdd(tree, "b"), 0u);
  EXPECT_EQ(MustAdd(tree, ""), 1u);
  EXPECT_EQ(MustAdd(tree, "a"), 2u);
  EXPECT_EQ(MustAdd(tree, "", /*expect_new=*/false), 1u);
  EXPECT_EQ(tree.Find(""), 1u);
  EXPECT_EQ(MustRetrieve(tree, 1), "");
  EXPECT_EQ(tree.Record(1).common_prefix, 0u);
  EXPECT_TRUE(tree.CheckInvariants().ok()) << tree.CheckInvariants();

  UrlAvlTree only_empty;
  EXPECT_EQ(MustAdd(only_empty, ""), 0u);
  EXPECT_EQ(only_empty.BytesWithoutTree(), 4u + 1u);  // DataPtr + the "no reference" byte
  EXPECT_EQ(MustRetrieve(only_empty, 0), "");
  EXPECT_TRUE(only_empty.CheckInvariants().ok());
}

TEST(UrlAvlTree, BinaryBytesOrderUnsigned) {
  UrlAvlTree tree;
  const std::vector<std::string> urls = {
      std::string("a\0b", 3), std::string("a\0", 2),          std::string("a"),
      std::string("\xff", 1), std::string("\x80\x00\x01", 3), std::string("a\xff", 2),
      std::string(1, '\0'),   std::string("a\0c", 3)};
  for (size_t i = 0; i < urls.size(); ++i) EXPECT_EQ(MustAdd(tree, urls[i]), i);
  for (size_t i = 0; i < urls.size(); ++i) {
    EXPECT_EQ(tree.Find(urls[i]), i);
    EXPECT_EQ(MustRetrieve(tree, static_cast<uint32_t>(i)), urls[i]);
  }
  EXPECT_EQ(tree.Find(std::string("a\0d", 3)), std::nullopt);
  // CheckInvariants verifies the in-order walk increases as unsigned bytes (0x80 above 'a').
  EXPECT_TRUE(tree.CheckInvariants().ok()) << tree.CheckInvariants();
  EXPECT_EQ(tree.Record(7).ref_id, 0u);  // "a\0c" shares "a\0" with "a\0b", the oldest
  EXPECT_EQ(tree.Record(7).common_prefix, 2u);
}

// Each of the four insertion shapes needs a rotation; the root moves, the references do not.
TEST(UrlAvlTree, RotationsKeepReferencesValid) {
  const std::vector<std::vector<std::string>> orders = {
      {"http://x/c", "http://x/b", "http://x/a"},   // left-left
      {"http://x/a", "http://x/b", "http://x/c"},   // right-right
      {"http://x/c", "http://x/a", "http://x/b"},   // left-right
      {"http://x/a", "http://x/c", "http://x/b"}};  // right-left
  for (const auto& order : orders) {
    UrlAvlTree tree;
    for (const std::string& url : order) MustAdd(tree, url);
    EXPECT_EQ(MustRetrieve(tree, tree.root()), "http://x/b");
    EXPECT_EQ(tree.Node(tree.root()).height, 2u);
    for (uint32_t id = 0; id < 3; ++id) {
      EXPECT_EQ(MustRetrieve(tree, id), order[id]);
      EXPECT_EQ(tree.Find(order[id]), id);
    }
    EXPECT_TRUE(tree.CheckInvariants().ok()) << tree.CheckInvariants();
  }
}

// "a", "aa", "aaa", ...: every URL refers to the one before, the worst case for chains.
TEST(UrlAvlTree, LongReferenceChains) {
  for (bool reverse : {false, true}) {
    UrlAvlTree tree;
    const int n = 600;
    std::vector<std::string> urls;
    for (int i = 1; i <= n; ++i) urls.push_back(std::string(i, 'a') + (i % 2 ? "" : "/"));
    if (reverse) std::reverse(urls.begin(), urls.end());
    for (const std::string& url : urls) MustAdd(tree, url);
    for (uint32_t id = 0; id < urls.size(); ++id) {
      ASSERT_EQ(MustRetrieve(tree, id), urls[id]);
      ASSERT_EQ(tree.Find(urls[id]), id);
    }
    EXPECT_TRUE(tree.CheckInvariants().ok()) << tree.CheckInvariants();
    UrlAvlTree::Stats s = tree.ComputeStats();
    EXPECT_LE(s.height, 14u);  // 1.44 log2(602)
    if (!reverse) {
      EXPECT_GT(s.max_chain, 100u);
    }
  }
}

TEST(UrlAvlTree, WideVarints) {
  UrlAvlTree tree;
  const std::string base(300, 'p');  // CommonPrefix 300 needs 2 varint bytes
  MustAdd(tree, base + "0");
  for (int i = 0; i < 200; ++i) MustAdd(tree, "q" + std::to_string(i));
  const uint64_t before = tree.BytesWithoutTree();
  const uint32_t id = MustAdd(tree, base + "1");  // refers 201 ids back: 2 varint bytes
  EXPECT_EQ(tree.BytesWithoutTree() - before, 4u + 2 + 2 + 1);  // DataPtr, RefID, prefix, "1"
  UrlAvlTree::CompressedUrl r = tree.Record(id);
  EXPECT_EQ(r.ref_id, 0u);
  EXPECT_EQ(r.common_prefix, 300u);
  EXPECT_EQ(r.diff, "1");
  EXPECT_EQ(MustRetrieve(tree, id), base + "1");
  EXPECT_EQ(tree.Find(base + "1"), id);
  EXPECT_TRUE(tree.CheckInvariants().ok()) << tree.CheckInvariants();
  UrlAvlTree probe;
  MustAdd(probe, base + "0");
  MustAdd(probe, base + "1");
  EXPECT_EQ(probe.ComputeStats().header_bytes, 1u + 1 + 2);  // [0] / [1][300 in 2 bytes]
}

TEST(UrlAvlTree, RefusesPastMaxUrls) {
  UrlAvlTreeOptions options;
  options.max_urls = 3;
  UrlAvlTree tree(options);
  for (const char* url : {"http://a/", "http://b/", "http://c/"}) MustAdd(tree, url);
  const uint64_t bytes = tree.BytesWithTree();
  absl::StatusOr<UrlAvlTree::AddResult> r = tree.Add("http://d/");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status(),
            absl::ResourceExhaustedError("url_avl_tree: full at 3 URLs (node ids are 28 bits); "
                                         "start another tree"));
  EXPECT_EQ(tree.size(), 3u);
  EXPECT_EQ(tree.BytesWithTree(), bytes);
  EXPECT_EQ(tree.Find("http://d/"), std::nullopt);
  // A known URL is still found by Add.
  EXPECT_EQ(MustAdd(tree, "http://b/", /*expect_new=*/false), 1u);
  EXPECT_TRUE(tree.CheckInvariants().ok()) << tree.CheckInvariants();
}

TEST(UrlAvlTree, MaxUrlsIsClampedTo28Bits) {
  UrlAvlTreeOptions options;
  options.max_urls = UINT32_MAX;
  UrlAvlTree tree(options);
  EXPECT_EQ(UrlAvlTree::kMaxUrls, 268435455u);
  EXPECT_EQ(UrlAvlTree::kNoChild, UrlAvlTree::kMaxUrls);
  MustAdd(tree, "x");
  EXPECT_TRUE(tree.CheckInvariants().ok());
}

TEST(UrlAvlTree, RefusesPastMaxArenaBytes) {
  UrlAvlTreeOptions options;
  options.max_arena_bytes = 20;
  UrlAvlTree tree(options);
  MustAdd(tree, "http://a.com/");   // 1 + 13 bytes
  MustAdd(tree, "http://a.com/x");  // 1 + 1 + 1 bytes: 17 in all
  absl::StatusOr<UrlAvlTree::AddResult> r = tree.Add("http://b.com/");  // 1 + 1 + 6
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status(),
            absl::ResourceExhaustedError(
                "url_avl_tree: a 13-byte URL does not fit: the arena holds 17 of at most 20 "
                "bytes (DataPtr offsets are 32 bits); start another tree"));
  EXPECT_EQ(tree.size(), 2u);
  EXPECT_EQ(tree.BytesWithoutTree(), 2u * 4 + 17);
  MustAdd(tree, "http://a.com/y");  // 3 bytes: exactly 20
  EXPECT_EQ(tree.BytesWithoutTree(), 3u * 4 + 20);
  EXPECT_FALSE(tree.Add("http://a.com/z").ok());
  EXPECT_TRUE(tree.CheckInvariants().ok()) << tree.CheckInvariants();
}

TEST(UrlAvlTree, RetrieveRefusesUnknownIds) {
  UrlAvlTree tree;
  EXPECT_EQ(tree.Retrieve(0).status(),
            absl::OutOfRangeError("url_avl_tree: no URL with id 0; the tree holds 0 URLs"));
  MustAdd(tree, "x");
  std::string out = "kept";
  EXPECT_EQ(tree.RetrieveInto(1, &out),
            absl::OutOfRangeError("url_avl_tree: no URL with id 1; the tree holds 1 URLs"));
  EXPECT_EQ(tree.RetrieveInto(0, &out), absl::OkStatus());
  EXPECT_EQ(out, "x");
}

TEST(UrlAvlTree, EmptyTree) {
  UrlAvlTree tree;
  EXPECT_TRUE(tree.empty());
  EXPECT_EQ(tree.size(), 0u);
  EXPECT_EQ(tree.root(), UrlAvlTree::kNoChild);
  EXPECT_EQ(tree.BytesWithTree(), 0u);
  EXPECT_EQ(tree.BytesWithoutTree(), 0u);
  EXPECT_TRUE(tree.CheckInvariants().ok());
  UrlAvlTree::Stats s = tree.ComputeStats();
  EXPECT_EQ(s.urls, 0u);
  EXPECT_EQ(s.height, 0u);
}

TEST(UrlAvlTree, ReserveAndShrinkKeepContent) {
  UrlAvlTree tree;
  tree.Reserve(1000, 64 * 1024);
  EXPECT_GE(tree.AllocatedBytes(), 1000u * 12 + 64 * 1024);
  for (int i = 0; i < 100; ++i) MustAdd(tree, "http://h/" + std::to_string(i * 7919 % 1000));
  tree.ShrinkToFit();
  EXPECT_EQ(tree.AllocatedBytes(), tree.BytesWithTree());
  for (uint32_t id = 0; id < 100; ++id) {
    EXPECT_EQ(MustRetrieve(tree, id), "http://h/" + std::to_string(id * 7919 % 1000));
  }
  EXPECT_TRUE(tree.CheckInvariants().ok());
}

UrlAvlTree MoveThrough(UrlAvlTree tree) { return tree; }

TEST(UrlAvlTree, Moves) {
  UrlAvlTree tree;
  MustAdd(tree, "http://a/");
  MustAdd(tree, "http://a/b");
  UrlAvlTree moved = MoveThrough(std::move(tree));
  EXPECT_EQ(moved.size(), 2u);
  EXPECT_EQ(moved.Find("http://a/b"), 1u);
  EXPECT_TRUE(moved.CheckInvariants().ok());
}

// Random strings over a few "URL-ish" pieces so that prefixes are long and shared, duplicates
// are frequent, and some strings pass 256 bytes (the rebuild buffer of the search).
std::string RandomUrl(std::mt19937_64& rng) {
  static const char* const kPieces[] = {
      "http://",    "www.", "a",   "b",   "example",           ".com",
      "/",          "news", "?q=", "%20", "" /* a NUL byte */, "\xc3\xa9",
      "index.html", "0",    "1"};
  std::string url;
  const int parts = static_cast<int>(rng() % 12);
  for (int i = 0; i < parts; ++i) {
    const size_t k = rng() % std::size(kPieces);
    if (k == 10) {
      url.push_back('\0');
    } else {
      url += kPieces[k];
    }
  }
  if (rng() % 50 == 0) url += std::string(200 + rng() % 300, static_cast<char>('a' + rng() % 3));
  if (rng() % 8 == 0) url += std::to_string(rng() % 1000);
  return url;
}

class UrlAvlTreeDifferential : public TestWithParam<bool> {};

TEST_P(UrlAvlTreeDifferential, AgreesWithStdMap) {
  for (uint64_t seed : {1u, 2u, 3u}) {
    std::mt19937_64 rng(seed);
    UrlAvlTreeOptions options;
    options.skip_known_prefix = GetParam();
    UrlAvlTree tree(options);
    std::map<std::string, uint32_t> oracle;
    std::vector<std::string> by_id;
    for (int batch = 0; batch < 20; ++batch) {
      for (int i = 0; i < 300; ++i) {
        const std::string url = RandomUrl(rng);
        absl::StatusOr<UrlAvlTree::AddResult> r = tree.Add(url);
        ASSERT_TRUE(r.ok()) << r.status();
        auto [it, inserted] = oracle.emplace(url, static_cast<uint32_t>(by_id.size()));
        ASSERT_EQ(r->inserted, inserted);
        ASSERT_EQ(r->id, it->second);
        if (inserted) by_id.push_back(url);
      }
      ASSERT_EQ(tree.size(), oracle.size());
      for (int i = 0; i < 300; ++i) {
        const std::string url = RandomUrl(rng);
        auto it = oracle.find(url);
        const std::optional<uint32_t> found = tree.Find(url);
        if (it == oracle.end()) {
          ASSERT_EQ(found, std::nullopt) << url;
        } else {
          ASSERT_EQ(found, it->second) << url;
        }
        const uint32_t id = static_cast<uint32_t>(rng() % by_id.size());
        ASSERT_EQ(MustRetrieve(tree, id), by_id[id]);
      }
      absl::Status check = tree.CheckInvariants();
      ASSERT_TRUE(check.ok()) << check << " (seed " << seed << ", batch " << batch << ")";
    }
    for (const auto& [url, id] : oracle) {
      ASSERT_EQ(tree.Find(url), id);
      ASSERT_EQ(MustRetrieve(tree, id), url);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(SearchModes, UrlAvlTreeDifferential, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& mode) {
                           return mode.param ? "SkipKnownPrefix" : "RebuildWholeUrl";
                         });

// The real URL set, inserted in a shuffled (fixed-seed) order.
std::vector<std::string> ReadRedditUrls() {
  return ::crawldb::testing::ReadXzLines(
      ::crawldb::testing::SharedDataPath("reddit/urls-2005-2007.txt.xz"));
}

double MicrosPer(std::chrono::steady_clock::duration d, size_t n) {
  return std::chrono::duration<double, std::micro>(d).count() / static_cast<double>(n);
}

TEST(UrlAvlTreeReddit, EveryUrlFoundAndRetrievedExactly) {
  std::vector<std::string> urls = ReadRedditUrls();
  ASSERT_EQ(urls.size(), 208526u);
  std::mt19937_64 rng(20240601);
  std::shuffle(urls.begin(), urls.end(), rng);
  uint64_t raw = 0;
  for (const std::string& url : urls) raw += url.size();

  using Clock = std::chrono::steady_clock;
  UrlAvlTree tree;
  Clock::time_point t0 = Clock::now();
  for (size_t i = 0; i < urls.size(); ++i) {
    absl::StatusOr<UrlAvlTree::AddResult> r = tree.Add(urls[i]);
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_TRUE(r->inserted) << urls[i];
    ASSERT_EQ(r->id, i);
  }
  const double add_us = MicrosPer(Clock::now() - t0, urls.size());
  ASSERT_EQ(tree.size(), urls.size());

  std::vector<uint32_t> order(urls.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);

  t0 = Clock::now();
  for (uint32_t id : order) ASSERT_EQ(tree.Find(urls[id]), id) << urls[id];
  const double find_us = MicrosPer(Clock::now() - t0, urls.size());

  std::string url;
  t0 = Clock::now();
  for (uint32_t id : order) {
    ASSERT_TRUE(tree.RetrieveInto(id, &url).ok());
    ASSERT_EQ(url, urls[id]);
  }
  const double retrieve_us = MicrosPer(Clock::now() - t0, urls.size());

  // Duplicates of the whole set are found, not added.
  for (size_t i = 0; i < urls.size(); i += 97) {
    absl::StatusOr<UrlAvlTree::AddResult> r = tree.Add(urls[i]);
    ASSERT_TRUE(r.ok());
    ASSERT_FALSE(r->inserted);
    ASSERT_EQ(r->id, i);
  }
  ASSERT_TRUE(tree.CheckInvariants().ok()) << tree.CheckInvariants();

  // The paper's plain search, rebuilding each visited URL whole, for comparison.
  UrlAvlTreeOptions plain;
  plain.skip_known_prefix = false;
  UrlAvlTree paper_tree(plain);
  t0 = Clock::now();
  for (const std::string& u : urls) ASSERT_TRUE(paper_tree.Add(u).ok());
  const double plain_add_us = MicrosPer(Clock::now() - t0, urls.size());
  t0 = Clock::now();
  for (uint32_t id : order) ASSERT_EQ(paper_tree.Find(urls[id]), id);
  const double plain_find_us = MicrosPer(Clock::now() - t0, urls.size());
  EXPECT_EQ(paper_tree.BytesWithTree(), tree.BytesWithTree());  // same records, same tree

  const UrlAvlTree::Stats s = tree.ComputeStats();
  EXPECT_EQ(s.raw_bytes, raw);
  const double n = static_cast<double>(urls.size());
  std::printf(
      "reddit: %zu URLs, raw %.2f bytes/URL\n"
      "  with tree    %.2f bytes/URL (%.1f%% of raw)\n"
      "  without tree %.2f bytes/URL (%.1f%% of raw)\n"
      "  arena %.2f bytes/URL = header %.2f + diff %.2f; paper's fixed layout %.2f with tree, "
      "%.2f without\n"
      "  height %u, reference chain mean %.1f max %u, %llu URLs without reference\n"
      "  add %.3f us, find %.3f us, retrieve %.3f us per URL (shuffled order)\n"
      "  plain search (rebuild whole URLs): add %.3f us, find %.3f us per URL\n",
      urls.size(), static_cast<double>(raw) / n, static_cast<double>(tree.BytesWithTree()) / n,
      100.0 * static_cast<double>(tree.BytesWithTree()) / static_cast<double>(raw),
      static_cast<double>(tree.BytesWithoutTree()) / n,
      100.0 * static_cast<double>(tree.BytesWithoutTree()) / static_cast<double>(raw),
      static_cast<double>(s.arena_bytes) / n, static_cast<double>(s.header_bytes) / n,
      static_cast<double>(s.diff_bytes) / n, static_cast<double>(s.paper_layout_bytes) / n,
      static_cast<double>(s.paper_layout_bytes) / n - 8.0, s.height, s.mean_chain, s.max_chain,
      static_cast<unsigned long long>(s.urls_without_ref), add_us, find_us, retrieve_us,
      plain_add_us, plain_find_us);
  RecordProperty("bytes_per_url_with_tree", std::to_string(tree.BytesWithTree() / n));
  RecordProperty("bytes_per_url_without_tree", std::to_string(tree.BytesWithoutTree() / n));

  EXPECT_LT(tree.BytesWithTree(), raw);  // the compression is real, tree included
  EXPECT_LT(tree.BytesWithoutTree(), tree.BytesWithTree());
  EXPECT_LE(s.height, 26u);  // 1.44 log2(208528)
}

}  // namespace
}  // namespace crawldb::codecs
