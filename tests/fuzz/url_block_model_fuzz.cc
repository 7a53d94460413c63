// Fuzz target: the URL block model's byte format (codecs/url_block_model.h).
//
// Input: a serialized model.
// Properties: Load never crashes and refuses with a DataLossError; a model it loads serializes
// to the same bytes, and codes keys — a block of them and each key alone — that read back.
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/url_block_codec.h"
#include "codecs/url_block_model.h"
#include "tests/fuzz/fuzz_target.h"
#include "tests/fuzz/seed_urls.h"

namespace crawldb::fuzz {
namespace {

using codecs::UrlBlockModel;

// Keys coded with every model that loads: bytes of every value, so every literal is used.
const std::vector<std::string>& Keys() {
  static const std::vector<std::string>* keys = [] {
    std::vector<std::string> made = SeedKeys(12);
    std::string bytes;
    for (int c = 0; c < 256; ++c) bytes.push_back(static_cast<char>(c));
    made.push_back(bytes);
    std::sort(made.begin(), made.end());
    return new std::vector<std::string>(std::move(made));
  }();
  return *keys;
}

}  // namespace

std::vector<Seed> FuzzSeeds() {
  std::vector<Seed> seeds = {{"untrained", UrlBlockModel().Serialize()}};
  const std::vector<std::string> keys = SeedKeys(400);
  for (int clusters : {1, 3, 16}) {
    codecs::UrlBlockModelOptions options;
    options.clusters = clusters;
    options.max_symbols = 64;
    absl::StatusOr<UrlBlockModel> model = UrlBlockModel::Train(Views(keys), options);
    FUZZ_CHECK(model.ok());
    seeds.push_back({absl::StrCat("trained_", clusters), model->Serialize()});
  }
  return seeds;
}

void TestOneInput(FuzzInput input) {
  const absl::Span<const uint8_t> data = input.Rest();
  absl::StatusOr<UrlBlockModel> model = UrlBlockModel::Load(data);
  if (!model.ok()) {
    FUZZ_CHECK(absl::IsDataLoss(model.status()));
    return;
  }
  FUZZ_CHECK(model->Serialize() == std::vector<uint8_t>(data.begin(), data.end()));
  const std::vector<absl::string_view> keys = Views(Keys());
  absl::StatusOr<std::vector<uint8_t>> block =
      codecs::EncodeUrlBlock(*model, absl::MakeConstSpan(keys).first(keys.size() - 1), keys.back());
  FUZZ_CHECK(block.ok());
  absl::StatusOr<codecs::UrlBlockReader> reader =
      codecs::UrlBlockReader::Open(*model, keys[0], keys.back(), *block);
  FUZZ_CHECK(reader.ok() && reader->Validate().ok());
  std::string key;
  for (size_t i = 0; i + 1 < keys.size(); ++i) {
    FUZZ_CHECK(reader->Get(i, &key).ok() && key == keys[i]);
    std::vector<uint8_t> coded;
    FUZZ_CHECK(codecs::AppendEncodedUrlKey(*model, keys[i], &coded).ok());
    FUZZ_CHECK(codecs::DecodeUrlKey(*model, coded, &key).ok() && key == keys[i]);
  }
}

}  // namespace crawldb::fuzz
