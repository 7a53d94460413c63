// The URLs as of the last optimize: their canonical keys (canonical_key.h) in sorted order, cut
// into blocks of exactly kKeysPerBlock keys (the last block may hold fewer) and coded with the
// URL block codec (codecs/url_block_codec.h): each block's first key, its head, stored coded
// alone in a head index (codecs/url_block_index.h), the other keys front-coded with entropy-coded
// suffixes, the second half of each block backward from the next block's head. One model
// (codecs/url_block_model.h), trained on a sample of the keys when the base is built, codes
// everything. The key of rank r (0-based) is entry r % kKeysPerBlock of block r / kKeysPerBlock;
// after optimize the URL with rank r has id r + 1.
//
// Stored form (the rows of the shadow table <t>_base, part 0 first; this header owns it):
//   part 0   header := version:u8 (= kBaseFormatVersion = 3) key_count:varint
//                      keys_per_block:varint (= kKeysPerBlock) blocks_per_part:varint
//                      (= kBlocksPerPart)
//   when key_count = 0 there is no other part; else:
//   part 1   model  := the UrlBlockModel, as codecs/url_block_model.h serializes it
//   part 2   group heads := the UrlBlockIndex (codecs/url_block_index.h) of the first head of
//                      every group of blocks, coded with the model of part 1
//   part p   group  := block_count:varint heads_bytes:varint heads block_size:varint{block_count}
//                      block{block_count}
//            for p = 3.., each holding blocks_per_part blocks (the last part fewer). heads is
//            the UrlBlockIndex of the group's block_count block heads (heads_bytes long); its
//            first is the group's head in part 2, its last is below the next group's. A block
//            is EncodeUrlBlock's output (codecs/url_block_codec.h) for its keys, the next
//            block's head as next_head (none for the last block), so every block but the last
//            has a backward part.
// Parts group blocks so that a row is tens of KiB: SQLite fills the overflow pages of a large
// row completely, where one small row per page would leave much of each page empty. The heads
// index in two levels so that opening a base reads one head per group: 1/2048 of the keys.
// Version 2 is read as well (written as 3 the next time the base is rebuilt): part 2 held every
// block's head, and a group part had no heads (block_count block_size{…} block{…}); opening one
// frames its whole head index, as before. Version 1 (plain front-coded blocks of 64 keys,
// codecs/front_coded_block.h) is refused with a message saying how to move the URLs over.
//
// Reading. Load takes every stored part at once (tests). OpenKeys, for a run's keys (url_part.h),
// takes parts that lie in the run's row and reads a group from there when first needed. Open,
// what a table uses, takes parts 0 to 2 alone and reads a group of blocks (part 3 + g) through
// the table's PartReader the first time a look-up, DecodeBlock or a scan needs one of its blocks,
// then keeps it: a new connection's first look-up reads 4 rows of the base, whatever its size.
// What needs the whole base reads what it has not read first: optimize's rebuild and
// crawldb_check() through ReadGroupOf and DecodeBlock (the check reports a group that does not
// read, or whose heads do not decode, once),
// crawldb_stats() through ReadAll; Parts(), KeyParts(), StoredBytes and BlockBytes require it
// (whole()). The table reads a group only after its catch-up with the other connections, in the
// statement's transaction or read snapshot, as it reads its runs (urls_table.h): the base
// changes only at optimize, which bumps the generation and makes every connection load it
// again, so a group read later belongs to the base opened.
// The group heads stay coded as stored: Find and LowerBound binary-search them
// (UrlBlockIndex::FindBlock, about log2(groups) partial decodes), until the heads decoded on
// demand pass 1/kLazyHeadShare of the group count; then they are decoded at once and held plain
// instead, as Load holds them (a busy connection pays the decoding once, a short one never). A
// group's block heads (version 3) stay coded the same way for look-ups (Find, LowerBound, Get):
// a look-up binary-searches them and decodes the two its block needs, until the group's
// kLazyBlockHeadUses-th look-up decodes them all (about 750 instructions a head, 48,000 for a
// group of 64) and holds them plain; DecodeBlock, ReadGroupOf and ReadAll decode them at once.
//
// Validation. Open checks the header, the whole model (UrlBlockModel::Load) and the group head
// index's framing (OpenKeys the same, its model given); Load also decodes every group head (they
// strictly increase) and reads every group, its block heads decoded. Reading a group checks its
// block count, its heads' framing, its block sizes against its bytes, and every block's header
// (its key count and which halves it has, against the key count); a missing group part is found
// then too. Decoding a group's block heads checks them (strictly increasing, the first equal to
// the group's head, the last below the next group's); a look-up that uses them coded checks
// only that its block's head is below the next. A block's keys are checked as far as they are
// decoded (the codec checks order and bounds as it goes): a look-up decodes part of a block, the
// second look-up in it the whole block (its landmarks, below), so damage in a part no look-up
// decoded is found later or by crawldb_check(), which reads and decodes everything.
// Every failure is a DataLossError "url base: …", never an out-of-bounds read; a group that
// fails to read is not kept (one whose heads fail to decode is kept, and decoded again at its
// next use), and look-ups in other groups still answer.
//
// Memory: the model (up to about 520 KB trained, see url_block_model.h; shared with the
// process's other connections that hold the same, shared_url_models.h); the group heads, coded as
// stored (about 0.013 bytes per URL on the reddit keys) until decoded, then plain; the groups
// read: each its stored row, two offsets per block, and its block heads decoded — 1/kKeysPerBlock
// of the keys' text, 1.9 bytes per URL on the reddit keys, plus their first 8 bytes as an
// integer (0.25 bytes per URL). Held plain, they cost a look-up nothing to decode and the binary
// search over them compares integers, rarely bytes; Parts() writes them as read, or codes them
// (built, or read as version 2). A look-up then decodes part of one block. The
// kLandmarkLookUp-th look-up in a block decodes it whole and keeps its landmarks
// (codecs/url_block_codec.h: three keys and two bit positions, 7.2 bytes per URL on the reddit
// keys once every block has them); later ones start from the nearest landmark and decode 3.5 of
// its 31 coded keys on average, where from the heads (the first look-ups) Get decodes 7.5 and
// Find about 12.
//
// Not thread-safe: look-ups share a scratch buffer (one store belongs to one connection).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "codecs/url_block_codec.h"
#include "codecs/url_block_index.h"
#include "codecs/url_block_model.h"
#include "codecs/zeroed_array.h"

namespace crawldb::urls {

inline constexpr uint8_t kBaseFormatVersion = 3;
// The oldest version read: its part 2 holds every block's head and its groups none.
inline constexpr uint8_t kOldestBaseFormatVersion = 2;
inline constexpr size_t kKeysPerBlock = 32;
// About 30 KiB of blocks per part on the reddit keys (15 bytes per key).
inline constexpr size_t kBlocksPerPart = 64;
// The stored number of the first group of blocks (after header, model and head index).
inline constexpr size_t kFirstGroupPart = 3;
// An opened base decodes all its group heads once those decoded on demand pass 1/kLazyHeadShare
// of them (a Find costs about log2(groups)).
inline constexpr size_t kLazyHeadShare = 8;
// A group's block heads are decoded at its kLazyBlockHeadUses-th look-up. Measured in a new
// connection: cnr-2000's page and its 11 outlinks' URLs, all in one group, 4% fewer
// instructions than decoding at once; 85 URLs by id over Wikispeedia's 3 groups, 1% more.
inline constexpr uint32_t kLazyBlockHeadUses = 12;
// A block's landmarks are learned at its kLandmarkLookUp-th look-up (≥ 2): they pay once a block
// has about ten Gets or six Finds. Measured in new connections (bench/joins.py's queries),
// against learning them at the second: the URLs of a Wikispeedia page's 85 outlinks, 8% fewer
// instructions (9% went to learning); cnr-2000's 11, in one or two blocks, 4% more.
inline constexpr uint32_t kLandmarkLookUp = 4;
static_assert(kLandmarkLookUp >= 2, "the first look-up in a block never learns landmarks");

// Keys in one reusable buffer, no allocation per key: a decoded block's, or the heads.
class BlockKeys {
 public:
  size_t size() const { return ends_.size(); }
  // Bytes of all the keys together; at most UINT32_MAX.
  size_t byte_size() const { return bytes_.size(); }
  // Bytes held.
  size_t MemoryBytes() const { return bytes_.capacity() + ends_.capacity() * sizeof(uint32_t); }
  void ShrinkToFit() {
    bytes_.shrink_to_fit();
    ends_.shrink_to_fit();
  }
  absl::string_view operator[](size_t i) const {
    size_t begin = i == 0 ? 0 : ends_[i - 1];
    return absl::string_view(bytes_).substr(begin, ends_[i] - begin);
  }
  void Clear() {
    bytes_.clear();
    ends_.clear();
  }
  void Append(absl::string_view key) {
    bytes_.append(key.data(), key.size());
    ends_.push_back(static_cast<uint32_t>(bytes_.size()));
  }

 private:
  std::string bytes_;
  std::vector<uint32_t> ends_;  // key i is bytes_[ends_[i − 1], ends_[i])
};

// Options of the model a base is coded with, for `sample_bytes` bytes of sampled keys (blocks
// of consecutive keys, see UrlBaseSampler): blocks of kKeysPerBlock keys, the whole sample used.
codecs::UrlBlockModelOptions UrlBaseModelOptions(size_t sample_bytes);

// How UrlBaseSampler::Train chooses a model. kShared: with UrlBaseModelOptions, for a base whose
// model the parts may share (one of at least url_store.h's kMinBaseModelKeys keys) or for the
// parts. kSmallest: that one or one fitted to the sample (a symbol per 512 bytes of keys, at
// least 64, and 8 clusters), whichever codes the sample in fewer bytes with its model counted:
// for a sample that is all of a small base's keys, where the model weighs as much as they do.
enum class ModelFit { kShared, kSmallest };

class UrlBase {
 public:
  // Reads stored part `part` (its number as stored, ≥ kFirstGroupPart) of the base being read:
  // its bytes, or nullopt when there is no such part. Its errors are returned as they are.
  using PartReader =
      std::function<absl::StatusOr<std::optional<std::vector<uint8_t>>>(size_t part)>;

  // The empty base.
  UrlBase() = default;

  // Rebuilds from every stored part (part 0 first); DataLossError when they do not fit together,
  // FailedPreconditionError for a base of another format version.
  static absl::StatusOr<UrlBase> Load(absl::Span<const absl::Span<const uint8_t>> parts);
  // The same from the parts before the first group (0 to kFirstGroupPart − 1, or part 0 alone
  // for an empty base); the groups are read through `read_part` when first needed (see above).
  // The reader must answer with the same base for as long as this one is used.
  static absl::StatusOr<UrlBase> Open(absl::Span<const absl::Span<const uint8_t>> first_parts,
                                      PartReader read_part);
  // Open for parts stored without the model (KeyParts), coded with `model`, that lie in *owner (a
  // run's stored row, url_part.h), which the base shares instead of copying: its groups are
  // checked and kept (as places in *owner) when first needed, as Open reads them.
  static absl::StatusOr<UrlBase> OpenKeys(absl::Span<const absl::Span<const uint8_t>> parts,
                                          std::shared_ptr<const codecs::UrlBlockModel> model,
                                          std::shared_ptr<const std::vector<uint8_t>> owner);

  // Reads every group not read yet and decodes every group head: the first failure.
  absl::Status ReadAll() const;
  // Decodes every group head, checking that they strictly increase.
  absl::Status DecodeAllHeads() const { return heads_decoded() ? absl::OkStatus() : DecodeHeads(); }
  // Every group is held and every group head decoded: true of a base built or loaded, and of one
  // opened once ReadAll succeeded. Parts, KeyParts, StoredBytes and BlockBytes need it.
  bool whole() const {
    return groups_held_ == groups_.size() && coded_groups_ == 0 && heads_decoded();
  }

  // The stored parts, part 0 first (whole() only).
  std::vector<std::vector<uint8_t>> Parts() const;
  // The stored parts without the model (part 1): for keys coded with a model stored elsewhere.
  std::vector<std::vector<uint8_t>> KeyParts() const;

  // The model the keys are coded with (null for an empty base).
  const std::shared_ptr<const codecs::UrlBlockModel>& model() const { return model_; }

  size_t size() const { return count_; }
  size_t block_count() const { return (count_ + kKeysPerBlock - 1) / kKeysPerBlock; }

  // Rank of `key`, or nullopt.
  absl::StatusOr<std::optional<size_t>> Find(absl::string_view key) const;
  // Rank of the first key ≥ `key` (size() if none).
  absl::StatusOr<size_t> LowerBound(absl::string_view key) const;
  // The key of `rank` (< size()), decoded into *key.
  absl::Status Get(size_t rank, std::string* key) const;
  // The keys of block `block`, in order, into *keys (cleared first).
  absl::Status DecodeBlock(size_t block, BlockKeys* keys) const;
  // Reads the group holding block `block` when it is not held, and decodes its heads: what
  // DecodeBlock would fail on before decoding (crawldb_check() reports a group once, not once
  // per block).
  absl::Status ReadGroupOf(size_t block) const;

  // Bytes of memory held: model, head index, heads decoded, groups read, offsets (of an OpenKeys
  // base, without the row its groups lie in).
  size_t MemoryBytes() const;
  // The same without the model (which parts share: url_part.h).
  size_t KeysMemoryBytes() const;
  // Blocks whose landmarks a look-up has learned (LookupReader).
  size_t landmark_blocks() const { return landmarks_.size(); }
  // Groups of blocks read and kept (what a look-up in an opened base may add to).
  size_t groups_held() const { return groups_held_; }
  // Bytes of the stored parts as Parts() writes them (a version 2 base: as version 3): all of
  // them, and the model's, the heads' (both levels) and the blocks' (header and part framing
  // aside); whole() only. HeadIndexBytes codes the heads that were not read as version 3 to
  // count them, the first time it is asked.
  size_t StoredBytes() const;
  size_t ModelBytes() const { return model_bytes_; }
  size_t HeadIndexBytes() const;
  size_t BlockBytes() const;
  // How many parts Parts() holds: header, model, head index and the groups (1 for an empty base:
  // its header).
  size_t StoredPartCount() const;

 private:
  friend class UrlBaseBuilder;
  // A block's bytes within its group's.
  struct BlockSpan {
    uint32_t begin, end;
  };
  // Blocks g × kBlocksPerPart … (the last group fewer), as read (its stored part, framing
  // included) or built (the blocks alone); empty until held, so that opening a base allocates
  // per group, not per block.
  struct Group {
    std::vector<uint8_t> bytes;  // none when the group lies in owner_, at in_owner
    BlockSpan in_owner{0, 0};
    std::vector<BlockSpan> spans;  // one per block once held
    // The blocks' heads and their first 8 bytes, big-endian, zero-padded (FindBlock compares
    // these first).
    BlockKeys heads;
    std::vector<uint64_t> head_prefixes;
    BlockSpan coded_heads{0, 0};  // the heads as read within bytes (version 3); else empty
    // Version 3, until the heads are decoded: the coded heads, and the uses made of them.
    std::optional<codecs::UrlBlockIndex> coded_index;
    uint32_t coded_uses = 0;
    bool held = false;
  };
  // Decodes group `group`'s heads (held) into heads and head_prefixes, checking them, unless done.
  absl::Status DecodeHeldHeads(size_t group) const;
  // Whether this look-up in group `group` (held) reads its heads coded, as counted; from its
  // kLazyBlockHeadUses-th look-up on they are decoded (DecodeHeldHeads) and read plain.
  absl::StatusOr<bool> CodedHeadsInUse(size_t group) const;
  // The first 8 bytes of `key` as a big-endian integer, zero-padded: when two prefixes differ,
  // the keys are in the same order (a key that ends within 8 bytes pads with zeros, below any
  // byte that the other key has there, and it is a prefix of that key).
  static uint64_t HeadPrefix(absl::string_view key);
  std::vector<uint8_t> HeaderPart() const;
  // Load's and Open's work: `parts` are the stored parts without the model part; model_bytes its
  // stored size (0 when stored elsewhere); model_parts: 1 when it was stored part 1, so that
  // messages number the parts as stored. With read_part, `parts` ends before the groups.
  // With owner: the groups in `parts` lie in *owner and are taken from there when needed.
  static absl::StatusOr<UrlBase> LoadWithModel(absl::Span<const absl::Span<const uint8_t>> parts,
                                               std::shared_ptr<const codecs::UrlBlockModel> model,
                                               size_t model_bytes, size_t model_parts,
                                               PartReader read_part,
                                               std::shared_ptr<const std::vector<uint8_t>> owner);
  // Load or Open, the model read from part 1.
  static absl::StatusOr<UrlBase> LoadStored(absl::Span<const absl::Span<const uint8_t>> parts,
                                            PartReader read_part);
  // Group `group` held: read through read_part_ when it is not.
  absl::Status ReadGroup(size_t group) const;
  // Checks the stored row of group `group` and keeps it: `bytes` when the group has no place in
  // owner_, else that place.
  absl::Status InstallGroup(size_t group, std::vector<uint8_t> bytes) const;
  // The bytes of a group held.
  absl::Span<const uint8_t> GroupBytes(const Group& group) const {
    if (owner_ == nullptr) return group.bytes;
    return absl::MakeConstSpan(*owner_).subspan(group.in_owner.begin,
                                                group.in_owner.end - group.in_owner.begin);
  }
  // Decodes the heads of the `count` blocks of group `group` from `coded` (version 3: the
  // group's own; version 2: every block's, `first` the group's first block) into *into,
  // checking that they strictly increase from the group's head up to the next group's.
  absl::Status DecodeGroupHeads(size_t group, const codecs::UrlBlockIndex& coded, size_t first,
                                size_t count, Group* into) const;
  // The stored number of group `group`'s part.
  size_t GroupPart(size_t group) const { return kFirstGroupPart - 1 + model_parts_ + group; }
  bool heads_decoded() const { return head_prefixes_.size() == groups_.size(); }
  // Decodes every group head into heads_ and head_prefixes_ (they must strictly increase).
  absl::Status DecodeHeads() const;
  // DecodeHeads once the heads decoded on demand pass the share that makes it pay.
  absl::Status DecodeHeadsWhenBusy() const;
  // The head of group `group` into *head: decoded on demand while the group heads are coded.
  absl::Status GroupHead(size_t group, std::string* head) const;
  absl::StatusOr<codecs::UrlBlockReader> Reader(size_t block) const;
  // Reader(block) starting from the block's landmarks, learned (decoding the block whole) the
  // kLandmarkLookUp-th time a look-up reads the block; *landmarks holds them while the reader is
  // used.
  absl::StatusOr<codecs::UrlBlockReader> LookupReader(size_t block,
                                                      codecs::UrlBlockLandmarks* landmarks) const;
  // The bytes of block `block`, its group read first when not held.
  absl::StatusOr<absl::Span<const uint8_t>> Block(size_t block) const;
  // The bytes of block `block` of a group held.
  absl::Span<const uint8_t> HeldBlock(size_t block) const {
    const Group& group = groups_[block / kBlocksPerPart];
    const BlockSpan span = group.spans[block % kBlocksPerPart];
    return GroupBytes(group).subspan(span.begin, span.end - span.begin);
  }
  // The stored size of block `block` of a group held.
  uint32_t HeldBlockSize(size_t block) const {
    const BlockSpan span = groups_[block / kBlocksPerPart].spans[block % kBlocksPerPart];
    return span.end - span.begin;
  }
  // Keys of block `block` read forward from its head (the others from the next block's head).
  size_t ForwardCount(size_t block) const;
  // The last group whose head is ≤ key, or nullopt when key is below the first head.
  absl::StatusOr<std::optional<size_t>> FindGroup(absl::string_view key) const;
  // The last block whose head is ≤ key (its group read), or nullopt when key is below the first
  // head.
  absl::StatusOr<std::optional<size_t>> FindBlock(absl::string_view key) const;
  // The group head index of the stored form: the one read, or the group heads coded.
  absl::StatusOr<std::vector<uint8_t>> HeadIndexPart() const;
  // The heads index of group `group` (held) for its stored part: as read (version 3), or its
  // heads coded; and its size.
  absl::StatusOr<std::vector<uint8_t>> GroupHeadsPart(size_t group) const;
  size_t GroupHeadsBytes(size_t group) const;

  size_t count_ = 0;
  // On the heap so that a reader over a moved base still points to it; shared with the bases
  // coded with the same model (url_part.h).
  std::shared_ptr<const codecs::UrlBlockModel> model_;
  size_t model_bytes_ = 0;  // Serialized size of *model_.
  size_t model_parts_ = 0;  // 1 when the model is stored (part 1), 0 when stored elsewhere
  // The group heads as stored (a base read), coded with *model_, until they are all decoded;
  // none for a base built.
  mutable std::optional<codecs::UrlBlockIndex> coded_heads_;
  // Version 2: every block's head, as stored (its groups hold none); dropped once every group
  // is held.
  mutable std::optional<codecs::UrlBlockIndex> version2_heads_;
  // Every group head decoded, and its first 8 bytes as in Group; empty until all are decoded.
  mutable BlockKeys heads_;
  mutable std::vector<uint64_t> head_prefixes_;
  mutable size_t head_decodes_ = 0;  // group heads decoded on demand (search steps count one)
  mutable std::string next_head_;    // the next block's head when coded, or the next group's
  mutable std::string block_head_;   // a block's head, when its group's heads are coded
  mutable std::vector<Group> groups_;
  mutable size_t groups_held_ = 0;
  mutable size_t coded_groups_ = 0;  // groups held whose heads are not decoded yet
  PartReader read_part_;             // null for a base built or loaded
  // OpenKeys': the stored row the groups lie in (counted by its holder, not by MemoryBytes) and
  // where each group's part is in it.
  std::shared_ptr<const std::vector<uint8_t>> owner_;
  std::vector<BlockSpan> owner_parts_;
  mutable std::string scratch_;  // Find's and LowerBound's decoding buffer
  // StoredBytes and HeadIndexBytes, computed once (a base does not change; 0: not yet).
  mutable size_t stored_bytes_ = 0;
  mutable size_t head_index_bytes_ = 0;
  // Landmarks learned by look-ups (codecs::UrlBlockLandmarks, keys in landmark_keys_).
  struct Landmarks {
    uint32_t keys_offset;  // the three keys, back to back, in landmark_keys_
    uint32_t forward_length, backward_length, first_backward_length;  // bytes
    uint32_t forward_bits, backward_bits;
    uint8_t forward_index, backward_index;  // < kKeysPerBlock
  };
  // Per block: kNotLookedUp (zero, what a ZeroedArray holds at first); looked up n times
  // (0 < n < kLandmarkLookUp), landmarks not learned yet: kLookedUpOnce − (n − 1), from
  // kLookedUpOnce down to kLookedUpMost; else 1 + index in landmarks_.
  static constexpr uint32_t kNotLookedUp = 0;
  static constexpr uint32_t kLookedUpOnce = std::numeric_limits<uint32_t>::max();
  static constexpr uint32_t kLookedUpMost = kLookedUpOnce - (kLandmarkLookUp - 2);
  mutable codecs::ZeroedArray<uint32_t> landmark_slots_;
  mutable std::vector<Landmarks> landmarks_;
  mutable std::string landmark_keys_;
  mutable std::string landmark_scratch_;
};

// Key bytes a base's model is trained on at most. Training takes about 0.45 s per MiB; a larger
// sample does not code better: on the reddit keys samples of 1.5, 3, 6 and 12 MB (all the keys)
// give 15.15, 15.05, 15.13 and 15.27 bytes/URL stored.
inline constexpr size_t kBaseSampleBytes = size_t{4} << 20;

// Collects the training sample of a base from its keys, given one at a time in increasing
// order: whole blocks of kKeysPerBlock consecutive keys (the model then sees the shared prefixes
// the blocks will code), every stride-th block, the stride doubling whenever the sample would
// pass `max_bytes` — so the sample spans all the keys, with between max_bytes / 2 and max_bytes
// bytes once the keys pass max_bytes (more only when one block alone is larger).
class UrlBaseSampler {
 public:
  explicit UrlBaseSampler(size_t max_bytes = kBaseSampleBytes) : max_bytes_(max_bytes) {}

  void Add(absl::string_view key);
  // Trains the model on the sample (the untrained model when there are no keys), chosen as
  // `fit` says; kSmallest only while the sample holds every key given (else as kShared).
  absl::StatusOr<codecs::UrlBlockModel> Train(ModelFit fit = ModelFit::kShared) const;
  // Bytes of `model` serialized plus the sample coded with it, block by block (each block's
  // head as the head index codes it).
  absl::StatusOr<size_t> CodedBytes(const codecs::UrlBlockModel& model) const;

  // The sample: keys in order, a whole block from each sampled one.
  std::vector<absl::string_view> Sample() const;
  size_t sample_bytes() const { return bytes_.size(); }
  // Keys given to Add.
  size_t keys_seen() const { return keys_seen_; }

 private:
  void Thin();  // Doubles the stride, dropping the blocks it no longer takes.

  static absl::StatusOr<size_t> CodedBytes(const codecs::UrlBlockModel& model,
                                           absl::Span<const absl::string_view> sample);

  size_t max_bytes_;
  size_t stride_ = 1;  // blocks: every stride_-th is sampled
  size_t keys_seen_ = 0;
  std::string bytes_;                     // the sampled keys, back to back
  std::vector<uint32_t> ends_;            // key i is bytes_[ends_[i − 1], ends_[i])
  std::vector<uint64_t> sampled_blocks_;  // block number of each run of sampled keys
};

// Builds a UrlBase from keys given one at a time in strictly increasing order, without holding
// them: a full block is encoded as soon as the next block's head is known.
class UrlBaseBuilder {
 public:
  // Codes with the untrained model: compact enough for tests and tiny bases.
  UrlBaseBuilder();
  // Codes with `model`, trained on a sample of the keys (UrlBaseSampler).
  explicit UrlBaseBuilder(codecs::UrlBlockModel model);
  // Codes with a model stored elsewhere (KeyParts): StoredBytes leaves it out.
  explicit UrlBaseBuilder(std::shared_ptr<const codecs::UrlBlockModel> model);

  // InvalidArgumentError unless `key` is greater than the previous one and at most
  // codecs::kMaxUrlKeyBytes long.
  absl::Status Add(absl::string_view key);
  // The base; the builder is spent.
  absl::StatusOr<UrlBase> Finish();

 private:
  // Encodes the pending block, whose next head is `next_head` (nullopt: it is the last).
  absl::Status FlushBlock(std::optional<absl::string_view> next_head);

  UrlBase base_;
  BlockKeys block_;  // the keys of the block not yet encoded, the last key added last
};

}  // namespace crawldb::urls
