#include "extension/urls/url_part.h"

#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/little_endian.h"
#include "codecs/varint.h"
#include "extension/containers/blocked_bloom.h"
#include "extension/identity/canonical_key.h"

namespace crawldb::urls {
namespace {

constexpr int kMaxIdBits = 40;
constexpr size_t kIdPadding = 8;

absl::Status Corrupt(const std::string& what) {
  return absl::DataLossError(absl::StrCat("url part: ", what));
}

size_t PackedBytes(size_t count, int bits) { return (count * static_cast<size_t>(bits) + 7) / 8; }

// Words of a part's filter: about 10 bits per key, at least one word.
size_t FilterWords(size_t count) { return (count * 10 + 63) / 64 + 1; }

}  // namespace

size_t UrlPartOf(absl::string_view key) {
  size_t host_end = 0;
  while (host_end < key.size() && key[host_end] >= identity::kHostKeySeparator) ++host_end;
  return static_cast<size_t>(XXH3_64bits(key.data(), host_end) >> (64 - kUrlPartBits));
}

bool UrlPart::MayHold(absl::string_view key) const {
  const uint64_t hash = XXH3_64bits(key.data(), key.size());
  const uint64_t bits = BloomBits(hash);
  return (filter_[BloomWord(hash, filter_.size())] & bits) == bits;
}

absl::StatusOr<UrlPart> UrlPart::Build(absl::Span<const absl::string_view> keys,
                                       absl::Span<const int64_t> ids, int64_t through_id,
                                       std::shared_ptr<const codecs::UrlBlockModel> model) {
  if (keys.size() != ids.size()) {
    return absl::InvalidArgumentError("url part: one id per key is needed");
  }
  UrlBaseBuilder builder(std::move(model));
  for (absl::string_view key : keys) {
    if (absl::Status status = builder.Add(key); !status.ok()) return status;
  }
  absl::StatusOr<UrlBase> base = builder.Finish();
  if (!base.ok()) return base.status();
  UrlPart part;
  part.keys_ = std::move(*base);
  part.through_id_ = through_id;
  part.filter_.assign(FilterWords(keys.size()), 0);
  for (absl::string_view key : keys) {
    const uint64_t hash = XXH3_64bits(key.data(), key.size());
    part.filter_[BloomWord(hash, part.filter_.size())] |= BloomBits(hash);
  }
  int64_t max_id = 1;
  for (int64_t id : ids) {
    if (id < 1 || id > through_id) {
      return absl::InvalidArgumentError(
          absl::StrCat("url part: id ", id, " is outside 1..", through_id));
    }
    max_id = std::max(max_id, id);
  }
  part.id_bits_ = std::max(1, static_cast<int>(std::bit_width(static_cast<uint64_t>(max_id - 1))));
  part.ids_.assign(PackedBytes(ids.size(), part.id_bits_) + kIdPadding, 0);
  for (size_t rank = 0; rank < ids.size(); ++rank) {
    const uint64_t value = static_cast<uint64_t>(ids[rank] - 1);
    const size_t bit = rank * static_cast<size_t>(part.id_bits_);
    for (int b = 0; b < part.id_bits_; ++b) {
      if ((value >> b) & 1) part.ids_[(bit + b) / 8] |= static_cast<uint8_t>(1u << ((bit + b) % 8));
    }
  }
  return part;
}

std::vector<uint8_t> UrlPart::Serialize() const {
  std::vector<uint8_t> data = {kPartFormatVersion};
  codecs::AppendVarint(static_cast<uint64_t>(through_id_), &data);
  codecs::AppendVarint(size(), &data);
  data.push_back(static_cast<uint8_t>(id_bits_));
  data.insert(data.end(), ids_.begin(), ids_.end() - kIdPadding);
  for (uint64_t word : filter_) {
    for (int byte = 0; byte < 8; ++byte) data.push_back(static_cast<uint8_t>(word >> (8 * byte)));
  }
  const std::vector<std::vector<uint8_t>> parts = keys_.KeyParts();
  codecs::AppendVarint(parts.size(), &data);
  for (const std::vector<uint8_t>& part : parts) {
    codecs::AppendVarint(part.size(), &data);
    data.insert(data.end(), part.begin(), part.end());
  }
  return data;
}

absl::StatusOr<UrlPart> UrlPart::Load(absl::Span<const uint8_t> data,
                                      std::shared_ptr<const codecs::UrlBlockModel> model,
                                      int64_t first_id, int64_t last_id) {
  const uint8_t* p = data.data();
  const uint8_t* end = p + data.size();
  if (p == end) return Corrupt("empty");
  if (*p != kPartFormatVersion) {
    return Corrupt(absl::StrCat("format version ", *p, ", this build reads ", kPartFormatVersion));
  }
  uint64_t through_id = 0, count = 0;
  p = codecs::ReadVarint(p + 1, end, &through_id);
  if (p != nullptr) p = codecs::ReadVarint(p, end, &count);
  if (p == nullptr || p == end) return Corrupt("malformed header");
  const int id_bits = *p++;
  if (through_id == 0 || through_id > (uint64_t{1} << kMaxIdBits) || id_bits < 1 ||
      id_bits > kMaxIdBits || count > through_id) {
    return Corrupt(absl::StrCat("header out of range: through id ", through_id, ", ", count,
                                " keys, ", id_bits, "-bit ids"));
  }
  const size_t id_bytes = PackedBytes(count, id_bits);
  if (id_bytes > static_cast<size_t>(end - p)) return Corrupt("the ids run past the end");
  UrlPart part;
  part.through_id_ = static_cast<int64_t>(through_id);
  part.id_bits_ = id_bits;
  part.ids_.assign(p, p + id_bytes);
  part.ids_.resize(id_bytes + kIdPadding, 0);
  p += id_bytes;
  const size_t filter_words = FilterWords(count);
  if (filter_words > static_cast<size_t>(end - p) / 8)
    return Corrupt("the filter runs past the end");
  part.filter_.resize(filter_words);
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(part.filter_.data(), p, filter_words * 8);
    p += filter_words * 8;
  } else {
    for (uint64_t& word : part.filter_) {
      word = codecs::LoadLittleEndian<uint64_t>(p);
      p += 8;
    }
  }
  uint64_t part_count = 0;
  p = codecs::ReadVarint(p, end, &part_count);
  if (p == nullptr || part_count > static_cast<uint64_t>(end - p)) {
    return Corrupt("malformed key parts");
  }
  std::vector<absl::Span<const uint8_t>> parts;
  for (uint64_t i = 0; i < part_count; ++i) {
    uint64_t length = 0;
    p = codecs::ReadVarint(p, end, &length);
    if (p == nullptr || length > static_cast<uint64_t>(end - p)) {
      return Corrupt(absl::StrCat("key part ", i, " runs past the end"));
    }
    parts.emplace_back(p, length);
    p += length;
  }
  if (p != end) return Corrupt("bytes after the last key part");
  absl::StatusOr<UrlBase> keys = UrlBase::LoadKeys(parts, std::move(model));
  if (!keys.ok()) return Corrupt(std::string(keys.status().message()));
  if (keys->size() != count) {
    return Corrupt(
        absl::StrCat("the header says ", count, " keys, the blocks hold ", keys->size()));
  }
  part.keys_ = std::move(*keys);
  // Every id in range, without a branch per id (every part read for a look-up pays this). That
  // none repeats is checked by UrlStore's look-ups by id (url_part.h): sorting the ids here would
  // cost every part read, not only those read for look-ups by id.
  const int64_t high = std::min(last_id, part.through_id_);
  int64_t lowest = INT64_MAX, highest = 0;
  for (size_t rank = 0; rank < count; ++rank) {
    const int64_t id = part.IdAt(rank);
    lowest = std::min(lowest, id);
    highest = std::max(highest, id);
  }
  if (count > 0 && (lowest < first_id || highest > high)) {
    const int64_t id = lowest < first_id ? lowest : highest;
    return Corrupt(absl::StrCat("id ", id, " is outside ", first_id, "..", high,
                                " (the through id is ", through_id, ")"));
  }
  return part;
}

size_t UrlPart::MemoryBytes() const {
  return keys_.KeysMemoryBytes() + ids_.capacity() + filter_.capacity() * sizeof(uint64_t);
}

size_t UrlPart::StoredBytes() const {
  return keys_.StoredBytes() + PackedBytes(size(), id_bits_) + filter_.size() * 8 + 16;
}

}  // namespace crawldb::urls
