// Fuzz target: the stored parts of a `urls` table — its base (extension/urls/url_base.h: header,
// model, head index, groups of blocks) and one merged partition (url_part.h: ids, filter, keys
// coded with the untrained model).
//
// Input: kind:u8 — even: a base, part:piece… (part 0 first); odd: a partition, data:rest
// Properties: nothing crashes and every error is a DataLossError (FailedPrecondition for a base
// of another version); when every block of what loads decodes, its keys strictly increase, Get,
// Find and LowerBound agree with them (a partition's Find where its filter may hold the key,
// and its ids are ≥ 1), and what it stores again loads with the same keys (and ids). A base is
// also opened as a table opens it (UrlBase::Open, its groups read on demand): what Load refuses
// fails a look-up or ReadAll with a DataLossError, or opens when the damage is in a group; what
// Load takes answers the same.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/url_block_model.h"
#include "extension/urls/url_base.h"
#include "extension/urls/url_part.h"
#include "tests/fuzz/fuzz_target.h"
#include "tests/fuzz/seed_urls.h"

namespace crawldb::fuzz {
namespace {

using urls::UrlBase;
using urls::UrlPart;

// Keys checked at most: a large base is checked in part, so that one input stays fast.
constexpr size_t kMaxCheckedKeys = 2048;

const std::shared_ptr<const codecs::UrlBlockModel>& Model() {
  static const auto* model =
      new std::shared_ptr<const codecs::UrlBlockModel>(std::make_shared<codecs::UrlBlockModel>());
  return *model;
}

// The keys of `base`, when every block decodes; else nullopt (the error was a DataLossError).
std::optional<std::vector<std::string>> DecodeAll(const UrlBase& base) {
  std::vector<std::string> keys;
  urls::BlockKeys block;
  for (size_t b = 0; b < base.block_count() && keys.size() < kMaxCheckedKeys; ++b) {
    absl::Status status = base.DecodeBlock(b, &block);
    if (!status.ok()) {
      FUZZ_CHECK(absl::IsDataLoss(status));
      return std::nullopt;
    }
    for (size_t i = 0; i < block.size(); ++i) keys.emplace_back(block[i]);
  }
  return keys;
}

// Checks look-ups against the decoded keys; `filter` says whether a look-up may pass it.
template <typename MayHold>
void CheckLookups(const UrlBase& base, const std::vector<std::string>& keys, MayHold may_hold) {
  if (keys.size() < kMaxCheckedKeys) FUZZ_CHECK(keys.size() == base.size());
  std::string key;
  for (size_t rank = 0; rank < keys.size(); ++rank) {
    if (rank > 0) FUZZ_CHECK(keys[rank - 1] < keys[rank]);
    FUZZ_CHECK(base.Get(rank, &key).ok() && key == keys[rank]);
    absl::StatusOr<size_t> lower = base.LowerBound(keys[rank]);
    FUZZ_CHECK(lower.ok() && *lower == rank);
    if (!may_hold(keys[rank])) continue;
    absl::StatusOr<std::optional<size_t>> found = base.Find(keys[rank]);
    FUZZ_CHECK(found.ok() && *found == rank);
  }
}

// The same parts opened as a table opens them, the groups read when first needed: every
// look-up answers or fails with a DataLossError; when Load took the parts and decoded `keys`,
// the look-ups agree with them.
void CheckOpened(absl::Span<const absl::Span<const uint8_t>> parts, const UrlBase* loaded,
                 const std::vector<std::string>* keys) {
  const size_t front = std::min(parts.size(), urls::kFirstGroupPart);
  absl::StatusOr<UrlBase> base =
      UrlBase::Open(parts.subspan(0, front),
                    [&](size_t part) -> absl::StatusOr<std::optional<std::vector<uint8_t>>> {
                      if (part >= parts.size()) return std::nullopt;
                      return std::vector<uint8_t>(parts[part].begin(), parts[part].end());
                    });
  if (!base.ok()) {
    FUZZ_CHECK(absl::IsDataLoss(base.status()) || absl::IsFailedPrecondition(base.status()));
    FUZZ_CHECK(loaded == nullptr);
    return;
  }
  std::string key;
  for (size_t rank = 0; rank < base->size() && rank < kMaxCheckedKeys; rank += 7) {
    absl::Status got = base->Get(rank, &key);
    FUZZ_CHECK(got.ok() || absl::IsDataLoss(got));
    if (keys != nullptr && rank < keys->size()) FUZZ_CHECK(got.ok() && key == (*keys)[rank]);
    if (!got.ok()) continue;
    absl::StatusOr<std::optional<size_t>> found = base->Find(key);
    FUZZ_CHECK(found.ok() || absl::IsDataLoss(found.status()));
    if (keys != nullptr && rank < keys->size()) FUZZ_CHECK(found.ok() && *found == rank);
  }
  absl::Status whole = base->ReadAll();
  FUZZ_CHECK(whole.ok() || absl::IsDataLoss(whole));
  if (loaded != nullptr) FUZZ_CHECK(whole.ok() && base->Parts() == loaded->Parts());
}

void CheckBase(absl::Span<const absl::Span<const uint8_t>> parts) {
  absl::StatusOr<UrlBase> base = UrlBase::Load(parts);
  if (!base.ok()) {
    FUZZ_CHECK(absl::IsDataLoss(base.status()) || absl::IsFailedPrecondition(base.status()));
    CheckOpened(parts, nullptr, nullptr);
    return;
  }
  std::optional<std::vector<std::string>> keys = DecodeAll(*base);
  CheckOpened(parts, &*base, keys ? &*keys : nullptr);
  if (!keys.has_value()) return;
  CheckLookups(*base, *keys, [](absl::string_view) { return true; });
  const std::vector<std::vector<uint8_t>> stored = base->Parts();
  std::vector<absl::Span<const uint8_t>> views(stored.begin(), stored.end());
  absl::StatusOr<UrlBase> again = UrlBase::Load(views);
  FUZZ_CHECK(again.ok() && again->size() == base->size());
  std::optional<std::vector<std::string>> keys_again = DecodeAll(*again);
  FUZZ_CHECK(keys_again.has_value() && *keys_again == *keys);
}

void CheckPart(absl::Span<const uint8_t> data) {
  absl::StatusOr<UrlPart> part = UrlPart::Load(data, Model());
  if (!part.ok()) {
    FUZZ_CHECK(absl::IsDataLoss(part.status()));
    return;
  }
  std::optional<std::vector<std::string>> keys = DecodeAll(part->keys());
  if (!keys.has_value()) return;
  CheckLookups(part->keys(), *keys, [&](absl::string_view key) { return part->MayHold(key); });
  absl::StatusOr<UrlPart> again = UrlPart::Load(part->Serialize(), Model());
  FUZZ_CHECK(again.ok() && again->size() == part->size() &&
             again->through_id() == part->through_id());
  std::optional<std::vector<std::string>> keys_again = DecodeAll(again->keys());
  FUZZ_CHECK(keys_again.has_value() && *keys_again == *keys);
  for (size_t rank = 0; rank < keys->size(); ++rank) {
    FUZZ_CHECK(part->IdAt(rank) >= 1 && again->IdAt(rank) == part->IdAt(rank));
    FUZZ_CHECK(again->MayHold((*keys)[rank]) == part->MayHold((*keys)[rank]));
  }
}

}  // namespace

std::vector<Seed> FuzzSeeds() {
  std::vector<Seed> seeds;
  const std::vector<std::string> keys = SeedKeys(2100);
  auto add_base = [&](std::string name, urls::UrlBaseBuilder builder, size_t count) {
    for (size_t i = 0; i < count; ++i) FUZZ_CHECK(builder.Add(keys[i]).ok());
    absl::StatusOr<UrlBase> base = builder.Finish();
    FUZZ_CHECK(base.ok());
    std::vector<uint8_t> input = {0};
    for (const std::vector<uint8_t>& part : base->Parts()) AppendPiece(part, &input);
    seeds.push_back({std::move(name), std::move(input)});
  };
  for (size_t count : {0, 1, 33, 200}) {
    add_base(absl::StrCat("base_", count), urls::UrlBaseBuilder(), count);
  }
  urls::UrlBaseSampler sampler;
  for (const std::string& key : keys) sampler.Add(key);
  absl::StatusOr<codecs::UrlBlockModel> model = sampler.Train();
  FUZZ_CHECK(model.ok());
  add_base(absl::StrCat("base_trained_", keys.size()), urls::UrlBaseBuilder(std::move(*model)),
           keys.size());
  for (size_t count : {0, 1, 40}) {
    std::vector<int64_t> ids;
    for (size_t i = 0; i < count; ++i) ids.push_back(static_cast<int64_t>(3 * i + 1));
    absl::StatusOr<UrlPart> part = UrlPart::Build(absl::MakeConstSpan(Views(keys)).first(count),
                                                  ids, ids.empty() ? 0 : ids.back() + 5, Model());
    FUZZ_CHECK(part.ok());
    std::vector<uint8_t> input = {1};
    const std::vector<uint8_t> data = part->Serialize();
    input.insert(input.end(), data.begin(), data.end());
    seeds.push_back({absl::StrCat("part_", count), std::move(input)});
  }
  return seeds;
}

void TestOneInput(FuzzInput input) {
  if ((input.Byte() & 1) == 0) {
    CheckBase(input.Pieces());
  } else {
    CheckPart(input.Rest());
  }
}

}  // namespace crawldb::fuzz
