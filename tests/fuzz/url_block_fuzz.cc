// Fuzz target: the URL block codec (codecs/url_block_codec.h) under the untrained model — a
// block with its head and next head, and one key coded alone.
//
// Input: flags:u8 (bit 0: a next head is given) head:piece next_head:piece coded_key:piece
//        block:rest
// Properties: nothing crashes and every error is a DataLossError (or, for a key that needs the
// missing next head, FailedPrecondition); a block that validates reads the same keys through
// its cursor, Get, Find and LowerBound, with and without landmarks, and its keys encode again to
// a block that reads them back; a key that decodes compares equal to itself and codes again to
// itself.
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "codecs/url_block_codec.h"
#include "codecs/url_block_model.h"
#include "tests/fuzz/fuzz_target.h"
#include "tests/fuzz/seed_urls.h"

namespace crawldb::fuzz {
namespace {

using codecs::UrlBlockModel;
using codecs::UrlBlockReader;

const UrlBlockModel& Model() {
  static const UrlBlockModel* model = new UrlBlockModel();
  return *model;
}

void CheckKey(absl::Span<const uint8_t> coded) {
  std::string key;
  absl::Status status = codecs::DecodeUrlKey(Model(), coded, &key);
  if (!status.ok()) {
    FUZZ_CHECK(absl::IsDataLoss(status));
    return;
  }
  absl::StatusOr<int> order = codecs::CompareUrlKey(Model(), coded, key);
  FUZZ_CHECK(order.ok() && *order == 0);
  std::vector<uint8_t> again;
  FUZZ_CHECK(codecs::AppendEncodedUrlKey(Model(), key, &again).ok());
  std::string back;
  FUZZ_CHECK(codecs::DecodeUrlKey(Model(), again, &back).ok() && back == key);
}

// Reads every key of a block that validated, every way the reader offers.
void CheckValidBlock(const UrlBlockReader& reader, std::optional<absl::string_view> next_head,
                     const std::vector<std::string>& keys) {
  FUZZ_CHECK(keys.size() == reader.size());
  for (size_t i = 1; i < keys.size(); ++i) FUZZ_CHECK(keys[i - 1] < keys[i]);
  // Only a backward part is coded against the next head; a block coded forward only (the
  // store's last) does not read it.
  const bool backward = reader.forward_count() + 1 < reader.size();
  if (backward) FUZZ_CHECK(keys.back() < *next_head);
  std::string key, scratch;
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < keys.size(); ++i) {
      FUZZ_CHECK(reader.Get(i, &key).ok() && key == keys[i]);
      absl::StatusOr<std::optional<size_t>> found = reader.Find(keys[i], &scratch);
      FUZZ_CHECK(found.ok() && *found == i);
      absl::StatusOr<size_t> lower = reader.LowerBound(keys[i] + '\0', &scratch);
      FUZZ_CHECK(lower.ok() && *lower == i + 1);
    }
    FUZZ_CHECK(reader.Get(keys.size(), &key).code() == absl::StatusCode::kOutOfRange);
    std::string landmark_keys;
    absl::StatusOr<codecs::UrlBlockLandmarks> landmarks = reader.FindLandmarks(&landmark_keys);
    FUZZ_CHECK(landmarks.ok());
    UrlBlockReader with_landmarks = reader;
    with_landmarks.UseLandmarks(&*landmarks);
    for (size_t i = 0; i < keys.size(); ++i) {
      FUZZ_CHECK(with_landmarks.Get(i, &key).ok() && key == keys[i]);
      absl::StatusOr<std::optional<size_t>> found = with_landmarks.Find(keys[i], &scratch);
      FUZZ_CHECK(found.ok() && *found == i);
    }
  }
  // The keys encode again, to a block that reads them back.
  std::vector<absl::string_view> views(keys.begin(), keys.end());
  if (!backward) next_head.reset();
  absl::StatusOr<std::vector<uint8_t>> again = codecs::EncodeUrlBlock(Model(), views, next_head);
  FUZZ_CHECK(again.ok());
  absl::StatusOr<UrlBlockReader> reread = UrlBlockReader::Open(Model(), keys[0], next_head, *again);
  FUZZ_CHECK(reread.ok() && reread->Validate().ok() && reread->size() == keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    FUZZ_CHECK(reread->Get(i, &key).ok() && key == keys[i]);
  }
}

}  // namespace

std::vector<Seed> FuzzSeeds() {
  std::vector<Seed> seeds;
  const std::vector<std::string> keys = SeedKeys(120);
  // Blocks of 1, 2, 3, 8 and 32 keys, with and without the next head.
  size_t begin = 0;
  for (size_t count : {1, 2, 3, 8, 32}) {
    for (bool last : {false, true}) {
      std::vector<absl::string_view> block(keys.begin() + begin, keys.begin() + begin + count);
      std::optional<absl::string_view> next_head;
      if (!last) next_head = keys[begin + count];
      std::vector<uint8_t> input = {static_cast<uint8_t>(last ? 0 : 1)};
      AppendPiece(block[0], &input);
      AppendPiece(next_head.value_or(""), &input);
      std::vector<uint8_t> coded;
      FUZZ_CHECK(codecs::AppendEncodedUrlKey(Model(), block[0], &coded).ok());
      AppendPiece(coded, &input);
      absl::StatusOr<std::vector<uint8_t>> bytes =
          codecs::EncodeUrlBlock(Model(), block, next_head);
      FUZZ_CHECK(bytes.ok());
      input.insert(input.end(), bytes->begin(), bytes->end());
      seeds.push_back({absl::StrCat("block_", count, last ? "_last" : ""), std::move(input)});
      begin += count;
    }
  }
  return seeds;
}

void TestOneInput(FuzzInput input) {
  const bool has_next_head = (input.Byte() & 1) != 0;
  const std::string head(TextOf(input.Piece()));
  const std::string next_head_text(TextOf(input.Piece()));
  CheckKey(input.Piece());
  std::optional<absl::string_view> next_head;
  if (has_next_head) next_head = next_head_text;
  absl::StatusOr<UrlBlockReader> reader =
      UrlBlockReader::Open(Model(), head, next_head, input.Rest());
  if (!reader.ok()) {
    FUZZ_CHECK(absl::IsDataLoss(reader.status()));
    return;
  }
  std::vector<std::string> keys;
  auto cursor = reader->NewCursor();
  while (cursor.Next()) keys.emplace_back(cursor.key());
  FUZZ_CHECK(cursor.status().ok() || absl::IsDataLoss(cursor.status()) ||
             (!has_next_head && absl::IsFailedPrecondition(cursor.status())));
  const absl::Status valid = reader->Validate();
  if (valid.ok()) {
    FUZZ_CHECK(cursor.status().ok());
    CheckValidBlock(*reader, next_head, keys);
    return;
  }
  FUZZ_CHECK(absl::IsDataLoss(valid) || (!has_next_head && absl::IsFailedPrecondition(valid)));
  std::string key, scratch;
  for (size_t i = 0; i <= reader->size() && i < 64; ++i) (void)reader->Get(i, &key);
  (void)reader->Find(head, &scratch);
  (void)reader->LowerBound(next_head_text, &scratch);
}

}  // namespace crawldb::fuzz
