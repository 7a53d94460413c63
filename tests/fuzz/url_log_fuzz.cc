// Fuzz target: the rows a `urls` table writes per commit — its log row's `added` and `deleted`,
// a pending row's `ids` and `keys` (extension/urls/url_log_format.h) and a chunk of <t>_ids
// (url_id_parts.h).
//
// Input: decoder:u8 (mod 5: keys, deleted ids, added, id gaps, id chunk) blob:rest
// Properties: nothing crashes and every error is a DataLossError; what decodes keeps the
// format's ranges and order (ids ≥ 1, parts increasing and < kUrlParts, pending ids
// increasing) and encodes again to a blob that decodes to the same values.
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "extension/urls/url_id_parts.h"
#include "extension/urls/url_log_format.h"
#include "extension/urls/url_part.h"
#include "tests/fuzz/fuzz_target.h"
#include "tests/fuzz/seed_urls.h"

namespace crawldb::fuzz {
namespace {

enum Decoder : uint8_t { kKeys, kDeleted, kAdded, kIdGaps, kIdChunk, kDecoders };

template <typename T>
bool Refused(const absl::StatusOr<T>& decoded) {
  if (decoded.ok()) return false;
  FUZZ_CHECK(absl::IsDataLoss(decoded.status()));
  return true;
}

void CheckKeys(absl::Span<const uint8_t> blob) {
  std::string scratch;
  absl::StatusOr<std::vector<absl::string_view>> keys = urls::DecodeLogKeys(blob, &scratch);
  if (Refused(keys)) return;
  std::string scratch_again;
  absl::StatusOr<std::vector<absl::string_view>> again =
      urls::DecodeLogKeys(urls::EncodeLogKeys(*keys), &scratch_again);
  FUZZ_CHECK(again.ok() && *again == *keys);
}

void CheckDeleted(absl::Span<const uint8_t> blob) {
  absl::StatusOr<std::vector<int64_t>> ids = urls::DecodeLogIds(blob);
  if (Refused(ids)) return;
  for (int64_t id : *ids) FUZZ_CHECK(id >= 1);
  absl::StatusOr<std::vector<int64_t>> again = urls::DecodeLogIds(urls::EncodeLogIds(*ids));
  FUZZ_CHECK(again.ok() && *again == *ids);
}

void CheckAdded(absl::Span<const uint8_t> blob) {
  std::string scratch;
  absl::StatusOr<urls::LogAdds> adds = urls::DecodeLogAdds(blob, 1, &scratch);
  if (Refused(adds)) return;
  FUZZ_CHECK(adds->added_count >= 0);
  for (size_t i = 0; i < adds->parts.size(); ++i) {
    FUZZ_CHECK(adds->parts[i] < urls::kUrlParts);
    if (i > 0) FUZZ_CHECK(adds->parts[i - 1] < adds->parts[i]);
  }
  if (adds->has_adds()) {
    FUZZ_CHECK(adds->part_sizes.size() == adds->parts.size() &&
               adds->ids.size() == static_cast<size_t>(adds->added_count) &&
               adds->keys.size() == adds->ids.size());
    for (int64_t id : adds->ids) FUZZ_CHECK(id >= 1 && id <= adds->added_count);
  }
  std::string scratch_again;
  absl::StatusOr<urls::LogAdds> again =
      urls::DecodeLogAdds(urls::EncodeLogAdds(*adds, 1), 1, &scratch_again);
  FUZZ_CHECK(again.ok() && again->added_count == adds->added_count && again->parts == adds->parts &&
             again->folded == adds->folded.value_or(0) && again->part_sizes == adds->part_sizes &&
             again->ids == adds->ids && again->keys == adds->keys);
}

void CheckIdGaps(absl::Span<const uint8_t> blob) {
  absl::StatusOr<std::vector<int64_t>> ids = urls::DecodeIdGaps(blob);
  if (Refused(ids)) return;
  for (size_t i = 0; i < ids->size(); ++i) {
    FUZZ_CHECK((*ids)[i] >= 1);
    if (i > 0) FUZZ_CHECK((*ids)[i - 1] < (*ids)[i]);
  }
  absl::StatusOr<std::vector<int64_t>> again = urls::DecodeIdGaps(urls::EncodeIdGaps(*ids));
  FUZZ_CHECK(again.ok() && *again == *ids);
}

void CheckIdChunk(absl::Span<const uint8_t> blob) {
  absl::StatusOr<std::vector<uint16_t>> parts = urls::DecodeIdChunk(blob);
  if (Refused(parts)) return;
  FUZZ_CHECK(parts->size() <= urls::kIdsPerChunk);
  for (uint16_t part : *parts) FUZZ_CHECK(part < urls::kUrlParts);
  absl::StatusOr<std::vector<uint16_t>> again = urls::DecodeIdChunk(urls::EncodeIdChunk(*parts));
  FUZZ_CHECK(again.ok() && *again == *parts);
}

Seed MakeSeed(std::string name, Decoder decoder, const std::vector<uint8_t>& blob) {
  std::vector<uint8_t> input = {decoder};
  input.insert(input.end(), blob.begin(), blob.end());
  return {std::move(name), std::move(input)};
}

}  // namespace

// A row's adds: counted only (no keys) or, with `views`, keys carried for the tail.
urls::LogAdds SeedAdds(int64_t count, std::vector<size_t> parts, int64_t folded) {
  urls::LogAdds adds;
  adds.added_count = count;
  adds.parts = std::move(parts);
  adds.folded = folded;
  return adds;
}

std::vector<Seed> FuzzSeeds() {
  const std::vector<std::string> keys = SeedKeys(200);
  const std::vector<absl::string_view> views = Views(keys);
  urls::LogAdds tail = SeedAdds(3, {5, 9}, 2);
  tail.part_sizes = {2, 1};
  tail.ids = {1, 3, 2};
  tail.keys = {views[0], views[1], views[2]};
  const std::vector<int64_t> ids = {1, 2, 3, 70, 71, 1000, int64_t{1} << 39};
  std::vector<uint16_t> chunk;
  for (size_t i = 0; i < urls::kIdsPerChunk; ++i) chunk.push_back(static_cast<uint16_t>(i % 97));
  return {
      MakeSeed("keys_0", kKeys, urls::EncodeLogKeys({})),
      MakeSeed("keys_3", kKeys, urls::EncodeLogKeys(absl::MakeConstSpan(views).first(3))),
      MakeSeed("keys_packed", kKeys, urls::EncodeLogKeys(views)),
      MakeSeed("deleted_0", kDeleted, urls::EncodeLogIds({})),
      MakeSeed("deleted", kDeleted, urls::EncodeLogIds(ids)),
      MakeSeed("added_0", kAdded, urls::EncodeLogAdds(SeedAdds(0, {}, 0), 1)),
      MakeSeed("added", kAdded, urls::EncodeLogAdds(SeedAdds(9, {0, 5, 1023}, 9), 1)),
      MakeSeed("added_tail", kAdded, urls::EncodeLogAdds(tail, 1)),
      MakeSeed("id_gaps", kIdGaps, urls::EncodeIdGaps(ids)),
      MakeSeed("id_chunk_2", kIdChunk, urls::EncodeIdChunk(absl::MakeConstSpan(chunk).first(2))),
      MakeSeed("id_chunk_full", kIdChunk, urls::EncodeIdChunk(chunk)),
  };
}

void TestOneInput(FuzzInput input) {
  const uint8_t decoder = input.Byte() % kDecoders;
  const absl::Span<const uint8_t> blob = input.Rest();
  switch (decoder) {
    case kKeys:
      CheckKeys(blob);
      break;
    case kDeleted:
      CheckDeleted(blob);
      break;
    case kAdded:
      CheckAdded(blob);
      break;
    case kIdGaps:
      CheckIdGaps(blob);
      break;
    default:
      CheckIdChunk(blob);
      break;
  }
}

}  // namespace crawldb::fuzz
