#include "codecs/link3_huff.h"

#include <array>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/bit_reader.h"
#include "codecs/bit_writer.h"
#include "codecs/canonical_huffman.h"
#include "codecs/elias_gamma.h"
#include "codecs/list_starts.h"
#include "codecs/little_endian.h"
#include "codecs/nybble.h"
#include "codecs/reference_graph.h"
#include "codecs/reference_lists.h"

namespace crawldb::codecs {
namespace {

// The fields of a record, each with its own table, in table order.
enum Table { kRef, kDeleteCount, kDeleteGap, kFirst, kGap, kTableCount };

// Alphabets (values below alphabet − 1, then the escape) of every table but kRef's, K + 2.
constexpr uint32_t kDeleteAlphabet = 1025;
constexpr uint32_t kAddAlphabet = 20001;
// Tables read from bytes may have any alphabet from 1 to this.
constexpr uint32_t kMaxAlphabet = 1u << 16;

using Tables = std::array<HuffmanCode, kTableCount>;
using Counts = std::array<std::vector<uint64_t>, kTableCount>;

// Calls visit(table, value) for every field of the record of node v: ref, then for a reference
// del_count and the del_gaps, then the adds (the list itself when ref is 0).
template <typename Visit>
void ForEachField(uint32_t v, uint32_t ref, absl::Span<const uint32_t> deletes,
                  absl::Span<const uint32_t> adds, Visit visit) {
  visit(kRef, ref);
  if (ref != 0) {
    visit(kDeleteCount, deletes.size());
    uint64_t read = 0;
    for (uint32_t index : deletes) {
      visit(kDeleteGap, index - read);
      read = uint64_t{index} + 1;
    }
  }
  for (size_t j = 0; j < adds.size(); ++j) {
    if (j == 0) {
      const bool negative = adds[0] < v;
      const uint64_t magnitude = negative ? v - adds[0] : adds[0] - v;
      visit(kFirst, 2 * magnitude + (negative ? 1 : 0));
    } else {
      visit(kGap, uint64_t{adds[j]} - adds[j - 1] - 1);
    }
  }
}

// The symbol that codes `value` under `code`: the value itself when it has a codeword, else the
// escape (the last symbol). With no code yet (the first pass), every value below the escape.
uint32_t SymbolFor(const HuffmanCode* code, uint32_t alphabet, uint64_t value) {
  const uint32_t escape = alphabet - 1;
  if (value >= escape) return escape;
  if (code != nullptr && code->length(static_cast<uint32_t>(value)) == 0) return escape;
  return static_cast<uint32_t>(value);
}

// Bits of `value` under `code` (whose escape has a codeword).
uint64_t ValueBits(const HuffmanCode& code, uint64_t value) {
  const uint32_t symbol = SymbolFor(&code, code.alphabet_size(), value);
  const uint64_t bits = static_cast<uint64_t>(code.length(symbol));
  return symbol == code.alphabet_size() - 1 ? bits + GammaLength(value) : bits;
}

void WriteValue(const HuffmanCode& code, uint64_t value, BitWriter& out) {
  const uint32_t symbol = SymbolFor(&code, code.alphabet_size(), value);
  code.Write(symbol, out);
  if (symbol == code.alphabet_size() - 1) WriteGamma(out, value);
}

// Tables for symbol counts.
absl::StatusOr<Tables> BuildTables(const Counts& counts) {
  Tables tables;
  for (int t = 0; t < kTableCount; ++t) {
    absl::StatusOr<HuffmanCode> code = HuffmanCode::FromLengths(HuffmanCode::Lengths(counts[t]));
    if (!code.ok()) return code.status();
    tables[t] = *std::move(code);
  }
  return tables;
}

// The record format of link3+huff (reference_graph.h): fields in Huffman codes, a bit stream.
class HuffmanRecords {
 public:
  static constexpr absl::string_view kName = "link3+huff";
  static constexpr int kUnitBits = 1;

  explicit HuffmanRecords(Tables tables) : tables_(std::move(tables)) {}

  static absl::StatusOr<HuffmanRecords> ParseTables(LittleEndianReader* in) {
    Tables tables;
    for (int t = 0; t < kTableCount; ++t) {
      absl::StatusOr<HuffmanCode> code = HuffmanCode::Parse(in, kMaxAlphabet);
      if (!code.ok()) return code.status();
      if (code->alphabet_size() == 0) {
        return absl::DataLossError(absl::StrCat("table ", t, " has an empty alphabet"));
      }
      tables[t] = *std::move(code);
    }
    return HuffmanRecords(std::move(tables));
  }

  void AppendTables(std::vector<uint8_t>* out) const {
    for (const HuffmanCode& code : tables_) code.AppendTo(out);
  }

  uint64_t TableBits() const {
    uint64_t bits = 0;
    for (const HuffmanCode& code : tables_) bits += code.TableBits();
    return bits;
  }

  bool ReadRef(absl::Span<const uint8_t> data, uint64_t begin, uint64_t end, uint64_t* ref,
               uint64_t* after) const {
    BitReader in(data);
    in.Seek(begin);
    const bool ok = ReadValue(kRef, in, end, ref);
    *after = in.position();
    return ok;
  }

  bool ApplyRecord(bool relative, uint32_t node, uint32_t node_count,
                   absl::Span<const uint8_t> data, uint64_t begin, uint64_t end,
                   std::vector<uint32_t>* list, uint64_t* adds_begin) const {
    BitReader in(data);
    in.Seek(begin);
    if (relative) {
      uint64_t count;
      const auto next_gap = [&](uint64_t* gap) { return ReadValue(kDeleteGap, in, end, gap); };
      if (!ReadValue(kDeleteCount, in, end, &count) || !DeleteIndices(count, next_gap, list)) {
        return false;
      }
    }
    *adds_begin = in.position();
    const size_t kept = list->size();
    return ReadAdds(node, node_count, end, in, list) && MergeAdds(kept, list);
  }

  bool ReadFields(bool relative, uint32_t node, uint32_t node_count, absl::Span<const uint8_t> data,
                  uint64_t begin, uint64_t end, size_t representative_size, RecordFields* fields,
                  uint64_t* adds_begin) const {
    fields->deletes.clear();
    fields->adds.clear();
    BitReader in(data);
    in.Seek(begin);
    if (relative) {
      uint64_t count;
      const auto next_gap = [&](uint64_t* gap) { return ReadValue(kDeleteGap, in, end, gap); };
      if (!ReadValue(kDeleteCount, in, end, &count) ||
          !ReadDeletedIndices(count, representative_size, next_gap, &fields->deletes)) {
        return false;
      }
    }
    *adds_begin = in.position();
    return ReadAdds(node, node_count, end, in, &fields->adds);
  }

  int64_t DegreeChange(bool relative, absl::Span<const uint8_t> data, uint64_t begin,
                       uint64_t end) const {
    BitReader in(data);
    in.Seek(begin);
    uint64_t value = 0;
    int64_t change = 0;
    if (relative) {
      ReadValue(kDeleteCount, in, end, &value);
      change = -static_cast<int64_t>(value);
      for (uint64_t k = value; k > 0; --k) ReadValue(kDeleteGap, in, end, &value);
    }
    for (bool first = true; in.position() < end; first = false) {
      ReadValue(first ? kFirst : kGap, in, end, &value);
      ++change;
    }
    return change;
  }

 private:
  // Appends the adds of node `node`, from the reader's position to `end`, to *list; false if
  // corrupt.
  bool ReadAdds(uint32_t node, uint32_t node_count, uint64_t end, BitReader& in,
                std::vector<uint32_t>* list) const {
    uint64_t id = 0;  // The last id added.
    for (bool first = true; in.position() < end; first = false) {
      uint64_t value;
      if (!ReadValue(first ? kFirst : kGap, in, end, &value)) return false;
      if (first) {
        const uint64_t magnitude = value >> 1;
        if (value & 1 ? magnitude > node : magnitude >= uint64_t{node_count} - node) return false;
        id = value & 1 ? node - magnitude : node + magnitude;
      } else {
        if (value >= node_count - id - 1) return false;  // id + value + 1 < node_count.
        id += value + 1;
      }
      list->push_back(static_cast<uint32_t>(id));
    }
    return true;
  }

  // Reads one field; false if the reader failed or the field ran past `end`.
  bool ReadValue(Table table, BitReader& in, uint64_t end, uint64_t* value) const {
    const HuffmanCode& code = tables_[table];
    const uint32_t symbol = code.Read(in);
    *value = symbol == code.alphabet_size() - 1 ? ReadGamma(in) : symbol;
    return in.ok() && in.position() <= end;
  }

  Tables tables_;
};

using Link3HuffGraph = ReferenceGraph<HuffmanRecords>;

}  // namespace

absl::StatusOr<std::unique_ptr<EncodedGraph>> EncodeLink3Huff(
    AdjacencyListsView graph, const AdjacencyCodecOptions& options) {
  if (absl::Status status = Link3HuffGraph::CheckOptions(options); !status.ok()) return status;
  const uint32_t n = graph.size();
  const std::array<uint32_t, kTableCount> alphabets = {options.window + 2, kDeleteAlphabet,
                                                       kDeleteAlphabet, kAddAlphabet, kAddAlphabet};
  const auto empty_counts = [&alphabets] {
    Counts counts;
    for (int t = 0; t < kTableCount; ++t) counts[t].assign(alphabets[t], 0);
    return counts;
  };

  // Pass 1: link3's choices, by nybble costs; count their symbols.
  Counts counts = empty_counts();
  {
    ReferenceChooser chooser(options.window, options.max_chain, n);
    for (uint32_t v = 0; v < n; ++v) {
      const absl::Span<const uint32_t> list = graph.list(v);
      if (list.empty()) continue;
      const uint32_t ref = chooser.Choose(
          graph, v,
          [v](uint32_t r, absl::Span<const uint32_t> deletes, absl::Span<const uint32_t> adds) {
            uint64_t nybbles = 0;
            ForEachField(v, r, deletes, adds,
                         [&nybbles](Table, uint64_t value) { nybbles += NybbleLength(value); });
            return nybbles;
          });
      ForEachField(
          v, ref, chooser.deletes(), ref == 0 ? list : chooser.adds(),
          [&](Table t, uint64_t value) { ++counts[t][SymbolFor(nullptr, alphabets[t], value)]; });
    }
  }
  for (int t = 0; t < kTableCount; ++t) ++counts[t].back();  // Every escape gets a codeword.
  absl::StatusOr<Tables> first_tables = BuildTables(counts);
  if (!first_tables.ok()) return first_tables.status();

  // Pass 2: the choices by their bits under the first tables; count their symbols.
  counts = empty_counts();
  std::vector<uint32_t> refs(n, 0);
  {
    ReferenceChooser chooser(options.window, options.max_chain, n);
    for (uint32_t v = 0; v < n; ++v) {
      const absl::Span<const uint32_t> list = graph.list(v);
      if (list.empty()) continue;
      refs[v] = chooser.Choose(
          graph, v,
          [&](uint32_t r, absl::Span<const uint32_t> deletes, absl::Span<const uint32_t> adds) {
            uint64_t bits = 0;
            ForEachField(v, r, deletes, adds, [&](Table t, uint64_t value) {
              bits += ValueBits((*first_tables)[t], value);
            });
            return bits;
          });
      ForEachField(v, refs[v], chooser.deletes(), refs[v] == 0 ? list : chooser.adds(),
                   [&](Table t, uint64_t value) {
                     ++counts[t][SymbolFor(&(*first_tables)[t], alphabets[t], value)];
                   });
    }
  }
  // The final tables code exactly the symbols pass 2 counted, so writing a value under them
  // picks the same symbol as pass 2 did under the first tables.
  absl::StatusOr<Tables> tables = BuildTables(counts);
  if (!tables.ok()) return tables.status();

  // Pass 3: write.
  BitWriter writer;
  std::vector<uint32_t> lengths(n);
  std::vector<uint32_t> deletes;
  std::vector<uint32_t> adds;
  ReferenceTally tally;
  for (uint32_t v = 0; v < n; ++v) {
    const absl::Span<const uint32_t> list = graph.list(v);
    if (list.empty()) continue;
    const uint32_t ref = refs[v];
    if (ref != 0) Diff(graph.list(v - ref), list, &deletes, &adds);
    const uint64_t before = writer.bit_length();
    ForEachField(v, ref, deletes, ref == 0 ? list : absl::MakeConstSpan(adds),
                 [&](Table t, uint64_t value) {
                   const uint64_t field_start = writer.bit_length();
                   WriteValue((*tables)[t], value, writer);
                   const uint64_t bits = writer.bit_length() - field_start;
                   (t == kRef ? tally.refs : t <= kDeleteGap ? tally.deletes : tally.adds) += bits;
                 });
    if (writer.bit_length() > UINT32_MAX) {
      return absl::InvalidArgumentError("link3+huff: the records take 2^32 bits or more");
    }
    lengths[v] = static_cast<uint32_t>(writer.bit_length() - before);
  }
  absl::StatusOr<ListStarts> starts = BuildLinkStarts(lengths, options.partitions);
  if (!starts.ok()) return starts.status();
  const uint64_t data_bits = writer.bit_length();
  return std::make_unique<Link3HuffGraph>(HuffmanRecords(*std::move(tables)), options.window,
                                          options.max_chain, n, *std::move(starts), writer.Finish(),
                                          data_bits, graph.arc_count(), tally);
}

absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadLink3Huff(absl::Span<const uint8_t> body) {
  return Link3HuffGraph::Load(body);
}

absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadLink3HuffDeferred(absl::Span<const uint8_t> body,
                                                                    uint64_t arc_count) {
  return Link3HuffGraph::LoadDeferred(body, arc_count);
}

absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadLink3HuffPaged(
    std::shared_ptr<const PagedBytes> pages, uint64_t body_offset, uint64_t arc_count) {
  return Link3HuffGraph::LoadPaged(std::move(pages), body_offset, arc_count);
}

}  // namespace crawldb::codecs
