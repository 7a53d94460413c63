#include "codecs/url_block_codec.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/bit_writer.h"
#include "codecs/elias_gamma.h"
#include "codecs/url_block_decoding.h"
#include "codecs/varint.h"

namespace crawldb::codecs {
namespace {

using url_block_internal::BitSource;
using url_block_internal::CommonPrefix;
using url_block_internal::Corrupt;
using url_block_internal::DecodeEntry;
using url_block_internal::DecodeTokens;
using url_block_internal::kCodeBits;
using url_block_internal::kMaxPaddingBits;
using url_block_internal::kSharedEscape;
using url_block_internal::Model;

// Writes key[from, end) as tokens and end-of-key under `model`, whose encoder is `encoder`.
void EncodeTokens(const Model& model, const Model::Encoder& encoder, absl::string_view key,
                  size_t from, std::vector<uint32_t>* tokens, BitWriter& out) {
  tokens->clear();
  model.Tokenize(key, from, tokens);
  size_t pos = from;
  auto cluster_at = [&](size_t p) {
    return model.Cluster(p == 0 ? Model::kStartContext : static_cast<uint8_t>(key[p - 1]));
  };
  for (uint32_t token : *tokens) {
    const int cluster = cluster_at(pos);
    out.WriteBits(encoder.TokenCode(cluster, token), model.TokenLength(cluster, token));
    pos += token < Model::kEndOfKey ? 1 : model.symbols()[token - Model::kFirstSymbolToken].size();
  }
  const int cluster = cluster_at(pos);
  out.WriteBits(encoder.TokenCode(cluster, Model::kEndOfKey),
                model.TokenLength(cluster, Model::kEndOfKey));
}

// Writes the entry of `key` against its neighbour.
void EncodeEntry(const Model& model, const Model::Encoder& encoder, absl::string_view neighbour,
                 absl::string_view key, std::vector<uint32_t>* tokens, BitWriter& out) {
  const size_t shared = CommonPrefix(neighbour, key);
  if (shared < kSharedEscape) {
    out.WriteBits(encoder.SharedCode(static_cast<uint32_t>(shared)),
                  model.SharedLength(static_cast<uint32_t>(shared)));
  } else {
    out.WriteBits(encoder.SharedCode(kSharedEscape), model.SharedLength(kSharedEscape));
    WriteGamma(out, shared - kSharedEscape);
  }
  EncodeTokens(model, encoder, key, shared, tokens, out);
}

absl::Status CheckKeyLength(absl::string_view key, size_t index) {
  if (key.size() <= kMaxUrlKeyBytes) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("url_block: key ", index, " has ", key.size(),
                                                 " bytes, more than ", kMaxUrlKeyBytes));
}

}  // namespace

absl::StatusOr<std::vector<uint8_t>> EncodeUrlBlock(const UrlBlockModel& model,
                                                    absl::Span<const absl::string_view> keys,
                                                    std::optional<absl::string_view> next_head) {
  if (keys.empty()) return absl::InvalidArgumentError("url_block: a block needs at least one key");
  for (size_t i = 0; i < keys.size(); ++i) {
    if (absl::Status s = CheckKeyLength(keys[i], i); !s.ok()) return s;
    if (i > 0 && keys[i] <= keys[i - 1]) {
      return absl::InvalidArgumentError(
          absl::StrCat("url_block: key ", i, " is not greater than key ", i - 1,
                       "; give keys in strictly increasing byte order"));
    }
  }
  if (next_head.has_value()) {
    if (absl::Status s = CheckKeyLength(*next_head, keys.size()); !s.ok()) return s;
    if (*next_head <= keys.back()) {
      return absl::InvalidArgumentError(
          "url_block: the next head is not greater than the block's last key");
    }
  }
  const size_t count = keys.size();
  const bool backward = next_head.has_value() && count >= 2;
  const size_t forward_count = backward ? (count - 1) / 2 : count - 1;
  const Model::Encoder& encoder = model.encoder();
  std::vector<uint32_t> tokens;
  BitWriter forward;
  for (size_t i = 1; i <= forward_count; ++i) {
    EncodeEntry(model, encoder, keys[i - 1], keys[i], &tokens, forward);
  }
  const std::vector<uint8_t> forward_bytes = forward.Finish();
  std::vector<uint8_t> block;
  AppendVarint(uint64_t{count} * 2 + (backward ? 1 : 0), &block);
  if (backward) AppendVarint(forward_bytes.size(), &block);
  block.insert(block.end(), forward_bytes.begin(), forward_bytes.end());
  if (backward) {
    BitWriter second_half;
    for (size_t k = count - 1; k > forward_count; --k) {
      EncodeEntry(model, encoder, k == count - 1 ? *next_head : keys[k + 1], keys[k], &tokens,
                  second_half);
    }
    const std::vector<uint8_t> backward_bytes = second_half.Finish();
    block.insert(block.end(), backward_bytes.begin(), backward_bytes.end());
  }
  return block;
}

absl::Status AppendEncodedUrlKey(const UrlBlockModel& model, absl::string_view key,
                                 std::vector<uint8_t>* out) {
  if (absl::Status s = CheckKeyLength(key, 0); !s.ok()) return s;
  BitWriter bits;
  std::vector<uint32_t> tokens;
  EncodeTokens(model, model.encoder(), key, 0, &tokens, bits);
  const std::vector<uint8_t> coded = bits.Finish();
  out->insert(out->end(), coded.begin(), coded.end());
  return absl::OkStatus();
}

absl::Status DecodeUrlKey(const UrlBlockModel& model, absl::Span<const uint8_t> bytes,
                          std::string* key) {
  BitSource in(bytes, 0);
  size_t length = 0;
  const char* error = DecodeTokens(model, in, key, &length);
  if (error == nullptr) error = in.CheckEnd();
  if (error != nullptr) return absl::DataLossError(absl::StrCat("url_block: coded key: ", error));
  key->resize(length);
  return absl::OkStatus();
}

absl::StatusOr<int> CompareUrlKey(const UrlBlockModel& model, absl::Span<const uint8_t> bytes,
                                  absl::string_view key) {
  // DecodeTokens' loop, comparing each token's bytes as they come.
  BitSource in(bytes, 0);
  const uint32_t* const tables = model.TokenTables();
  uint32_t table = static_cast<uint32_t>(model.Cluster(Model::kStartContext)) << kCodeBits;
  size_t n = 0;
  for (;;) {
    if (in.count() < kCodeBits && !in.Refill()) break;
    const uint32_t entry = tables[table | in.Peek()];
    in.Consume(static_cast<int>(entry & 63));
    const size_t bytes_in_token = (entry >> 6) & 31;
    if (bytes_in_token == 0) {
      if (in.Overran()) break;
      return n == key.size() ? 0 : -1;
    }
    if (in.Overran()) break;
    if (n == key.size()) return 1;  // `key` is a proper prefix of the coded key.
    const size_t comparable = std::min(bytes_in_token, key.size() - n);
    if (const int order = std::memcmp(model.TokenBytes(entry >> 17), key.data() + n, comparable);
        order != 0) {
      return order;
    }
    if (comparable < bytes_in_token) return 1;
    n += bytes_in_token;
    table = entry & Model::kNextTableMask;
  }
  return absl::DataLossError("url_block: coded key: truncated");
}

}  // namespace crawldb::codecs
