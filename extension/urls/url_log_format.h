// One row of the shadow table <t>_log: the URLs one transaction added and the ids it deleted.
//
//   <t>_log(seq INTEGER PRIMARY KEY, first_id INTEGER NOT NULL, added BLOB NOT NULL,
//           deleted BLOB NOT NULL)
//   seq       1, 2, 3, …: the order in which transactions committed
//   first_id  the id of the first added URL (the others follow, consecutively)
//   added   := version:u8 (= kLogKeysFormatVersion) count:varint packed
//              packed (codecs/packed_bytes.h: zstd-compressed once large enough) holds
//              ( length:varint key[length] ){count}
//   deleted := version:u8 (= kLogFormatVersion) count:varint id:varint{count}
// Keys are canonical keys (canonical_key.h). Rows are appended at commit and removed by
// optimize, which folds them into the base; replaying every row in seq order over the base
// gives the current state. Decoding validates every length against the blob (DataLossError).
// The keys of a transaction come in arrival order, so they are compressed as a whole (about 2.4
// times on paper 004's URLs) rather than front-coded. Version 1 of `added` held the same keys
// uncompressed (version count keys): it is still read.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace crawldb::urls {

inline constexpr uint8_t kLogFormatVersion = 1;      // deleted
inline constexpr uint8_t kLogKeysFormatVersion = 2;  // added
inline constexpr uint8_t kPlainLogKeysFormatVersion = 1;

std::vector<uint8_t> EncodeLogKeys(absl::Span<const std::string_view> keys);
std::vector<uint8_t> EncodeLogIds(absl::Span<const int64_t> ids);

// The keys are views into `blob` (version 1) or *scratch (replaced).
absl::StatusOr<std::vector<std::string_view>> DecodeLogKeys(absl::Span<const uint8_t> blob,
                                                            std::string* scratch);
absl::StatusOr<std::vector<int64_t>> DecodeLogIds(absl::Span<const uint8_t> blob);

}  // namespace crawldb::urls
