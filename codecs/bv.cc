#include "codecs/bv.h"

#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/bit_reader.h"
#include "codecs/bit_writer.h"
#include "codecs/bv_lists.h"
#include "codecs/canonical_huffman.h"
#include "codecs/elias_fano.h"
#include "codecs/elias_gamma.h"
#include "codecs/hybrid_integer.h"
#include "codecs/little_endian.h"
#include "codecs/zeta.h"

namespace crawldb::codecs {
namespace {

constexpr absl::string_view kName = "bv";
// window:u16 max_chain:u8 min_interval:u8 node_count:u32 data_bits:u64, offsets_bytes:u32.
constexpr uint64_t kParameterBits = 16 + 8 + 8 + 32 + 64 + 32;

absl::Status Corrupt(absl::string_view what) {
  return absl::DataLossError(absl::StrCat("bv: ", what));
}

// The tables, in the order of the grammar in bv.h.
enum TableIndex : int {
  kDegreeTable,
  kRelativeDegreeTable,
  kReferenceTable,
  kBlockCountTable,  // 3, by the outdegree against the reference's.
  kFirstBlockTable = kBlockCountTable + 3,
  kSkippedRunTable,
  kCopiedRunTable,
  kIntervalCountTable,  // 4, by the ids left.
  kIntervalLeftTable = kIntervalCountTable + 4,
  kIntervalLengthTable,
  kFirstResidualTable,  // kBvResidualCountBuckets, by the number of residuals.
  kResidualTable = kFirstResidualTable + kBvResidualCountBuckets,  // kBvResidualContexts.
  kTableCount = kResidualTable + kBvResidualContexts,
};
static_assert(kTableCount == kBvTables);

// The table of each value of a list, in the order of the list.
class TableChooser {
 public:
  int Table(BvComponent c, uint64_t hint) const {
    switch (c) {
      case BvComponent::kOutdegree:
        return hint == 0 ? kDegreeTable : kRelativeDegreeTable;
      case BvComponent::kReference:
        return kReferenceTable;
      case BvComponent::kBlockCount:
        return kBlockCountTable + static_cast<int>(hint);
      case BvComponent::kBlock:
        return hint == 0 ? kFirstBlockTable : hint % 2 == 1 ? kSkippedRunTable : kCopiedRunTable;
      case BvComponent::kIntervalCount:  // hint ≥ kBvMinIntervalLength.
        return kIntervalCountTable + std::min(static_cast<int>(std::bit_width(hint)) - 2, 3);
      case BvComponent::kIntervalLeft:
        return kIntervalLeftTable;
      case BvComponent::kIntervalLength:
        return kIntervalLengthTable;
      case BvComponent::kFirstResidual:
        return kFirstResidualTable +
               std::min(static_cast<int>(std::bit_width(hint)), kBvResidualCountBuckets) - 1;
      case BvComponent::kResidual:
        return kResidualTable + context_;
    }
    return 0;
  }
  void Saw(BvComponent c, uint32_t token) {
    if (c >= BvComponent::kFirstResidual) {
      // Small tokens in pairs, then one context per magnitude.
      const uint32_t context = token < kHybridDirectTokens
                                   ? token / 2
                                   : kHybridDirectTokens / 2 + (token - kHybridDirectTokens) / 2;
      context_ = static_cast<int>(std::min<uint32_t>(context, kBvResidualContexts - 1));
    }
  }

 private:
  int context_ = 0;
};

// A Huffman table of hybrid integers read a value at a time: the next kBits bits index the value
// and the bits it takes, codeword and raw bits together, when they fit; longer ones take the
// table's own path.
class ValueTable {
 public:
  static constexpr int kBits = 10;

  ValueTable() = default;
  explicit ValueTable(const HuffmanCode* code) : code_(code), fast_(size_t{1} << kBits, 0) {
    for (uint32_t token = 0; token < code->alphabet_size(); ++token) {
      const int length = code->length(token);
      const int raw = HybridRawBitCount(token);
      if (length == 0 || length + raw > kBits) continue;
      // Every raw pattern after the codeword, and every fill after both.
      const int fill = kBits - length - raw;
      for (uint32_t bits = 0; bits < (1u << raw); ++bits) {
        const uint32_t prefix = ((code->codeword(token) << raw) | bits) << fill;
        const uint64_t value = token < kHybridDirectTokens
                                   ? token
                                   : ((2u | ((token - kHybridDirectTokens) & 1)) << raw) | bits;
        for (uint32_t rest = 0; rest < (1u << fill); ++rest) {
          fast_[prefix | rest] = static_cast<uint32_t>(value << kValueShift) |
                                 (token << kLengthBits) | static_cast<uint32_t>(length + raw);
        }
      }
    }
  }

  // The next value and its token (for the residual contexts).
  [[gnu::always_inline]] uint64_t Read(BitReader& in, uint32_t* token) const {
    const uint32_t entry = fast_[in.PeekBits(kBits)];
    if (entry != 0) [[likely]] {
      in.SkipBits(entry & kLengthMask);
      *token = (entry >> kLengthBits) & kTokenMask;
      return entry >> kValueShift;
    }
    *token = code_->Read(in);
    return HybridValue(*token, in);
  }

 private:
  // An entry: value (below 2^(kBits + 1)) << kValueShift | token << kLengthBits | bits.
  static constexpr int kLengthBits = 5;
  static constexpr int kValueShift = kLengthBits + 8;
  static constexpr uint32_t kLengthMask = (1u << kLengthBits) - 1;
  static constexpr uint32_t kTokenMask = 0xFF;

  const HuffmanCode* code_ = nullptr;
  std::vector<uint32_t> fast_;  // 0 when the value is not there.
};

// Bits a reference choice that ends a chain costs on top of its own (BvReferenceChooser).
constexpr uint64_t kDeadEndPenalty = 8;

using TokenCounts = std::vector<std::array<uint64_t, kHybridTokens>>;

// Bits of a value in WebGraph's default codes: the first pass's costs.
uint64_t WebGraphBits(BvComponent c, uint64_t x) {
  switch (c) {
    case BvComponent::kReference:
      return x + 1;
    case BvComponent::kFirstResidual:
    case BvComponent::kResidual:
      return static_cast<uint64_t>(ZetaLength(x, 3));
    default:
      return static_cast<uint64_t>(GammaLength(x));
  }
}

// The references of every list, chosen by cost(table, component, value) → bits, summed over a
// list's values; the tokens of the choices are counted into *counts.
template <typename Cost>
std::vector<uint32_t> ChooseReferences(AdjacencyListsView graph, const BvShape& shape,
                                       uint32_t max_chain, Cost cost, TokenCounts* counts) {
  const uint32_t n = graph.size();
  std::vector<uint32_t> refs(n);
  BvReferenceChooser chooser(shape, max_chain, n, kDeadEndPenalty);
  counts->assign(kBvTables, {});
  for (uint32_t v = 0; v < n; ++v) {
    const uint32_t degree = static_cast<uint32_t>(graph.list(v).size());
    const uint32_t best_ref = chooser.Choose(graph, v, [&](uint32_t ref, const BvParts& split) {
      uint64_t total = 0;
      TableChooser tables;
      VisitBvList(v, degree, ref, shape, split, [&](BvComponent c, uint64_t x, uint64_t hint) {
        total += cost(tables.Table(c, hint), c, x);
        tables.Saw(c, SplitHybrid(x).token);
      });
      return total;
    });
    refs[v] = best_ref;
    TableChooser tables;
    VisitBvList(v, degree, best_ref, shape, chooser.parts(),
                [&](BvComponent c, uint64_t x, uint64_t hint) {
                  const uint32_t token = SplitHybrid(x).token;
                  ++(*counts)[tables.Table(c, hint)][token];
                  tables.Saw(c, token);
                });
  }
  return refs;
}

// Huffman codes for token counts; with `every_token`, every token gets a code.
std::vector<HuffmanCode> FitTables(const TokenCounts& counts, bool every_token) {
  std::vector<HuffmanCode> tables;
  for (const auto& table : counts) {
    std::array<uint64_t, kHybridTokens> frequencies = table;
    if (every_token) {
      for (uint64_t& f : frequencies) ++f;
    }
    // Lengths of at most 24 bits with Kraft ≤ 1 by construction: FromLengths cannot fail.
    tables.push_back(*HuffmanCode::FromLengths(HuffmanCode::Lengths(frequencies)));
  }
  return tables;
}

// Bits of each component in a loaded or encoded graph.
struct Tally {
  uint64_t refs = 0;
  uint64_t blocks = 0;
  uint64_t rest = 0;

  void Add(BvComponent c, uint64_t bits) {
    if (c == BvComponent::kReference) {
      refs += bits;
    } else if (c == BvComponent::kBlockCount || c == BvComponent::kBlock) {
      blocks += bits;
    } else {
      rest += bits;
    }
  }
};

class BvGraph final : public EncodedGraph {
 public:
  BvGraph(uint32_t window, uint32_t max_chain, uint32_t min_interval, uint32_t node_count,
          std::vector<HuffmanCode> tables, EliasFano offsets, std::vector<uint8_t> data,
          uint64_t data_bits)
      : shape_{window, min_interval, /*extended=*/true},
        max_chain_(max_chain),
        node_count_(node_count),
        tables_(std::move(tables)),
        offsets_(std::move(offsets)),
        offsets_bytes_(offsets_.Serialize()),
        data_(std::move(data)),
        data_bits_(data_bits) {
    for (const HuffmanCode& table : tables_) {
      table.AppendTo(&table_bytes_);
      values_.emplace_back(&table);
    }
  }

  static absl::StatusOr<std::unique_ptr<EncodedGraph>> Load(absl::Span<const uint8_t> body) {
    LittleEndianReader in(body);
    uint16_t window;
    uint8_t max_chain;
    uint8_t min_interval;
    uint32_t n;
    uint64_t data_bits;
    if (!in.Read(&window) || !in.Read(&max_chain) || !in.Read(&min_interval) || !in.Read(&n) ||
        !in.Read(&data_bits)) {
      return Corrupt("truncated header");
    }
    if (window < 1 || window > kMaxBvWindow || max_chain > kMaxBvChain) {
      return Corrupt(
          absl::StrCat("window ", window, ", max_chain ", int{max_chain}, " out of range"));
    }
    std::vector<HuffmanCode> tables;
    for (int t = 0; t < kBvTables; ++t) {
      absl::StatusOr<HuffmanCode> table = HuffmanCode::Parse(&in, kHybridTokens);
      if (!table.ok()) return Corrupt(table.status().message());
      tables.push_back(*std::move(table));
    }
    uint32_t offsets_size;
    absl::Span<const uint8_t> offsets_bytes;
    if (!in.Read(&offsets_size) || !in.ReadBytes(offsets_size, &offsets_bytes)) {
      return Corrupt("truncated offsets");
    }
    absl::StatusOr<EliasFano> offsets = EliasFano::FromBytes(offsets_bytes);
    if (!offsets.ok()) return Corrupt(offsets.status().message());
    if (offsets->size() != uint64_t{n} + 1 || offsets->Get(0) != 0 ||
        offsets->Get(n) != data_bits) {
      return Corrupt(absl::StrCat("the offsets are not ", uint64_t{n} + 1, " positions from 0 to ",
                                  data_bits));
    }
    if (data_bits > 8 * uint64_t{in.remaining()} || (data_bits + 7) / 8 != in.remaining()) {
      return Corrupt(absl::StrCat("the data takes ", in.remaining(), " bytes; ", data_bits,
                                  " bits need ", data_bits / 8 + (data_bits % 8 != 0)));
    }
    absl::Span<const uint8_t> data;
    in.ReadBytes(in.remaining(), &data);
    if (data_bits % 8 != 0 && (data.back() & (0xFF >> (data_bits % 8))) != 0) {
      return Corrupt("nonzero padding after the data");
    }
    auto graph = std::make_unique<BvGraph>(
        window, max_chain, min_interval, n, std::move(tables), *std::move(offsets),
        std::vector<uint8_t>(data.begin(), data.end()), data_bits);
    if (absl::Status status = graph->Check(); !status.ok()) return status;
    return graph;
  }

  absl::string_view codec() const override { return kName; }
  uint32_t size() const override { return node_count_; }
  uint64_t arc_count() const override { return arc_count_; }

  uint32_t Degree(uint32_t node) const override {
    // The reference's outdegree plus the difference, down the chain.
    int64_t degree = 0;
    for (;;) {
      BitReader in(data_);
      in.Seek(offsets_.Get(node));
      uint32_t token;
      const uint64_t ref = values_[kReferenceTable].Read(in, &token);
      if (ref == 0) {
        return static_cast<uint32_t>(degree +
                                     static_cast<int64_t>(values_[kDegreeTable].Read(in, &token)));
      }
      degree += BvInt(values_[kRelativeDegreeTable].Read(in, &token));
      node -= static_cast<uint32_t>(ref);
    }
  }

  void Decode(uint32_t node, std::vector<uint32_t>* out) const override {
    // Per-thread buffers, one per depth of the reference chain: const methods may run
    // concurrently, and reusing them keeps a decode free of allocations.
    thread_local std::vector<std::vector<uint32_t>> lists;
    thread_local std::vector<BvScratch> scratch;
    if (lists.size() < max_chain_ + 2) lists.resize(max_chain_ + 2);
    if (scratch.size() < max_chain_ + 1) scratch.resize(max_chain_ + 1);
    DecodeAt(node, 0, out, lists.data(), scratch.data());
  }

  std::unique_ptr<ListScanner> Scan() const override { return std::make_unique<Scanner>(this); }

  AdjacencySizeBits SizeBits() const override {
    AdjacencySizeBits bits;
    bits.header = EnvelopeBits(kName) + kParameterBits;
    bits.tables = 8 * table_bytes_.size();
    bits.starts = 8 * offsets_bytes_.size();
    bits.refs = tally_.refs;
    bits.deletes = tally_.blocks;
    bits.adds = tally_.rest + (8 * data_.size() - data_bits_);
    return bits;
  }

  // The arcs and the bits of each component: given by the encoder, counted by Check.
  void set_counts(uint64_t arc_count, const Tally& tally) {
    arc_count_ = arc_count;
    tally_ = tally;
  }

 private:
  // Reads the value of component `c` with the table `tables` chooses.
  [[gnu::always_inline]] uint64_t ReadValue(BvComponent c, uint64_t hint, TableChooser& tables,
                                            BitReader& in) const {
    uint32_t token;
    const uint64_t value = values_[tables.Table(c, hint)].Read(in, &token);
    tables.Saw(c, token);
    return value;
  }

  // Decodes list `node` at `depth` of a reference chain into *out; lists[depth + 1] and
  // scratch[depth] are this depth's buffers.
  void DecodeAt(uint32_t node, uint32_t depth, std::vector<uint32_t>* out,
                std::vector<uint32_t>* lists, BvScratch* scratch) const {
    BitReader in(data_);
    in.Seek(offsets_.Get(node));
    TableChooser tables;
    uint32_t ref;
    ReadBvList(
        in, node, node_count_, shape_,
        [&](BvComponent c, BitReader& bits, uint64_t hint) {
          return ReadValue(c, hint, tables, bits);
        },
        [&](uint32_t r) {
          std::vector<uint32_t>* reference = &lists[depth + 1];
          DecodeAt(node - r, depth + 1, reference, lists, scratch);
          return absl::Span<const uint32_t>(*reference);
        },
        &scratch[depth], out, &ref);
  }

  // What Check() tracks while decoding.
  struct Checks {
    std::vector<uint8_t> chain;  // References followed to rebuild each list decoded so far.
    EliasFano::Iterator next_offset;
    uint64_t arcs = 0;
    Tally tally;
  };

  // Decodes every list once, checking every invariant, and counts the arcs and the bits of
  // each component: Load's last step.
  absl::Status Check() {
    Checks checks;
    checks.chain.resize(node_count_);
    checks.next_offset = offsets_.IteratorAt(1);
    Cursor cursor(this);
    for (uint32_t v = 0; v < node_count_; ++v) {
      if (!cursor.Advance(&checks)) {
        return Corrupt(absl::StrCat("the list of node ", v, " is corrupt"));
      }
    }
    set_counts(checks.arcs, checks.tally);
    return absl::OkStatus();
  }

  // Decodes the lists in node order, keeping the last window + 1 of them for references.
  class Cursor {
   public:
    explicit Cursor(const BvGraph* graph)
        : graph_(graph), in_(graph->data_), ring_(graph->shape_.window + 1) {}

    uint32_t node() const { return node_; }
    absl::Span<const uint32_t> last() const { return ring_[slot_]; }

    // Decodes list node() (< size()) into last() and moves to the next node. With `checks`,
    // also verifies the list's end and chain and tallies its bits; false if corrupt.
    bool Advance(Checks* checks) {
      const uint32_t v = node_++;
      const size_t ring_size = ring_.size();
      slot_ = v % ring_size;
      TableChooser tables;
      uint32_t ref;
      const auto read = [&](BvComponent c, BitReader& bits, uint64_t hint) {
        if (checks == nullptr) return graph_->ReadValue(c, hint, tables, bits);
        const uint64_t before = bits.position();
        const uint64_t value = graph_->ReadValue(c, hint, tables, bits);
        checks->tally.Add(c, bits.position() - before);
        return value;
      };
      const auto reference = [&](uint32_t r) {
        return absl::Span<const uint32_t>(ring_[(v - r) % ring_size]);
      };
      if (!ReadBvList(in_, v, graph_->node_count_, graph_->shape_, read, reference, &scratch_,
                      &ring_[slot_], &ref)) {
        return false;
      }
      if (checks != nullptr) {
        if (in_.position() != *checks->next_offset) return false;
        ++checks->next_offset;
        const uint32_t chain = ref == 0 ? 0 : checks->chain[v - ref] + 1u;
        if (chain > graph_->max_chain_) return false;
        checks->chain[v] = static_cast<uint8_t>(chain);
        checks->arcs += ring_[slot_].size();
      }
      return true;
    }

   private:
    const BvGraph* graph_;
    BitReader in_;
    std::vector<std::vector<uint32_t>> ring_;  // List v in slot v mod (window + 1).
    size_t slot_ = 0;
    BvScratch scratch_;
    uint32_t node_ = 0;
  };

  class Scanner final : public ListScanner {
   public:
    explicit Scanner(const BvGraph* graph) : graph_(graph), cursor_(graph) {}
    bool Next(absl::Span<const uint32_t>* list) override {
      if (cursor_.node() == graph_->node_count_) return false;
      cursor_.Advance(nullptr);
      *list = cursor_.last();
      return true;
    }

   private:
    const BvGraph* graph_;
    Cursor cursor_;
  };

  void AppendBody(std::vector<uint8_t>* out) const override {
    AppendLittleEndian(static_cast<uint16_t>(shape_.window), out);
    out->push_back(static_cast<uint8_t>(max_chain_));
    out->push_back(static_cast<uint8_t>(shape_.min_interval_length));
    AppendLittleEndian(node_count_, out);
    AppendLittleEndian(data_bits_, out);
    out->insert(out->end(), table_bytes_.begin(), table_bytes_.end());
    AppendLittleEndian(static_cast<uint32_t>(offsets_bytes_.size()), out);
    out->insert(out->end(), offsets_bytes_.begin(), offsets_bytes_.end());
    out->insert(out->end(), data_.begin(), data_.end());
  }

  BvShape shape_;
  uint32_t max_chain_;
  uint32_t node_count_;
  uint64_t arc_count_ = 0;
  std::vector<HuffmanCode> tables_;  // kBvTables, in the grammar's order.
  std::vector<ValueTable> values_;   // One per table, reading it.
  std::vector<uint8_t> table_bytes_;
  EliasFano offsets_;  // node_count_ + 1 bit positions into data_.
  std::vector<uint8_t> offsets_bytes_;
  std::vector<uint8_t> data_;
  uint64_t data_bits_;
  Tally tally_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<EncodedGraph>> EncodeBv(AdjacencyListsView graph,
                                                       const AdjacencyCodecOptions& options) {
  if (options.window < 1 || options.window > kMaxBvWindow || options.max_chain > kMaxBvChain) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bv: window ", options.window, ", max_chain ", options.max_chain,
        "; the window must be in [1, ", kMaxBvWindow, "] and max_chain in [0, ", kMaxBvChain, "]"));
  }
  const BvShape shape{options.window, kBvMinIntervalLength, /*extended=*/true};
  TokenCounts counts;
  ChooseReferences(
      graph, shape, options.max_chain,
      [](int, BvComponent c, uint64_t x) { return WebGraphBits(c, x); }, &counts);
  const std::vector<HuffmanCode> fitted = FitTables(counts, /*every_token=*/true);
  const std::vector<uint32_t> refs = ChooseReferences(
      graph, shape, options.max_chain,
      [&fitted](int table, BvComponent, uint64_t x) {
        const HybridInteger h = SplitHybrid(x);
        return static_cast<uint64_t>(fitted[table].length(h.token) + h.raw_bit_count);
      },
      &counts);
  std::vector<HuffmanCode> tables = FitTables(counts, /*every_token=*/false);

  const uint32_t n = graph.size();
  BitWriter out;
  std::vector<uint64_t> offsets(uint64_t{n} + 1);
  BvParts parts;
  Tally tally;
  for (uint32_t v = 0; v < n; ++v) {
    const absl::Span<const uint32_t> list = graph.list(v);
    SplitBvList(refs[v] == 0 ? absl::Span<const uint32_t>() : graph.list(v - refs[v]), list,
                shape.min_interval_length, &parts);
    TableChooser chooser;
    VisitBvList(v, static_cast<uint32_t>(list.size()), refs[v], shape, parts,
                [&](BvComponent c, uint64_t x, uint64_t hint) {
                  const HybridInteger h = SplitHybrid(x);
                  const int table = chooser.Table(c, hint);
                  const uint64_t before = out.bit_length();
                  tables[table].Write(h.token, out);
                  out.WriteBits(h.raw_bits, h.raw_bit_count);
                  tally.Add(c, out.bit_length() - before);
                  chooser.Saw(c, h.token);
                });
    offsets[v + 1] = out.bit_length();
  }
  const uint64_t data_bits = out.bit_length();
  absl::StatusOr<EliasFano> index = EliasFano::Build(offsets, data_bits);
  if (!index.ok()) return index.status();
  auto encoded =
      std::make_unique<BvGraph>(options.window, options.max_chain, kBvMinIntervalLength, n,
                                std::move(tables), *std::move(index), out.Finish(), data_bits);
  encoded->set_counts(graph.arc_count(), tally);
  return encoded;
}

absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadBv(absl::Span<const uint8_t> body) {
  return BvGraph::Load(body);
}

}  // namespace crawldb::codecs
