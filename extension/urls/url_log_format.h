// The rows of the shadow tables <t>_log and <t>_pending: what each transaction changed.
//
//   <t>_log(seq INTEGER PRIMARY KEY, first_id INTEGER NOT NULL, added BLOB NOT NULL,
//           deleted BLOB NOT NULL)                       one row per transaction
//   seq       1, 2, 3, …: the order in which transactions committed
//   first_id  the id of the first added URL (the others follow, consecutively); the id after
//             the last one given when the transaction added none
//   added   := version:u8 (= kLogAddsFormatVersion) count:varint part_count:varint
//              part_gap:varint{part_count} folded:varint [ adds ]
//              how many URLs it added, the parts (url_part.h) they went to, increasing, each as
//              its difference from the previous (the first from 0), and the newest commit
//              folded as of this one (its own seq when its adds went to <t>_pending rows; the
//              log tail, urls_table.h). A commit in the tail (folded < seq) carries its adds:
//   adds    := in_part:varint{part_count} id:varint{count} keys
//              how many it added to each part; their ids part after part, each part's
//              increasing, the first as its offset from first_id, the others as (gap − 1); and
//              their keys in the same order, laid out as a <t>_pending row's `keys` (below)
//   Format 4's rows (version kLogPartsFormatVersion) end after the part gaps: their adds are
//   all in <t>_pending rows. They are still read.
//   deleted := version:u8 (= kLogFormatVersion) count:varint id:varint{count}
//
//   <t>_pending(row INTEGER PRIMARY KEY, seq INTEGER NOT NULL, ids BLOB NOT NULL,
//               keys BLOB NOT NULL)
//             the URLs transaction `seq` added to one part (one row, or several for a large
//             transaction); row = part × 2^40 + the first of `ids` (PendingRow), so that a
//             part's rows are one range of the table, in id order (ids stay below 2^40); the
//             rows after the part's run (url_part.h) hold only ids above its through id
//   ids     := version:u8 (= kIdGapsFormatVersion) count:varint first:varint
//              (gap − 1):varint{count − 1}: increasing ids
//   keys    := version:u8 (= kLogKeysFormatVersion) count:varint packed
//              packed (codecs/packed_bytes.h: zstd-compressed once large enough) holds
//              ( length:varint key[length] ){count}, the canonical keys (canonical_key.h) of the
//              ids in order
// The keys of one part's row share its host prefixes, so they compress well as a whole.
// Decoding validates every length and count against the blob (DataLossError "url log: …").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "codecs/packed_bytes.h"

namespace crawldb::urls {

inline constexpr uint8_t kLogFormatVersion = 1;       // deleted
inline constexpr uint8_t kLogKeysFormatVersion = 2;   // keys
inline constexpr uint8_t kLogPartsFormatVersion = 3;  // added, format 4 (read)
inline constexpr uint8_t kLogAddsFormatVersion = 4;   // added
inline constexpr uint8_t kIdGapsFormatVersion = 1;    // ids

// Ids a part's pending rows can hold: below 2^40, as the ids of a part's run (url_part.h).
inline constexpr int64_t kMaxPendingId = int64_t{1} << 40;
inline int64_t PendingRow(size_t part, int64_t first_id) {
  return static_cast<int64_t>(part) * kMaxPendingId + first_id;
}

// One commit's `added`.
struct LogAdds {
  int64_t added_count = 0;
  std::vector<size_t> parts;  // increasing, each < kUrlParts
  // The newest commit folded as of this one; nullopt in a format-4 row, whose adds are in
  // <t>_pending as if it folded itself.
  std::optional<int64_t> folded;
  // The adds, when the row carries them (else all empty): how many went to each of `parts`,
  // and their ids and keys, part after part, each part's ids increasing.
  std::vector<uint32_t> part_sizes;
  std::vector<int64_t> ids;
  std::vector<absl::string_view> keys;
  bool has_adds() const { return !part_sizes.empty(); }
};

// `zstd`, when given, is used and kept for the next call (codecs/packed_bytes.h).
std::vector<uint8_t> EncodeLogKeys(absl::Span<const absl::string_view> keys,
                                   codecs::ZstdContexts* zstd = nullptr);
std::vector<uint8_t> EncodeLogIds(absl::Span<const int64_t> ids);
// `folded` must be set; the adds are written when has_adds(). The ids are coded against
// first_id (the row's column), which they must not precede.
std::vector<uint8_t> EncodeLogAdds(const LogAdds& adds, int64_t first_id,
                                   codecs::ZstdContexts* zstd = nullptr);
std::vector<uint8_t> EncodeIdGaps(absl::Span<const int64_t> ids);

// The keys are views into *scratch (replaced).
absl::StatusOr<std::vector<absl::string_view>> DecodeLogKeys(absl::Span<const uint8_t> blob,
                                                             std::string* scratch,
                                                             codecs::ZstdContexts* zstd = nullptr);
absl::StatusOr<std::vector<int64_t>> DecodeLogIds(absl::Span<const uint8_t> blob);
// Reads both versions; the adds' ids must be first_id … first_id + count − 1, each once. The
// keys are views into *scratch (replaced).
absl::StatusOr<LogAdds> DecodeLogAdds(absl::Span<const uint8_t> blob, int64_t first_id,
                                      std::string* scratch, codecs::ZstdContexts* zstd = nullptr);
absl::StatusOr<std::vector<int64_t>> DecodeIdGaps(absl::Span<const uint8_t> blob);

}  // namespace crawldb::urls
