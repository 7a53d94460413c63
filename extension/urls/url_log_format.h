// The rows of the shadow tables <t>_log and <t>_pending: what each transaction changed.
//
//   <t>_log(seq INTEGER PRIMARY KEY, first_id INTEGER NOT NULL, added BLOB NOT NULL,
//           deleted BLOB NOT NULL)                       one row per transaction
//   seq       1, 2, 3, …: the order in which transactions committed
//   first_id  the id of the first added URL (the others follow, consecutively); the id after
//             the last one given when the transaction added none
//   added   := version:u8 (= kLogPartsFormatVersion) count:varint part_count:varint
//              part_gap:varint{part_count}: how many URLs it added, and the parts (url_part.h)
//              they went to, increasing, each as its difference from the previous (the first
//              from 0)
//   deleted := version:u8 (= kLogFormatVersion) count:varint id:varint{count}
//
//   <t>_pending(row INTEGER PRIMARY KEY, seq INTEGER NOT NULL, ids BLOB NOT NULL,
//               keys BLOB NOT NULL)
//             the URLs transaction `seq` added to one part (one row, or several for a large
//             transaction); row = part × 2^40 + the first of `ids` (PendingRow), so that a
//             part's rows are one range of the table, in id order (ids stay below 2^40)
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
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "codecs/packed_bytes.h"

namespace crawldb::urls {

inline constexpr uint8_t kLogFormatVersion = 1;       // deleted
inline constexpr uint8_t kLogKeysFormatVersion = 2;   // keys
inline constexpr uint8_t kLogPartsFormatVersion = 3;  // added
inline constexpr uint8_t kIdGapsFormatVersion = 1;    // ids

// Ids a part's pending rows can hold: below 2^40, as the ids of a part's run (url_part.h).
inline constexpr int64_t kMaxPendingId = int64_t{1} << 40;
inline int64_t PendingRow(size_t part, int64_t first_id) {
  return static_cast<int64_t>(part) * kMaxPendingId + first_id;
}

struct LogParts {
  int64_t added_count = 0;
  std::vector<size_t> parts;  // increasing, each < kUrlParts
};

// `zstd`, when given, is used and kept for the next call (codecs/packed_bytes.h).
std::vector<uint8_t> EncodeLogKeys(absl::Span<const std::string_view> keys,
                                   codecs::ZstdContexts* zstd = nullptr);
std::vector<uint8_t> EncodeLogIds(absl::Span<const int64_t> ids);
std::vector<uint8_t> EncodeLogParts(const LogParts& parts);
std::vector<uint8_t> EncodeIdGaps(absl::Span<const int64_t> ids);

// The keys are views into *scratch (replaced).
absl::StatusOr<std::vector<std::string_view>> DecodeLogKeys(absl::Span<const uint8_t> blob,
                                                            std::string* scratch,
                                                            codecs::ZstdContexts* zstd = nullptr);
absl::StatusOr<std::vector<int64_t>> DecodeLogIds(absl::Span<const uint8_t> blob);
absl::StatusOr<LogParts> DecodeLogParts(absl::Span<const uint8_t> blob);
absl::StatusOr<std::vector<int64_t>> DecodeIdGaps(absl::Span<const uint8_t> blob);

}  // namespace crawldb::urls
